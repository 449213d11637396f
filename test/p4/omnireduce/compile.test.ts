// p4/omnireduce.p4 compiles with p4ina's front end for every block size it
// allows, its configuration errors stop it with the #error that names them,
// its P4Info holds the names, keys, parameters and sizes docs/p4-programs.md
// §5 gives, and the controller's entry builder writes exactly those names.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../../src/p4c/index.js';
import { OMNIREDUCE_NAMES } from '../../../src/controller/install/omnireduce-entries.js';
import { compiled, ROOT } from '../helpers.js';
import { OMNIREDUCE_P4 } from './support/omnireduce-rig.js';

describe('configuration', () => {
  it.each([['OMNIREDUCE_BLOCK=8'], ['OMNIREDUCE_BLOCK=128'], ['OMNIREDUCE_SLOTS=1', 'OMNIREDUCE_MAX_JOBS=1'], ['OMNIREDUCE_SLOTS=32768']])('compiles with -D %s', (...defines) => {
    expect(() => compiled(OMNIREDUCE_P4, defines)).not.toThrow();
  });

  it.each([
    ['OMNIREDUCE_BLOCK=12', 'OMNIREDUCE_BLOCK must be a multiple of 8 from 8 to 128'],
    ['OMNIREDUCE_BLOCK=136', 'OMNIREDUCE_BLOCK must be a multiple of 8 from 8 to 128'],
    ['OMNIREDUCE_BLOCK=256', 'OMNIREDUCE_BLOCK must be a multiple of 8 from 8 to 128'],
    ['OMNIREDUCE_SLOTS=0', 'OMNIREDUCE_SLOTS must be from 1 to 32768'],
    ['OMNIREDUCE_SLOTS=32769', 'OMNIREDUCE_SLOTS must be from 1 to 32768'],
    ['OMNIREDUCE_MAX_JOBS=0', 'OMNIREDUCE_MAX_JOBS must be from 1 to 65536'],
  ])('-D %s stops with an #error', (define, message) => {
    const result = compileProgram(OMNIREDUCE_P4, { defines: [define] });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.id)).toEqual(['ErrorDirective']);
    expect(errors[0]!.message).toContain(message);
  });
});

describe('P4Info', () => {
  const { p4info } = compiled(OMNIREDUCE_P4, ['OMNIREDUCE_BLOCK=16', 'OMNIREDUCE_SLOTS=128']);
  const tableSize = (name: string) => Number((p4info.tables ?? []).find((t) => t.preamble?.name === name)?.size);
  const names = (items: readonly { preamble?: { name?: string } | null }[] | null | undefined) => (items ?? []).map((i) => i.preamble?.name ?? '').sort();
  const params = (name: string) => ((p4info.actions ?? []).find((a) => a.preamble?.name === name)?.params ?? []).map((p) => [p.name, p.bitwidth]);
  const keys = (name: string) => ((p4info.tables ?? []).find((t) => t.preamble?.name === name)?.match_fields ?? []).map((f) => [f.name, f.bitwidth, f.match_type]);

  it('has the tables, counters and registers docs/p4-programs.md §5 names, with their sizes', () => {
    expect(names(p4info.tables)).toEqual([
      'egress.reply_rewrite', 'ingress.forwarding.ipv4_routes', 'ingress.forwarding.l2_forward', 'ingress.identity.switch_address',
      'ingress.omnireduce.omnireduce_jobs', 'ingress.omnireduce.omnireduce_workers',
    ]);
    expect(names(p4info.counters)).toEqual(['egress.reply_rewrite_misses', 'ingress.forwarding.forwarding_drops', 'ingress.omnireduce.omnireduce_drops', 'ingress.omnireduce.omnireduce_outcomes']);
    const registers = Object.fromEntries((p4info.registers ?? []).map((r) => [r.preamble!.name!, Number(r.size)]));
    const r = 'ingress.omnireduce.round.';
    expect(registers).toEqual({
      [`${r}newest`]: 128, [`${r}seen`]: 256, [`${r}remaining`]: 256, [`${r}round_tsi`]: 256, [`${r}round_priming`]: 256,
      [`${r}min_next`]: 256, [`${r}next_exponent`]: 256, [`${r}values`]: 256 * 16,
    });
    expect(tableSize('ingress.omnireduce.omnireduce_jobs')).toBe(64);
    expect(tableSize('ingress.omnireduce.omnireduce_workers')).toBe(64 * 32);
    expect(tableSize('egress.reply_rewrite')).toBe(64 * 32);
  });

  it('keys and action parameters in the documented order and widths', () => {
    expect(keys('ingress.omnireduce.omnireduce_workers')).toEqual([['src_addr', 32, 'EXACT'], ['src_port', 16, 'EXACT']]);
    expect(keys('ingress.omnireduce.omnireduce_jobs')).toEqual([['job_id', 16, 'EXACT']]);
    expect(keys('egress.reply_rewrite')).toEqual([['job_id', 16, 'EXACT'], ['egress_rid', 16, 'EXACT']]);
    expect(params('ingress.omnireduce.accept_worker')).toEqual([['job_id', 16], ['bitmap_bit', 32]]);
    expect(params('ingress.omnireduce.set_job')).toEqual([['slot_base', 16], ['first_slot', 16], ['slot_count', 16], ['worker_count', 8], ['mcast_group', 16]]);
    expect(params('egress.rewrite_reply')).toEqual([['dst_mac', 48], ['dst_ip', 32], ['dst_port', 16]]);
  });

  it('the entry builder\'s names are the program\'s', () => {
    const all = new Set([...names(p4info.tables), ...names(p4info.actions), ...names(p4info.registers)]);
    for (const name of Object.values(OMNIREDUCE_NAMES)) expect(all.has(name), name).toBe(true);
  });

  it('docs/p4-programs.md names every table, action, counter and register of the program', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'p4-programs.md'), 'utf8');
    const all = [...names(p4info.tables), ...names(p4info.actions), ...names(p4info.counters), ...names(p4info.registers)];
    const own = all.filter((n) => !/^(ingress\.(forwarding|identity)\.|NoAction$)/.test(n));
    expect(own.length).toBeGreaterThan(15);
    for (const name of own) expect(doc.includes(`\`${name}\``) || doc.includes(`\`${name.split('.').pop()}\``), name).toBe(true);
  });
});
