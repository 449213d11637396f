import { describe, expect, it } from 'vitest';
import { OmniReduceAggregator } from '../../../src/agent/omnireduce/omnireduce-aggregator.js';
import type { SourcedListener, SourcedTransport } from '../../../src/agent/omnireduce/sourced-transport.js';
import { socketAddress, type SocketAddress } from '../../../src/agent/transport/index.js';
import { decodeOmniReduce, encodeOmniReduce, NEXT_TSI_NONE, omniReduceLength, type OmniReduceFields } from '../../../src/wire/omnireduce.js';

class RecordingTransport implements SourcedTransport {
  listener: SourcedListener | undefined;
  readonly sent: { to: SocketAddress; bytes: Buffer }[] = [];
  sendTo(to: SocketAddress, payload: Uint8Array, length = payload.length): boolean {
    this.sent.push({ to, bytes: Buffer.from(payload.subarray(0, length)) });
    return true;
  }
  onDatagram(listener: SourcedListener | undefined): void {
    this.listener = listener;
  }
}

const workers = [socketAddress('10.0.0.1', 5000, 'w0'), socketAddress('10.0.0.2', 5000, 'w1')];
const stranger = socketAddress('10.0.0.9', 5000, 'stranger');

function setup() {
  const transport = new RecordingTransport();
  const aggregator = new OmniReduceAggregator({ transport, workers, firstSlot: 4, slotCount: 2, blockSize: 2 });
  const send = (from: SocketAddress, fields: Omit<OmniReduceFields, 'slot' | 'elementCount'> & { slot?: number }) => {
    const elementCount = fields.values.length;
    const buf = Buffer.alloc(omniReduceLength(elementCount));
    encodeOmniReduce(buf, 0, { slot: 4, elementCount, ...fields });
    transport.listener!(buf, 0, buf.length, from);
  };
  const replies = () => transport.sent.map(({ to, bytes }) => {
    const d = decodeOmniReduce(bytes);
    if (!d.ok) throw new Error(d.message);
    return { to: to.address, tsi: d.tsi, set: d.set, nextTsi: d.nextTsi, exponent: d.exponent, values: Array.from({ length: d.elementCount }, (_, k) => d.values.get(k)) };
  });
  return { aggregator, transport, send, replies };
}

describe('OmniReduce host aggregator', () => {
  it('runs the priming round, then adds each worker once per round, however often it is sent', () => {
    const { aggregator, send, replies } = setup();
    // Slot 4's first block is tsi 8 (block 4 of size 2); priming: next = tsi, the exponent of block 8.
    send(workers[0]!, { tsi: 8, set: 0, nextTsi: 8, exponent: 3, values: [] });
    send(workers[0]!, { tsi: 8, set: 0, nextTsi: 8, exponent: 3, values: [] });
    expect(replies()).toEqual([]);
    send(workers[1]!, { tsi: 8, set: 0, nextTsi: 8, exponent: 5, values: [] });
    expect(replies()).toEqual(workers.map((w) => ({ to: w.address, tsi: 8, set: 0, nextTsi: 8, exponent: 5, values: [] })));
    // Block 8: worker 0 next holds block 20, worker 1 block 32 (exponents of those blocks).
    send(workers[0]!, { tsi: 8, set: 1, nextTsi: 20, exponent: -2, values: [10, -4] });
    send(workers[0]!, { tsi: 8, set: 1, nextTsi: 20, exponent: -2, values: [10, -4] });
    send(workers[1]!, { tsi: 8, set: 1, nextTsi: 32, exponent: 7, values: [1, 1] });
    expect(replies().slice(2)).toEqual(workers.map((w) => ({ to: w.address, tsi: 8, set: 1, nextTsi: 20, exponent: -2, values: [11, -3] })));
    // A priming copy two rounds late is stale: its sender has had that reply, or it could not have sent block 8.
    send(workers[1]!, { tsi: 8, set: 0, nextTsi: 8, exponent: 5, values: [] });
    expect(replies().slice(4)).toEqual([]);
    expect(aggregator.counters.stale).toBe(1);
    // Block 20: only worker 0 sends values; worker 1 acknowledges with no values.
    send(workers[1]!, { tsi: 20, set: 0, nextTsi: 32, exponent: 7, values: [] });
    send(workers[0]!, { tsi: 20, set: 0, nextTsi: NEXT_TSI_NONE, exponent: -127, values: [6, 6] });
    expect(replies().slice(4)).toEqual(workers.map((w) => ({ to: w.address, tsi: 20, set: 0, nextTsi: 32, exponent: 7, values: [6, 6] })));
    // Worker 0 lost that reply and retransmits: the stored reply comes back to it alone.
    send(workers[0]!, { tsi: 20, set: 0, nextTsi: NEXT_TSI_NONE, exponent: -127, values: [6, 6] });
    expect(replies().slice(6)).toEqual([{ to: '10.0.0.1', tsi: 20, set: 0, nextTsi: 32, exponent: 7, values: [6, 6] }]);
    expect(aggregator.counters.duplicates).toBe(2);
    expect(aggregator.counters.resent).toBe(1);
    expect(aggregator.waiting()).toEqual([{ slot: 4, tsi: 32, ranks: [0, 1] }]);
    // Worker 1 named block 32 as its next one: a message without its values is refused, and so are values from worker 0, which named none.
    send(workers[1]!, { tsi: 32, set: 1, nextTsi: NEXT_TSI_NONE, exponent: -127, values: [] });
    send(workers[0]!, { tsi: 32, set: 1, nextTsi: NEXT_TSI_NONE, exponent: -127, values: [1, 1] });
    expect(aggregator.counters.invalid).toBe(2);
    expect(aggregator.waiting()).toEqual([{ slot: 4, tsi: 32, ranks: [0, 1] }]);
  });

  it('drops strangers, messages without a sender, malformed messages and slots it does not own', () => {
    const { aggregator, transport, send, replies } = setup();
    send(stranger, { tsi: 8, set: 0, nextTsi: 8, exponent: 3, values: [] });
    send(workers[0]!, { tsi: 0, set: 0, nextTsi: 0, exponent: 3, values: [], slot: 3 });
    send(workers[0]!, { tsi: 8, set: 0, nextTsi: 4, exponent: 3, values: [1, 2] });
    send(workers[0]!, { tsi: 8, set: 0, nextTsi: 9, exponent: 3, values: [1] });
    transport.listener!(Buffer.alloc(7), 0, 7, workers[0]!);
    // A well-formed priming message whose sender the transport did not name: nobody's.
    const priming = Buffer.alloc(omniReduceLength(0));
    encodeOmniReduce(priming, 0, { tsi: 8, slot: 4, set: 0, nextTsi: 8, exponent: 3, elementCount: 0, values: [] });
    transport.listener!(priming, 0, priming.length);
    expect(aggregator.counters.invalid).toBe(6);
    expect(replies()).toEqual([]);
    expect(aggregator.waiting()).toEqual([]);
  });

  it('refuses a configuration that lists a worker twice or leaves the slot field', () => {
    const transport = new RecordingTransport();
    expect(() => new OmniReduceAggregator({ transport, workers: [workers[0]!, workers[0]!], firstSlot: 0, slotCount: 1, blockSize: 2 })).toThrow(expect.objectContaining({ code: 'OMNIREDUCE_BAD_CONFIG' }));
    expect(() => new OmniReduceAggregator({ transport, workers, firstSlot: 0x7fff, slotCount: 2, blockSize: 2 })).toThrow(/15-bit slot field/);
  });
});
