/**
 * Which workers a piece stands for (docs/atp.md, "The parameter server"): an
 * `edgeSwitchIdentifier = 1` piece covers every worker of each `bitmap1`
 * contributor; an edge-0 piece covers the `bitmap0` workers of its one
 * `bitmap1` contributor, which must be an aggregating rack. Coverage is one
 * mask of workers per level-1 contributor.
 */
import type { AtpPacket } from '../../wire/index.js';
import type { AtpContributor } from './atp-job-layout.js';

export class PieceCoverage {
  /** Per contributor, the mask of all its workers. */
  readonly full: Uint32Array;
  /** Every contributor's `bitmap1` bit. */
  readonly allContributors: number;
  private readonly aggregating: readonly boolean[];

  constructor(
    contributors: readonly AtpContributor<unknown>[],
    private readonly elementsPerPacket: number,
  ) {
    this.full = Uint32Array.from(contributors, (c) => (c.aggregating ? 2 ** c.workers.length - 1 : 1));
    this.allContributors = 2 ** contributors.length - 1;
    this.aggregating = contributors.map((c) => c.aggregating);
  }

  /** The workers the piece covers, or undefined when it is no piece of the job (an ACK, another value count, bits outside the job). */
  of(p: AtpPacket): Uint32Array | undefined {
    if (p.isAck || p.elementCount !== this.elementsPerPacket) return undefined;
    const m = this.full.length;
    if (p.bitmap1 === 0 || p.bitmap1 > this.allContributors) return undefined;
    const masks = new Uint32Array(m);
    if (p.edgeSwitchIdentifier === 1) {
      for (let j = 0; j < m; j++) if ((p.bitmap1 >>> j) & 1) masks[j] = this.full[j]!;
      return masks;
    }
    // Edge 0: one aggregating rack, some of its workers.
    const j = 31 - Math.clz32(p.bitmap1);
    if (p.bitmap1 !== 2 ** j || !this.aggregating[j]) return undefined;
    if (p.bitmap0 === 0 || (p.bitmap0 & ~this.full[j]!) !== 0) return undefined;
    masks[j] = p.bitmap0;
    return masks;
  }
}
