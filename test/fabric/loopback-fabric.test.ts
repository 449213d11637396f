// The loopback fabric end to end: shorthand topologies started as real
// switches (processes of the built CLI, or in this process), programmed by
// the controller over gRPC, and ordinary traffic from every host to every
// other host over the UDP wires. What arrives is checked against the
// addressing the shorthand implies (derived here, not read from the
// fabric): the destination's MAC and the last ToR's as the frame's, the
// hosts' IPs and ports, and one TTL less per switch on the path (each
// routes), also through relays on the host links. Then reprogramming, a
// switch that dies, an interrupted start.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ProgramCache } from '../../src/controller/install/index.js';
import { freeUdpPorts } from '../../src/demo/free-ports.js';
import { FabricError, inaProgram, legacyProgram, LoopbackFabric, parseTopoShorthand, shorthandTopology, type FabricOptions, type ShorthandOptions } from '../../src/fabric/index.js';
import { compilePipeline } from '../../src/p4c/index.js';
import { atpSource, builtCliEntry, packageRoot } from '../../src/run/package-paths.js';
import { descendants, isAlive } from '../demo/helpers.js';
import { testUdpPorts } from '../helpers/test-ports.js';
import { SENT_TTL, sendAllPairs, udpPortOf, type Arrival } from './all-pairs.js';

const CLI = builtCliEntry();
const BUILT = existsSync(CLI) && existsSync(path.join(packageRoot(), 'dist', 'src', 'fabric', 'index.js'));
const programs = new ProgramCache({ compiler: compilePipeline });
const fabrics: LoopbackFabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

async function start(topo: string, shorthand: ShorthandOptions, options: FabricOptions): Promise<LoopbackFabric> {
  const fabric = await LoopbackFabric.start(shorthandTopology(parseTopoShorthand(topo), { inaProgram: atpSource(), ...shorthand }), { programs, udpPorts: testUdpPorts, ...options });
  fabrics.push(fabric);
  return fabric;
}

const hex2 = (n: number): string => n.toString(16).padStart(2, '0');

/** What host `n` (1-based, numbered across racks of `perRack`) and its ToR are, by the shorthand's rules. */
function expectedHost(n: number, perRack: number): { rack: number; ip: string; mac: string; torMac: string } {
  const rack = Math.ceil(n / perRack);
  const index = n - (rack - 1) * perRack;
  return { rack, ip: `10.0.${rack}.${index}`, mac: `08:00:00:00:${hex2(rack)}:${hex2(index)}`, torMac: `02:00:00:00:${hex2(rack)}:fe` };
}

function expectedArrival(fabric: LoopbackFabric, from: number, to: number, perRack: number): Arrival {
  const a = expectedHost(from, perRack);
  const b = expectedHost(to, perRack);
  // Same rack: the ToR alone; another rack: ToR, spine, ToR. Each routes and takes one off the TTL.
  const switches = a.rack === b.rack ? 1 : 3;
  return {
    from: `p4ih${from}`,
    to: `p4ih${to}`,
    ethSrc: b.torMac,
    ethDst: b.mac,
    srcIp: a.ip,
    dstIp: b.ip,
    srcPort: udpPortOf(fabric, `p4ih${from}`),
    dstPort: udpPortOf(fabric, `p4ih${to}`),
    ttl: SENT_TTL - switches,
  };
}

async function expectAllPairs(fabric: LoopbackFabric, hosts: number, perRack: number): Promise<void> {
  const { arrivals, strays } = await sendAllPairs(fabric);
  const expected: Arrival[] = [];
  for (let a = 1; a <= hosts; a++) for (let b = 1; b <= hosts; b++) if (a !== b) expected.push(expectedArrival(fabric, a, b, perRack));
  expect(arrivals).toEqual(expected);
  expect(strays).toBe(0);
}

/** Whether a UDP port on 127.0.0.1 can be bound (nobody holds it). */
async function bindable(port: number): Promise<boolean> {
  const { createSocket } = await import('node:dgram');
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    s.once('error', () => resolve(false));
    s.bind(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe.each(['in-process', 'process'] as const)('the loopback fabric, switches %s', (mode) => {
  const needsBuild = mode === 'process' && !BUILT;

  test.skipIf(needsBuild)('leafspine,racks=2,hosts=2,spines=1 (t1 INA, t2 legacy): every host reaches every other, routed hop by hop; close frees every process and socket', async () => {
    const fabric = await start('leafspine,racks=2,hosts=2,spines=1', { inaRacks: [1] }, { mode });
    expect([...fabric.hosts.keys()]).toEqual(['p4ih1', 'p4ih2', 'p4ih3', 'p4ih4']);
    expect(fabric.switches().map((s) => [s.name, s.program.ina, path.basename(s.program.program.p4!)])).toEqual([
      ['p4it1', true, 'atp.p4'],
      ['p4it2', false, 'forward.p4'],
      ['p4is1', false, 'forward.p4'],
    ]);
    for (const s of fabric.switches()) expect(fabric.topology.switches.get(s.name)!.grpc).toBe(s.grpc);
    expect(fabric.host('p4ih3')).toMatchObject({ tor: 'p4it2', torPort: 1, gatewayMac: '02:00:00:00:02:fe', ip: '10.0.2.1', mac: '08:00:00:00:02:01' });
    await expectAllPairs(fabric, 4, 2);
    const pids = fabric.switches().map((s) => s.pid);
    if (mode === 'process') expect(pids.every((pid) => pid !== process.pid && isAlive(pid))).toBe(true);
    await fabric.close();
    if (mode === 'process') expect(pids.filter(isAlive)).toEqual([]);
    for (const h of fabric.hosts.values()) expect(await bindable(h.peerPort)).toBe(true);
  }, 180_000);

  test.skipIf(needsBuild)('single,hosts=3 (INA): every host reaches every other through the one switch', async () => {
    const fabric = await start('single,hosts=3', {}, { mode });
    expect(fabric.switches().map((s) => s.name)).toEqual(['p4is1']);
    await expectAllPairs(fabric, 3, 3);
  }, 180_000);

  test.skipIf(needsBuild)('single,hosts=3 with a relay on every host link (an impairment that changes nothing): the same traffic, each relay counted its host’s frames', async () => {
    const fabric = await start('single,hosts=3', {}, { mode, impairment: { loss: 0, seed: 1 } });
    await expectAllPairs(fabric, 3, 3);
    // Each host sent one datagram to each of the two others and was sent one by each.
    const none = { lost: 0, overflowed: 0, duplicated: 0, reordered: 0 };
    for (const name of fabric.hosts.keys()) expect(fabric.linkCounters().get(name)).toEqual({ up: { received: 2, ...none }, down: { received: 2, ...none } });
  }, 180_000);
});

describe('the loopback fabric: reprogramming and failures', () => {
  test('reprogram: t1 to forward.p4 and t2 to atp.p4 as a rollout stage would; the switches say so, forwarding is back, the old controller is closed', async () => {
    const fabric = await start('leafspine,racks=2,hosts=2,spines=1', { inaRacks: [1] }, { mode: 'in-process' });
    const before = await fabric.controller();
    await fabric.reprogramAll(
      new Map([
        ['p4it1', legacyProgram()],
        ['p4it2', inaProgram(atpSource())],
      ]),
    );
    expect([...fabric.topology.switches.values()].map((s) => [s.name, s.ina])).toEqual([
      ['p4it1', false],
      ['p4it2', true],
      ['p4is1', false],
    ]);
    // The earlier controller held election id 1 on every switch: a new one with the same id connects only if it was closed.
    const after = await fabric.controller();
    const tables = async (sw: string): Promise<string[]> => ((await after.sessions.get(sw)!.client.getPipeline('P4INFO_AND_COOKIE')).p4info?.tables ?? []).map((t) => t.preamble?.name ?? '');
    expect(await tables('p4it1')).not.toContain('ingress.atp.atp_jobs');
    expect(await tables('p4it2')).toContain('ingress.atp.atp_jobs');
    expect(before).not.toBe(after);
    await expectAllPairs(fabric, 4, 2);
  }, 180_000);

  test('an INA switch with no program is refused before anything starts (FABRIC_NO_PROGRAM)', async () => {
    const topology = shorthandTopology(parseTopoShorthand('single,hosts=2'));
    let asked = 0;
    const error = await LoopbackFabric.start(topology, { mode: 'in-process', programs, udpPorts: (n) => (asked++, testUdpPorts(n)) }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(FabricError);
    expect(error).toMatchObject({ code: 'FABRIC_NO_PROGRAM', message: expect.stringMatching(/switch p4is1 is INA-capable but has no program/) });
    expect(asked).toBe(0);
  });

  test.skipIf(!BUILT)('a switch process that dies: fabric.failed says which (FABRIC_SWITCH_EXITED)', async () => {
    const fabric = await start('leafspine,racks=2,hosts=1,spines=1', { inaRacks: [] }, { mode: 'process' });
    const victim = fabric.switches().find((s) => s.name === 'p4is1')!;
    process.kill(victim.pid, 'SIGKILL');
    const error = await fabric.failed;
    expect(error).toMatchObject({ code: 'FABRIC_SWITCH_EXITED', message: expect.stringMatching(new RegExp(`^switch p4is1 \\(pid ${victim.pid}\\) exited with signal SIGKILL`)) });
  }, 180_000);

  test.skipIf(!BUILT)('aborted while the switch processes start: FABRIC_INTERRUPTED and none left running', async () => {
    const abort = new AbortController();
    const earlier = new Set(descendants(process.pid));
    const error = await LoopbackFabric.start(shorthandTopology(parseTopoShorthand('leafspine,racks=2,hosts=1,spines=1'), { inaRacks: [] }), {
      programs,
      signal: abort.signal,
      udpPorts: async (n) => {
        const ports = await freeUdpPorts(n);
        abort.abort();
        return ports;
      },
    }).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'FABRIC_INTERRUPTED' });
    expect(descendants(process.pid).filter((pid) => !earlier.has(pid) && isAlive(pid))).toEqual([]);
  }, 60_000);
});
