/** Per-port packet counters of the running switch (the data plane's view, beside each port's own counters). */
export interface PortStats {
  packetsIn: number;
  packetsOut: number;
  dropped: number;
  malformed: number;
}

interface Cell {
  packetsIn: number;
  packetsOut: number;
  dropped: number;
  /** Frames the executor failed on (a bug: counted, never thrown). */
  failed: number;
  /** The port's own count of frames too short for Ethernet. */
  malformedByPort: number;
}

export class PortStatsTable {
  // Ports are 9-bit numbers: an array indexed by number is one read per packet (a Map lookup costs a hash).
  private readonly byPort: (Cell | undefined)[] = [];

  of(port: number): Cell {
    let s = this.byPort[port];
    if (s === undefined) {
      if (!Number.isInteger(port) || port < 0 || port > 0xffff) throw new RangeError(`port ${port} is not a port number`);
      s = { packetsIn: 0, packetsOut: 0, dropped: 0, failed: 0, malformedByPort: 0 };
      this.byPort[port] = s;
    }
    return s;
  }

  /** A copy, sorted by port. */
  snapshot(): Record<number, PortStats> {
    const out: Record<number, PortStats> = {};
    for (const [port, c] of this.byPort.entries()) {
      if (c === undefined) continue;
      out[port] = { packetsIn: c.packetsIn, packetsOut: c.packetsOut, dropped: c.dropped, malformed: c.failed + c.malformedByPort };
    }
    return out;
  }
}
