// Seeded, bounded fuzzing of the data plane: a switch (SwitchDevice, the IR
// executor) running p4/switchml.p4, configured for one job of four workers as
// a controller would through P4Runtime, takes frames on in-memory ports:
// well-formed SwitchML updates, the same with bits flipped, bytes replaced,
// header fields set to extremes, truncated or extended, and random frames.
// No frame may make the executor fail, and every frame is accounted for: it
// is refused by the port (shorter than Ethernet), or it enters the pipeline
// and leaves on some port or is counted as dropped. Counts go to the output.
import { afterEach, describe, expect, it } from 'vitest';
import { serializeIr } from '../../src/p4c/index.js';
import { decodeMessage, encodeMessage } from '../../src/proto/codec.js';
import type * as p4r from '../../src/proto/p4r.js';
import { SwitchDevice } from '../../src/switch/device/switch-device.js';
import { PortSet } from '../../src/switch/ports/port-set.js';
import { Code } from '../../src/switch/state/status.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { compiled, SWITCHML_P4, type CompiledProgram } from '../p4/helpers.js';
import { SWITCH_IP, SWITCH_MAC, updateFrame, worker } from '../p4/support/fixture.js';
import { CapturePort } from '../switch/pipeline/harness.js';

type Rng = () => number;

const JOB = 7;
const WORKERS = [0, 1, 2, 3];
const GROUP = 1;
const POOL = 16;
const ELEMENTS = 64;

/** The canonical P4Runtime bytes of a value. */
function bytes(value: bigint | number): Buffer {
  const hex = BigInt(value).toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

/** What the controller installs for one job (docs/p4-programs.md §3), as P4Runtime updates. */
function jobUpdates(program: CompiledProgram): p4r.Update[] {
  const s = program.schema;
  const call = (action: string, args: readonly (bigint | number)[]): p4r.TableAction => {
    const a = s.actions.get(action);
    return { action: { action_id: a.id, params: args.map((v, i) => ({ param_id: a.params.all[i]!.id, value: bytes(v) })) } };
  };
  const entry = (table: string, keys: readonly number[], action: string, args: readonly (bigint | number)[]): p4r.Update => {
    const t = s.tables.get(table);
    const match = keys.map((k, i) => ({ field_id: t.matchFields.all[i]!.id, exact: { value: bytes(k) } }));
    return { type: 'INSERT', entity: { table_entry: { table_id: t.id, match, action: call(action, args) } } };
  };
  return [
    { type: 'MODIFY', entity: { table_entry: { table_id: s.tables.get('ingress.identity.switch_address').id, is_default_action: true, action: call('ingress.identity.set_switch_address', [SWITCH_MAC, SWITCH_IP]) } } },
    { type: 'INSERT', entity: { packet_replication_engine_entry: { multicast_group_entry: { multicast_group_id: GROUP, replicas: WORKERS.map((w) => ({ egress_port: worker(w).switchPort, instance: w })) } } } },
    entry('ingress.switchml.jobs', [JOB], 'ingress.switchml.set_job', [0, POOL, WORKERS.length, GROUP]),
    ...WORKERS.map((w) => entry('ingress.switchml.workers', [JOB, w], 'ingress.switchml.accept_worker', [1n << BigInt(w)])),
    ...WORKERS.map((w) => entry('egress.result_rewrite', [JOB, w], 'egress.rewrite_result', [worker(w).mac, worker(w).ip, worker(w).udpPort])),
  ];
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/**
 * Well-formed UPDATEs as the job's workers send them: round after round, each
 * round one slot copy, every worker's update for it in a random order; the
 * next tsi per slot copy, so rounds can complete and results go out.
 */
class Rounds {
  private pending: { worker: number; slot: number; set: 0 | 1; tsi: number }[] = [];
  private readonly tsi = new Map<string, number>();

  constructor(private readonly rng: Rng) {}

  next(): Buffer {
    if (this.pending.length === 0) {
      const slot = Math.floor(this.rng() * POOL);
      const set: 0 | 1 = this.rng() < 0.5 ? 0 : 1;
      const key = `${slot}/${set}`;
      const tsi = (this.tsi.get(key) ?? 0) + 1;
      this.tsi.set(key, tsi);
      this.pending = WORKERS.map((worker) => ({ worker, slot, set, tsi })).sort(() => this.rng() - 0.5);
    }
    const u = this.pending.pop()!;
    return updateFrame({ ...u, messageType: this.rng() < 0.9 ? 1 : 4 }, ELEMENTS);
  }
}

/** Offsets of the fields a mutation likes to hit: ethertype, IPv4 version/IHL, length, protocol, UDP ports and length, SwitchML header. */
const HOT_OFFSETS = [12, 13, 14, 16, 17, 23, 34, 35, 36, 37, 38, 39, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 55];

const MUTATIONS: readonly ((frame: Buffer, rng: Rng) => Buffer)[] = [
  // Bits flipped.
  (f, rng) => {
    const out = Buffer.from(f);
    for (let n = 1 + Math.floor(rng() * 8); n > 0; n--) out[Math.floor(rng() * out.length)]! ^= 1 << Math.floor(rng() * 8);
    return out;
  },
  // A header byte set to an extreme.
  (f, rng) => {
    const out = Buffer.from(f);
    out[pick(rng, HOT_OFFSETS)] = pick(rng, [0, 1, 0x7f, 0x80, 0xfe, 0xff]);
    return out;
  },
  // Truncated anywhere, down to nothing.
  (f, rng) => f.subarray(0, Math.floor(rng() * f.length)),
  // Extended with garbage.
  (f, rng) => Buffer.concat([f, randomBytes(rng, 1 + Math.floor(rng() * 200))]),
];

function randomBytes(rng: Rng, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = Math.floor(rng() * 256);
  return out;
}

/** A third well-formed updates, a third the same mutated 1 to 3 times, the rest random bytes or Ethernet with a random payload. */
function frame(rng: Rng, rounds: Rounds): Buffer {
  const r = rng();
  if (r < 0.33) return rounds.next();
  if (r < 0.67) {
    let f = rounds.next();
    for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) f = pick(rng, MUTATIONS)(f, rng);
    return f;
  }
  if (r < 0.83) return randomBytes(rng, Math.floor(rng() * 1600));
  const f = randomBytes(rng, 14 + Math.floor(rng() * 200));
  f.writeUInt16BE(pick(rng, [0x0800, 0x0806, 0x86dd, 0x8100]), 12);
  return f;
}

let device: SwitchDevice | undefined;
afterEach(async () => {
  await device?.stop();
  device = undefined;
});

describe('frames fuzz (seeded)', () => {
  it.each([[1], [2]])('switchml.p4 takes 10,000 good, mutated and random frames without a failure, every frame accounted for (seed %i)', (seed) => {
    const program = compiled(SWITCHML_P4);
    const ports = [0, ...WORKERS.map((w) => worker(w).switchPort)].map((n) => new CapturePort(n));
    device = new SwitchDevice({ ports: new PortSet(ports) });
    device.loadPipeline(program.p4info, serializeIr(program.ir));
    const updates = jobUpdates(program).map((u) => decodeMessage<p4r.Update__Output>('p4.v1.Update', encodeMessage('p4.v1.Update', u)));
    const statuses = [device.state.write(updates, 'CONTINUE_ON_ERROR')].flat();
    expect(statuses.filter((st) => st.code !== Code.OK).map((st) => st.message)).toEqual([]);

    const rng = mulberry32(seed);
    const rounds = new Rounds(rng);
    const totals = { frames: 0, refusedByPort: 0, entered: 0, out: 0, dropped: 0, failed: 0, unaccounted: 0, results: 0 };
    // `malformed` counts frames the port refused (shorter than Ethernet) and frames the executor failed on.
    const sum = (): { in: number; dropped: number; malformed: number; out: number } => {
      let input = 0, dropped = 0, malformed = 0;
      for (const s of Object.values(device!.portStats())) {
        input += s.packetsIn;
        dropped += s.dropped;
        malformed += s.malformed;
      }
      return { in: input, dropped, malformed, out: ports.reduce((n, p) => n + p.sent.length, 0) };
    };
    for (let i = 0; i < 10_000; i++) {
      const f = frame(rng, rounds);
      const before = sum();
      ports[1 + (i % WORKERS.length)]!.inject(f);
      const after = sum();
      totals.frames++;
      const short = f.length < 14;
      if (short && after.malformed === before.malformed + 1) totals.refusedByPort++;
      if (!short) totals.failed += after.malformed - before.malformed;
      if (after.in > before.in) totals.entered++;
      totals.out += after.out - before.out;
      totals.dropped += after.dropped - before.dropped;
      const accounted = short ? after.malformed > before.malformed : after.in === before.in + 1 && after.out + after.dropped > before.out + before.dropped;
      if (!accounted) totals.unaccounted++;
    }
    for (const p of ports) {
      totals.results += p.sent.filter((f) => f.length > 42 && f[42]! >> 4 === 1 && (f[42]! & 0x0f) === 2).length;
      p.sent.length = 0;
    }
    console.log(
      `frames fuzz switchml.p4 (seed ${seed}): ${totals.frames.toLocaleString('en')} frames: ${totals.failed} crashes (executor failures), ` +
        `${totals.refusedByPort} refused by the port (shorter than Ethernet), ${totals.entered} entered the pipeline: ${totals.out} frames out ` +
        `(${totals.results} SwitchML results), ${totals.dropped} counted drops, ${totals.unaccounted} unaccounted for`,
    );
    expect(totals.failed).toBe(0);
    expect(totals.unaccounted).toBe(0);
    expect(totals.refusedByPort + totals.entered).toBe(totals.frames);
    // The corpus reaches the program's work, not only its parser: some slots complete and their results go out.
    expect(totals.results).toBeGreaterThan(0);
    expect(totals.dropped).toBeGreaterThan(0);
  }, 60_000);
});
