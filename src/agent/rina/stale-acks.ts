/**
 * RING_DATA of an earlier pass (an epoch 1..127 behind) reaches a member
 * when its ACK was lost and the sender retransmits, even after the member
 * has moved on to the next pass or finished its calls. Everything of an
 * earlier pass was consumed, so it is acknowledged again: an autonomous
 * member and an agent to the predecessor member, a rack worker (for the
 * all-gather data its agent re-sends) to its agent.
 */
import { encodeRinaHeader, RINA_HEADER_LENGTH, RinaMessageType, RinaPhase, type RinaPacket } from '../../wire/index.js';
import { mod } from './pass-layout.js';
import type { RinaWorkerContext } from './pass-run.js';

export class StaleAcks {
  private readonly buf = Buffer.alloc(RINA_HEADER_LENGTH);

  constructor(private readonly ctx: RinaWorkerContext) {}

  /** Answers `p` if it is RING_DATA this worker acknowledges; true when it did. */
  answer(p: RinaPacket): boolean {
    const { members, place, counters, transport } = this.ctx;
    const R = members.length;
    if (p.messageType !== RinaMessageType.RING_DATA || R === 1) return false;
    const pred = mod(place.position - 1, R);
    if (p.senderRank !== pred) return false;
    const rackMember = members[place.position]!.kind === 'rack' && place.workerId !== 0;
    if (rackMember && p.phase !== RinaPhase.ALL_GATHER) return false;
    const to = rackMember ? members[place.position]!.workers[0]! : members[pred]!.workers[0]!;
    encodeRinaHeader(this.buf, 0, {
      messageType: RinaMessageType.ACK, phase: p.phase, jobId: p.jobId, senderRank: place.position, workerId: place.workerId,
      exponent: p.exponent, step: p.step, segment: p.segment, chunk: p.chunk, slot: p.slot, set: p.set, elementCount: 0,
    });
    counters.stale++;
    counters.acksSent++;
    if (transport.sendTo(to, this.buf, RINA_HEADER_LENGTH)) counters.messagesSent++;
    return true;
  }
}
