/**
 * An agent's UDP socket on our batched addon (src/net/udp-batch): what a
 * worker sends in one go (a SwitchML window, 32+ updates) leaves in one
 * sendmmsg, runs of equal length as one UDP GSO message, instead of one
 * dgram send (~10–25 µs) each; received datagrams come in recvmmsg batches.
 *
 * `transmit` queues the frame; one microtask per socket flushes the queue
 * with one send call per run of frames to the same destination, and a queue
 * of `sendQueueLimit` frames is flushed at once, so no more are ever held.
 * sendmmsg copies the frames before it returns, so every queued buffer goes
 * back to the pool right after the flush. Nothing waits: what the kernel
 * cannot take (socket buffer full) or refuses is dropped and counted in
 * `sendDrops`, as a failed dgram send is.
 */
import type { RemoteInfo } from 'node:dgram';
import { moduleLogger } from '../../log/logger.js';
import { BatchedUdpSocket, isErrnoError, type UdpErrnoError, type UdpSendResult, type UdpSource } from '../../net/udp-batch/batched-udp-socket.js';
import type { NativeUdpBatchModule } from '../../net/udp-batch/native-udp-batch.js';
import type { AgentUdpSocket, MessageHandler } from './agent-udp-socket.js';
import type { MutableTransportCounters } from './datagram-transport.js';
import { SendBufferPool } from './send-buffer-pool.js';
import { formatSocketAddress, type SocketAddress } from './socket-address.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';

/** Send errors and socket errors logged per socket before the log goes quiet (a closed peer port reports one per send). */
const LOGGED_ERRORS = 10;
const log = moduleLogger('agent.transport.udp');

export interface BatchedAgentSocketSettings {
  readonly what: string;
  readonly addon: NativeUdpBatchModule;
  readonly bufferSize: number;
  readonly sendQueueLimit: number;
  readonly recvBufferSize: number;
  readonly sendBufferSize: number;
  /**
   * UDP GSO on send and GRO on receive. Only for a UDP wire, whose datagrams
   * are frames of an emulated link that no device on the way looks into: on a
   * network, a GSO message crosses every device that does not segment it
   * (veth pairs, bridges, netfilter, an AF_PACKET switch) as one packet, so
   * marking, counting and shaping would see one packet for up to 64 datagrams.
   */
  readonly coalesce: boolean;
}

function sameEnd(a: SocketAddress, b: SocketAddress): boolean {
  return a === b || (a.port === b.port && a.address === b.address);
}

export class BatchedAgentSocket implements AgentUdpSocket {
  readonly local: SocketAddress;
  private readonly pool: SendBufferPool;
  private readonly frames: Buffer[] = [];
  private readonly destinations: SocketAddress[] = [];
  private flushScheduled = false;
  private readonly flushQueued = (): void => {
    this.flushScheduled = false;
    this.flush();
  };
  private open = true;
  private connectedTo: SocketAddress | undefined;
  private errorsLogged = 0;

  private constructor(
    private readonly socket: BatchedUdpSocket,
    local: SocketAddress,
    private readonly settings: BatchedAgentSocketSettings,
    private readonly counters: MutableTransportCounters,
  ) {
    this.local = local;
    this.pool = new SendBufferPool(settings.bufferSize, settings.sendQueueLimit);
  }

  /** Binds to `local` (port 0: the system chooses). Throws TransportError when the bind fails. */
  static bind(local: SocketAddress, settings: BatchedAgentSocketSettings, counters: MutableTransportCounters, onMessage: MessageHandler): BatchedAgentSocket {
    // One RemoteInfo per socket, rewritten per datagram: handlers read it during the call only (MessageHandler).
    const rinfo: RemoteInfo = { address: '', family: local.family === 4 ? 'IPv4' : 'IPv6', port: 0, size: 0 };
    // The socket's callbacks exist before the object they report to.
    const late: { socket?: BatchedAgentSocket } = {};
    let socket: BatchedUdpSocket;
    try {
      socket = BatchedUdpSocket.open(
        {
          family: local.family,
          address: local.address,
          port: local.port,
          receiveBufferBytes: settings.recvBufferSize,
          sendBufferBytes: settings.sendBufferSize,
          gso: settings.coalesce,
          gro: settings.coalesce,
          addon: settings.addon,
        },
        (datagram: Buffer, source: UdpSource) => {
          rinfo.address = source.address;
          rinfo.port = source.port;
          rinfo.size = datagram.length;
          onMessage(datagram, rinfo);
        },
        (error) => late.socket?.logError(error, 'UDP socket error'),
      );
    } catch (err) {
      if (!isErrnoError(err)) throw err;
      const reason = err.code === 'EADDRINUSE' ? 'the address is in use; choose another port' : err.code === 'EADDRNOTAVAIL' ? 'it is not an address of this host' : err.message;
      throw new TransportError(TRANSPORT_ERROR_CODES.bindFailed, `${settings.what}: cannot bind UDP ${formatSocketAddress(local)}: ${reason}`, { cause: err });
    }
    late.socket = new BatchedAgentSocket(socket, { ...local, port: socket.localPort }, settings, counters);
    return late.socket;
  }

  get peer(): SocketAddress | undefined {
    return this.connectedTo;
  }

  connect(peer: SocketAddress): Promise<void> {
    this.flush(); // queued frames keep the destination they were sent to
    try {
      this.socket.connect(peer.address, peer.port);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    this.connectedTo = peer;
    return Promise.resolve();
  }

  disconnect(): void {
    if (this.connectedTo === undefined) return;
    this.flush();
    this.connectedTo = undefined;
    this.socket.disconnect();
  }

  acquire(): Buffer | undefined {
    const buf = this.open ? this.pool.take() : undefined;
    if (buf === undefined) this.counters.sendDrops++;
    return buf;
  }

  transmit(buf: Buffer, length: number, to: SocketAddress): void {
    this.frames.push(buf.subarray(0, length));
    this.destinations.push(to);
    if (this.frames.length >= this.settings.sendQueueLimit) {
      this.flush();
    } else if (!this.flushScheduled) {
      this.flushScheduled = true;
      queueMicrotask(this.flushQueued);
    }
  }

  close(): Promise<void> {
    if (!this.open) return Promise.resolve();
    this.flush(); // what transmit accepted before close still goes out
    this.open = false;
    this.socket.close();
    return Promise.resolve();
  }

  private flush(): void {
    const count = this.frames.length;
    if (count === 0 || !this.open) return;
    for (let start = 0; start < count; ) {
      const to = this.destinations[start]!;
      let end = start + 1;
      while (end < count && sameEnd(this.destinations[end]!, to)) end++;
      this.sendRun(start === 0 && end === count ? this.frames : this.frames.slice(start, end), to);
      start = end;
    }
    this.frames.length = 0;
    this.destinations.length = 0;
    // Every buffer handed out is free again: the kernel has copied what it took.
    while (this.pool.inFlight > 0) this.pool.releaseOldest();
  }

  private sendRun(frames: readonly Buffer[], to: SocketAddress): void {
    const peer = this.connectedTo;
    let result: UdpSendResult;
    try {
      result = peer !== undefined && sameEnd(peer, to) ? this.socket.send(frames) : this.socket.sendTo(frames, to.address, to.port);
    } catch (err) {
      if (!isErrnoError(err)) throw err;
      result = { sent: 0, sentBytes: 0, error: err };
    }
    this.counters.datagramsOut += result.sent;
    this.counters.bytesOut += result.sentBytes;
    const dropped = frames.length - result.sent;
    if (dropped === 0) return;
    this.counters.sendDrops += dropped;
    if (result.error !== null) this.logError(result.error, 'batched UDP send dropped datagrams', dropped);
  }

  private logError(error: UdpErrnoError, message: string, dropped?: number): void {
    if (this.errorsLogged++ < LOGGED_ERRORS) log.warn({ err: error, what: this.settings.what, dropped }, message);
  }
}
