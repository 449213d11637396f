/**
 * AF_PACKET ports on real veth pairs, in a network namespace this file makes
 * and always deletes. The ports run in child processes started inside the
 * namespace (child/*.ts, through the real wrapper and addon); see
 * child/exchange-frames.ts for what they do. Needs root; skipped otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, EXCHANGE_FRAMES, nodeArgs, parseResult, TRY_OPEN } from './child-process.js';
import { BURST, FRAMES_A_TO_B, FRAMES_B_TO_A, type ExchangePlan, type ExchangeResult } from './child/exchange-plan.js';
import { listNamespaces, runCommand, TestNamespace } from './netns.js';
import { testFrame, type TestFrameSpec } from './test-frames.js';

const isRoot = process.getuid?.() === 0;
if (!isRoot) console.warn('af-packet-netns.test.ts skipped: AF_PACKET sockets and network namespaces need root (run the tests as root, as CI does)');

const CHILD_TIMEOUT_MS = 30_000;
const PLAN: ExchangePlan = { a: 'p4a', b: 'p4b', down: 'p4c', batchSize: 16 };
const BARRIER_BYTES = 60;

const hex = (specs: readonly TestFrameSpec[]): string[] => specs.map((spec) => testFrame(spec).toString('hex'));
const bytes = (specs: readonly TestFrameSpec[]): number => specs.reduce((sum, spec) => sum + spec.length, 0);

describe.skipIf(!isRoot)('AF_PACKET ports on a veth pair in a test namespace', () => {
  let ns: TestNamespace | undefined;
  let result: ExchangeResult;

  beforeAll(async () => {
    ns = await TestNamespace.create();
    await ns.addVethPair(PLAN.a, PLAN.b);
    await ns.addVethPair(PLAN.down, 'p4d', false);
    const run = await ns.run('node', nodeArgs(EXCHANGE_FRAMES, JSON.stringify(PLAN)), { timeoutMs: CHILD_TIMEOUT_MS, env: childEnv() });
    result = parseResult<ExchangeResult>(run);
  }, CHILD_TIMEOUT_MS + 15_000);

  afterAll(async () => {
    const name = ns?.name;
    await ns?.remove();
    if (name !== undefined) expect(await listNamespaces()).not.toContain(name);
  });

  it('delivers frames from A to B byte for byte, in order, VLAN tag included', () => {
    expect(result.aToB.received).toEqual(hex(FRAMES_A_TO_B));
  });

  it('delivers frames from B to A byte for byte, in order', () => {
    expect(result.bToA.received).toEqual(hex(FRAMES_B_TO_A));
  });

  it('does not hand a socket the frames it sent itself', () => {
    expect(result.aToB.seenBySender).toBe(0);
    expect(result.bToA.seenBySender).toBe(0);
    expect(result.burst.seenBySender).toBe(0);
  });

  it('counts frames and bytes both ways (each side also sent one barrier frame)', () => {
    const [a, b] = result.countersAfterExchange;
    const fromA = { frames: FRAMES_A_TO_B.length + 1, bytes: bytes(FRAMES_A_TO_B) + BARRIER_BYTES };
    const fromB = { frames: FRAMES_B_TO_A.length + 1, bytes: bytes(FRAMES_B_TO_A) + BARRIER_BYTES };
    expect(a).toEqual({ framesOut: fromA.frames, bytesOut: fromA.bytes, framesIn: fromB.frames, bytesIn: fromB.bytes, drops: 0, malformed: 0 });
    expect(b).toEqual({ framesOut: fromB.frames, bytesOut: fromB.bytes, framesIn: fromA.frames, bytesIn: fromA.bytes, drops: 0, malformed: 0 });
  });

  it('carries a burst of many batches intact and in order', () => {
    expect(result.burst).toEqual({ received: BURST.count, firstMismatch: -1, seenBySender: 0 });
  });

  it('drops and counts a frame longer than the MTU, and sends the frames queued with it', () => {
    expect(result.oversize).toEqual({ accepted: true, drops: 1, sendErrors: 1, receivedLengths: [60] });
  });

  it('reports a link going down once and receives again when it is back up', () => {
    expect(result.linkFlap).toEqual({ receiveErrors: 1, recovered: true });
  });

  it('puts the interfaces in promiscuous mode while open, and takes them out on close', () => {
    expect(result.promiscuousWhileOpen).toEqual([true, true]);
    expect(result.promiscuousAfterClose).toEqual([false, false]);
  });

  it('opens on an interface that is down', () => {
    expect(result.downOpened).toBe(true);
  });

  it('refuses an unknown interface with AF_PACKET_NO_INTERFACE', () => {
    expect(result.unknownInterface.code).toBe('AF_PACKET_NO_INTERFACE');
    expect(result.unknownInterface.message).toContain('no interface p4nope0');
  });

  it('drops sends after close, and the child exits by itself (no handle left open)', () => {
    expect(result.sendAfterClose).toBe(false);
    expect(result.closed).toEqual([true, true]);
  });

  it('refuses a process without CAP_NET_RAW with AF_PACKET_PERMISSION', async (context) => {
    const setpriv = await runCommand('setpriv', ['--version']);
    if (setpriv.code !== 0) {
      console.warn('permission test skipped: setpriv (util-linux) is not installed');
      context.skip();
    }
    // Still uid 0 (so the checkout stays readable), but CAP_NET_RAW is gone from the bounding set.
    const run = await ns!.run('setpriv', ['--bounding-set=-net_raw', '--inh-caps=-net_raw', 'node', ...nodeArgs(TRY_OPEN, PLAN.a)], {
      timeoutMs: CHILD_TIMEOUT_MS,
      env: childEnv(),
    });
    const opened = parseResult<{ code: string; message: string }>(run);
    expect(opened.code).toBe('AF_PACKET_PERMISSION');
    expect(opened.message).toContain('AF_PACKET needs root or CAP_NET_RAW');
  }, CHILD_TIMEOUT_MS + 5_000);
});
