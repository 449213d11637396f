/**
 * What every transport shares: the counters, the single listener (guarded so
 * that a throwing listener cannot take the socket's event loop down with it),
 * and an idempotent close. `ListeningTransport` has no send, so that a
 * transport with its own way of sending (AddressedTransport) shares the rest.
 */
import { moduleLogger } from '../../log/logger.js';
import { type DatagramListener, type DatagramTransport, MutableTransportCounters } from './datagram-transport.js';
import type { SocketAddress } from './socket-address.js';

const log = moduleLogger('agent.transport');

export abstract class ListeningTransport {
  readonly counters = new MutableTransportCounters();
  private listener: DatagramListener | undefined;
  private closing: Promise<void> | undefined;
  private listenerErrors = 0;

  private label: string;

  constructor(
    name: string,
    readonly maxPayload: number,
  ) {
    this.label = name;
  }

  get name(): string {
    return this.label;
  }

  /** Sets the name once the bound address is known. */
  protected rename(name: string): void {
    this.label = name;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  onDatagram(listener: DatagramListener | undefined): void {
    this.listener = listener;
  }

  /** Hands a received payload (and its sender, when known) to the listener, or counts it as dropped. */
  protected deliver(buf: Buffer, offset: number, length: number, from?: SocketAddress): void {
    const listener = this.listener;
    if (this.closing !== undefined || listener === undefined) {
      this.counters.receiveDrops++;
      return;
    }
    this.counters.datagramsIn++;
    this.counters.bytesIn += length;
    try {
      listener(buf, offset, length, from);
    } catch (err) {
      // A listener bug must not become an unhandled exception in a socket
      // callback; log the first few so a flood of them cannot fill the log.
      if (this.listenerErrors++ < 10) log.error({ err, transport: this.name }, 'datagram listener threw');
    }
  }

  close(): Promise<void> {
    this.closing ??= this.release();
    return this.closing;
  }

  /** Frees the medium; called once. */
  protected abstract release(): Promise<void>;
}

/** A transport that sends to its one next hop. */
export abstract class BaseTransport extends ListeningTransport implements DatagramTransport {
  abstract send(payload: Uint8Array, length?: number): boolean;
}
