/**
 * The wire codecs on their hot paths, side by side:
 *  - reading and writing 64 big-endian int32 values (one SwitchML packet's
 *    worth) with Buffer.readInt32BE/writeInt32BE, a DataView (what
 *    Int32BeView uses), byte shifts, and for reads a bulk copy + swap32;
 *  - a whole SwitchML update frame built (Ethernet/IPv4/UDP, with and without
 *    the UDP checksum) and parsed back (both checksums verified).
 * Single-threaded, one reused buffer, best of three runs.
 */
import {
  buildUdpFrame,
  decodeSwitchMl,
  encodeSwitchMl,
  Int32BeView,
  parseUdpFrame,
  SWITCHML_DEFAULT_ELEMENTS,
  SWITCHML_PORTS,
  SwitchMlMessageType,
  type SwitchMlFields,
  type UdpFlow,
} from '../src/wire/index.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';

const N = SWITCHML_DEFAULT_ELEMENTS;
/** Where the values sit in an untagged SwitchML frame: 42 bytes of headers + 14 of SwitchML. */
const VALUES_AT = 56;

let sink = 0;

/** Nanoseconds per call of `body`, best of three runs of `iterations` calls. */
function measure(iterations: number, body: () => void): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) body();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / iterations);
  }
  return best;
}

function valueCases(): { name: string; method: string; body: () => void }[] {
  const frame = Buffer.alloc(1514);
  for (let i = 0; i < frame.length; i++) frame[i] = (i * 37) & 0xff;
  const out = new Int32Array(N);
  const outBytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const view = new Int32BeView(frame, VALUES_AT, N);
  const source = Int32Array.from({ length: N }, (_, i) => (i * 2654435761) | 0);
  return [
    {
      name: `read ${N} values`,
      method: 'Buffer.readInt32BE',
      body: () => {
        for (let i = 0; i < N; i++) out[i] = frame.readInt32BE(VALUES_AT + 4 * i);
        sink ^= out[N - 1]!;
      },
    },
    {
      name: `read ${N} values`,
      method: 'DataView (Int32BeView.copyTo)',
      body: () => {
        view.copyTo(out);
        sink ^= out[N - 1]!;
      },
    },
    {
      name: `read ${N} values`,
      method: 'byte shifts',
      body: () => {
        for (let i = 0, o = VALUES_AT; i < N; i++, o += 4) out[i] = (frame[o]! << 24) | (frame[o + 1]! << 16) | (frame[o + 2]! << 8) | frame[o + 3]!;
        sink ^= out[N - 1]!;
      },
    },
    {
      name: `read ${N} values`,
      method: 'copy bytes + swap32',
      body: () => {
        outBytes.set(frame.subarray(VALUES_AT, VALUES_AT + 4 * N));
        outBytes.swap32();
        sink ^= out[N - 1]!;
      },
    },
    {
      name: `read ${N} values`,
      method: 'new Int32BeView + copyTo',
      body: () => {
        new Int32BeView(frame, VALUES_AT, N).copyTo(out);
        sink ^= out[N - 1]!;
      },
    },
    {
      name: `write ${N} values`,
      method: 'Buffer.writeInt32BE',
      body: () => {
        for (let i = 0; i < N; i++) frame.writeInt32BE(source[i]!, VALUES_AT + 4 * i);
        sink ^= frame[VALUES_AT]!;
      },
    },
    {
      name: `write ${N} values`,
      method: 'DataView (Int32BeView.copyFrom)',
      body: () => {
        view.copyFrom(source);
        sink ^= frame[VALUES_AT]!;
      },
    },
    {
      name: `write ${N} values`,
      method: 'byte shifts',
      body: () => {
        for (let i = 0, o = VALUES_AT; i < N; i++, o += 4) {
          const v = source[i]!;
          frame[o] = v >>> 24;
          frame[o + 1] = (v >>> 16) & 0xff;
          frame[o + 2] = (v >>> 8) & 0xff;
          frame[o + 3] = v & 0xff;
        }
        sink ^= frame[VALUES_AT]!;
      },
    },
  ];
}

function frameCases(): { name: string; method: string; body: () => void }[] {
  const buf = Buffer.alloc(1514);
  const values = Int32Array.from({ length: 4096 }, (_, i) => (i * 2654435761) | 0);
  const update: SwitchMlFields = {
    messageType: SwitchMlMessageType.UPDATE,
    workerId: 3,
    jobId: 1,
    tsi: 0,
    slot: 0,
    set: 0,
    elementCount: N,
    exponent: 0,
    epoch: 0,
    values,
    valuesOffset: 0,
  };
  const payload = (b: Buffer, offset: number): number => encodeSwitchMl(b, offset, update) - offset;
  const flow: UdpFlow = { srcMac: 0x020000000001, dstMac: 0x0200000000fe, srcIp: 0x0a000001, dstIp: 0x0a0000fe, srcPort: 40000, dstPort: SWITCHML_PORTS.first };
  const noChecksum: UdpFlow = { ...flow, udpChecksum: false };
  let tsi = 0;
  const next = (): void => {
    tsi = (tsi + 1) >>> 0;
    update.tsi = tsi;
    update.valuesOffset = (tsi * N) & 4095;
  };
  const length = buildUdpFrame(buf, 0, flow, payload);
  const received = Buffer.from(buf.subarray(0, length));
  return [
    {
      name: 'build SwitchML frame',
      method: 'buildUdpFrame + encodeSwitchMl, UDP checksum',
      body: () => {
        next();
        sink ^= buildUdpFrame(buf, 0, flow, payload);
      },
    },
    {
      name: 'build SwitchML frame',
      method: 'buildUdpFrame + encodeSwitchMl, no UDP checksum',
      body: () => {
        next();
        sink ^= buildUdpFrame(buf, 0, noChecksum, payload);
      },
    },
    {
      name: 'parse SwitchML frame',
      method: 'parseUdpFrame + decodeSwitchMl + copyTo',
      body: () => {
        const frame = parseUdpFrame(received);
        if (!frame.ok) throw new Error(frame.message);
        const packet = decodeSwitchMl(received, frame.payloadOffset, frame.payloadOffset + frame.payloadLength);
        if (!packet.ok) throw new Error(packet.message);
        packet.values.copyTo(values, 0);
        sink ^= packet.tsi;
      },
    },
  ];
}

export const wireCodecBench: Benchmark = {
  name: 'wire-codec',
  summary: 'int32 value access methods and SwitchML frame build/parse rates',
  async run({ quick, progress }): Promise<BenchResult> {
    const iterations = quick ? 20_000 : 500_000;
    const rows: Cell[][] = [];
    for (const c of [...valueCases(), ...frameCases()]) {
      progress(`${c.name}: ${c.method}`);
      const ns = measure(iterations, c.body);
      rows.push([c.name, c.method, Math.round(ns), Math.round(1e9 / ns)]);
    }
    return {
      title: 'Wire codecs: value access and SwitchML frames',
      columns: ['operation', 'method', 'ns/op', 'ops/s'],
      rows,
      notes: [
        `${N} values per operation (one SwitchML packet); ${iterations.toLocaleString('en-US')} operations per run, best of 3; one thread, one reused buffer.`,
        'A frame is Ethernet/IPv4/UDP + the 14-byte SwitchML header + 256 bytes of values; parsing verifies the IPv4 and UDP checksums.',
        'Cases run one after another in one process, so JIT warm-up and a loaded machine move the figures; compare methods within a run.',
        `Result digest ${sink & 0xff} (printed so that the measured work cannot be optimised away).`,
      ],
    };
  },
};
