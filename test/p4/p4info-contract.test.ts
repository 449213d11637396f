// The control-plane contract of docs/p4-programs.md, checked against the
// P4Info p4ina's compiler emits: every table (keys, actions, parameters,
// scopes, sizes, defaults), register and counter, by name and width, for
// every program; lookups by alias; and the document naming every object.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IrProgram } from '../../src/p4c/index.js';
import type { P4Schema } from '../../src/p4info/index.js';
import { ATP_P4, compiled, FORWARD_P4, ROOT, SWITCHML_P4 } from './helpers.js';

interface TableSpec {
  keys: [name: string, match: string, width: number][];
  /** action name → parameters [name, width] */
  actions: Record<string, [string, number][]>;
  defaultOnly?: string[];
  tableOnly?: string[];
  size: number;
  /** The initial default action, and whether it is const. */
  defaultAction: [name: string, isConst: boolean];
}

const FORWARDING_TABLES: Record<string, TableSpec> = {
  'ingress.identity.switch_address': {
    keys: [],
    actions: { 'ingress.identity.set_switch_address': [['mac', 48], ['ip', 32]], 'ingress.identity.no_switch_address': [] },
    size: 1,
    defaultAction: ['ingress.identity.no_switch_address', false],
  },
  'ingress.forwarding.ipv4_routes': {
    keys: [['dst_addr', 'LPM', 32]],
    actions: { 'ingress.forwarding.route': [['next_hop_mac', 48], ['port', 9]], NoAction: [] },
    defaultOnly: ['NoAction'],
    tableOnly: ['ingress.forwarding.route'],
    size: 1024,
    defaultAction: ['NoAction', true],
  },
  'ingress.forwarding.l2_forward': {
    keys: [['dst_mac', 'EXACT', 48]],
    actions: { 'ingress.forwarding.forward': [['port', 9]], 'ingress.forwarding.flood': [['group', 16]], 'ingress.forwarding.l2_miss': [] },
    defaultOnly: ['ingress.forwarding.l2_miss'],
    tableOnly: ['ingress.forwarding.forward', 'ingress.forwarding.flood'],
    size: 1024,
    defaultAction: ['ingress.forwarding.l2_miss', true],
  },
};

const SWITCHML_TABLES: Record<string, TableSpec> = {
  'ingress.switchml.jobs': {
    keys: [['job_id', 'EXACT', 16]],
    actions: {
      'ingress.switchml.set_job': [['slot_base', 16], ['pool_size', 16], ['worker_count', 8], ['mcast_group', 16]],
      'ingress.switchml.unknown_job': [],
    },
    defaultOnly: ['ingress.switchml.unknown_job'],
    tableOnly: ['ingress.switchml.set_job'],
    size: 64,
    defaultAction: ['ingress.switchml.unknown_job', true],
  },
  'ingress.switchml.workers': {
    keys: [['job_id', 'EXACT', 16], ['worker_id', 'EXACT', 8]],
    actions: {
      'ingress.switchml.accept_worker': [['bitmap_bit', 32]],
      'ingress.switchml.accept_worker_from': [['bitmap_bit', 32], ['src_addr', 32], ['src_port', 16]],
      'ingress.switchml.unknown_worker': [],
    },
    defaultOnly: ['ingress.switchml.unknown_worker'],
    tableOnly: ['ingress.switchml.accept_worker', 'ingress.switchml.accept_worker_from'],
    size: 2048,
    defaultAction: ['ingress.switchml.unknown_worker', true],
  },
  'egress.result_rewrite': {
    keys: [['job_id', 'EXACT', 16], ['egress_rid', 'EXACT', 16]],
    actions: { 'egress.rewrite_result': [['dst_mac', 48], ['dst_ip', 32], ['dst_port', 16]], 'egress.no_rewrite': [] },
    defaultOnly: ['egress.no_rewrite'],
    tableOnly: ['egress.rewrite_result'],
    size: 2048,
    defaultAction: ['egress.no_rewrite', true],
  },
};

const ATP_TABLES: Record<string, TableSpec> = {
  'ingress.atp_settings': {
    keys: [],
    actions: { 'ingress.set_atp_settings': [['ecn_threshold', 19], ['reclaim_after_us', 48]], 'ingress.default_atp_settings': [] },
    size: 1,
    defaultAction: ['ingress.default_atp_settings', false],
  },
  'ingress.atp.atp_jobs': {
    keys: [['job_id', 'EXACT', 16]],
    actions: {
      'ingress.atp.aggregate_at_level0': [['generation', 16], ['mcast_group', 16]],
      'ingress.atp.aggregate_at_level1': [['generation', 16]],
      'ingress.atp.no_job': [],
    },
    defaultOnly: ['ingress.atp.no_job'],
    tableOnly: ['ingress.atp.aggregate_at_level0', 'ingress.atp.aggregate_at_level1'],
    size: 64,
    defaultAction: ['ingress.atp.no_job', true],
  },
  'egress.ack_rewrite': {
    keys: [['job_id', 'EXACT', 16], ['egress_rid', 'EXACT', 16]],
    actions: { 'egress.rewrite_ack': [['dst_mac', 48], ['dst_ip', 32], ['dst_port', 16]], 'egress.no_ack_rewrite': [] },
    defaultOnly: ['egress.no_ack_rewrite'],
    tableOnly: ['egress.rewrite_ack'],
    size: 2048,
    defaultAction: ['egress.no_ack_rewrite', true],
  },
};

const FORWARDING_COUNTERS: Record<string, number> = { 'ingress.forwarding.forwarding_drops': 4 };
const SWITCHML_COUNTERS: Record<string, number> = {
  'ingress.switchml.switchml_drops': 16,
  'ingress.switchml.switchml_outcomes': 8,
  'egress.result_rewrite_misses': 1,
};

const ATP_COUNTERS: Record<string, number> = {
  'ingress.atp.atp_outcomes': 16,
  'egress.ack_rewrite_misses': 1,
  'egress.ecn_marks': 2,
};

/** register → [cell width, cells per aggregator]: sizes are ATP_AGGREGATORS × that. */
const ATP_REGISTERS: Record<string, [number, number]> = {
  'ingress.atp.owner': [32, 1],
  'ingress.atp.owner_generation': [16, 1],
  'ingress.atp.bitmap': [32, 1],
  'ingress.atp.count': [8, 1],
  'ingress.atp.ecn': [1, 1],
  'ingress.atp.touched_at': [48, 1],
  'ingress.atp.values': [32, 64],
};

/** register → [cell width, cells per slot copy]: sizes are 2 × SWITCHML_SLOTS × that. */
const SWITCHML_REGISTERS: Record<string, [number, 'cell' | 'value']> = {
  'ingress.switchml.seen': [32, 'cell'],
  'ingress.switchml.remaining': [8, 'cell'],
  'ingress.switchml.round_tsi': [32, 'cell'],
  'ingress.switchml.round_epoch': [8, 'cell'],
  'ingress.switchml.exponent_max': [8, 'cell'],
  'ingress.switchml.values': [32, 'value'],
};

function expectTable(schema: P4Schema, ir: IrProgram, name: string, spec: TableSpec): void {
  const alias = name.split('.').pop()!;
  const table = schema.tables.get(alias);
  expect(table.name).toBe(name);
  expect(table.matchFields.all.map((f) => [f.name, f.matchType, f.bitwidth])).toEqual(spec.keys);
  const refs = [...table.actionRefs.values()];
  expect(refs.map((r) => r.action.name).sort()).toEqual(Object.keys(spec.actions).sort());
  for (const ref of refs) {
    expect(ref.action.params.all.map((p) => [p.name, p.bitwidth]), ref.action.name).toEqual(spec.actions[ref.action.name]);
    const scope = (spec.defaultOnly ?? []).includes(ref.action.name) ? 'DEFAULT_ONLY'
      : (spec.tableOnly ?? []).includes(ref.action.name) ? 'TABLE_ONLY' : 'TABLE_AND_DEFAULT';
    expect(ref.scope, `${name}: ${ref.action.name}`).toBe(scope);
  }
  expect(table.size).toBe(spec.size);
  expect(table.needsPriority).toBe(false);
  expect(table.isConstTable).toBe(false);
  const [defaultName, isConst] = spec.defaultAction;
  // P4Info as p4c 1.2.4.8 writes it has no initial_default_action: the IR (the device config) carries the default.
  expect(ir.tables.find((t) => t.name === name)?.defaultAction.actionId).toBe(schema.actions.get(defaultName).id);
  expect(table.constDefaultActionId).toBe(isConst ? schema.actions.get(defaultName).id : 0);
}

describe('forward.p4 P4Info', () => {
  const { schema, ir } = compiled(FORWARD_P4);

  it('is for v1model and holds exactly the forwarding tables, one counter, no registers', () => {
    expect(schema.arch).toBe('v1model');
    expect(schema.tables.all.map((t) => t.name).sort()).toEqual(Object.keys(FORWARDING_TABLES).sort());
    expect(schema.counters.all.map((c) => c.name)).toEqual(Object.keys(FORWARDING_COUNTERS));
    expect(schema.registers.all).toEqual([]);
    expect(schema.directCounters.all.length + schema.meters.all.length + schema.digests.all.length).toBe(0);
  });

  it.each(Object.entries(FORWARDING_TABLES))('%s', (name, spec) => expectTable(schema, ir, name, spec));

  it('counts forwarding drops by reason in packets', () => {
    const counter = schema.counters.get('forwarding_drops');
    expect([counter.name, counter.unit, counter.size]).toEqual(['ingress.forwarding.forwarding_drops', 'PACKETS', 4]);
  });
});

describe('switchml.p4 P4Info', () => {
  const { schema, ir } = compiled(SWITCHML_P4);
  const tables = { ...FORWARDING_TABLES, ...SWITCHML_TABLES };
  const counters = { ...FORWARDING_COUNTERS, ...SWITCHML_COUNTERS };

  it('holds the forwarding and the SwitchML objects and nothing else', () => {
    expect(schema.tables.all.map((t) => t.name).sort()).toEqual(Object.keys(tables).sort());
    expect(schema.counters.all.map((c) => c.name).sort()).toEqual(Object.keys(counters).sort());
    expect(schema.registers.all.map((r) => r.name).sort()).toEqual(Object.keys(SWITCHML_REGISTERS).sort());
  });

  it.each(Object.entries(tables))('%s', (name, spec) => expectTable(schema, ir, name, spec));

  it.each(Object.entries(counters))('counter %s: packets, %i cells', (name, size) => {
    const counter = schema.counters.get(name.split('.').pop()!);
    expect([counter.name, counter.unit, counter.size]).toEqual([name, 'PACKETS', size]);
  });

  it.each(Object.entries(SWITCHML_REGISTERS))('register %s', (name, [width, per]) => {
    const register = schema.registers.get(name.split('.').pop()!);
    expect(register.name).toBe(name);
    expect(register.bitwidth).toBe(width);
    expect(register.size).toBe(2 * 4096 * (per === 'value' ? 64 : 1));
  });

  it('lets the controller read the configuration back: slots, elements, jobs', () => {
    const { schema: small } = compiled(SWITCHML_P4, ['SWITCHML_SLOTS=16', 'SWITCHML_ELEMENTS=32', 'SWITCHML_MAX_JOBS=4']);
    const cells = small.registers.get('seen').size;
    expect(cells / 2).toBe(16);
    expect(small.registers.get('values').size / cells).toBe(32);
    expect(small.tables.get('jobs').size).toBe(4);
    expect(small.tables.get('workers').size).toBe(4 * 32);
    expect(small.tables.get('result_rewrite').size).toBe(4 * 32);
  });
});

describe('atp.p4 P4Info', () => {
  const { schema, ir } = compiled(ATP_P4);
  const tables = { ...FORWARDING_TABLES, ...ATP_TABLES };
  const counters = { ...FORWARDING_COUNTERS, ...ATP_COUNTERS };

  it('holds the forwarding (as forward.p4 has it) and the ATP objects and nothing else', () => {
    expect(schema.arch).toBe('v1model');
    expect(schema.tables.all.map((t) => t.name).sort()).toEqual(Object.keys(tables).sort());
    expect(schema.counters.all.map((c) => c.name).sort()).toEqual(Object.keys(counters).sort());
    expect(schema.registers.all.map((r) => r.name).sort()).toEqual(Object.keys(ATP_REGISTERS).sort());
    expect(schema.directCounters.all.length + schema.meters.all.length + schema.digests.all.length).toBe(0);
  });

  it.each(Object.entries(tables))('%s', (name, spec) => expectTable(schema, ir, name, spec));

  it.each(Object.entries(counters))('counter %s: packets, %i cells', (name, size) => {
    const counter = schema.counters.get(name.split('.').pop()!);
    expect([counter.name, counter.unit, counter.size]).toEqual([name, 'PACKETS', size]);
  });

  it.each(Object.entries(ATP_REGISTERS))('register %s', (name, [width, per]) => {
    const register = schema.registers.get(name.split('.').pop()!);
    expect(register.name).toBe(name);
    expect(register.bitwidth).toBe(width);
    expect(register.size).toBe(4096 * per);
  });

  it('has the ids and names of forward.p4 for every forwarding object, so the controller installs forwarding unchanged', () => {
    const { schema: forward } = compiled(FORWARD_P4);
    for (const t of forward.tables.all) expect(schema.tables.get(t.name).id, t.name).toBe(t.id);
    for (const a of forward.actions.all) expect(schema.actions.get(a.name).id, a.name).toBe(a.id);
    for (const c of forward.counters.all) expect(schema.counters.get(c.name).id, c.name).toBe(c.id);
  });

  it('lets the controller read the configuration back: aggregators, values, jobs', () => {
    const { schema: small } = compiled(ATP_P4, ['ATP_AGGREGATORS=16', 'ATP_VALUES=32', 'ATP_MAX_JOBS=4']);
    expect(small.registers.get('owner').size).toBe(16);
    expect(small.registers.get('values').size / small.registers.get('owner').size).toBe(32);
    expect(small.tables.get('atp_jobs').size).toBe(4);
    expect(small.tables.get('ack_rewrite').size).toBe(4 * 32);
  });
});

describe('docs/p4-programs.md', () => {
  const doc = readFileSync(path.join(ROOT, 'docs', 'p4-programs.md'), 'utf8');

  it.each([SWITCHML_P4, ATP_P4].map((f) => path.basename(f)))('names every table, action, counter and register of %s', (file) => {
    const { schema } = compiled(path.join(ROOT, 'p4', file));
    const names = [...schema.tables.all, ...schema.actions.all, ...schema.counters.all].map((o) => o.name);
    for (const name of names) expect(doc, name).toContain(`\`${name}\``);
    for (const register of schema.registers.all) expect(doc, register.name).toContain(`\`${register.alias}\``);
    for (const table of schema.tables.all) {
      for (const field of table.matchFields.all) expect(doc, `${table.name} key ${field.name}`).toContain(`\`${field.name}\``);
    }
    for (const action of schema.actions.all) {
      for (const param of action.params.all) expect(doc, `${action.name}(${param.name})`).toContain(`\`${param.name}\` bit<${param.bitwidth}>`);
    }
  });
});
