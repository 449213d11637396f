// The host aggregator (src/agent/omnireduce/omnireduce-aggregator.ts) in this
// process, as the reference the switch is compared with: the same messages
// from the same senders go in, and what it sends comes out as (address,
// payload) pairs, the address as "ip:port" text.
import { OmniReduceAggregator } from '../../../../src/agent/omnireduce/omnireduce-aggregator.js';
import type { SourcedListener } from '../../../../src/agent/omnireduce/sourced-transport.js';
import { socketAddress, type SocketAddress } from '../../../../src/agent/transport/index.js';
import { ipv4ToText } from '../../../../src/wire/index.js';

export interface Sent {
  readonly to: string;
  readonly payload: Buffer;
}

export interface Endpoint {
  readonly ip: number;
  readonly udpPort: number;
}

const addressOf = (e: Endpoint): SocketAddress => socketAddress(ipv4ToText(e.ip), e.udpPort, 'test worker');

export class HostReference {
  readonly aggregator: OmniReduceAggregator;
  private listener: SourcedListener | undefined;
  private sent: Sent[] = [];

  /** A host aggregator for `workers` (in rank order) owning slots firstSlot .. firstSlot + slotCount − 1. */
  constructor(workers: readonly Endpoint[], slotCount: number, blockSize: number, firstSlot = 0) {
    const transport = {
      sendTo: (to: SocketAddress, payload: Uint8Array, length = payload.length): boolean => {
        this.sent.push({ to: `${to.address}:${to.port}`, payload: Buffer.from(payload.subarray(0, length)) });
        return true;
      },
      onDatagram: (listener: SourcedListener | undefined): void => {
        this.listener = listener;
      },
    };
    this.aggregator = new OmniReduceAggregator({ transport, workers: workers.map(addressOf), firstSlot, slotCount, blockSize });
  }

  /** `payload` from `from`; returns what the aggregator sent for it. */
  receive(from: Endpoint, payload: Buffer): Sent[] {
    this.sent = [];
    const copy = Buffer.from(payload);
    this.listener?.(copy, 0, copy.length, addressOf(from));
    return this.sent;
  }
}
