/**
 * One allreduce call on one Rina worker (docs/rina.md §5): the exponent pass
 * — every member agrees on one exponent per (segment, chunk), the maximum
 * of the workers' chunk exponents, reduced through the ring with `max` —
 * then the data pass, whose int32 values are the chunks scaled with those
 * exponents as SwitchML scales them (quantisation.ts: no sum of n can
 * overflow), and last the division back to float32, the same on every
 * member.
 */
import { RINA_EXPONENT_PASS } from '../../wire/index.js';
import type { AllReduceCallOptions, AllReduceResult } from '../allreduce.js';
import { exponentOfMagnitudeBits, MIN_CHUNK_EXPONENT, type ScaleTable } from '../switchml/quantisation.js';
import { AgentPass } from './agent-pass.js';
import { AutonomousPass } from './autonomous-pass.js';
import { PassLayout } from './pass-layout.js';
import type { PassRun, PassSpec, RinaWorkerContext } from './pass-run.js';
import { PassValues } from './pass-values.js';
import { RackPass } from './rack-pass.js';
import { RINA_ERROR_CODES, RinaError } from './rina-error.js';
import type { ResolvedRinaOptions } from './rina-options.js';
import type { RinaStats } from './rina-stats.js';

export interface CallInputs {
  readonly options: ResolvedRinaOptions;
  readonly ctx: RinaWorkerContext;
  readonly scales: ScaleTable;
  readonly data: Float32Array;
  /** The epoch of the exponent pass; the data pass has the next. */
  readonly epoch: number;
  readonly call: AllReduceCallOptions | undefined;
  /** Tells the worker which pass receives its datagrams now (undefined between passes). */
  readonly running: (pass: PassRun | undefined, epoch: number) => void;
}

const ABS_MASK = 0x7fff_ffff;

/** The layouts of a call's two passes; RINA_TENSOR_TOO_LONG when a chunk index would not fit 24 bits. */
export function callLayouts(length: number, options: ResolvedRinaOptions): { data: PassLayout; exponents: PassLayout } {
  const R = options.ring.length;
  const data = new PassLayout(length, R, options.elementsPerPacket, options.poolSize);
  const exponents = new PassLayout(R * data.chunks, R, options.elementsPerPacket, options.poolSize);
  if (!data.fitsChunkField || !exponents.fitsChunkField) {
    throw new RinaError(RINA_ERROR_CODES.tensorTooLong, `${length} elements make ${data.chunks} chunks per segment in a ring of ${R}; a chunk index has 24 bits: split the tensor`);
  }
  return { data, exponents };
}

/** This worker's exponent of every chunk of the data pass (−127 for zeros and padding). */
function ownExponents(data: Float32Array, layout: PassLayout): Int32Array {
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  const out = new Int32Array(layout.members * layout.chunks);
  for (let g = 0; g < layout.members; g++) {
    for (let c = 0; c < layout.chunks; c++) {
      const from = layout.start(g, c);
      const end = from + layout.count(g, c);
      let max = 0;
      for (let i = from; i < end; i++) max = Math.max(max, bits[i]! & ABS_MASK);
      out[g * layout.chunks + c] = end > from ? exponentOfMagnitudeBits(max) : MIN_CHUNK_EXPONENT;
    }
  }
  return out;
}

function makePass(ctx: RinaWorkerContext, options: ResolvedRinaOptions, spec: PassSpec): PassRun {
  if (options.role === 'autonomous') return new AutonomousPass(ctx, spec);
  return options.role === 'agent' ? new AgentPass(ctx, spec) : new RackPass(ctx, spec);
}

async function runPass(inputs: CallInputs, spec: PassSpec): Promise<void> {
  const pass = makePass(inputs.ctx, inputs.options, spec);
  const signal = inputs.call?.signal;
  const abort = (): void => pass.fail(new RinaError(RINA_ERROR_CODES.aborted, 'the allreduce call was aborted'));
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  inputs.running(pass, spec.epoch);
  try {
    pass.run();
    await pass.done;
  } finally {
    signal?.removeEventListener('abort', abort);
    inputs.running(undefined, (spec.epoch + 1) & 0xff);
  }
}

export async function runRinaCall(inputs: CallInputs): Promise<AllReduceResult<RinaStats>> {
  const { options, ctx, scales, data } = inputs;
  const startedAt = ctx.clock.now();
  const result = new Float32Array(data.length);
  const epochs: [number, number] = [inputs.epoch, (inputs.epoch + 1) & 0xff];
  let layout: PassLayout | undefined;
  if (data.length > 0) {
    const layouts = callLayouts(data.length, options);
    layout = layouts.data;
    const C = layout.chunks;
    const emax = new Int32Array(options.ring.length * C);
    await runPass(inputs, { layout: layouts.exponents, epoch: epochs[0], values: new PassValues(layouts.exponents, 'max', ownExponents(data, layout), emax), exponentOf: () => RINA_EXPONENT_PASS });
    const quantised = new Int32Array(data.length);
    for (let g = 0; g < layout.members; g++) {
      for (let c = 0; c < C; c++) {
        const f = scales.factor(emax[g * C + c]!);
        const from = layout.start(g, c);
        for (let i = from, end = from + layout.count(g, c); i < end; i++) quantised[i] = Math.trunc(data[i]! * f);
      }
    }
    const sums = new Int32Array(data.length);
    await runPass(inputs, { layout, epoch: epochs[1], values: new PassValues(layout, 'sum', quantised, sums), exponentOf: (g, c) => emax[g * C + c]! });
    for (let g = 0; g < layout.members; g++) {
      for (let c = 0; c < C; c++) {
        const f = scales.factor(emax[g * C + c]!);
        const from = layout.start(g, c);
        for (let i = from, end = from + layout.count(g, c); i < end; i++) result[i] = sums[i]! / f;
      }
    }
  }
  try {
    inputs.call?.onProgress?.(data.length, data.length);
  } catch {
    // onProgress must not throw; if it does, the result stands regardless.
  }
  const c = ctx.counters;
  return {
    result,
    stats: {
      algorithm: 'rina', role: options.role, ringLength: options.ring.length, epochs,
      bytes: data.length * 4, elapsedMs: ctx.clock.now() - startedAt,
      messagesSent: c.messagesSent, messagesReceived: c.messagesReceived, retransmissions: c.retransmissions,
      chunksPerSegment: layout?.chunks ?? 0, window: layout?.window ?? 0,
      timeouts: c.timeouts, acksSent: c.acksSent, duplicates: c.duplicates, stale: c.stale, ignored: c.ignored,
      rtoMs: ctx.rtt.rtoMs, srttMs: ctx.rtt.srttMs, rttVarMs: ctx.rtt.rttVarMs, roundRtoMs: ctx.roundRtt.rtoMs,
    },
  };
}
