/**
 * An in-memory network of Rina members for the agents' tests: one
 * AddressedTransport per host address, each receiving through an
 * ImpairedLink with seeded loss, duplication and reordering. A datagram to an
 * address nobody has is lost.
 */
import { ListeningTransport } from '../../../../src/agent/transport/base-transport.js';
import { sendLength } from '../../../../src/agent/transport/datagram-transport.js';
import { socketAddress, type AddressedTransport, type SocketAddress } from '../../../../src/agent/transport/index.js';
import { ImpairedLink } from '../../../../src/util/impaired-link.js';

export interface Impairment {
  readonly loss?: number;
  readonly duplicate?: number;
  readonly reorder?: number;
}

const keyOf = (a: SocketAddress): string => `${a.address}:${a.port}`;

export class NetHost extends ListeningTransport implements AddressedTransport {
  constructor(
    readonly address: SocketAddress,
    private readonly net: MemoryNetwork,
  ) {
    super(`memory ${keyOf(address)}`, 65_507);
  }

  sendTo(to: SocketAddress, payload: Uint8Array, length?: number): boolean {
    const n = sendLength(payload, length, this.maxPayload);
    if (this.closed) {
      this.counters.sendDrops++;
      return false;
    }
    if (!this.net.carry(to, Buffer.from(payload.subarray(0, n)))) {
      this.counters.sendDrops++;
      return false;
    }
    this.counters.datagramsOut++;
    this.counters.bytesOut += n;
    return true;
  }

  readonly receive = (frame: Buffer): void => this.deliver(frame, 0, frame.length);

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}

export class MemoryNetwork {
  private readonly hosts = new Map<string, { host: NetHost; link: ImpairedLink }>();

  constructor(
    private readonly impair: Impairment = {},
    private readonly seed: number | string = 1,
  ) {}

  /** A host at 10.0.0.(i + 1), UDP port 0xBF10. */
  host(i: number): NetHost {
    const address = socketAddress(`10.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, 0xbf10, 'test host');
    const host = new NetHost(address, this);
    const link = new ImpairedLink({ seed: this.seed, ...this.impair }, 1 << 16, keyOf(address), host.receive);
    this.hosts.set(keyOf(address), { host, link });
    return host;
  }

  carry(to: SocketAddress, frame: Buffer): boolean {
    const h = this.hosts.get(keyOf(to));
    return h === undefined ? true : h.link.offer(frame);
  }

  /** True once nothing is in flight; false after `maxTurns` turns of the event loop. */
  async settle(maxTurns = 10_000): Promise<boolean> {
    for (let turn = 0; turn < maxTurns; turn++) {
      if ([...this.hosts.values()].every((h) => h.link.idle)) return true;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return false;
  }

  get lost(): number {
    return [...this.hosts.values()].reduce((n, h) => n + h.link.stats.lost, 0);
  }
}
