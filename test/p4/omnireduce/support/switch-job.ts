// Real OmniReduceWorkers (src/agent/omnireduce) whose only aggregator is the
// switch running omnireduce.p4 (one shard: the switch's IP, UDP port
// 0xBEF0, every slot), on the in-memory SwitchNetwork in virtual time, and
// the independent checks of what they return: the exact integers of the
// SwitchML scaling (test/agent/switchml/helpers/numbers.ts, re-derived from
// the rules) and the float64 sum's bound.
import type { OmniReduceStats } from '../../../../src/agent/omnireduce/omnireduce-worker.js';
import { OmniReduceWorker } from '../../../../src/agent/omnireduce/omnireduce-worker.js';
import type { AllReduceResult } from '../../../../src/agent/allreduce.js';
import { sparseSeededTensor, type SparsityPattern } from '../../../../src/agent/baseline/sparse-tensor.js';
import { compareWithFloat64Sum } from '../../../../src/agent/switchml/quantisation.js';
import { socketAddress } from '../../../../src/agent/transport/index.js';
import { ipv4ToText } from '../../../../src/wire/index.js';
import type { VirtualTime } from '../../../agent/atp/helpers/virtual-time.js';
import { driveVirtual } from '../../../agent/helpers/drive-virtual.js';
import { VIRTUAL_TIMING } from '../../../agent/omnireduce/helpers/run-job.js';
import { expectedChunkExponents, expectedSwitchMlResult, sameBits } from '../../../agent/switchml/helpers/numbers.js';
import type { OmniReduceJobOnSwitch } from '../../../../src/controller/install/omnireduce-entries.js';
import { AGGREGATOR_PORT, SWITCH_IP, worker, type Host } from './omnireduce-network.js';
import type { SwitchNetwork } from './switch-network.js';

/** The program as shipped: 64 values per block. */
export const BLOCK = 64;

/** The workers of `job` (its ranks are worker numbers 0..7 of the rig) on `net`, in virtual time. */
export function switchWorkers(job: OmniReduceJobOnSwitch, net: SwitchNetwork, hostIndex: (rank: number) => number, time: VirtualTime): OmniReduceWorker[] {
  const aggregator = { address: socketAddress(ipv4ToText(SWITCH_IP), AGGREGATOR_PORT, 'the switch'), firstSlot: job.firstSlot ?? 0, slotCount: job.slotCount };
  return job.workers.map((w) => new OmniReduceWorker({
    transport: net.transport(hostIndex(w.rank)), rank: w.rank, worldSize: job.workers.length, aggregators: [aggregator], blockSize: BLOCK, clock: time, timers: time, ...VIRTUAL_TIMING,
  }));
}

/** Every worker's call at once, driven in virtual time to its end. */
export async function allreduceAll(net: SwitchNetwork, time: VirtualTime, workers: readonly OmniReduceWorker[], tensors: readonly Float32Array[]): Promise<AllReduceResult<OmniReduceStats>[]> {
  const { value } = await driveVirtual(net, time, Promise.all(workers.map((w, r) => w.allreduce(tensors[r]!))));
  return value;
}

/** Rank r's block-sparse seeded tensor (the demo's generator), for `n` workers. */
export function sparseTensors(n: number, length: number, sparsity: number, pattern: SparsityPattern, seed: string): Float32Array[] {
  return Array.from({ length: n }, (_, rank) => sparseSeededTensor(length, seed, rank, n, { sparsity, pattern, blockElements: BLOCK }));
}

/** Why `results` are not the exact result of `tensors` on every worker, or undefined when they are. */
export function inexact(results: readonly AllReduceResult<OmniReduceStats>[], tensors: readonly Float32Array[]): string | undefined {
  const expected = expectedSwitchMlResult(tensors, BLOCK);
  const wrong = results.findIndex((r) => !sameBits(r.result, expected));
  if (wrong !== -1) return `rank ${wrong}'s result differs from the exact integer sum`;
  const { violations } = compareWithFloat64Sum(results[0]!.result, tensors, expectedChunkExponents(tensors, BLOCK), BLOCK);
  return violations === 0 ? undefined : `${violations} elements outside the float64 sum's bound`;
}

/** The rig's hosts 0..n−1. */
export function hostsOf(n: number): Host[] {
  return Array.from({ length: n }, (_, w) => worker(w));
}
