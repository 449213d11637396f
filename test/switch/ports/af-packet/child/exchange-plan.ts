/** What the namespace test asks of exchange-frames.ts, and what it reports back. */
import type { PortCounters } from '../../../../../src/switch/ports/port.js';
import type { TestFrameSpec } from '../test-frames.js';

export interface ExchangePlan {
  /** The two ends of an up veth pair. */
  readonly a: string;
  readonly b: string;
  /** An interface that is down. */
  readonly down: string;
  readonly batchSize: number;
}

/** Edge sizes: header only, the Ethernet minimum and one over, a full 1500-byte MTU, VLAN-tagged at full size. */
export const FRAMES_A_TO_B: readonly TestFrameSpec[] = [
  { seq: 0, length: 14, direction: 1 },
  { seq: 1, length: 60, direction: 1 },
  { seq: 2, length: 61, direction: 1 },
  { seq: 3, length: 1514, direction: 1 },
  { seq: 4, length: 1518, direction: 1, vlan: 100 },
];

export const FRAMES_B_TO_A: readonly TestFrameSpec[] = [
  { seq: 0, length: 1518, direction: 2, vlan: 4094 },
  { seq: 1, length: 300, direction: 2 },
  { seq: 2, length: 60, direction: 2 },
];

/** Many more frames than one batch, so that both recvmmsg and sendmmsg take several rounds. */
export const BURST = { count: 300, length: 100 } as const;

export const BARRIER_SEQ = 0xbabe;

export interface ExchangeResult {
  readonly promiscuousWhileOpen: boolean[];
  readonly promiscuousAfterClose: boolean[];
  readonly aToB: { readonly received: string[]; readonly seenBySender: number };
  readonly bToA: { readonly received: string[]; readonly seenBySender: number };
  readonly countersAfterExchange: [PortCounters, PortCounters];
  readonly burst: { readonly received: number; readonly firstMismatch: number; readonly seenBySender: number };
  readonly oversize: { readonly accepted: boolean; readonly drops: number; readonly sendErrors: number; readonly receivedLengths: number[] };
  readonly linkFlap: { readonly receiveErrors: number; readonly recovered: boolean };
  readonly downOpened: boolean;
  readonly unknownInterface: { readonly code: string; readonly message: string };
  readonly sendAfterClose: boolean;
  readonly closed: boolean[];
}
