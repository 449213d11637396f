// The STF files of test/stf (our own, written from the programs' logic and
// the protocol specs) run against the corpus programs and p4/*.p4.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStfReport } from '../../src/stf/index.js';
import { STF_DIR, ipv4ChecksumsIn, runFile } from './helpers.js';

function passes(name: string, program: string, defines: string[] = []): void {
  const result = runFile(name, program, { defines });
  expect(formatStfReport(result)).toMatch(/PASSED/);
  expect(result.status).toBe('passed');
}

describe('STF files against their programs', () => {
  it('basic_forward.stf: LPM routes, TTL and checksum, default action', () => {
    passes('basic_forward', 'test/p4c/corpus/basic_forward.p4');
  });

  it('multicast.stf: mc_mgrp_create / mc_node_create / mc_node_associate, flood pruning, per-port order', () => {
    passes('multicast', 'test/p4c/corpus/multicast.p4');
  });

  it('source_routing.stf: header stack pops, no tables', () => {
    passes('source_routing', 'test/p4c/corpus/source_routing.p4');
  });

  it('calc.stf: const entries answer every operator', () => {
    passes('calc', 'test/p4c/corpus/calc.p4');
  });

  it('digest_learning.stf: @name table and key, packet_in/packet_out headers on port 255', () => {
    passes('digest_learning', 'test/p4c/corpus/digest_learning.p4');
  });

  it('registers_counters.stf: register_write/read/reset, check_register, indexed and direct counters', () => {
    const result = runFile('registers_counters', 'test/p4c/corpus/registers_counters.p4');
    expect(result.failures).toEqual([]);
    expect(result.status).toBe('passed');
    expect(result.readings.map((r) => r.value)).toEqual(['42 (0x2a)', 'packets=2 bytes=92']);
  });

  it('acl_clone.stf: mirroring_add, an I2E clone of a denied packet, egress_spec 0 on an l2 miss', () => {
    passes('acl_clone', 'test/p4c/corpus/acl_clone.p4');
  });

  it('forward.stf (p4/forward.p4): address, routes, ARP, L2 forward and flood, drop counters', () => {
    passes('forward', 'p4/forward.p4');
  });

  it('classifier.stf (a program of the tests): ternary masks, ranges, optional, priorities', () => {
    passes('classifier', 'test/stf/programs/classifier.p4');
  });

  it('switchml.stf (p4/switchml.p4, 8 elements): aggregation, RESULT multicast with per-worker rewrite, retransmission', () => {
    passes('switchml', 'p4/switchml.p4', ['SWITCHML_ELEMENTS=8']);
  });
});

describe('the IPv4 checksums written in the STF files', () => {
  it.each(['basic_forward', 'registers_counters', 'acl_clone', 'forward', 'switchml'])('%s.stf: every full IPv4 header has a correct checksum (RFC 1071, computed here)', (name) => {
    const checked = ipv4ChecksumsIn(path.join(STF_DIR, `${name}.stf`));
    expect(checked.length).toBeGreaterThan(0);
    expect(checked.filter((c) => !c.ok)).toEqual([]);
  });
});
