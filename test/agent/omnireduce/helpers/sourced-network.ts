/**
 * An in-memory network for OmniReduce tests: hosts with addresses, each
 * receiving through an ImpairedLink with seeded loss, duplication and
 * reordering, and told the sender of every datagram (the host aggregator
 * needs it). The link carries each frame with the sender's host index in
 * front; the receiver strips it. A datagram to an unknown address is lost.
 */
import type { SourcedListener, SourcedTransport } from '../../../../src/agent/omnireduce/sourced-transport.js';
import { socketAddress, type SocketAddress } from '../../../../src/agent/transport/index.js';
import { ImpairedLink } from '../../../../src/util/impaired-link.js';

export interface Impairment {
  readonly loss?: number;
  readonly duplicate?: number;
  readonly reorder?: number;
}

const keyOf = (a: SocketAddress): string => `${a.address}:${a.port}`;

export class TestHost implements SourcedTransport {
  /** Datagrams and payload bytes this host handed to the network. */
  datagramsOut = 0;
  bytesOut = 0;
  private listener: SourcedListener | undefined;

  constructor(
    readonly index: number,
    readonly address: SocketAddress,
    private readonly net: SourcedNetwork,
  ) {}

  sendTo(to: SocketAddress, payload: Uint8Array, length = payload.length): boolean {
    const frame = Buffer.allocUnsafe(length + 2);
    frame.writeUInt16BE(this.index, 0);
    frame.set(payload.subarray(0, length), 2);
    this.datagramsOut++;
    this.bytesOut += length;
    this.net.carry(to, frame);
    return true;
  }

  onDatagram(listener: SourcedListener | undefined): void {
    this.listener = listener;
  }

  readonly receive = (frame: Buffer): void => {
    this.listener?.(frame, 2, frame.length - 2, this.net.addressOf(frame.readUInt16BE(0)));
  };
}

export class SourcedNetwork {
  private readonly hosts: { host: TestHost; link: ImpairedLink }[] = [];
  private readonly byAddress = new Map<string, { host: TestHost; link: ImpairedLink }>();

  constructor(
    private readonly impair: Impairment = {},
    private readonly seed: number | string = 1,
  ) {}

  /** A new host at 10.0.x.y, UDP port 0xBEF0. */
  host(): TestHost {
    const i = this.hosts.length;
    const address = socketAddress(`10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, 0xbef0, 'test host');
    const host = new TestHost(i, address, this);
    const link = new ImpairedLink({ seed: this.seed, ...this.impair }, 1 << 16, keyOf(address), host.receive);
    const entry = { host, link };
    this.hosts.push(entry);
    this.byAddress.set(keyOf(address), entry);
    return host;
  }

  addressOf(index: number): SocketAddress {
    return this.hosts[index]!.host.address;
  }

  carry(to: SocketAddress, frame: Buffer): void {
    this.byAddress.get(keyOf(to))?.link.offer(frame);
  }

  /** True once nothing is in flight; false after `maxTurns` turns of the event loop. */
  async settle(maxTurns = 10_000): Promise<boolean> {
    for (let turn = 0; turn < maxTurns; turn++) {
      if (this.hosts.every((h) => h.link.idle)) return true;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return false;
  }

  get lost(): number {
    return this.hosts.reduce((n, h) => n + h.link.stats.lost, 0);
  }
}
