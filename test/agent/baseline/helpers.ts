/**
 * Shared helpers of the baseline tests: seeded inputs, a model of the ring's
 * summation order, and a check that no TCP handle is left open.
 */
import { RingSchedule } from '../../../src/agent/baseline/ring-schedule.js';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';

export function seededTensors(worldSize: number, length: number, seed: number | string = 7): Float32Array[] {
  return Array.from({ length: worldSize }, (_, rank) => seededTensor(length, seed, rank));
}

/**
 * What the ring must compute, bit for bit: chunk c is summed in float32 in the
 * order x_c, x_{c+1}, …, x_{c+n-1} (ranks mod n).
 */
export function ringOrderSum(tensors: readonly Float32Array[]): Float32Array {
  const n = tensors.length;
  const length = tensors[0]!.length;
  const schedule = new RingSchedule(length, n, 0, 1);
  const out = new Float32Array(length);
  for (let chunk = 0; chunk < n; chunk++) {
    const start = schedule.chunkStart(chunk);
    for (let i = start; i < start + schedule.chunkLength(chunk); i++) {
      let acc = tensors[chunk]![i]!;
      for (let k = 1; k < n; k++) acc = Math.fround(acc + tensors[(chunk + k) % n]![i]!);
      out[i] = acc;
    }
  }
  return out;
}

/**
 * The TCP handles (servers, sockets) still open in this process. A closed
 * handle leaves libuv's list one loop turn after its close callback, so this
 * waits a bounded number of turns for the list to empty before answering.
 */
export async function openTcpHandles(): Promise<string[]> {
  const tcp = (): string[] => process.getActiveResourcesInfo().filter((name) => name.startsWith('TCP'));
  for (let turn = 0; turn < 200 && tcp().length > 0; turn++) await new Promise((resolve) => setTimeout(resolve, 5));
  return tcp();
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/**
 * What hierarchical AllReduce must compute, bit for bit, written from its
 * description rather than its code: racks are the ranks sharing a name, each
 * led by its lowest rank, the leaders in rank order; each rack's tensors are
 * added in float32 in rank order; then every segment of `segmentElements`
 * values is put through the ring of the racks' sums (ringOrderSum).
 */
export function hierarchicalOrderSum(tensors: readonly Float32Array[], racks: readonly (string | number)[], segmentElements: number): Float32Array {
  const length = tensors[0]!.length;
  const members = new Map<string, number[]>();
  racks.forEach((rack, rank) => members.set(String(rack), [...(members.get(String(rack)) ?? []), rank]));
  const rackSums = [...members.values()]
    .sort((a, b) => a[0]! - b[0]!)
    .map((ranks) => {
      const sum = tensors[ranks[0]!]!.slice();
      for (const rank of ranks.slice(1)) for (let i = 0; i < length; i++) sum[i] = Math.fround(sum[i]! + tensors[rank]![i]!);
      return sum;
    });
  const out = new Float32Array(length);
  for (let start = 0; start < length; start += segmentElements) {
    const end = Math.min(length, start + segmentElements);
    out.set(ringOrderSum(rackSums.map((sum) => sum.subarray(start, end))), start);
  }
  return out;
}
