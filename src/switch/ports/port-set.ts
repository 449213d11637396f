/**
 * The switch's ports by number, opened from `-i PORT@SPEC` arguments. Opening
 * is all or nothing: if one port fails, those already opened are closed
 * again and the error says which argument to fix.
 */
import { AfPacketPort, type AfPacketPortOptions } from './af-packet/af-packet-port.js';
import type { MemoryHub } from './memory-hub.js';
import { snapshotCounters, type FrameListener, type Port, type PortCounters } from './port.js';
import { PORT_ERROR_CODES, PortError } from './port-error.js';
import { MAX_PORT_NUMBER, checkPortNumber } from './port-number.js';
import { parsePortSpec, type PortSpec, type PortSpecOptions } from './port-spec.js';
import { UdpWirePort, type UdpWireOptions } from './udp-wire-port.js';

export interface PortFactoryOptions extends PortSpecOptions {
  /** Where `PORT@mem:NAME` ports attach; without one, such ports are refused. */
  readonly memoryHub?: MemoryHub;
  /** Socket tuning for every UDP wire. */
  readonly udp?: Pick<UdpWireOptions, 'sendQueueLimit' | 'recvBufferSize' | 'sendBufferSize' | 'udpIo'>;
  /** Socket tuning for every AF_PACKET port (`PORT@IFACE`). */
  readonly afPacket?: Omit<AfPacketPortOptions, 'number' | 'iface' | 'addon'>;
}

/** Opens the port one spec describes. Throws PortError, or AfPacketError for a network interface that cannot be opened. */
export async function openPort(spec: PortSpec, options: PortFactoryOptions = {}): Promise<Port> {
  switch (spec.kind) {
    case 'udp':
      return UdpWirePort.open({ ...options.udp, ...spec, allowNonLoopback: options.allowNonLoopback ?? false });
    case 'memory':
      if (!options.memoryHub) {
        throw new PortError(PORT_ERROR_CODES.noMemoryHub, `port argument "${spec.text}": in-memory ports exist only inside one process (tests, in-memory mode); use PORT@udp:… from the command line`);
      }
      return options.memoryHub.attach(spec.wire, spec.number);
    case 'iface':
      return AfPacketPort.open({ ...options.afPacket, number: spec.number, iface: spec.iface });
  }
}

export class PortSet implements Iterable<Port> {
  // Indexed by port number so the per-packet lookup is one array read.
  private readonly byNumber: (Port | undefined)[] = new Array<Port | undefined>(MAX_PORT_NUMBER + 1).fill(undefined);
  private count = 0;

  constructor(ports: Iterable<Port> = []) {
    for (const port of ports) this.add(port);
  }

  /** Parses and opens every argument (strings are PORT@SPEC), all or nothing. */
  static async open(specs: readonly (PortSpec | string)[], options: PortFactoryOptions = {}): Promise<PortSet> {
    const set = new PortSet();
    try {
      for (const item of specs) {
        const spec = typeof item === 'string' ? parsePortSpec(item, options) : item;
        if (set.has(spec.number)) {
          throw new PortError(PORT_ERROR_CODES.duplicate, `port ${spec.number} is given twice (again in "${spec.text}"); give each port number once`);
        }
        set.add(await openPort(spec, options));
      }
    } catch (err) {
      await set.close();
      throw err;
    }
    return set;
  }

  get size(): number {
    return this.count;
  }

  /** Adds an opened port. Throws PortError if its number is taken. */
  add(port: Port): void {
    checkPortNumber(port.number, `port ${port.name}`);
    if (this.byNumber[port.number] !== undefined) {
      throw new PortError(PORT_ERROR_CODES.duplicate, `port ${port.number} is already attached (${this.byNumber[port.number]!.name}); give each port number once`);
    }
    this.byNumber[port.number] = port;
    this.count++;
  }

  /** The port with this number, or undefined (also for numbers out of range). */
  get(number: number): Port | undefined {
    return this.byNumber[number];
  }

  has(number: number): boolean {
    return this.byNumber[number] !== undefined;
  }

  /** Port numbers in increasing order. */
  numbers(): number[] {
    const out: number[] = [];
    for (let n = 0; n <= MAX_PORT_NUMBER; n++) if (this.byNumber[n] !== undefined) out.push(n);
    return out;
  }

  *[Symbol.iterator](): Iterator<Port> {
    for (const port of this.byNumber) if (port !== undefined) yield port;
  }

  /** Replaces every port with a wrapper (e.g. pcap recording); the wrapper must keep the number. */
  decorate(wrap: (port: Port) => Port): void {
    for (let n = 0; n <= MAX_PORT_NUMBER; n++) {
      const port = this.byNumber[n];
      if (port === undefined) continue;
      const wrapped = wrap(port);
      if (wrapped.number !== n) throw new Error(`a port wrapper changed port ${n}'s number to ${wrapped.number}`);
      this.byNumber[n] = wrapped;
    }
  }

  /** Sets the same listener on every port. */
  onFrame(listener: FrameListener | undefined): void {
    for (const port of this) port.onFrame(listener);
  }

  /** A copy of every port's counters, by port number. */
  counters(): Map<number, { name: string } & PortCounters> {
    const out = new Map<number, { name: string } & PortCounters>();
    for (const port of this) out.set(port.number, { name: port.name, ...snapshotCounters(port.counters) });
    return out;
  }

  /** Closes every port, even if some fail; rethrows the first failure. */
  async close(): Promise<void> {
    const results = await Promise.allSettled([...this].map((port) => port.close()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
