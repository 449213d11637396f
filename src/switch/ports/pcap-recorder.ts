/**
 * `--pcap DIR`: records every port's traffic into DIR, one file per port and
 * direction, named as BMv2 names them after the interface:
 * `<name>_in.pcap` and `<name>_out.pcap` (e.g. `s1-eth1_in.pcap`; a UDP wire
 * is `udp-127.0.0.1-40001_in.pcap`). Characters that do not belong in a file
 * name become "_".
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PcapWriter, type PcapWriterOptions } from './pcap-writer.js';
import type { Port } from './port.js';
import type { PortSet } from './port-set.js';
import { RecordingPort } from './recording-port.js';

/** The file-name stem for a port name: letters, digits, ".", "_" and "-" kept, the rest "_". */
export function pcapFileStem(portName: string): string {
  const stem = portName.replace(/[^A-Za-z0-9._-]/g, '_');
  return stem === '' || stem === '.' || stem === '..' ? `_${stem}` : stem;
}

export class PcapRecorder {
  private readonly writers: PcapWriter[] = [];
  private readonly stems = new Set<string>();

  private constructor(
    readonly directory: string,
    private readonly options: PcapWriterOptions,
  ) {}

  /** Creates the directory if needed. */
  static async create(directory: string, options: PcapWriterOptions = {}): Promise<PcapRecorder> {
    await mkdir(directory, { recursive: true });
    return new PcapRecorder(directory, options);
  }

  /** Every file this recorder writes. */
  get files(): string[] {
    return this.writers.map((w) => w.path);
  }

  /** Paths of one port's two files (before any clash is resolved; see wrap). */
  pathsFor(port: Pick<Port, 'name'>): { in: string; out: string } {
    return this.paths(pcapFileStem(port.name));
  }

  /**
   * Opens the port's two files and returns the recording wrapper. Should two
   * ports' names give the same file name (both ends of one in-memory wire on
   * one switch, say), the later one gets its port number appended.
   */
  async wrap(port: Port): Promise<RecordingPort> {
    let stem = pcapFileStem(port.name);
    if (this.stems.has(stem)) stem = `${stem}-p${port.number}`;
    this.stems.add(stem);
    const paths = this.paths(stem);
    const incoming = await PcapWriter.open(paths.in, this.options);
    this.writers.push(incoming);
    const outgoing = await PcapWriter.open(paths.out, this.options);
    this.writers.push(outgoing);
    return new RecordingPort(port, incoming, outgoing);
  }

  private paths(stem: string): { in: string; out: string } {
    return { in: join(this.directory, `${stem}_in.pcap`), out: join(this.directory, `${stem}_out.pcap`) };
  }

  /** Wraps every port of the set in place. */
  async recordAll(ports: PortSet): Promise<void> {
    const wrapped = new Map<number, RecordingPort>();
    for (const port of ports) wrapped.set(port.number, await this.wrap(port));
    ports.decorate((port) => wrapped.get(port.number) ?? port);
  }

  /** Flushes every file now (they are also flushed on a timer and on close). */
  async flush(): Promise<void> {
    await Promise.all(this.writers.map((w) => w.flush()));
  }

  /** Flushes and closes every file. Idempotent. */
  async close(): Promise<void> {
    await Promise.all(this.writers.map((w) => w.close()));
  }
}
