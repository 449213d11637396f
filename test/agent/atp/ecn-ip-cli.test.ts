/**
 * `--ecn-ip` on `p4ina agent atp-worker` and `atp-ps`: parsed, in the usage,
 * and when it cannot work, a typed error that says what to do (exit 1), the
 * sockets closed. The permission case runs the built command without
 * CAP_NET_RAW (setpriv drops it when the test is root).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { atpPsCommand, ATP_PS_USAGE, parseAtpPsArgs } from '../../../src/agent/atp/ps-main.js';
import { ATP_WORKER_USAGE, parseAtpWorkerArgs } from '../../../src/agent/atp/worker-args.js';
import { atpWorkerCommand } from '../../../src/agent/atp/worker-main.js';
import type { MainIo } from '../../../src/agent/baseline/worker-process.js';
import { openUdpHandles } from '../transport/helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const built = existsSync(join(ROOT, 'dist', 'src', 'agent', 'transport', 'ipv4-ce-observer.js'));
const isRoot = process.getuid?.() === 0;
const hasSetpriv = ['/usr/bin/setpriv', '/bin/setpriv'].some((p) => existsSync(p));
const canDropCapability = !isRoot || hasSetpriv;
if (!built) console.warn('ecn-ip-cli.test.ts: the permission test is skipped: dist/ has no build with IPv4 CE marks; run npm run build first');
else if (!canDropCapability) console.warn('ecn-ip-cli.test.ts: the permission test is skipped: as root it needs setpriv (util-linux) to drop CAP_NET_RAW');

afterEach(async () => {
  expect(await openUdpHandles()).toEqual([]);
});

const WORKER = ['--local', '127.0.0.1:0', '--ps', '127.0.0.1:9', '--job', '1', '--rank', '0', '--workers', '1', '--pool', '8', '--bitmap1-bit', '0', '--fan-in1', '1', '--length', '64'];
const PS = ['--listen', '127.0.0.1:0', '--job', '1', '--pool', '8', '--rack', 'legacy:127.0.0.1:9'];

function captureIo(): MainIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (line) => errors.push(line) };
}

describe('--ecn-ip', () => {
  test('parsed by both agents, off by default, in both usages; with --transport wire it is allowed (a wire reads CE anyway)', () => {
    expect(parseAtpWorkerArgs([...WORKER, '--ecn-ip'])?.ecnIp).toBe(true);
    expect(parseAtpWorkerArgs(WORKER)?.ecnIp).toBe(false);
    expect(parseAtpPsArgs([...PS, '--ecn-ip'])?.ecnIp).toBe(true);
    expect(parseAtpPsArgs(PS)?.ecnIp).toBe(false);
    expect(ATP_WORKER_USAGE).toContain('--ecn-ip');
    expect(ATP_PS_USAGE).toContain('--ecn-ip');
    const wire = ['--transport', 'wire', '--peer', '127.0.0.1:9000', '--mac', '02:00:00:00:00:01', '--gateway-mac', '02:00:00:00:00:fe'];
    expect(parseAtpWorkerArgs(['--local', '10.0.0.1:48897', ...WORKER.slice(2), ...wire, '--ecn-ip'])).toMatchObject({ ecnIp: true, wire: { peerPort: 9000 } });
  });

  test('an IPv6 address: TRANSPORT_BAD_ADDRESS (CE is read from IPv4 headers), exit 1, nothing left open', async () => {
    const io = captureIo();
    expect(await atpWorkerCommand(['--local', '[::1]:0', '--ps', '[::1]:9', ...WORKER.slice(4), '--ecn-ip'], io)).toBe(1);
    expect(io.errors.join('\n')).toMatch(/^error TRANSPORT_BAD_ADDRESS: .*IPv4/);
    const psIo = captureIo();
    expect(await atpPsCommand(['--listen', '[::1]:0', ...PS.slice(2), '--ecn-ip'], psIo)).toBe(1);
    expect(psIo.errors.join('\n')).toMatch(/^error TRANSPORT_BAD_ADDRESS: .*IPv4/);
  });

  test.skipIf(!built || !canDropCapability)('without CAP_NET_RAW: TRANSPORT_RAW_SOCKET_NOT_PERMITTED naming the capability, exit 1', async () => {
    for (const [agent, args] of [
      ['atp-worker', WORKER],
      ['atp-ps', PS],
    ] as const) {
      const command = [process.execPath, CLI, 'agent', agent, ...args, '--ecn-ip'];
      const argv = isRoot ? ['setpriv', '--bounding-set', '-net_raw', '--inh-caps', '-net_raw', ...command] : command;
      const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_LEVEL: 'silent' } });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const limit = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('close', (code) => {
          clearTimeout(limit);
          resolve({ code, stderr });
        });
      });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/^error TRANSPORT_RAW_SOCKET_NOT_PERMITTED: .*CAP_NET_RAW/);
    }
  });
});
