/**
 * The switch ports of an STF run: every frame the switch sends is kept, in
 * order, with the STF line of the packet that caused it; frames are injected
 * synchronously, so by the time `inject` returns the switch has sent
 * everything that packet produced.
 */
import { BasePort } from '../switch/ports/port.js';

export interface CapturedFrame {
  readonly frame: Buffer;
  /** The line of the `packet` command whose processing sent this frame. */
  readonly cause: number;
}

export class CapturePort extends BasePort {
  readonly sent: CapturedFrame[] = [];
  constructor(number: number, /** Holds the line of the packet being processed. */ private readonly current: { cause: number }) {
    super(number, `stf${number}`, 'memory');
  }

  send(frame: Buffer): boolean {
    this.sent.push({ frame: Buffer.from(frame), cause: this.current.cause });
    return true;
  }

  /** Hands a frame to the switch as if it arrived on this port. */
  inject(frame: Buffer): void {
    this.receive(frame);
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}
