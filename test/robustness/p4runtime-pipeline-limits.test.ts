// Issue #11 item 2: one pipeline push must not be able to kill the switch. Over real
// gRPC against a whole switch (IR executor included): a P4Info within the per-array
// limit but over the memory budget is refused before anything is allocated, with
// the figures; VERIFY and VERIFY_AND_SAVE allocate no store; P4Infos that are not
// well-formed and IRs that do not match their P4Info are INVALID_ARGUMENT naming the
// problem, never INTERNAL.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import type * as p4i from '../../src/proto/p4i.js';
import { editedP4Info } from '../conformance/helpers/programs.js';
import { buildP4Info } from '../helpers/p4info-builder.js';
import { compileCorpus } from '../switch/pipeline/harness.js';
import { type SwitchRig, switchRig } from './rig.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

let rig: SwitchRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** 32 registers of bit<64>, 2^24 cells each: each within the per-array limit, 16 GiB together. */
const HOSTILE = buildP4Info({
  actions: [{ name: 'NoAction' }],
  registers: Array.from({ length: 32 }, (_, i) => ({ name: `ingress.r${i}`, size: 1 << 24, bitwidth: 64 })),
});
const EMPTY = Buffer.from('{}');

describe('the pipeline memory budget', () => {
  it('refuses 32 bit<64> registers of 2^24 cells at VERIFY with RESOURCE_EXHAUSTED and the figures, allocating nothing', async () => {
    rig = await switchRig();
    for (const action of ['VERIFY', 'VERIFY_AND_SAVE', 'VERIFY_AND_COMMIT', 'RECONCILE_AND_COMMIT']) {
      collect();
      const before = process.memoryUsage();
      const answer = await rig.push(HOSTILE, EMPTY, action);
      collect();
      const after = process.memoryUsage();
      expect(answer.code, action).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(answer.details).toMatch(/would take about 16\.\d GiB, over this switch's pipeline memory budget of 1\.0 GiB/);
      expect(answer.details).toMatch(/register ingress\.r\d+ \(16777216 cells of 64 bits\): 512\.0 MiB/);
      expect(answer.details).toMatch(/--pipeline-memory-budget/);
      // The old switch allocated 32 x 2^24 bigint slots (4 GiB) at VERIFY and aborted.
      expect((after.heapUsed - before.heapUsed) / MiB).toBeLessThan(32);
      expect((after.arrayBuffers - before.arrayBuffers) / MiB).toBeLessThan(32);
    }
    expect(rig.device.state.pipeline).toBeUndefined();
  });

  it('takes the budget and the per-array limit as options', async () => {
    rig = await switchRig({ pipelineLimits: { memoryBudgetBytes: 4 * MiB, maxArrayCells: 1024 } });
    const p = compileCorpus('registers_counters');
    expect((await rig.push(p.p4info, Buffer.from(p.irText))).code).toBe(grpc.status.OK);
    const big = buildP4Info({ actions: [{ name: 'NoAction' }], registers: [{ name: 'ingress.r', size: 1025, bitwidth: 8 }] });
    const perArray = await rig.push(big, EMPTY, 'VERIFY');
    expect(perArray).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    expect(perArray.details).toMatch(/size of register ingress\.r is 1025, more than this switch allows \(maxArrayCells 1024\)/);
    const tables = buildP4Info({
      actions: [{ name: 'NoAction' }],
      tables: [{ name: 'ingress.t', keys: [['hdr.a', 'EXACT', 32]], actions: ['NoAction'], size: 100_000 }],
    });
    const overBudget = await rig.push(tables, EMPTY, 'VERIFY');
    expect(overBudget.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(overBudget.details).toMatch(/table ingress\.t \(100000 entries\): 25\.9 MiB/);
  });

  it('allocates no store at VERIFY_AND_SAVE; the first write to the saved pipeline does, and COMMIT runs it', async () => {
    rig = await switchRig();
    const p4info = buildP4Info({ actions: [{ name: 'NoAction' }], registers: [{ name: 'ingress.r', size: 1 << 22, bitwidth: 32 }] });
    const id = p4info.registers[0]!.preamble!.id;
    collect();
    const before = process.memoryUsage().arrayBuffers;
    expect((await rig.push(p4info, EMPTY, 'VERIFY_AND_SAVE')).code).toBe(grpc.status.OK);
    collect();
    expect(rig.device.state.current?.allocated).toBe(false);
    expect((process.memoryUsage().arrayBuffers - before) / MiB).toBeLessThan(8); // 2^22 cells would be 16 MiB
    const write = await rig.call('Write', {
      device_id: 1,
      election_id: { high: '0', low: '10' },
      updates: [{ type: 'MODIFY', entity: { register_entry: { register_id: id, index: { index: 5 }, data: { bitstring: Buffer.from([9]) } } } }],
    });
    expect(write.code).toBe(grpc.status.OK);
    expect(rig.device.state.current?.allocated).toBe(true);
    expect(rig.device.state.pipeline).toBeUndefined();
    expect((await rig.push(null as unknown as p4i.P4Info__Output, EMPTY, 'COMMIT')).code).toBe(grpc.status.INVALID_ARGUMENT); // COMMIT takes no config
    const commit = await rig.call('SetForwardingPipelineConfig', { device_id: 1, election_id: { high: '0', low: '10' }, action: 'COMMIT' });
    expect(commit.code).toBe(grpc.status.OK);
    expect(rig.device.state.pipeline?.forwarding.registers.find(id)?.cells[5]).toBe(9);
  });
});

type Edit = (plain: Record<string, unknown[]>) => void;
const table = (plain: Record<string, unknown[]>, i = 0) => plain.tables![i] as Record<string, unknown> & { preamble: Record<string, unknown> };

/** Mutations of a well-formed P4Info, each with what the refusal must say. */
const MALFORMED: [string, Edit, RegExp][] = [
  ['a duplicate table name', (p) => p.tables!.push({ ...table(p), preamble: { ...table(p).preamble, id: (table(p).preamble.id as number) + 1 } }), /two tables are named/],
  ['an action id used again by a table', (p) => (table(p).preamble.id = (p.actions![0] as { preamble: { id: number } }).preamble.id), /top byte 0x1 is not the table prefix 0x02/],
  ['a table id with the counter prefix', (p) => (table(p).preamble.id = 0x12000001), /top byte 0x12 is not the table prefix 0x02/],
  ['the same id for two registers', (p) => ((p.registers![1] as { preamble: { id: number } }).preamble.id = (p.registers![0] as { preamble: { id: number } }).preamble.id), /is used twice/],
  ['a negative table size', (p) => (table(p).size = '-5'), /size of table .* is -5; it must be a non-negative integer/],
  ['an absurd table size', (p) => (table(p).size = '9007199254740993'), /size of table .* must be a non-negative integer|more than this switch allows/],
  ['a negative counter size', (p) => ((p.counters![0] as Record<string, unknown>).size = '-1'), /size of counter .* is -1/],
  ['an absurd match field bitwidth', (p) => ((table(p).match_fields as { bitwidth: number }[])[0]!.bitwidth = 1 << 30), /bitwidth 1073741824, more than this switch allows/],
  ['a negative parameter bitwidth', (p) => ((p.actions!.find((a) => (a as { params?: unknown[] }).params?.length) as { params: { bitwidth: number }[] }).params[0]!.bitwidth = -8), /bitwidth -8; it must be a positive integer/],
  ['a reference to an unknown action', (p) => (table(p).action_refs as { id: number }[]).push({ id: 0x01abcdef }), /refers to action id 0x01abcdef, which the P4Info does not define/],
  ['a const default action not among the table’s', (p) => (table(p).const_default_action_id = 0x01abcdef), /const default action 0x01abcdef .* is not one of its actions/],
  ['an unknown direct resource', (p) => (table(p).direct_resource_ids = [0x13abcdef]), /direct resource id 0x13abcdef, which is not a direct counter or meter/],
  ['an action profile of an unknown table', (p) => (p.action_profiles = [{ preamble: { id: 0x11000001, name: 'ap' }, table_ids: [0x02abcdef], size: '4' }]), /refers to table id 0x02abcdef/],
  ['a preamble without id', (p) => (table(p).preamble.id = 0), /has id 0; P4Info ids are never 0/],
  ['an object without preamble', (p) => delete (table(p) as { preamble?: unknown }).preamble, /has no preamble/],
  ['two match fields with one id', (p) => (table(p).match_fields as { id: number; name: string }[]).push({ ...(table(p).match_fields as { id: number; name: string }[])[0]!, name: 'other' }), /two fields of table .* have id 1/],
];

describe('P4Infos that are not well-formed', () => {
  it.each(MALFORMED)('refuses %s with INVALID_ARGUMENT', async (_what, edit, message) => {
    rig = await switchRig();
    const base = compileCorpus('registers_counters').p4info;
    const broken = editedP4Info(base, edit);
    for (const action of ['VERIFY', 'VERIFY_AND_COMMIT']) {
      const answer = await rig.push(broken, EMPTY, action);
      expect(answer.code, `${action}: ${answer.details}`).toBe(grpc.status.INVALID_ARGUMENT);
      expect(answer.details).toMatch(message);
    }
    expect(rig.device.state.pipeline).toBeUndefined();
  });
});

describe('device configs whose IR does not match the P4Info', () => {
  const p = (): ReturnType<typeof compileCorpus> => compileCorpus('registers_counters');
  const ir = (edit: (ir: Record<string, unknown>) => void): Buffer => {
    const doc = JSON.parse(p().irText) as Record<string, unknown>;
    edit(doc);
    return Buffer.from(JSON.stringify(doc));
  };
  const externs = (doc: Record<string, unknown>) => doc.externs as { type: string; size: number | null; id: number }[];
  const CASES: [string, (ir: Record<string, unknown>) => void, RegExp][] = [
    ['a table the P4Info lacks', (d) => ((d.tables as { id: number }[])[0]!.id = 0x02abcdef), /table StatsIngress\.forwarding \(id 44813807\) is not in the P4Info: push the P4Info and IR of the same compile/],
    ['a register of another size', (d) => (externs(d).find((e) => e.type === 'register')!.size = 77), /register .* has 77 cells, the P4Info's \d+/],
    ['a counter id that is not a counter', (d) => (externs(d).find((e) => e.type === 'counter')!.id = 0x16000001), /counter .* is not a counter of the P4Info/],
    ['a null table', (d) => ((d.tables as unknown[])[0] = null), /a table that is not an object/],
    ['tables that are not a list', (d) => (d.tables = { a: 1 }), /"tables" is not a list/],
    ['an absurd width', (d) => ((d.headers as { fields: { width: number }[] }[])[0]!.fields[0]!.width = 2 ** 40), /width 1099511627776; it must be an integer from 0 to 65536/],
    ['a negative size', (d) => (externs(d).find((e) => e.type === 'register')!.size = -1), /size -1/],
  ];
  it.each(CASES)('refuses %s with INVALID_ARGUMENT', async (_what, edit, message) => {
    rig = await switchRig();
    const answer = await rig.push(p().p4info, ir(edit), 'VERIFY');
    expect(answer.code, answer.details).toBe(grpc.status.INVALID_ARGUMENT);
    expect(answer.details).toMatch(message);
  });

  it('accepts the IR and P4Info of one compile', async () => {
    rig = await switchRig();
    expect((await rig.push(p().p4info, Buffer.from(p().irText), 'VERIFY')).code).toBe(grpc.status.OK);
  });
});
