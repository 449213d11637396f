/**
 * Named in-memory wires for `-i PORT@mem:NAME`: whoever attaches first to a
 * name gets one end, the second gets the other (a switch and a test, two
 * switches, a switch and an in-memory agent), a third is refused. Until the
 * second end is attached, frames sent from the first vanish, as into an
 * unplugged cable.
 */
import { MemoryLink, MemoryPort, settleMemoryPorts, type MemoryWireOptions } from './memory-port.js';
import { PORT_ERROR_CODES, PortError } from './port-error.js';

interface Wire {
  readonly first: MemoryPort;
  /** Carries frames from the first end to the second. */
  readonly firstToSecond: MemoryLink;
  second: MemoryPort | undefined;
}

export class MemoryHub {
  private readonly wires = new Map<string, Wire>();
  private readonly perWire = new Map<string, MemoryWireOptions>();

  /** `defaults` apply to every wire without options of its own. */
  constructor(private readonly defaults: MemoryWireOptions = {}) {}

  /** Options (impairments, queue limit) for one wire; must come before the wire's first attach. */
  configure(wire: string, options: MemoryWireOptions): void {
    if (this.wires.has(wire)) throw new Error(`in-memory wire "${wire}" already exists; configure it before attaching to it`);
    this.perWire.set(wire, options);
  }

  /** One end of wire `name`, as port `number` of whoever attaches. Both ends carry the wire's name. */
  attach(name: string, number: number): MemoryPort {
    const options = this.perWire.get(name) ?? this.defaults;
    const wire = this.wires.get(name);
    if (wire === undefined) {
      const first = new MemoryPort({ number, name });
      // Stream labels name the direction by attach order, not by port
      // number, so a seed replays the same way whoever attaches first.
      const firstToSecond = new MemoryLink(options, `${name}:first>second`);
      first.connect(firstToSecond);
      this.wires.set(name, { first, firstToSecond, second: undefined });
      return first;
    }
    if (wire.second !== undefined) {
      throw new PortError(PORT_ERROR_CODES.memoryWireInUse, `in-memory wire "${name}" already has both ends attached; use another wire name`);
    }
    const second = new MemoryPort({ number, name });
    const secondToFirst = new MemoryLink(options, `${name}:second>first`);
    secondToFirst.target = wire.first;
    second.connect(secondToFirst);
    wire.firstToSecond.target = second;
    wire.second = second;
    return second;
  }

  /** Resolves once nothing is in flight on any wire of this hub (bounded; false if it never settled). */
  settle(maxTurns?: number): Promise<boolean> {
    const ports: MemoryPort[] = [];
    for (const wire of this.wires.values()) {
      ports.push(wire.first);
      if (wire.second) ports.push(wire.second);
    }
    return settleMemoryPorts(ports, maxTurns);
  }
}
