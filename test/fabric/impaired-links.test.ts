// Seeded impairments on the loopback fabric's host links (the rollout
// sweep's --loss): single,hosts=2 on forward.p4, in process, numbered
// datagrams from p4ih1 to p4ih2 through p4ih1's relay (up), the switch and
// p4ih2's relay (down). Which datagrams a loss-only run loses is derived
// here from the seed and the documented stream labels with SeededRandom
// directly, one draw per datagram in the order each relay sees them, and
// compared with what arrived and with the relays' counters. Then the same
// seed again (the same sequence), another seed, duplication and
// reordering, and clean-up: no socket of this process left after close(),
// an abort, or a start refused.
import { afterEach, describe, expect, test } from 'vitest';
import { ProgramCache } from '../../src/controller/install/index.js';
import { legacyProgram, LoopbackFabric, parseTopoShorthand, shorthandTopology, type FabricImpairment, type FabricOptions, type HostLinkCounters } from '../../src/fabric/index.js';
import { compilePipeline } from '../../src/p4c/index.js';
import { SeededRandom } from '../../src/util/seeded-random.js';
import { testUdpPorts } from '../helpers/test-ports.js';
import { ownUdpPorts, sendNumbered, type Arrival } from './numbered-traffic.js';

const programs = new ProgramCache({ compiler: compilePipeline });
const fabrics: LoopbackFabric[] = [];
afterEach(async () => {
  await Promise.allSettled(fabrics.splice(0).map((f) => f.close()));
});

const onLinux = process.platform === 'linux';
const N = 400;
const LOSS = 0.2;

async function start(options: FabricOptions): Promise<LoopbackFabric> {
  const fabric = await LoopbackFabric.start(shorthandTopology(parseTopoShorthand('single,hosts=2')), { mode: 'in-process', program: () => legacyProgram(), programs, udpPorts: testUdpPorts, ...options });
  fabrics.push(fabric);
  return fabric;
}

/** The indices a loss-only run delivers: each relay direction draws once per datagram it sees, from SeededRandom(seed).derive(`fabric-HOST-DIR`). */
function expectedSurvivors(count: number, loss: number, seed: number | string): { up: number[]; delivered: number[] } {
  const upStream = new SeededRandom(seed).derive('fabric-p4ih1-up');
  const downStream = new SeededRandom(seed).derive('fabric-p4ih2-down');
  const up = Array.from({ length: count }, (_, i) => i).filter(() => !upStream.chance(loss));
  return { up, delivered: up.filter(() => !downStream.chance(loss)) };
}

const counters = (fabric: LoopbackFabric, host: string): HostLinkCounters => fabric.linkCounters().get(host)!;

describe('impaired host links', () => {
  test('loss 0.2: what arrives is intact, in order, exactly the datagrams the seeded streams keep, and the relays counted the losses', async () => {
    const seed = 'fabric-loss';
    const fabric = await start({ impairment: { loss: LOSS, seed } });
    // The agents' side of the wire names the relay, not the ToR port.
    const h1 = fabric.host('p4ih1');
    expect(fabric.wireArgs('p4ih1')).toContain(`127.0.0.1:${h1.peerPort}`);

    const arrivals = await sendNumbered(fabric, 'p4ih1', 'p4ih2', N);
    const { up, delivered } = expectedSurvivors(N, LOSS, seed);
    expect(arrivals.every((a) => a.intact)).toBe(true);
    expect(arrivals.map((a) => a.index)).toEqual(delivered);

    const sent = counters(fabric, 'p4ih1');
    const received = counters(fabric, 'p4ih2');
    expect(sent.up).toEqual({ received: N, lost: N - up.length, overflowed: 0, duplicated: 0, reordered: 0 });
    expect(received.down).toEqual({ received: up.length, lost: up.length - delivered.length, overflowed: 0, duplicated: 0, reordered: 0 });
    expect(sent.up.lost + received.down.lost).toBe(N - arrivals.length);
    // Nothing went the other way.
    expect(sent.down.received + received.up.received).toBe(0);
    // 0.2 of 400 and then of the rest: the oracle's own draws, not a tolerance on the relay.
    expect(delivered.length).toBeGreaterThan(0);
    expect(delivered.length).toBeLessThan(N);
  }, 60_000);

  test('setImpairment: the same seed again gives the same sequence and counters from zero; another seed another sequence', async () => {
    const fabric = await start({ impairment: { loss: LOSS, seed: 'a' } });
    const runs: { arrivals: Arrival[]; lost: number }[] = [];
    for (const seed of ['a', 'a', 'b']) {
      fabric.setImpairment({ loss: LOSS, seed });
      const arrivals = await sendNumbered(fabric, 'p4ih1', 'p4ih2', N);
      expect(arrivals.every((a) => a.intact)).toBe(true);
      expect(arrivals.map((a) => a.index)).toEqual(expectedSurvivors(N, LOSS, seed).delivered);
      expect(counters(fabric, 'p4ih1').up.received).toBe(N);
      runs.push({ arrivals, lost: counters(fabric, 'p4ih1').up.lost + counters(fabric, 'p4ih2').down.lost });
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]!.arrivals.map((a) => a.index)).not.toEqual(runs[0]!.arrivals.map((a) => a.index));
    for (const run of runs) expect(run.lost).toBe(N - run.arrivals.length);
  }, 60_000);

  test('duplication and reordering: every datagram arrives intact, the copies are the counted duplicates, and some arrive out of order', async () => {
    const fabric = await start({ impairment: { loss: 0, duplicate: 0.1, reorder: 0.2, seed: 7 } });
    const arrivals = await sendNumbered(fabric, 'p4ih1', 'p4ih2', N);
    expect(arrivals.every((a) => a.intact)).toBe(true);
    const up = counters(fabric, 'p4ih1').up;
    const down = counters(fabric, 'p4ih2').down;
    expect(up).toMatchObject({ received: N, lost: 0, overflowed: 0 });
    expect(down).toMatchObject({ received: N + up.duplicated, lost: 0, overflowed: 0 });
    expect(up.duplicated).toBeGreaterThan(0);
    expect(up.reordered).toBeGreaterThan(0);
    expect(arrivals).toHaveLength(N + up.duplicated + down.duplicated);
    const copies = new Map<number, number>();
    for (const a of arrivals) copies.set(a.index, (copies.get(a.index) ?? 0) + 1);
    expect([...copies.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect([...copies.values()].reduce((sum, c) => sum + c - 1, 0)).toBe(up.duplicated + down.duplicated);
    let overtaken = 0;
    let highest = -1;
    for (const a of arrivals) {
      if (a.index < highest) overtaken++;
      highest = Math.max(highest, a.index);
    }
    expect(overtaken).toBeGreaterThan(0);
  }, 60_000);

  test('an impairment out of range is refused: at start with nothing left open, at setImpairment with nothing changed', async () => {
    const before = onLinux ? ownUdpPorts() : [];
    await expect(start({ impairment: { loss: 1.5, seed: 1 } })).rejects.toThrow(RangeError);
    if (onLinux) expect(ownUdpPorts()).toEqual(before);
    const fabric = await start({ impairment: { loss: LOSS, seed: 'kept' } });
    expect(() => fabric.setImpairment({ loss: 0.1, duplicate: -1, seed: 1 })).toThrow(RangeError);
    expect(() => fabric.setImpairment({ loss: 0.1, seed: 0.5 })).toThrow(TypeError);
    expect((await sendNumbered(fabric, 'p4ih1', 'p4ih2', N)).map((a) => a.index)).toEqual(expectedSurvivors(N, LOSS, 'kept').delivered);
  }, 60_000);

  test('without the option: no relays, no counters, and only an impairment that changes nothing is accepted', async () => {
    const fabric = await start({});
    expect(fabric.linkCounters().size).toBe(0);
    fabric.setImpairment({ loss: 0, seed: 1 });
    expect(() => fabric.setImpairment({ loss: 0.01, seed: 1 })).toThrow(/start it with the impairment option/);
  }, 60_000);

  test.skipIf(!onLinux)('close(), an abort, or an abort during the start: no socket of this process is left', async () => {
    const before = ownUdpPorts();
    const impairment: FabricImpairment = { loss: 0.1, seed: 1 };
    const closed = await start({ impairment });
    // Two relay sockets and a switch port per host, at least.
    expect(ownUdpPorts().length).toBeGreaterThanOrEqual(before.length + 6);
    await closed.close();
    expect(ownUdpPorts()).toEqual(before);

    const abort = new AbortController();
    const aborted = await start({ impairment, signal: abort.signal });
    abort.abort();
    // The abort started the close: the fabric refuses work at once.
    expect(() => aborted.setImpairment(impairment)).toThrow(/closed/);
    await aborted.close();
    expect(ownUdpPorts()).toEqual(before);

    const early = new AbortController();
    const error = await start({
      impairment,
      signal: early.signal,
      udpPorts: async (n) => {
        const ports = await testUdpPorts(n);
        early.abort();
        return ports;
      },
    }).catch((err: unknown) => err);
    expect(error).toMatchObject({ code: 'FABRIC_INTERRUPTED' });
    expect(ownUdpPorts()).toEqual(before);
  }, 60_000);
});
