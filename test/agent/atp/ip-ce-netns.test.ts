/**
 * IPv4 CE marks end to end, as root: a network namespace of the test's own,
 * an nftables rule in it that sets CE on every fourth UDP datagram to the
 * workers' ports (or to the PS's), and a real ATP PS and two workers as
 * processes in it (`ip netns exec p4ina agent …`, the built command), on
 * 127.0.0.1 with --ecn-ip --json.
 * The results must be exact (each worker's --check against the float64
 * reference, and the digest of the fixed-point sum docs/atp.md defines), and
 * the marks must have driven the windows. The namespace and every process
 * go in afterAll, whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AtpPsReport } from '../../../src/agent/atp/ps-main.js';
import type { AtpWorkerReport } from '../../../src/agent/atp/worker-main.js';
import { seededTensor } from '../../../src/agent/baseline/seeded-tensor.js';
import { listNamespaces, runCommand } from '../../switch/ports/af-packet/netns.js';
import { expectedAtp } from './helpers/numbers.js';

const isRoot = process.getuid?.() === 0;
const nftVersion = isRoot ? await runCommand('nft', ['--version']) : undefined;
const hasNft = nftVersion?.code === 0;
if (!isRoot) console.warn('ip-ce-netns.test.ts skipped: network namespaces, nftables and raw IP sockets need root (CI runs the tests as root)');
else if (!hasNft) console.warn('ip-ce-netns.test.ts skipped: nft (nftables) is not installed; apt-get install nftables');

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The built command (`npm run build`; `npm test` builds first), as a user runs it. */
const CLI = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const built = existsSync(CLI) && existsSync(join(ROOT, 'dist', 'src', 'agent', 'transport', 'ipv4-ce-observer.js'));
if (isRoot && hasNft && !built) console.warn('ip-ce-netns.test.ts skipped: dist/ has no build with IPv4 CE marks; run npm run build first');

const NS = `p4ina-ce-${process.pid}`;
const PS_PORT = 48_896;
const WORKER_PORTS = [48_897, 48_898];
const LENGTH = 64 * 1500;
const SEQUENCES = LENGTH / 64;
const RANGE = 256;
/** A process that runs longer than this is killed (the test then fails on its exit). */
const PROCESS_LIMIT_MS = 60_000;

const children = new Set<ChildProcess>();

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `p4ina agent <agent> args` inside the namespace; `exited` settles when it ends (killed after PROCESS_LIMIT_MS). */
function start(agent: 'atp-ps' | 'atp-worker', args: readonly string[]): { child: ChildProcess; exited: Promise<Exit>; firstLine: Promise<string> } {
  const child = spawn('ip', ['netns', 'exec', NS, process.execPath, CLI, 'agent', agent, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  let resolveLine: (line: string) => void = () => {};
  const firstLine = new Promise<string>((resolve) => (resolveLine = resolve));
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('\n')) resolveLine(stdout.slice(0, stdout.indexOf('\n')));
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const limit = setTimeout(() => child.kill('SIGKILL'), PROCESS_LIMIT_MS);
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      children.delete(child);
      resolveLine('');
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, exited, firstLine };
}

async function mustRun(file: string, args: readonly string[]): Promise<void> {
  const result = await runCommand(file, args);
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} failed (${result.code ?? result.signal}): ${result.stderr.trim()}`);
}

/** Replaces the namespace's ruleset with one that sets CE on every fourth datagram to `ports`, as they enter. */
async function markEveryFourth(ports: readonly number[]): Promise<void> {
  await runCommand('ip', ['netns', 'exec', NS, 'nft', 'delete', 'table', 'ip', 'p4ina_ce']);
  await mustRun('ip', ['netns', 'exec', NS, 'nft', 'add', 'table', 'ip', 'p4ina_ce']);
  await mustRun('ip', ['netns', 'exec', NS, 'nft', 'add chain ip p4ina_ce input { type filter hook input priority filter; policy accept; }']);
  await mustRun('ip', ['netns', 'exec', NS, 'nft', `add rule ip p4ina_ce input udp dport { ${ports.join(', ')} } numgen inc mod 4 == 0 ip ecn set ce`]);
}

interface JobOutcome {
  readonly ps: AtpPsReport;
  readonly workers: AtpWorkerReport[];
}

/** One job: the PS (listening before any worker starts), two legacy-rack workers, all with --ecn-ip. */
async function runJob(seed: string): Promise<JobOutcome> {
  const racks = WORKER_PORTS.flatMap((port) => ['--rack', `legacy:127.0.0.1:${port}`]);
  const common = ['--job', '1', '--pool', '64', '--range', String(RANGE), '--ecn-ip', '--json'];
  const ps = start('atp-ps', ['--listen', `127.0.0.1:${PS_PORT}`, ...racks, ...common, '--stop-after', String(SEQUENCES), '--linger', '300']);
  const listening = await ps.firstLine;
  if (!listening.includes('listening')) throw new Error(`the PS did not start: ${(await ps.exited).stderr}`);
  const workers = WORKER_PORTS.map((port, rank) =>
    start('atp-worker', [
      ...['--local', `127.0.0.1:${port}`, '--ps', `127.0.0.1:${PS_PORT}`, '--rank', String(rank), '--workers', '2'],
      ...['--bitmap1-bit', String(rank), '--fan-in1', '2', '--length', String(LENGTH), '--seed', seed, '--check'],
      ...common,
    ]),
  );
  const ends = await Promise.all(workers.map((w) => w.exited));
  const psEnd = await ps.exited;
  for (const [i, end] of [...ends, psEnd].entries()) {
    if (end.code !== 0) throw new Error(`process ${i} (${i < ends.length ? `worker ${i}` : 'PS'}) exited with ${end.code ?? end.signal}:\n${end.stderr}`);
  }
  const lastLine = (text: string): string => text.trim().split('\n').at(-1)!;
  return { ps: JSON.parse(lastLine(psEnd.stdout)) as AtpPsReport, workers: ends.map((e) => JSON.parse(lastLine(e.stdout)) as AtpWorkerReport) };
}

/** The digest every worker's result must have: docs/atp.md's fixed-point sum of the seeded tensors. */
function expectedDigest(seed: string): string {
  const exact = expectedAtp(
    WORKER_PORTS.map((_, rank) => seededTensor(LENGTH, seed, rank)),
    64,
    RANGE,
  );
  expect(exact.floatPackets.size).toBe(0);
  return createHash('sha256').update(new Uint8Array(exact.exact.buffer)).digest('hex');
}

describe.skipIf(!isRoot || !hasNft || !built)('IPv4 CE marks in a test namespace: a real PS and two workers with --ecn-ip', () => {
  beforeAll(async () => {
    await mustRun('ip', ['netns', 'add', NS]);
    await mustRun('ip', ['netns', 'exec', NS, 'ip', 'link', 'set', 'lo', 'up']);
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await runCommand('ip', ['netns', 'delete', NS]);
    expect(await listNamespaces()).not.toContain(NS);
  });

  test('CE on the ACKs to the workers: every worker reads the marks and halves; results exact', async () => {
    await markEveryFourth(WORKER_PORTS);
    const { ps, workers } = await runJob('ce-acks');
    const digest = expectedDigest('ce-acks');
    for (const w of workers) {
      expect(w.check).toEqual({ maxAbsError: expect.any(Number), boundViolations: 0 });
      expect(w.resultSha256).toBe(digest);
      const call = w.iterations[0]!;
      expect(call.ipCeMarks).toBeGreaterThan(0);
      expect(call.windowHalvings).toBeGreaterThan(0);
      expect(call.ecnMarks).toBe(0);
      // Every mark the observer reported was taken on a sequence of this job.
      expect(w.ceObserver).toMatchObject({ ce: call.ipCeMarks, malformed: 0, fragments: 0, receiveErrors: 0 });
    }
    expect(ps.stats).toMatchObject({ completed: SEQUENCES, ipCeMarks: 0 });
  });

  test('CE on the pieces to the PS: the ACKs carry the ecn bit back and the workers halve; results exact', async () => {
    await markEveryFourth([PS_PORT]);
    const { ps, workers } = await runJob('ce-pieces');
    const digest = expectedDigest('ce-pieces');
    expect(ps.stats.ipCeMarks).toBeGreaterThan(0);
    expect(ps.ceObserver).toMatchObject({ ce: ps.stats.ipCeMarks, malformed: 0, receiveErrors: 0 });
    for (const w of workers) {
      expect(w.check?.boundViolations).toBe(0);
      expect(w.resultSha256).toBe(digest);
      const call = w.iterations[0]!;
      expect(call.ecnMarks + call.duplicateEcnMarks).toBeGreaterThan(0);
      expect(call.windowHalvings).toBeGreaterThan(0);
      expect(call.ipCeMarks).toBe(0);
    }
  });
});
