// `p4ina switch` in process: CONFIG + a UDP-wire port + pcap, a frame through it, SIGUSR1, SIGTERM.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../../src/cli/switch-command.js';
import { writeP4InfoFile } from '../../../src/p4info/index.js';
import { compileCorpus } from '../pipeline/harness.js';
import { Host } from './udp-rig.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('p4ina switch with CONFIG, -i and --pcap', () => {
  it('runs the program on its ports, records pcap, logs counters on SIGUSR1 and stops on SIGTERM', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p4ina-cli-'));
    dirs.push(dir);
    const p = compileCorpus('calc');
    writeFileSync(path.join(dir, 'calc.ir.json'), p.irText);
    writeP4InfoFile(path.join(dir, 'calc.p4info.txtpb'), p.p4info);
    const host = await Host.open();
    // The switch's end of the wire needs a known port: borrow a free one.
    const probe = await Host.open();
    const switchPort = probe.port;
    await probe.close();
    let stdout = '';
    let stderr = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    const pcap = path.join(dir, 'pcap');
    const exit = run(['-i', `1@udp:127.0.0.1:${switchPort}:127.0.0.1:${host.port}`, '--pcap', pcap, path.join(dir, 'calc.ir.json'), '--', '--grpc-server-addr', '127.0.0.1:0']);
    try {
      await until(() => stdout.includes('listening on'));
      expect(stdout).toMatch(/running .*calc\.ir\.json \(P4Info .*calc\.p4info\.txtpb\)/);
      host.attach(switchPort);
      const request = Buffer.from('000000000002000000000001123450340126000000070000000500000000', 'hex');
      await host.send(request);
      const [reply] = await host.frames(1);
      expect(reply!.slice(52)).toBe('00000005');
      process.emit('SIGUSR1', 'SIGUSR1');
      expect(stderr).toMatch(/per-port counters \{"1":\{"packetsIn":1,"packetsOut":1,"dropped":0,"malformed":0\}\}/);
    } finally {
      process.emit('SIGTERM', 'SIGTERM');
      expect(await exit).toBe(0);
      await host.close();
    }
    expect(readdirSync(pcap).sort()).toHaveLength(2);
  });

  it('exits 1 with a clear message for BMv2 JSON', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'p4ina-cli-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'prog.json'), '{"__meta__": {}, "pipelines": []}');
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    expect(await run([path.join(dir, 'prog.json'), '--', '--grpc-server-addr', '127.0.0.1:0'])).toBe(1);
    expect(stderr).toMatch(/BMv2 JSON.*p4ina compile/);
  });
});
