import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryHub } from '../../../src/switch/ports/memory-hub.js';
import { PcapRecorder, pcapFileStem } from '../../../src/switch/ports/pcap-recorder.js';
import { parsePcap, readPcapFile } from '../../../src/switch/ports/pcap-reader.js';
import { PcapWriter } from '../../../src/switch/ports/pcap-writer.js';
import { PortSet } from '../../../src/switch/ports/port-set.js';
import { collect, frame, tagOf, waitFor } from './frames.js';

const run = promisify(execFile);
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'p4ina-pcap-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The first of tshark/tcpdump found on PATH, or undefined. */
async function pcapTool(): Promise<'tshark' | 'tcpdump' | undefined> {
  for (const tool of ['tshark', 'tcpdump'] as const) {
    try {
      await run(tool, ['--version']);
      return tool;
    } catch {
      // not installed
    }
  }
  return undefined;
}

describe('pcap writer and reader', () => {
  it('writes the classic header and records with microsecond timestamps', async () => {
    const path = join(dir, 'x.pcap');
    let now = 1_700_000_000_000_001;
    const writer = await PcapWriter.open(path, { clockMicros: () => now });
    expect(writer.write(frame(1))).toBe(true);
    now += 1_999_999;
    writer.write(frame(2, 100));
    writer.write(frame(3), 5_000_000); // explicit time
    await writer.close();
    await writer.close();
    expect(writer.write(frame(4))).toBe(false); // closed: dropped
    expect([writer.written, writer.dropped]).toEqual([3, 1]);

    const bytes = await readFile(path);
    // Magic a1b2c3d4 (written little-endian), version 2.4, zone 0, sigfigs 0, snaplen, link type 1.
    expect(bytes.subarray(0, 8).toString('hex')).toBe('d4c3b2a102000400');
    expect(bytes.readUInt32LE(16)).toBe(262144); // the documented default snaplen (tcpdump's)
    expect(bytes.readUInt32LE(20)).toBe(1);
    const file = parsePcap(bytes);
    expect(file).toMatchObject({ littleEndian: true, nanosecond: false, versionMajor: 2, versionMinor: 4, linkType: 1 });
    expect(file.records.map((r) => [r.seconds, r.microseconds, r.originalLength, tagOf(r.data)])).toEqual([
      [1_700_000_000, 1, 60, 1],
      [1_700_000_002, 0, 100, 2],
      [5, 0, 60, 3],
    ]);
    expect(file.records[1]!.data).toEqual(frame(2, 100));
  });

  it('cuts frames at the snap length but keeps their original length', async () => {
    const path = join(dir, 'snap.pcap');
    const writer = await PcapWriter.open(path, { snaplen: 65535 });
    writer.write(Buffer.alloc(70000, 7));
    await writer.close();
    const [record] = (await readPcapFile(path)).records;
    expect(record!.data).toHaveLength(65535);
    expect(record!.originalLength).toBe(70000);
    await expect(PcapWriter.open(join(dir, 'bad.pcap'), { snaplen: 100 })).rejects.toThrow(RangeError);
  });

  it('bounds memory: records beyond maxBufferedBytes are dropped and counted', async () => {
    const path = join(dir, 'bounded.pcap');
    const writer = await PcapWriter.open(path, { maxBufferedBytes: 24 + 3 * 76, flushThresholdBytes: 1 << 30 });
    const accepted = [1, 2, 3, 4, 5].map((i) => writer.write(frame(i)));
    expect(accepted).toEqual([true, true, true, false, false]);
    await writer.flush();
    expect(writer.write(frame(6))).toBe(true); // room again once written out
    await writer.close();
    expect((await readPcapFile(path)).records.map((r) => tagOf(r.data))).toEqual([1, 2, 3, 6]);
    expect(writer.dropped).toBe(2);
  });

  it('flushes on a timer without waiting for close', async () => {
    const path = join(dir, 'timer.pcap');
    const writer = await PcapWriter.open(path, { flushIntervalMs: 5 });
    writer.write(frame(1));
    await waitFor(async () => (await stat(path)).size === 24 + 16 + 60);
    expect((await readPcapFile(path)).records.map((r) => tagOf(r.data))).toEqual([1]);
    await writer.close();
  });

  it('writes many records across chunks in order', async () => {
    const path = join(dir, 'many.pcap');
    const writer = await PcapWriter.open(path, { flushThresholdBytes: 10_000 });
    for (let i = 0; i < 3000; i++) writer.write(frame(i, 60 + (i % 1400)));
    await writer.close();
    const tags = (await readPcapFile(path)).records.map((r) => tagOf(r.data));
    expect(tags).toEqual([...Array(3000).keys()]);
  });

  it('reads big-endian and nanosecond files, and refuses malformed ones with a code', () => {
    const be = Buffer.alloc(24 + 16 + 14);
    be.writeUInt32BE(0xa1b23c4d, 0);
    be.writeUInt16BE(2, 4);
    be.writeUInt16BE(4, 6);
    be.writeUInt32BE(65535, 16);
    be.writeUInt32BE(1, 20);
    be.writeUInt32BE(10, 24);
    be.writeUInt32BE(123_456_789, 28);
    be.writeUInt32BE(14, 32);
    be.writeUInt32BE(14, 36);
    const f = parsePcap(be);
    expect(f).toMatchObject({ littleEndian: false, nanosecond: true, snaplen: 65535 });
    expect(f.records[0]).toMatchObject({ seconds: 10, microseconds: 123_456, originalLength: 14 });
    expect(() => parsePcap(Buffer.alloc(10))).toThrow(expect.objectContaining({ code: 'PCAP_MALFORMED' }));
    expect(() => parsePcap(Buffer.alloc(24))).toThrow(/not a classic pcap file/);
    expect(() => parsePcap(be.subarray(0, be.length - 1))).toThrow(expect.objectContaining({ code: 'PCAP_MALFORMED' }));
    expect(() => parsePcap(be.subarray(0, 30))).toThrow(/cut off/);
  });
});

describe('pcap recorder', () => {
  it('names files as BMv2 does and keeps them safe for the file system', () => {
    expect(pcapFileStem('s1-eth1')).toBe('s1-eth1');
    expect(pcapFileStem('udp-::1-4000')).toBe('udp-__1-4000');
    expect(pcapFileStem('a/b')).toBe('a_b');
    expect(pcapFileStem('..')).toBe('_..');
  });

  it('records every port in and out, readable back (and by tshark/tcpdump when installed)', async () => {
    const hub = new MemoryHub();
    const ports = await PortSet.open(['1@mem:h1', '2@mem:h2'], { memoryHub: hub });
    const recorder = await PcapRecorder.create(join(dir, 'pcaps'));
    await recorder.recordAll(ports);
    const h1 = hub.attach('h1', 0);
    const h2 = hub.attach('h2', 0);
    const atH2 = collect(h2);
    // A two-port forwarder: whatever comes in on 1 goes out on 2.
    ports.onFrame((f, port) => {
      if (port.number === 1) ports.get(2)!.send(f);
    });
    for (let i = 0; i < 5; i++) h1.send(frame(i));
    await hub.settle();
    expect(atH2.map(tagOf)).toEqual([0, 1, 2, 3, 4]);
    await ports.close();
    await recorder.close();

    const names = (await readdir(join(dir, 'pcaps'))).sort();
    expect(names).toEqual(['h1_in.pcap', 'h1_out.pcap', 'h2_in.pcap', 'h2_out.pcap']);
    const tags = async (name: string): Promise<number[]> => (await readPcapFile(join(dir, 'pcaps', name))).records.map((r) => tagOf(r.data));
    expect(await tags('h1_in.pcap')).toEqual([0, 1, 2, 3, 4]);
    expect(await tags('h2_out.pcap')).toEqual([0, 1, 2, 3, 4]);
    expect(await tags('h1_out.pcap')).toEqual([]);
    expect(await tags('h2_in.pcap')).toEqual([]);

    const tool = await pcapTool();
    if (tool === undefined) {
      console.log('skipping the tshark/tcpdump check: neither is installed (apt-get install tcpdump to run it)');
      return;
    }
    const args = tool === 'tshark' ? ['-r', join(dir, 'pcaps', 'h2_out.pcap')] : ['-nn', '-e', '-r', join(dir, 'pcaps', 'h2_out.pcap')];
    const { stdout } = await run(tool, args);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    if (tool === 'tcpdump') expect(lines[0]).toMatch(/02:00:00:00:00:01 > 02:00:00:00:00:02, ethertype IPv4 \(0x0800\), length 60/);
  });

  it('gives the later of two same-named ports its number, so files never collide', async () => {
    const hub = new MemoryHub();
    // Both ends of one wire on one switch: a loopback cable between ports 1 and 2.
    const ports = await PortSet.open(['1@mem:loop', '2@mem:loop'], { memoryHub: hub });
    const recorder = await PcapRecorder.create(dir);
    await recorder.recordAll(ports);
    expect(recorder.files.map((f) => f.slice(dir.length + 1)).sort()).toEqual(['loop-p2_in.pcap', 'loop-p2_out.pcap', 'loop_in.pcap', 'loop_out.pcap']);
    await ports.close();
    await recorder.close();
  });
});
