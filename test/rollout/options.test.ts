// `p4ina rollout` options: defaults, limits tied to the topology, and every bad option a typed
// ROLLOUT_BAD_OPTION naming the flag.
import { describe, expect, test } from 'vitest';
import { parseRolloutArgs } from '../../src/rollout/rollout-options.js';

describe('parseRolloutArgs', () => {
  test('defaults: 4 racks of 2, the algorithms Rina’s paper compares, every stage, loopback, 1 MiB', () => {
    expect(parseRolloutArgs([])).toMatchObject({
      topo: { kind: 'leafspine', racks: 4, hosts: 2, spines: 1 },
      algorithms: ['rina', 'atp', 'hierarchical', 'ring'],
      stages: undefined,
      tensorBytes: 1024 * 1024,
      net: 'loopback',
      bwMbps: undefined,
      loss: 0,
      repeats: 1,
      seed: 1,
      plotPath: 'rollout.svg',
      json: false,
    });
    expect(parseRolloutArgs(['--help'])).toBeUndefined();
  });

  test('the issue’s command line', () => {
    const o = parseRolloutArgs('--topo leafspine,racks=4,hosts=2,spines=1 --algorithms rina,atp,hierarchical,ring,switchml --stages 4,0,2 --tensor 16MiB --net mininet --bw 20 --loss 0.01 --repeat 3 --no-plot --json'.split(' '))!;
    expect(o).toMatchObject({ stages: [0, 2, 4], tensorBytes: 16 * 1024 * 1024, net: 'mininet', bwMbps: 20, loss: 0.01, repeats: 3, plotPath: undefined, json: true });
    expect(o.algorithms).toEqual(['rina', 'atp', 'hierarchical', 'ring', 'switchml']);
  });

  test.each([
    [['--stages', '5'], '--stages'],
    [['--topo', 'single,hosts=3', '--stages', '0,2'], '--stages'],
    [['--algorithms', 'rina,omni'], '"omni" is not one'],
    [['--algorithms', 'ring,ring'], 'lists ring twice'],
    [['--net', 'tofino'], '--net'],
    [['--tensor', '3'], '--tensor'],
    [['--loss', '0.9'], '--loss'],
    [['--repeat', '0'], '--repeat'],
    [['--topo', 'mesh'], '--topo'],
    [['--plot', 'a.svg', '--no-plot'], '--no-plot'],
    [['--bogus'], 'bogus'],
  ])('%j is refused, naming the problem', (argv, what) => {
    expect(() => parseRolloutArgs(argv)).toThrow(expect.objectContaining({ code: 'ROLLOUT_BAD_OPTION', message: expect.stringContaining(what) }));
  });
});
