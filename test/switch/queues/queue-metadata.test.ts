/**
 * The egress queues in the switch, seen by a P4 program (queue_probe.p4
 * copies standard_metadata's queueing fields into the frame), on a virtual
 * clock. Expected values come from the definitions in BMv2's simple_switch
 * documentation: enq_qdepth / deq_qdepth = packets in the queue when the
 * packet entered / left it, deq_timedelta = µs spent in it, enq_timestamp =
 * µs when it entered; and from the rate: at 1000 packets/s a backlog leaves
 * one packet per 1000 µs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MULTICAST, probeFrame, probeProgram, probeSwitch, writeUpdates, type ProbeSwitch } from './probe.js';

const T0 = 1_000_000;
let sw: ProbeSwitch | undefined;

afterEach(async () => {
  await sw?.device.stop();
  sw = undefined;
});

describe('queueing metadata seen by egress', () => {
  it('enq_qdepth counts the packets ahead, deq_qdepth those behind, deq_timedelta the µs spent queued', () => {
    sw = probeSwitch([{ port: 2, rate: { unit: 'pps', value: 1000 } }], T0);
    for (let seq = 0; seq < 5; seq++) sw.send(0, probeFrame(2, seq));
    sw.clock.advanceTo(T0 + 2500); // 0 left at T0, 1 at +1000, 2 at +2000; 3 and 4 wait
    sw.send(0, probeFrame(2, 5));
    sw.clock.advanceTo(T0 + 10_000);
    const sent = sw.ports.get(2)!.sent;
    // The link is busy from T0 on: packet k leaves at T0 + k·1000 µs.
    expect(sent.map((s) => s.at)).toEqual([0, 1, 2, 3, 4, 5].map((k) => T0 + k * 1000));
    expect(sent.map(({ probe: p }) => [p.seq, p.enqQdepth, p.deqQdepth, p.deqTimedelta, p.enqTimestamp])).toEqual([
      [0, 0, 0, 0, T0], // found the link free: left at once
      [1, 0, 3, 1000, T0], // 0 had left; 2, 3, 4 behind it when it left at +1000
      [2, 1, 2, 2000, T0],
      [3, 2, 2, 3000, T0], // 5 arrived at +2500, behind it
      [4, 3, 1, 4000, T0],
      [5, 2, 0, 2500, T0 + 2500], // 3 and 4 ahead at +2500; left at +5000
    ]);
    // ingress_global_timestamp when it arrived, egress_global_timestamp when it left the queue.
    for (const { at, probe } of sent) {
      expect(probe.ingressTs).toBe(probe.enqTimestamp);
      expect(probe.egressTs).toBe(at);
    }
    expect(sent.map((s) => s.probe.mark)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('tail drops beyond the capacity are counted on the egress port, in port stats and queue stats', () => {
    sw = probeSwitch([{ port: 2, rate: { unit: 'pps', value: 100 } }, { port: 2, depth: 3 }], T0);
    for (let seq = 0; seq < 10; seq++) sw.send(0, probeFrame(2, seq));
    sw.clock.advanceTo(T0 + 1_000_000);
    // One leaves at once, 3 wait, 6 are refused.
    const sent = sw.ports.get(2)!.sent;
    expect(sent.map((s) => [s.probe.seq, s.probe.enqQdepth])).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(sw.device.portStats()[2]).toMatchObject({ packetsOut: 4, dropped: 6 });
    expect(sw.device.portStats()[0]).toMatchObject({ packetsIn: 10, dropped: 0 });
    expect(sw.device.queueStats()[2]).toMatchObject({ capacity: 3, depth: 0, maxDepth: 3, enqueued: 4, departed: 4, tailDrops: 6, rate: { unit: 'pps', value: 100 } });
  });

  it('multicast replicas each wait in their own port\'s queue', () => {
    sw = probeSwitch([{ port: 1, rate: { unit: 'pps', value: 500 } }, { port: 2, rate: { unit: 'pps', value: 1000 } }], T0);
    writeUpdates(sw.device, [
      { type: 'INSERT', entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: 1, replicas: [1, 2, 3].map((p) => ({ egress_port: p, instance: 10 + p })) } } } },
    ]);
    for (let seq = 0; seq < 3; seq++) sw.send(0, probeFrame(MULTICAST, seq));
    // Port 3 has no queue: its copies left during the sends, before any time passed.
    expect(sw.ports.get(3)!.sent.map((s) => [s.at, s.probe.seq, s.probe.enqQdepth, s.probe.deqTimedelta, s.probe.egressRid])).toEqual([
      [T0, 0, 0, 0, 13],
      [T0, 1, 0, 0, 13],
      [T0, 2, 0, 0, 13],
    ]);
    sw.clock.advanceTo(T0 + 1_000_000);
    // Each copy is a replica (instance_type 5, v1model's REPLICATION) of its own port and rid, the first leaving at once.
    const seen = (port: number): number[][] => sw!.ports.get(port)!.sent.map((s) => [s.at - T0, s.probe.seq, s.probe.enqQdepth, s.probe.egressPort, s.probe.egressRid, s.probe.instanceType]);
    expect(seen(2)).toEqual([
      [0, 0, 0, 2, 12, 5],
      [1000, 1, 0, 2, 12, 5],
      [2000, 2, 1, 2, 12, 5],
    ]);
    expect(seen(1)).toEqual([
      [0, 0, 0, 1, 11, 5],
      [2000, 1, 0, 1, 11, 5],
      [4000, 2, 1, 1, 11, 5],
    ]);
  });

  it('a port without a rate egresses at once, as a switch without queues does', () => {
    const frames = [probeFrame(1, 0), probeFrame(1, 1)];
    const plain = probeSwitch([], T0);
    sw = probeSwitch([{ port: 2, rate: { unit: 'pps', value: 10 } }, { depth: 8 }], T0);
    for (const f of frames) {
      plain.send(0, f);
      sw.send(0, f);
    }
    const got = sw.ports.get(1)!.sent;
    expect(got).toEqual(plain.ports.get(1)!.sent);
    expect(got.map((s) => s.probe)).toEqual(
      [0, 1].map((seq) => ({ seq, egressPort: 1, egressRid: 0, enqQdepth: 0, deqQdepth: 0, enqTimestamp: T0, deqTimedelta: 0, ingressTs: T0, egressTs: T0, mark: 0, instanceType: 0 })),
    );
    expect(sw.clock.pending).toBe(0);
    expect(sw.device.queueStats()[1]).toBeUndefined();
    return plain.device.stop();
  });
});

describe('clones', () => {
  it('I2E and E2E clones wait in the queue of their session\'s port', () => {
    sw = probeSwitch([{ port: 3, rate: { unit: 'pps', value: 1000 } }], T0);
    writeUpdates(sw.device, [
      { type: 'INSERT', entity: { packet_replication_engine_entry: { clone_session_entry: { session_id: 5, replicas: [{ egress_port: 3, instance: 0 }] } } } },
      { type: 'INSERT', entity: { packet_replication_engine_entry: { clone_session_entry: { session_id: 6, replicas: [{ egress_port: 3, instance: 0 }] } } } },
    ]);
    // Originals to unlimited ports 1 (cloned at ingress) and 2 (cloned at egress); every clone to port 3.
    sw.send(0, probeFrame(1, 0, { i2e: 5 }));
    sw.send(0, probeFrame(2, 1, { e2e: 6 }));
    sw.send(0, probeFrame(1, 2, { i2e: 5 }));
    expect(sw.ports.get(1)!.sent.map((s) => [s.at, s.probe.seq, s.probe.instanceType])).toEqual([
      [T0, 0, 0],
      [T0, 2, 0],
    ]);
    expect(sw.ports.get(2)!.sent.map((s) => [s.at, s.probe.seq, s.probe.instanceType])).toEqual([[T0, 1, 0]]);
    sw.clock.advanceTo(T0 + 1_000_000);
    // instance_type 1 = I2E clone, 2 = E2E clone; one every 1000 µs in the order they were cloned.
    expect(sw.ports.get(3)!.sent.map((s) => [s.at - T0, s.probe.seq, s.probe.instanceType, s.probe.enqQdepth, s.probe.deqTimedelta])).toEqual([
      [0, 0, 1, 0, 0],
      [1000, 1, 2, 0, 1000],
      [2000, 2, 1, 1, 2000],
    ]);
  });
});

describe('queue settings at run time', () => {
  it('setPortRate and setQueueDepth apply from the next packet; unlimited sends what waits at once', () => {
    sw = probeSwitch([], T0);
    sw.device.setPortRate({ unit: 'pps', value: 1000 }, 2);
    sw.device.setQueueDepth(2, 2);
    expect(sw.device.queueSettings(2)).toEqual({ rate: { unit: 'pps', value: 1000 }, depth: 2 });
    for (let seq = 0; seq < 4; seq++) sw.send(0, probeFrame(2, seq)); // 0 leaves, 1 and 2 wait, 3 dropped
    sw.clock.advanceTo(T0 + 1500);
    sw.device.setPortRate({ unit: 'pps', value: 250 }, 2); // 1 is on the link until +2000; then 4 ms per packet
    sw.send(0, probeFrame(2, 4));
    sw.clock.advanceTo(T0 + 6000);
    sw.device.setPortRate('unlimited', 2);
    expect(sw.ports.get(2)!.sent.map((s) => [s.probe.seq, s.at - T0])).toEqual([
      [0, 0],
      [1, 1000],
      [2, 2000],
      [4, 6000],
    ]);
    sw.send(0, probeFrame(2, 5));
    expect(sw.ports.get(2)!.sent.at(-1)).toMatchObject({ at: T0 + 6000, probe: { seq: 5, enqQdepth: 0, deqTimedelta: 0 } });
    expect(sw.device.portStats()[2]!.dropped).toBe(1);
  });

  it('every-port settings reach every port; a per-port one overrides them', () => {
    sw = probeSwitch([{ rate: { unit: 'bps', value: 8e6 } }, { port: 3, rate: 'unlimited' }, { depth: 16 }, { port: 1, depth: 4 }], T0);
    expect(sw.device.queueSettings(2)).toEqual({ rate: { unit: 'bps', value: 8e6 }, depth: 16 });
    expect(sw.device.queueSettings(1)).toEqual({ rate: { unit: 'bps', value: 8e6 }, depth: 4 });
    expect(sw.device.queueSettings(3)).toEqual({ rate: undefined, depth: 16 });
    // Every attached port with a rate is listed, even before traffic.
    expect(Object.keys(sw.device.queueStats())).toEqual(['0', '1', '2']);
    sw.device.setPortRate({ unit: 'pps', value: 5 });
    expect(sw.device.queueSettings(3).rate).toEqual({ unit: 'pps', value: 5 });
    expect(() => sw!.device.setQueueDepth(0, 1)).toThrow(expect.objectContaining({ code: 'QUEUE_DEPTH_RANGE' }));
    expect(() => sw!.device.setPortRate({ unit: 'pps', value: 0 }, 1)).toThrow(expect.objectContaining({ code: 'QUEUE_RATE_RANGE' }));
    expect(() => sw!.device.setPortRate({ unit: 'pps', value: 5 }, 511)).toThrow(expect.objectContaining({ code: 'QUEUE_PORT_RANGE' }));
  });

  it('a pipeline change drops the packets waiting (counted on their port); the next ones queue again', () => {
    sw = probeSwitch([{ port: 2, rate: { unit: 'pps', value: 10 } }], T0);
    for (let seq = 0; seq < 4; seq++) sw.send(0, probeFrame(2, seq));
    expect(sw.device.queueStats()[2]!.depth).toBe(3);
    const program = probeProgram();
    sw.device.loadPipeline(program.p4info, program.irText);
    sw.clock.advanceTo(T0 + 1_000_000);
    expect(sw.ports.get(2)!.sent.map((s) => s.probe.seq)).toEqual([0]);
    expect(sw.device.portStats()[2]!.dropped).toBe(3);
    expect(sw.device.queueStats()[2]).toMatchObject({ depth: 0, flushed: 3 });
    sw.send(0, probeFrame(2, 4));
    sw.send(0, probeFrame(2, 5));
    sw.clock.advanceTo(T0 + 2_000_000);
    expect(sw.ports.get(2)!.sent.map((s) => [s.probe.seq, s.at - T0])).toEqual([
      [0, 0],
      [4, 1_000_000],
      [5, 1_100_000],
    ]);
  });
});
