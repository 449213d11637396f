/**
 * The PacketIoPort used when no data plane is attached (`p4ina switch --no-p4`
 * before the emulator exists): every PacketOut is counted and dropped.
 */
import type { Logger } from '../../log/logger.js';
import type { PacketIoPort } from '../ports/packet-io-port.js';

export class DiscardingPacketIo implements PacketIoPort {
  private count = 0;

  constructor(private readonly logger?: Logger) {}

  /** How many PacketOuts were dropped so far. */
  get dropped(): number {
    return this.count;
  }

  injectPacketOut(payload: Buffer, metadata: ReadonlyMap<string, Buffer>): void {
    this.count++;
    // Debug at the 1st, 2nd, 4th, 8th… drop keeps a flood of PacketOuts from flooding the log.
    const level = (this.count & (this.count - 1)) === 0 ? 'debug' : 'trace';
    this.logger?.[level]({ bytes: payload.length, metadata: [...metadata.keys()], dropped: this.count }, 'no data plane attached: PacketOut dropped');
  }
}
