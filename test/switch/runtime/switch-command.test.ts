// `p4ina switch`: argument checks as simple_switch_grpc makes them, and the built command
// started for real: it listens, answers, and exits 0 on SIGTERM; bad flags exit 2.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSwitchArgs } from '../../../src/cli/switch-command.js';
import { p4RuntimeGrpc } from '../../../src/proto/load.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { unary, WAIT_MS } from './harness.js';

const MAIN = join(process.cwd(), 'dist/src/cli/main.js');

describe('parseSwitchArgs', () => {
  it('reads simple_switch_grpc-style flags on both sides of --', () => {
    const o = parseSwitchArgs(['--device-id', '3', '--log-console', '-L', 'debug', '--no-p4', '--', '--grpc-server-addr', '0.0.0.0:50051', '--cpu-port=255']);
    expect(o).toMatchObject({ deviceId: 3n, logConsole: true, logLevel: 'debug', noP4: true, grpcAddress: '0.0.0.0:50051', cpuPort: 255 });
  });

  it('defaults to device 0 on 127.0.0.1:9559', () => {
    expect(parseSwitchArgs(['--no-p4'])).toMatchObject({ deviceId: 0n, grpcAddress: '127.0.0.1:9559', tls: undefined });
  });

  it('parses ports, pcap and a program (the command refuses them later)', () => {
    const o = parseSwitchArgs(['-i', '1@s1-eth1', '--interface=2@udp:127.0.0.1:9000:127.0.0.1:9001', '--pcap', 'out', 'prog.json']);
    expect(o).toMatchObject({ interfaces: [{ port: 1, iface: 's1-eth1' }, { port: 2, iface: 'udp:127.0.0.1:9000:127.0.0.1:9001' }], pcapDir: 'out', config: 'prog.json' });
  });

  it('reads the limits: pipeline memory budget, array cells, entities per read, reads in flight', () => {
    const o = parseSwitchArgs(['--no-p4', '--pipeline-memory-budget', '512MiB', '--max-array-cells=1000', '--max-read-entities', '50', '--max-reads-in-flight', '4']);
    expect(o).toMatchObject({ pipelineMemoryBudget: 512 * 1024 * 1024, maxArrayCells: 1000, maxReadEntities: 50, maxReadsInFlight: 4 });
    expect(parseSwitchArgs(['--no-p4', '--pipeline-memory-budget', '2GiB']).pipelineMemoryBudget).toBe(2 * 1024 ** 3);
    expect(() => parseSwitchArgs(['--no-p4', '--pipeline-memory-budget', 'lots'])).toThrow(/takes a size such as 512MiB/);
    expect(() => parseSwitchArgs(['--no-p4', '--pipeline-memory-budget', '10KiB'])).toThrow(/too small/);
    expect(() => parseSwitchArgs(['--no-p4', '--max-reads-in-flight', '0'])).toThrow(/at least 1/);
  });

  it('reads TLS options', () => {
    const o = parseSwitchArgs(['--no-p4', '--', '--grpc-server-ssl', '--grpc-server-cert', 'c', '--grpc-server-key', 'k', '--grpc-server-cacert', 'ca', '--grpc-server-with-client-auth']);
    expect(o.tls).toEqual({ certFile: 'c', keyFile: 'k', caFile: 'ca', clientAuth: true });
  });

  it.each([
    [['--no-p4', '--', '--cpu-port', '0'], /--cpu-port 0 is not allowed/],
    [['--no-p4', '--', '--cpu-port', '511'], /drop port/],
    [['--no-p4', '--', '--cpu-port', '512'], /9-bit/],
    [['--no-p4', 'prog.json'], /either --no-p4 or a CONFIG/],
    [[], /either --no-p4 or a CONFIG/],
    [['--no-p4', '--bogus'], /unknown option --bogus/],
    [['--no-p4', '--', '--grpc-server-addr', 'nohost'], /HOST:PORT/],
    [['--no-p4', '--grpc-server-addr', '127.0.0.1:1'], /put it after --/],
    [['--no-p4', '--device-id', 'x'], /non-negative integer/],
    [['--no-p4', '-L', 'loud'], /-L takes one of/],
    [['--no-p4', '-i', 'eth0'], /PORT@IFACE/],
    [['--no-p4', '--', '--grpc-server-ssl', '--grpc-server-cert', 'c'], /needs --grpc-server-cert and --grpc-server-key/],
    [['--no-p4', '--', '--grpc-server-cert', 'c'], /only with --grpc-server-ssl/],
    [['--no-p4', '--', '--grpc-server-ssl', '--grpc-server-cert', 'c', '--grpc-server-key', 'k', '--grpc-server-with-client-auth'], /needs --grpc-server-cacert/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseSwitchArgs(argv)).toThrow(message);
  });
});

describe.skipIf(!existsSync(MAIN))('the built p4ina switch command (build dist/ first: npx tsc -p tsconfig.json)', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  function start(args: string[]): { child: ChildProcess; exited: Promise<{ code: number | null; stdout: string; stderr: string }> } {
    const proc = spawn(process.execPath, [MAIN, 'switch', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => proc.on('close', (code) => resolve({ code, stdout, stderr })));
    return { child: proc, exited };
  }

  async function listeningPort(proc: ChildProcess): Promise<number> {
    let seen = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on" line in time; stdout so far: ${seen}`)), WAIT_MS * 2);
      proc.stdout!.on('data', (d: Buffer) => {
        seen += d.toString();
        const match = /listening on 127\.0\.0\.1:(\d+)/.exec(seen);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      proc.on('close', () => reject(new Error(`exited before listening; stdout: ${seen}`)));
    });
  }

  it('listens where told, answers P4Runtime, and exits 0 on SIGTERM', async () => {
    const { child: proc, exited } = start(['--device-id', '4', '--no-p4', '--', '--grpc-server-addr', '127.0.0.1:0']);
    const port = await listeningPort(proc);
    const client = new (p4RuntimeGrpc().p4.v1.P4Runtime)(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      const caps = await unary<p4r.CapabilitiesRequest, p4r.CapabilitiesResponse__Output>(client, 'Capabilities', {});
      expect(caps.p4runtime_api_version).toBe('1.5.0');
    } finally {
      client.close();
    }
    proc.kill('SIGTERM');
    const result = await exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/device 4 listening on 127\.0\.0\.1:\d+ \(plaintext\)/);
  }, WAIT_MS * 4);

  it('exits 2 with the usage for bad flags', async () => {
    const result = await start(['--no-p4', '--frobnicate']).exited;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option --frobnicate/);
    expect(result.stderr).toMatch(/usage: p4ina switch/);
  });

  it('exits 1 naming a port whose interface does not exist', async () => {
    const result = await start(['-i', '1@p4ina-none0', '--no-p4']).exited;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/port 1 \(p4ina-none0\): (no interface p4ina-none0|AF_PACKET needs root)/);
  });

  it('prints help and exits 0', async () => {
    const result = await start(['--help']).exited;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--grpc-server-addr/);
  });
});
