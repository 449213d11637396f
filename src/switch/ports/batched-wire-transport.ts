/**
 * A UDP wire on our batched UDP addon (src/net/udp-batch): send() queues the
 * frame and a microtask flushes the queue with one send call, so the frames
 * a switch forwards while handling one received batch leave together, runs
 * of equal length as one GSO message. A queue of `sendQueueLimit` frames is
 * flushed at once, so no more are ever held. Nothing waits: what the kernel
 * cannot take (socket buffer full) is dropped and counted in `drops`, as a
 * switch drops on a full egress queue; what it refuses (the peer's port
 * closed: ECONNREFUSED) is counted in `sendErrors` and `drops` too.
 *
 * A UDP connect is synchronous, and connecting again replaces the peer while
 * keeping the local port; still, as on dgram, only wires bound to a port
 * given explicitly are connected (ephemeral wires send to the peer's
 * address), so that both transports behave alike.
 */
import { BatchedUdpSocket, isErrnoError, type UdpErrnoError, type UdpSendResult } from '../../net/udp-batch/batched-udp-socket.js';
import type { NativeUdpBatchModule } from '../../net/udp-batch/native-udp-batch.js';
import { moduleLogger } from '../../log/logger.js';
import { SendBatcher } from './send-batcher.js';
import type { UdpWireSink, UdpWireSocketOptions, UdpWireTransport } from './udp-wire-io.js';

const log = moduleLogger('switch.ports.udp');
const BUFFER_FULL = new Set(['EAGAIN', 'EWOULDBLOCK', 'ENOBUFS']);

export class BatchedWireTransport implements UdpWireTransport {
  readonly io = 'batched';
  private sink!: UdpWireSink;
  private socket: BatchedUdpSocket | undefined;
  private connectedFlag = false;
  private readonly batcher: SendBatcher;

  private constructor(
    private readonly opened: BatchedUdpSocket,
    sendQueueLimit: number,
    private readonly connectable: boolean,
  ) {
    this.socket = opened;
    this.batcher = new SendBatcher(sendQueueLimit, (frames) => this.sendNow(frames));
  }

  /** Binds the socket; throws the bind's errno error, or UdpBatchError when the addon cannot be used. */
  static open(options: UdpWireSocketOptions, addon?: NativeUdpBatchModule): BatchedWireTransport {
    // The socket's callbacks exist before the transport they call.
    const late: { transport?: BatchedWireTransport } = {};
    const socket = BatchedUdpSocket.open(
      {
        family: options.family,
        address: options.localAddress,
        port: options.localPort,
        receiveBufferBytes: options.recvBufferSize,
        sendBufferBytes: options.sendBufferSize,
        ...(addon ? { addon } : {}),
      },
      (datagram, source) => late.transport?.sink.deliver(datagram, source.address, source.port),
      (error) => late.transport?.socketError(error),
    );
    late.transport = new BatchedWireTransport(socket, options.sendQueueLimit, options.localPort !== 0);
    return late.transport;
  }

  get localPort(): number {
    return this.opened.localPort;
  }

  get connected(): boolean {
    return this.connectedFlag;
  }

  attach(sink: UdpWireSink): void {
    this.sink = sink;
    this.repoint();
  }

  send(frame: Buffer): boolean {
    this.batcher.add(frame);
    return true;
  }

  repoint(): void {
    const socket = this.socket;
    if (socket === undefined || !this.connectable) return;
    this.batcher.flush(); // frames sent before the change go to the peer they were sent to
    const { address, port } = this.sink.peer;
    try {
      socket.connect(address, port);
      this.connectedFlag = true;
    } catch (err) {
      this.connectedFlag = false;
      log.warn({ err, port: this.sink.number }, 'UDP wire: cannot connect the socket to its peer; sending unconnected');
    }
  }

  close(): Promise<void> {
    const socket = this.socket;
    if (socket !== undefined) {
      this.batcher.flush(); // frames accepted by send() before close still go out
      this.socket = undefined;
      socket.close();
    }
    return Promise.resolve();
  }

  private sendNow(frames: Buffer[]): void {
    const socket = this.socket;
    if (socket === undefined) return;
    let result: UdpSendResult;
    try {
      const { address, port } = this.sink.peer;
      result = this.connectedFlag ? socket.send(frames) : socket.sendTo(frames, address, port);
    } catch (err) {
      if (!isErrnoError(err)) log.error({ err, port: this.sink.number }, 'batched UDP send threw');
      result = { sent: 0, sentBytes: 0, error: isErrnoError(err) ? err : null };
    }
    const refused = frames.length - result.sent;
    const counters = this.sink.counters;
    counters.framesOut += result.sent;
    counters.bytesOut += result.sentBytes;
    if (refused === 0) return;
    if (result.error !== null && BUFFER_FULL.has(result.error.code)) counters.drops += refused;
    else this.sink.sendFailed(refused, result.error ?? new Error('the batched UDP send refused frames without saying why'));
  }

  private socketError(error: UdpErrnoError): void {
    this.sink.sendFailed(1, error);
  }
}
