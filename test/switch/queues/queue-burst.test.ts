/**
 * A real switch (`launchSwitch`, UDP wires on loopback, real timers) with a
 * slow port: a burst overflows its queue. Whatever the timing of the burst,
 * every frame is either delivered or tail-dropped, delivered frames keep
 * their order, none saw a queue deeper than its capacity, and the drops are
 * counted on the port. The port is so slow (10 packets/s, 4 packets of
 * queue) that a burst sent back to back on loopback fills it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { P4RuntimeClient } from '../../../src/p4runtime/index.js';
import { udpRig, type UdpRig } from '../device/udp-rig.js';
import { probeFrame, probeProgram, readProbe } from './probe.js';

const BURST = 20;
const DEPTH = 4;
let rig: UdpRig | undefined;
let client: P4RuntimeClient | undefined;

afterEach(async () => {
  await client?.close();
  client = undefined;
  await rig?.close();
  rig = undefined;
});

describe('a burst into a rate-limited port of a running switch', () => {
  it('tail-drops what does not fit, delivers the rest in order with their queue depths, marks the deep ones', async () => {
    rig = await udpRig([1, 2], { queues: [{ port: 2, rate: { unit: 'pps', value: 10 } }, { port: 2, depth: DEPTH }] });
    client = new P4RuntimeClient({ address: `127.0.0.1:${rig.sw.grpcPort}`, deviceId: 0, electionId: 1n, reconnect: false });
    await client.connect();
    const program = probeProgram();
    await client.setPipeline({ p4info: program.p4info, deviceConfig: Buffer.from(program.irText) });
    for (let seq = 0; seq < BURST; seq++) await rig.hosts.get(1)!.send(probeFrame(2, seq));
    const device = rig.sw.device;
    const sink = rig.hosts.get(2)!;
    // Wait (bounded) until every frame is accounted for: delivered or dropped by the queue.
    const accounted = (): number => sink.received.length + (device.queueStats()[2]?.tailDrops ?? 0);
    const deadline = Date.now() + 15_000;
    while (accounted() < BURST && Date.now() < deadline) await sink.frames(sink.received.length + 1, 500);
    expect(accounted()).toBe(BURST);
    const stats = device.queueStats()[2]!;
    const delivered = sink.received.map((f) => readProbe(f));
    expect(stats.tailDrops).toBeGreaterThan(0);
    expect(stats).toMatchObject({ capacity: DEPTH, depth: 0, enqueued: delivered.length, departed: delivered.length });
    expect(stats.maxDepth).toBe(DEPTH);
    expect(device.portStats()[2]).toMatchObject({ packetsOut: delivered.length, dropped: stats.tailDrops });
    expect(device.portStats()[1]).toMatchObject({ packetsIn: BURST, dropped: 0 });
    // FIFO: delivered in the order sent; a depth never reaches the capacity (a full queue refuses).
    const seqs = delivered.map((p) => p.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    for (const p of delivered) {
      expect(p.enqQdepth).toBeLessThan(DEPTH);
      expect(p.mark).toBe(p.enqQdepth >= 2 ? 1 : 0);
      // At 10 packets/s a packet waits 100 ms for each one ahead of it: at least that long in the queue.
      expect(p.deqTimedelta).toBeGreaterThanOrEqual(p.enqQdepth * 100_000);
    }
    // The queue filled: some packet entered it with DEPTH - 1 ahead, and was marked.
    expect(Math.max(...delivered.map((p) => p.enqQdepth))).toBe(DEPTH - 1);
    expect(delivered.some((p) => p.mark === 1)).toBe(true);
  });
});
