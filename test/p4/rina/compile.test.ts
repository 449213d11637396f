// p4/rina_tor.p4 compiles with p4ina's front end for several value counts and
// pool sizes, its configuration errors stop it with the #error that names
// them, and its P4Info holds the names docs/rina.md gives.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileProgram } from '../../../src/p4c/index.js';
import { compiled, ROOT } from '../helpers.js';
import { RINA_TOR_P4 } from './support/rina-rig.js';

describe('configuration', () => {
  it.each([['RINA_ELEMENTS=8'], ['RINA_ELEMENTS=256'], ['RINA_SLOTS=1', 'RINA_MAX_JOBS=1'], ['RINA_SLOTS=32768']])('compiles with -D %s', (...defines) => {
    expect(() => compiled(RINA_TOR_P4, defines)).not.toThrow();
  });

  it.each([
    ['RINA_ELEMENTS=12', 'RINA_ELEMENTS must be a multiple of 8 from 8 to 256'],
    ['RINA_ELEMENTS=264', 'RINA_ELEMENTS must be a multiple of 8 from 8 to 256'],
    ['RINA_SLOTS=0', 'RINA_SLOTS must be from 1 to 32768'],
    ['RINA_SLOTS=32769', 'RINA_SLOTS must be from 1 to 32768'],
    ['RINA_MAX_JOBS=0', 'RINA_MAX_JOBS must be from 1 to 65536'],
  ])('-D %s stops with an #error', (define, message) => {
    const result = compileProgram(RINA_TOR_P4, { defines: [define] });
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.id)).toEqual(['ErrorDirective']);
    expect(errors[0]!.message).toContain(message);
  });
});

describe('P4Info', () => {
  const { p4info } = compiled(RINA_TOR_P4, ['RINA_ELEMENTS=16', 'RINA_SLOTS=128']);
  const tableSize = (name: string) => Number((p4info.tables ?? []).find((t) => t.preamble?.name === name)?.size);
  const names = (items: readonly { preamble?: { name?: string } | null }[] | null | undefined) => (items ?? []).map((i) => i.preamble?.name ?? '').sort();

  it('has the tables, counters and registers docs/rina.md names, with their sizes', () => {
    expect(names(p4info.tables)).toEqual([
      'egress.rina_rewrite', 'ingress.forwarding.ipv4_routes', 'ingress.forwarding.l2_forward', 'ingress.identity.switch_address',
      'ingress.rina.rina_jobs', 'ingress.rina.rina_workers',
    ]);
    expect(names(p4info.counters)).toEqual(['egress.rina_rewrite_misses', 'ingress.forwarding.forwarding_drops', 'ingress.rina.rina_drops', 'ingress.rina.rina_outcomes']);
    const registers = Object.fromEntries((p4info.registers ?? []).map((r) => [r.preamble!.name!, Number(r.size)]));
    expect(registers).toEqual({
      'ingress.rina.round.seen': 256, 'ingress.rina.round.pred_seen': 256, 'ingress.rina.round.remaining': 256,
      'ingress.rina.round.round_epoch': 256, 'ingress.rina.round.round_step': 256, 'ingress.rina.round.round_chunk': 256,
      'ingress.rina.round.round_segment': 256, 'ingress.rina.round.round_max': 256, 'ingress.rina.round.values': 256 * 16,
      'ingress.rina.round.stash_full': 256, 'ingress.rina.round.stash_epoch': 256, 'ingress.rina.round.stash_step': 256,
      'ingress.rina.round.stash_chunk': 256, 'ingress.rina.round.stash_values': 256 * 16,
    });
    expect(tableSize('ingress.rina.rina_jobs')).toBe(64);
    expect(tableSize('ingress.rina.rina_workers')).toBe(64 * 32);
    expect(tableSize('egress.rina_rewrite')).toBe(64 * 33);
  });

  it('set_rina_job takes the job\'s parameters in the documented order and widths', () => {
    const action = (p4info.actions ?? []).find((a) => a.preamble?.name === 'ingress.rina.set_rina_job');
    expect((action?.params ?? []).map((p) => [p.name, p.bitwidth])).toEqual([
      ['slot_base', 16], ['pool_size', 16], ['rack_mask', 32], ['rack_workers', 8], ['mcast_group', 16], ['rank', 16], ['last_step', 16],
      ['agent_ip', 32], ['agent_port', 16], ['pred_ip', 32], ['pred_port', 16],
    ]);
  });

  it('docs/rina.md names every table, action, counter and register of the program but the forwarding\'s (docs/p4-programs.md §2)', () => {
    const doc = readFileSync(path.join(ROOT, 'docs', 'rina.md'), 'utf8');
    const all = [...names(p4info.tables), ...names(p4info.actions), ...names(p4info.counters), ...names(p4info.registers)];
    const own = all.filter((n) => !/^(ingress\.(forwarding|identity)\.|NoAction$)/.test(n));
    expect(own.length).toBeGreaterThan(15);
    for (const name of own) expect(doc.includes(`\`${name}\``) || doc.includes(`\`${name.split('.').pop()}\``), name).toBe(true);
  });
});
