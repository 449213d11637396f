/**
 * A switch port that a test drives by hand: `inject` hands a frame to the
 * switch as if it had arrived on the port (the switch processes it at once,
 * synchronously), and every frame the switch sends out of it is kept, in
 * order, with the port's number, until `take()`.
 */
import { BasePort } from '../../../../src/switch/ports/port.js';

export interface CapturedFrame {
  readonly port: number;
  readonly frame: Buffer;
}

export class CapturePort extends BasePort {
  constructor(
    number: number,
    private readonly sink: CapturedFrame[],
  ) {
    super(number, `capture-${number}`, 'memory');
  }

  send(frame: Buffer): boolean {
    if (this.closed) return false;
    this.sink.push({ port: this.number, frame: Buffer.from(frame) });
    this.counters.framesOut++;
    this.counters.bytesOut += frame.length;
    return true;
  }

  /** The frame enters the switch on this port (the switch may rewrite the buffer: pass a copy). */
  inject(frame: Buffer): void {
    this.receive(frame);
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}
