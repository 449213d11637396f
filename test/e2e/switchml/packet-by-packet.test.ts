// Packet by packet: the emulated switch running p4/switchml.p4 (programmed by
// the controller over gRPC) and the reference model (ReferenceSwitchMl with
// its frame harness) get the same seeded sequence of frames — five
// operations of two jobs, with neighbours swapped, duplicates, late updates
// of old rounds and operations, retransmissions (some as RECOVERY_UPDATEs),
// stray rounds that must be taken over, and broken packets, with
// epochs across the wrap and tsi values past 2^31 — and must
// emit the same frames, byte for byte, out of the same ports, after every
// single frame. At the end their counters and registers must agree too.
import { afterEach, describe, expect, test } from 'vitest';
import { ReferenceSwitchMl } from '../../agent/switchml/reference/reference-switch.js';
import { ReferenceSwitchFrames } from '../../agent/switchml/reference/reference-switch-frames.js';
import { Installer } from '../../../src/controller/install/index.js';
import { register } from '../../../src/p4runtime/index.js';
import { SwitchDevice } from '../../../src/switch/device/switch-device.js';
import { PortSet } from '../../../src/switch/ports/port-set.js';
import { ipv4FromText, macFromText } from '../../../src/wire/index.js';
import { CapturePort, type CapturedFrame } from './support/capture-port.js';
import { e2eHosts, e2eJob, e2eTopology, ELEMENTS, programCache, SWITCH } from './support/network.js';
import { QUIET } from './support/rig.js';
import { readSwitchMlCounters } from './support/switch-readback.js';
import { updateSequence } from './support/update-sequence.js';

/** Small register arrays, so that reading every cell back stays cheap. */
const SLOTS = 16;
const programs = programCache([`SWITCHML_SLOTS=${SLOTS}`]);

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

const hex = (frames: readonly CapturedFrame[]) => frames.map((f) => `port ${f.port}: ${f.frame.toString('hex')}`).sort();

describe('switchml.p4 and the reference model, packet by packet', () => {
  const sequences = [
    { seed: 'seq-1', firstEpoch: 0, tsiBase: 0 },
    { seed: 'seq-2', firstEpoch: 253, tsiBase: 0 },
    { seed: 'seq-3', firstEpoch: 127, tsiBase: 0x7ffffffb },
    { seed: 'seq-4', firstEpoch: 0, tsiBase: 0xfffffff0 },
  ];
  test.each(sequences)('$seed (first epoch $firstEpoch, tsi from $tsiBase): the same frames out, the same counters and registers', async (options) => {
    const hosts = e2eHosts(4);
    const captured: CapturedFrame[] = [];
    const ports = hosts.map((h) => new CapturePort(h.switchPort, captured));
    const device = new SwitchDevice({ ports: new PortSet(ports), logger: QUIET });
    const { port } = await device.start({ address: '127.0.0.1:0' });
    cleanups.push(() => device.stop());
    const installer = await Installer.connect(e2eTopology(hosts, `127.0.0.1:${port}`), { programs, logger: QUIET, checkSource: true });
    cleanups.push(() => installer.close());
    await installer.installForwarding();
    const [h1, h2, h3, h4] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
    const jobs = [
      { jobId: 41, members: [h1, h2, h3], poolSize: 4, window: 4, packets: 4 + 7 },
      { jobId: 42, members: [h4], poolSize: 2, window: 2, packets: 2 + 3 },
    ];
    const model = new ReferenceSwitchMl({ capacity: SLOTS, elementsPerPacket: ELEMENTS });
    const endpoints = [];
    for (const job of jobs) {
      const installed = await installer.setupJob(e2eJob(job.jobId, job.members, job.poolSize));
      const { slotBase } = installed.allocation.switches[0]!;
      model.addJob({ jobId: job.jobId, slotBase, poolSize: job.poolSize, workerIds: job.members.map((_, rank) => rank), sources: job.members.map((h) => ipv4FromText(h.ip)), sourcePorts: job.members.map((h) => h.udpPort) });
      endpoints.push(
        ...job.members.map((h, rank) => ({ jobId: job.jobId, workerId: rank, port: h.switchPort, mac: macFromText(h.mac), ip: ipv4FromText(h.ip), udpPort: h.udpPort })),
      );
    }
    const reference = new ReferenceSwitchFrames(model, { mac: SWITCH.macNumber, ip: SWITCH.ipNumber }, endpoints);

    const sequence = updateSequence(jobs, { operations: 5, ...options });
    expect(sequence.length).toBeGreaterThan(200);
    for (const [i, item] of sequence.entries()) {
      const expected = reference.process(Buffer.from(item.frame), item.port);
      if (expected === undefined) throw new Error(`frame ${i} (${item.label}) is outside the model`);
      captured.length = 0;
      ports[item.port - 1]!.inject(Buffer.from(item.frame));
      expect(hex(captured), `frame ${i}: ${item.label} (${JSON.stringify({ ...expected.verdict, packet: undefined })})`).toEqual(hex(expected.out));
    }

    // Every outcome and drop reason was exercised (but a jobs entry past the registers, which the controller never writes), and counted alike.
    const session = installer.sessions.get('s1')!;
    const counters = await readSwitchMlCounters(session);
    expect(counters).toEqual(model.counters);
    for (const [kind, count] of Object.entries(model.counters)) if (kind !== 'slotBeyondRegisters') expect(count, kind).toBeGreaterThan(0);

    // The registers, cell by cell.
    const cells = async (name: string) => (await session.readAll(register(`ingress.switchml.${name}`))).sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((c) => Number(c.value));
    const r = model.registers;
    expect(await cells('seen')).toEqual([...r.bitmap]);
    expect(await cells('remaining')).toEqual([...r.remaining]);
    expect(await cells('round_tsi')).toEqual([...r.roundTsi]);
    expect(await cells('round_epoch')).toEqual([...r.roundEpoch]);
    expect(await cells('exponent_max')).toEqual([...r.exponent].map((e) => e & 0xff));
    expect(await cells('values')).toEqual([...r.values].map((v) => v >>> 0));
  }, 120_000);
});
