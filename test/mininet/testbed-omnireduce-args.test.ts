// The testbed's OmniReduce and sparsity arguments, run with Debian's python3
// on mininet/p4ina_mininet (its options and argv builders need no root and no
// Mininet): --sparsity/--pattern/--sparse-block reach every algorithm's
// workers unchanged (so dense algorithms reduce the tensors OmniReduce
// does), the OmniReduce job specs the controller gets, the agents' argv from
// its report, the switch block chosen as the demo chooses it, and the
// option errors.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { omniReduceDemoBlock } from '../../src/demo/omnireduce-run.js';
import { ROOT } from './helpers.js';

const PYTHON = '/usr/bin/python3';
const runnable = existsSync(PYTHON);
if (!runnable) console.warn(`test/mininet/testbed-omnireduce-args: skipped: ${PYTHON} is missing`);

/** Runs `body` (Python, with `parse` and `json` imported) and returns what it prints as JSON, or the process's failure. */
function python(body: string): { status: number | null; value: unknown; stderr: string } {
  const script = [
    'import json, sys',
    `sys.path.append(${JSON.stringify(path.join(ROOT, 'mininet'))})`,
    'from p4ina_mininet.options import parse',
    body,
  ].join('\n');
  const run = spawnSync(PYTHON, ['-B', '-c', script], { encoding: 'utf8' });
  return { status: run.status, value: run.status === 0 ? (JSON.parse(run.stdout) as unknown) : undefined, stderr: run.stderr };
}

const HOSTS = `
from p4ina_mininet.topologies import plan_single
plan = plan_single('p4t', 3, ps=1)
hosts = plan.hosts
`;

describe.runIf(runnable)('testbed OmniReduce and sparsity arguments (python3, no root)', () => {
  test('every algorithm\'s workers get the same --sparsity --pattern --sparse-block', () => {
    const { value, stderr } = python(`${HOSTS}
from p4ina_mininet.agents import switchml_argv, ring_argv, hierarchical_argv, ps_worker_argv
from p4ina_mininet.atp_jobs import atp_commands
o = parse(['--job', 'switchml,ps,ring,hierarchical', '--sparsity', '0.9', '--pattern', 'clustered', '--sparse-block', '64', '--tensor', '4KiB'])
atp = atp_commands('node', 'cli', {'id': 1, 'atp': {'level0': [], 'ps': {'host': 'ps1', 'args': []}, 'workers': [{'rank': 0, 'host': 'h1', 'args': []}]}}, o)
argvs = [switchml_argv('node', 'cli', hosts[0], 0, 3, '10.0.1.254', o), ring_argv('node', 'cli', hosts, 0, o),
         hierarchical_argv('node', 'cli', hosts, 0, o), ps_worker_argv('node', 'cli', plan.ps_hosts[0], 0, 3, o), atp['workers'][0][1]]
print(json.dumps([a[a.index('--length'):] for a in argvs]))`);
    expect(stderr).toBe('');
    const tail = ['--length', '1024', '--seed', '1', '--sparsity', '0.9', '--pattern', 'clustered', '--sparse-block', '64', '--check', '--json'];
    expect(value).toEqual([tail, tail, tail, tail, tail]);
    const dense = python(`${HOSTS}
from p4ina_mininet.agents import ring_argv
print(json.dumps(ring_argv('node', 'cli', hosts, 1, parse(['--tensor', '4KiB']))[-6:]))`);
    expect(dense.value).toEqual(['--length', '1024', '--seed', '1', '--check', '--json']);
  });

  test('the OmniReduce job specs: the host aggregator on the first PS host owning every slot, or the switch; blocks 256 and 128', () => {
    const { value, stderr } = python(`${HOSTS}
from p4ina_mininet.omnireduce_runs import omnireduce_job_spec
o = parse(['--job', 'omnireduce,omnireduce-switch,switchml', '--sparsity', '0.5'])
print(json.dumps([o.pool, o.server_hosts, omnireduce_job_spec(o, 'omnireduce', hosts, plan.ps_hosts[0]), omnireduce_job_spec(o, 'omnireduce-switch', hosts, None)]))`);
    expect(stderr).toBe('');
    const workers = [1, 2, 3].map((h, rank) => ({ rank, host: `p4th${h}`, udp_port: 0xbef0 }));
    expect(value).toEqual([
      32,
      1,
      { id: 21, name: 'testbed-omnireduce', algorithm: 'omnireduce', pool_size: 32, elements_per_packet: 256, workers, omnireduce: { aggregator: 'hosts', shards: [{ host: 'p4tps1', udp_port: 0xbef0, slots: 32 }] } },
      { id: 22, name: 'testbed-omnireduce-switch', algorithm: 'omnireduce', pool_size: 32, elements_per_packet: 128, workers, omnireduce: { aggregator: 'switch' } },
    ]);
  });

  test('the agents\' argv: the controller\'s arguments, then Mininet timing and the tensor; no OmniReduce plan, no commands', () => {
    const { value, stderr } = python(`
from p4ina_mininet.omnireduce_runs import omnireduce_commands
o = parse(['--job', 'omnireduce', '--sparsity', '0.99', '--tensor', '8KiB', '--seed', '3'])
applied = {'id': 21, 'runs': 'omnireduce', 'aggregation': [], 'omnireduce': {'aggregator': 'hosts', 'blockSize': 256, 'slots': 64,
  'aggregators': [{'host': 'ps1', 'firstSlot': 0, 'slotCount': 64, 'args': ['--listen', 'A']}],
  'workers': [{'rank': 1, 'host': 'h2', 'args': ['--rank', '1']}, {'rank': 0, 'host': 'h1', 'args': ['--rank', '0']}]}}
switch = {'id': 22, 'runs': 'omnireduce', 'aggregation': [{'switch': 's1'}], 'omnireduce': {'aggregator': 'switch', 'blockSize': 128, 'slots': 64, 'aggregators': [], 'workers': []}}
print(json.dumps([omnireduce_commands('node', 'cli', applied, o), omnireduce_commands('node', 'cli', switch, o)['info'],
                  omnireduce_commands('node', 'cli', {'id': 22, 'runs': 'switchml', 'aggregation': []}, o)]))`);
    expect(stderr).toBe('');
    const run = ['--timing', 'mininet', '--length', '2048', '--seed', '3', '--sparsity', '0.99', '--pattern', 'random', '--sparse-block', '256', '--check', '--json'];
    expect(value).toEqual([
      {
        info: { aggregator: 'ps1', blockSize: 256, slots: 64 },
        aggregators: [['ps1', ['node', 'cli', 'agent', 'omnireduce-aggregator', '--listen', 'A', '--json']]],
        workers: [
          ['h1', ['node', 'cli', 'agent', 'omnireduce-worker', '--rank', '0', ...run]],
          ['h2', ['node', 'cli', 'agent', 'omnireduce-worker', '--rank', '1', ...run]],
        ],
      },
      { aggregator: 's1', blockSize: 128, slots: 64 },
      null,
    ]);
  });

  test('the switch block is the demo\'s: the largest multiple of 8 up to 128 that divides the sparse block', () => {
    const blocks = Array.from({ length: 400 }, (_, i) => i + 1);
    const { value } = python(`from p4ina_mininet.options import switch_block\nprint(json.dumps([switch_block(b) for b in range(1, 401)]))`);
    const demo = blocks.map((b) => {
      try {
        return omniReduceDemoBlock('switch', b);
      } catch {
        return null;
      }
    });
    expect(value).toEqual(demo);
  });

  test('the INA switches start with the program the run needs first', () => {
    const { value } = python(`from p4ina_mininet.options import first_ina_program
print(json.dumps([first_ina_program(parse(['--job', j]).job) for j in ['omnireduce-switch,ring', 'switchml,omnireduce-switch', 'atp,omnireduce-switch', 'rina,omnireduce', 'omnireduce', 'ring']]))`);
    expect(value).toEqual(['omnireduce', 'switchml', 'atp', 'rina_tor', 'switchml', 'switchml']);
  });

  test('--target bmv2: the INA switches start with switchml.p4, the omnireduce-switch run gets --bmv2-omnireduce; a missing program names its flag', () => {
    const { value, stderr } = python(`from p4ina_mininet.programs import Programs, ProgramError
o = parse(['--target', 'bmv2', '--job', 'switchml,omnireduce-switch', '--bmv2-switchml', '/b/s.json,/b/s.txtpb', '--bmv2-omnireduce', '/b/o.json,/b/o.txtpb'])
p = Programs('node', 'cli', '/repo', '/tmp', o)
try:
    p.files('forward')
    missing = None
except ProgramError as err:
    missing = str(err)
print(json.dumps([p.first_ina, p.files(p.first_ina), p.files('omnireduce'), missing]))`);
    expect(stderr).toBe('');
    expect(value).toEqual([
      'switchml',
      { config: '/b/s.json', p4info: '/b/s.txtpb' },
      { config: '/b/o.json', p4info: '/b/o.txtpb' },
      '--target bmv2 needs --bmv2-forward JSON,P4INFO (p4c-bm2-ss outputs of p4/forward.p4; see README, or --legacy bridge --spine bridge)',
    ]);
  });

  test.each([
    [['--sparsity', '1.5'], '--sparsity is the share of all-zero blocks, 0 to 1'],
    [['--pattern', 'diagonal'], "invalid choice: 'diagonal'"],
    [['--job', 'omnireduce', '--sparse-block', '512'], '--job omnireduce: its block is --sparse-block, which is 512; at most 365 fits a 1500-byte MTU'],
    [['--job', 'omnireduce-switch', '--sparse-block', '100'], 'omnireduce.p4 takes blocks of 8 to 128 elements (a multiple of 8) and none divides --sparse-block 100'],
    [['--job', 'omnireduce-switch', '--target', 'bmv2'], '--bmv2-omnireduce JSON,P4INFO (p4c-bm2-ss outputs of p4/omnireduce.p4 with -DOMNIREDUCE_BLOCK=128'],
    [['--job', 'switchml,atp'], 'switchml and atp cannot run together'],
  ])('%j is refused: %s', (argv, message) => {
    const run = python(`parse(${JSON.stringify(argv)})\nprint('null')`);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
