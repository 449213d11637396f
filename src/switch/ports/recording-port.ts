/**
 * A port that records what passes through it into two pcap files (in and
 * out), as BMv2 does with --pcap. Received frames are recorded before the
 * switch sees them; sent frames before the backend takes them, so a frame
 * the backend then drops still shows in the "out" file, as in BMv2.
 */
import type { PcapWriter } from './pcap-writer.js';
import type { FrameListener, Port, PortCounters, PortKind } from './port.js';

export class RecordingPort implements Port {
  constructor(
    readonly inner: Port,
    private readonly incoming: PcapWriter,
    private readonly outgoing: PcapWriter,
  ) {}

  get number(): number {
    return this.inner.number;
  }

  get name(): string {
    return this.inner.name;
  }

  get kind(): PortKind {
    return this.inner.kind;
  }

  get counters(): PortCounters {
    return this.inner.counters;
  }

  get closed(): boolean {
    return this.inner.closed;
  }

  send(frame: Buffer): boolean {
    if (!this.inner.closed) this.outgoing.write(frame);
    return this.inner.send(frame);
  }

  onFrame(listener: FrameListener | undefined): void {
    if (listener === undefined) {
      this.inner.onFrame(undefined);
      return;
    }
    // One closure per attach, none per frame; the listener sees this port, not the inner one.
    const incoming = this.incoming;
    this.inner.onFrame((frame) => {
      incoming.write(frame);
      listener(frame, this);
    });
  }

  /** Closes the inner port, then flushes and closes both files. */
  async close(): Promise<void> {
    await this.inner.close();
    await Promise.all([this.incoming.close(), this.outgoing.close()]);
  }
}
