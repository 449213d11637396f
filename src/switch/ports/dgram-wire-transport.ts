/**
 * A UDP wire on Node's dgram. The send path pays only for what dgram forces
 * (a SendWrap and a one-element list per send):
 * - the socket is connect()ed to the peer, so a send neither resolves the
 *   address (a dns.lookup and a tick per datagram for an unconnected send)
 *   nor names it; the kernel also filters strangers out before we see them;
 * - sends take no completion callback (each would cost another tick): the
 *   port never rewrites a frame it sent (the Port contract), so it needs no
 *   completion to reuse buffers, and the bound is libuv's own queue of sends
 *   the kernel could not take at once (`getSendQueueCount`), which is what a
 *   "send queue" really is. A frame counts in `framesOut` once the socket took
 *   it; a failure the kernel reports later arrives as a socket error and is
 *   counted in `sendErrors` (and `drops`).
 * While the socket (re)connects (at open, and after `setPeer`), frames wait
 * in a queue bounded like the send queue and go out in order once it is
 * connected: dgram cannot send to an address on a socket being connected.
 *
 * Only a wire bound to a port given explicitly is connected: Linux gives a
 * socket bound to port 0 a new port when it is disconnected, and a wire must
 * keep its port across `setPeer`. Ephemeral wires (tests) send unconnected.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { moduleLogger } from '../../log/logger.js';
import type { UdpWireSink, UdpWireSocketOptions, UdpWireTransport } from './udp-wire-io.js';

const log = moduleLogger('switch.ports.udp');

export class DgramWireTransport implements UdpWireTransport {
  readonly io = 'dgram';
  private sink!: UdpWireSink;
  private connectedFlag = false;
  /** A connect() is under way (dgram refuses another until it completes). */
  private connecting = false;
  /** The peer changed while connecting: connect again once that completes. */
  private reconnect = false;
  /** Frames sent while connecting, in order. */
  private waiting: Buffer[] = [];
  // Bound once so that the hot path passes the same function to every event.
  private readonly onMessage = (msg: Buffer, rinfo: RemoteInfo): void => this.sink.deliver(msg, rinfo.address, rinfo.port);

  private constructor(
    private readonly socket: Socket,
    readonly localPort: number,
    private readonly sendQueueLimit: number,
    /** The local port was given (not 0): connecting cannot lose it. */
    private readonly connectable: boolean,
  ) {}

  /** Binds the socket; rejects with the bind's error. */
  static async open(options: UdpWireSocketOptions): Promise<DgramWireTransport> {
    const socket = createSocket({ type: options.family === 4 ? 'udp4' : 'udp6', recvBufferSize: options.recvBufferSize, sendBufferSize: options.sendBufferSize });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind({ address: options.localAddress, port: options.localPort, exclusive: true }, () => {
          socket.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      socket.close();
      throw err;
    }
    return new DgramWireTransport(socket, socket.address().port, options.sendQueueLimit, options.localPort !== 0);
  }

  get connected(): boolean {
    return this.connectedFlag;
  }

  attach(sink: UdpWireSink): void {
    this.sink = sink;
    this.socket.on('message', this.onMessage);
    // On a connected socket, the kernel reports a refused send (the peer's
    // port closed: ICMP port unreachable) on a later call, as an error event.
    this.socket.on('error', (err) => sink.sendFailed(1, err));
    this.repoint();
  }

  send(frame: Buffer): boolean {
    const counters = this.sink.counters;
    if (this.socket.getSendQueueCount() >= this.sendQueueLimit) {
      counters.drops++;
      return false;
    }
    if (this.connectedFlag) this.socket.send(frame);
    else if (!this.connecting) this.socket.send(frame, this.sink.peer.port, this.sink.peer.address);
    else if (this.waiting.length < this.sendQueueLimit) {
      this.waiting.push(frame);
      return true;
    } else {
      counters.drops++;
      return false;
    }
    counters.framesOut++;
    counters.bytesOut += frame.length;
    return true;
  }

  /** (Re)connects the socket to the current peer; frames sent meanwhile wait for it. */
  repoint(): void {
    if (this.sink.closed || !this.connectable) return;
    if (this.connecting) {
      this.reconnect = true;
      return;
    }
    if (this.connectedFlag) {
      this.connectedFlag = false;
      this.socket.disconnect();
    }
    this.connecting = true;
    const { address, port } = this.sink.peer;
    this.socket.connect(port, address, (err?: Error) => {
      this.connecting = false;
      if (this.sink.closed) return;
      if (!err) this.connectedFlag = true;
      if (this.reconnect) {
        this.reconnect = false;
        return this.repoint();
      }
      if (err) log.warn({ err, port: this.sink.number }, 'UDP wire: cannot connect the socket to its peer; sending unconnected');
      const waiting = this.waiting;
      this.waiting = [];
      for (const frame of waiting) if (!this.sink.closed) this.send(frame);
    });
  }

  close(): Promise<void> {
    this.socket.off('message', this.onMessage);
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve(); // already closed
      }
    });
  }
}
