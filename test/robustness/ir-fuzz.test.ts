// Seeded, bounded fuzzing of SetForwardingPipelineConfig over real gRPC against a
// whole switch (IR executor included): device configs whose IR JSON is mutated
// (keys dropped, values nulled, numbers made negative or huge, types swapped, list
// items duplicated or removed) and P4Infos mutated the same way, pushed with VERIFY
// and VERIFY_AND_COMMIT. The switch answers each with OK or a refusal naming the
// problem, never INTERNAL, never crashes, and still runs a good program afterwards.
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { CONVERSION, messageType } from '../../src/proto/load.js';
import type * as p4i from '../../src/proto/p4i.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { compileCorpus } from '../switch/pipeline/harness.js';
import { type Answer, isInternal, type SwitchRig, switchRig, tally } from './rig.js';

let rig: SwitchRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Rng = () => number;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

/** Every container in the document with the key or index of one of its children. */
function slots(doc: Json): [Json[] | Record<string, Json>, string | number][] {
  const out: [Json[] | Record<string, Json>, string | number][] = [];
  const stack: Json[] = [doc];
  while (stack.length) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        out.push([node, i]);
        stack.push(child);
      });
    } else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        out.push([node, key]);
        stack.push(child);
      }
    }
  }
  return out;
}

const WEIRD: Json[] = [null, -1, 0, 1, 2 ** 31, 2 ** 53, -(2 ** 40), 1.5, '', 'x', '-7', true, [], {}, [null], { id: 0 }];

/** Applies 1 to 3 random mutations to a copy of `doc`. */
function mutate(rng: Rng, doc: Json): Json {
  const copy = structuredClone(doc);
  for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) {
    const all = slots(copy);
    if (!all.length) break;
    const [parent, key] = pick(rng, all);
    const value = (parent as Record<string, Json>)[key as string]!;
    const r = rng();
    if (r < 0.2) {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
    } else if (r < 0.55) (parent as Record<string, Json>)[key as string] = pick(rng, WEIRD);
    else if (r < 0.75 && typeof value === 'number') (parent as Record<string, Json>)[key as string] = pick(rng, [value + 1, value - 1, -value, value * 1024, 0]);
    else if (r < 0.85 && Array.isArray(parent)) parent.splice(key as number, 0, structuredClone(value));
    else if (r < 0.95) {
      const [otherParent, otherKey] = pick(rng, all);
      (parent as Record<string, Json>)[key as string] = structuredClone((otherParent as Record<string, Json>)[otherKey as string]!);
    } else (parent as Record<string, Json>)[key as string] = typeof value === 'string' ? value + '_' : String(value);
  }
  return copy;
}

const P4INFO_TYPE = messageType('p4.config.v1.P4Info');
function plain(p4info: p4i.P4Info__Output): Json {
  return P4INFO_TYPE.toObject(P4INFO_TYPE.fromObject(p4info as unknown as Record<string, unknown>), { ...CONVERSION, defaults: false }) as Json;
}
/** The mutated plain P4Info as protobufjs would decode it; undefined when it is not even a P4Info message any more. */
function decoded(doc: Json): p4i.P4Info__Output | undefined {
  try {
    return P4INFO_TYPE.toObject(P4INFO_TYPE.fromObject(doc as Record<string, unknown>), CONVERSION) as p4i.P4Info__Output;
  } catch {
    return undefined;
  }
}

const PROGRAMS = ['registers_counters', 'basic_forward', 'digest_learning', 'acl_clone'];

describe('SetForwardingPipelineConfig fuzzing (seeded)', () => {
  it.each(PROGRAMS.map((name, i) => [name, 31 + i] as const))('answers 150 mutated IRs of %s without INTERNAL or a crash (seed %i)', async (name, seed) => {
    rig = await switchRig();
    const program = compileCorpus(name);
    const ir = JSON.parse(program.irText) as Json;
    const rng = mulberry32(seed);
    const answers: Answer[] = [];
    const internal: string[] = [];
    const started = Date.now();
    for (let i = 0; i < 150; i++) {
      const action = rng() < 0.8 ? 'VERIFY' : 'VERIFY_AND_COMMIT';
      const answer = await rig.push(program.p4info, Buffer.from(JSON.stringify(mutate(rng, ir))), action);
      answers.push(answer);
      if (isInternal(answer)) internal.push(`${action}: ${answer.details}`);
    }
    // The switch still takes and runs the real program.
    const good = await rig.push(program.p4info, Buffer.from(program.irText));
    const crashes = good.code === grpc.status.OK ? 0 : 1;
    console.log(`ir fuzz ${name} seed ${seed}: ${answers.length} mutated IRs in ${Date.now() - started} ms; crashes ${crashes}, INTERNAL ${internal.length}; ${tally(answers.map((a) => a.code))}`);
    expect(internal).toEqual([]);
    expect(crashes).toBe(0);
  }, 30_000);

  it.each([[41], [42]])('answers 300 mutated P4Infos without INTERNAL or a crash (seed %i)', async (seed) => {
    rig = await switchRig();
    const program = compileCorpus('registers_counters');
    const base = plain(program.p4info);
    const rng = mulberry32(seed);
    const answers: Answer[] = [];
    const internal: string[] = [];
    let unsendable = 0;
    const started = Date.now();
    for (let i = 0; i < 300; i++) {
      const p4info = decoded(mutate(rng, base));
      if (!p4info) {
        unsendable++;
        continue;
      }
      // With the program's IR half the time: the IR must then be checked against a P4Info that no longer fits it.
      const config = rng() < 0.5 ? Buffer.from(program.irText) : Buffer.from('{}');
      const answer = await rig.push(p4info, config, rng() < 0.7 ? 'VERIFY' : 'VERIFY_AND_COMMIT');
      answers.push(answer);
      if (isInternal(answer)) internal.push(answer.details);
    }
    const good = await rig.push(program.p4info, Buffer.from(program.irText));
    const crashes = good.code === grpc.status.OK ? 0 : 1;
    console.log(
      `p4info fuzz seed ${seed}: ${answers.length} mutated P4Infos (${unsendable} not encodable, skipped) in ${Date.now() - started} ms; crashes ${crashes}, INTERNAL ${internal.length}; ${tally(answers.map((a) => a.code))}`,
    );
    expect(internal).toEqual([]);
    expect(crashes).toBe(0);
  }, 30_000);
});
