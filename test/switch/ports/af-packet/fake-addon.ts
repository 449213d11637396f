/**
 * A stand-in for the native addon, for testing the wrapper without root:
 * records what is sent, lets a test deliver batches and errors as the addon
 * would, and can refuse to open or refuse frames.
 */
import type {
  NativeAfPacketModule,
  NativeAfPacketSocket,
  NativeErrnoError,
  NativeErrorCallback,
  NativeFramesCallback,
  NativeSendResult,
  NativeSocketOptions,
  NativeStatistics,
} from '../../../../src/switch/ports/af-packet/native-addon.js';

export function errnoError(code: string, message: string): NativeErrnoError {
  return Object.assign(new Error(message), { code, errno: -1, syscall: 'test' });
}

/** The batch layout of the addon: little-endian lengths, then the frames. */
export function encodeBatch(frames: readonly Buffer[]): Buffer {
  const header = Buffer.alloc(4 * frames.length);
  frames.forEach((frame, i) => header.writeUInt32LE(frame.length, 4 * i));
  return Buffer.concat([header, ...frames]);
}

export class FakeSocket implements NativeAfPacketSocket {
  readonly ifindex = 7;
  readonly kernelIgnoresOutgoing = true;
  readonly linkWasDown = false;
  readonly receiveBufferBytes = 8 << 20;
  readonly sendBufferBytes = 8 << 20;
  /** Every send() call, with copies of its frames. */
  readonly sendCalls: Buffer[][] = [];
  /** Refuses every frame whose length is listed here, with EMSGSIZE. */
  refuseLengths = new Set<number>();
  closeCalls = 0;

  constructor(
    readonly ifname: string,
    readonly deliver: NativeFramesCallback,
    readonly fail: NativeErrorCallback,
    readonly options: NativeSocketOptions,
  ) {}

  send(frames: readonly Buffer[]): NativeSendResult {
    if (this.closeCalls > 0) throw errnoError('EBADF', 'closed');
    this.sendCalls.push(frames.map((f) => Buffer.from(f)));
    const sent = frames.filter((f) => !this.refuseLengths.has(f.length));
    const refused = frames.length - sent.length;
    return {
      sent: sent.length,
      sentBytes: sent.reduce((sum, f) => sum + f.length, 0),
      error: refused > 0 ? errnoError('EMSGSIZE', 'sending failed: Message too long') : null,
    };
  }

  statistics(): NativeStatistics {
    return { outgoingSkipped: 0, truncated: 2, kernelPackets: 10, kernelDrops: 1 };
  }

  ref(): void {}
  unref(): void {}

  close(): void {
    this.closeCalls++;
  }
}

export class FakeAddon implements NativeAfPacketModule {
  readonly sockets: FakeSocket[] = [];
  /** When set, opening throws this. */
  openError: Error | undefined;
  readonly AfPacketSocket: NativeAfPacketModule['AfPacketSocket'];

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the class below must reach its factory
    const addon = this;
    this.AfPacketSocket = class extends FakeSocket {
      constructor(ifname: string, deliver: NativeFramesCallback, fail: NativeErrorCallback, options: NativeSocketOptions) {
        if (addon.openError) throw addon.openError;
        super(ifname, deliver, fail, options);
        addon.sockets.push(this);
      }
    };
  }
}
