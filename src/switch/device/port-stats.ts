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
  private readonly byPort = new Map<number, Cell>();

  of(port: number): Cell {
    let s = this.byPort.get(port);
    if (!s) {
      s = { packetsIn: 0, packetsOut: 0, dropped: 0, failed: 0, malformedByPort: 0 };
      this.byPort.set(port, s);
    }
    return s;
  }

  /** A copy, sorted by port. */
  snapshot(): Record<number, PortStats> {
    const out: Record<number, PortStats> = {};
    for (const port of [...this.byPort.keys()].sort((a, b) => a - b)) {
      const c = this.byPort.get(port)!;
      out[port] = { packetsIn: c.packetsIn, packetsOut: c.packetsOut, dropped: c.dropped, malformed: c.failed + c.malformedByPort };
    }
    return out;
  }
}
