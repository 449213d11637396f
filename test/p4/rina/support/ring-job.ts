// The job most rina_tor.p4 tests drive: job 7, a rack of three workers at
// position 1 of a ring of three, the predecessor on port 9 and the next
// member on port 10, and the packets of its rounds.
import { RinaMessageType } from '../../../../src/wire/index.js';
import type { CapturedFrame } from '../../../e2e/switchml/support/capture-port.js';
import { AGENT, NEXT, PRED, contribution, decodeRinaFrame, worker, type RinaFrameSpec } from './rina-network.js';
import type { RinaJob } from './rina-rig.js';

export const N = 8;
export const DEFINES = [`RINA_ELEMENTS=${N}`, 'RINA_SLOTS=64'];
export const RING: RinaJob = { jobId: 7, slotBase: 0, poolSize: 16, rackWorkers: 3, group: 1, rank: 1, ringLength: 3, pred: PRED, next: NEXT };

/** Rack worker w's CONTRIBUTION to round `step` in `slot` (chunk = slot unless given). */
export function contrib(w: number, step: number, slot: number, extra: Partial<RinaFrameSpec> = {}): RinaFrameSpec {
  const chunk = extra.chunk ?? slot;
  return { from: worker(w), to: AGENT, workerId: w, step, segment: (1 - step + 3) % 3, chunk, slot, values: contribution(w, 100 * step + chunk, N), ...extra };
}

/** The predecessor's RING_DATA of scatter-reduce step `step`: the ToR's round step + 1. */
export function predData(step: number, slot: number, extra: Partial<RinaFrameSpec> = {}): RinaFrameSpec {
  const chunk = extra.chunk ?? slot;
  return {
    from: PRED, to: AGENT, type: RinaMessageType.RING_DATA, senderRank: 0, step, segment: (1 - (step + 1) + 3) % 3, chunk, slot,
    values: contribution(9, 100 * step + chunk, N), ...extra,
  };
}

/** What each frame that left says and where it goes. */
export function emitted(out: readonly CapturedFrame[]) {
  return out.map((f) => {
    const d = decodeRinaFrame(f.frame);
    return {
      port: f.port, dstMac: d.frame.ethernet.dstMac, srcMac: d.frame.ethernet.srcMac, dstIp: d.frame.ipv4.dstIp, dstPort: d.frame.udp.dstPort,
      srcIp: d.frame.ipv4.srcIp, srcPort: d.frame.udp.srcPort, checksum: d.frame.udp.checksum, rina: d.rina, values: d.values,
    };
  });
}

export const ports = (out: readonly { port: number }[]): number[] => out.map((o) => o.port).sort((a, b) => a - b);
