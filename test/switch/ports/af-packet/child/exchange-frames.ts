/**
 * Runs inside a test network namespace (af-packet-netns.test.ts spawns it
 * with `ip netns exec NS node --import ./register-ts.mjs exchange-frames.ts
 * PLAN`): opens AF_PACKET ports on both ends of a veth pair through the real
 * wrapper and addon, exchanges frames both ways, flaps a link, and prints
 * one `RESULT {json}` line. It never calls process.exit on success: if a
 * closed port leaked its poll handle, the process would not end and the
 * parent's timeout would say so.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { AfPacketPort } from '../../../../../src/switch/ports/af-packet/af-packet-port.js';
import { snapshotCounters, type PortCounters } from '../../../../../src/switch/ports/port.js';
import { isTestFrame, testFrame, type TestFrameSpec } from '../test-frames.js';
import { BARRIER_SEQ, BURST, FRAMES_A_TO_B, FRAMES_B_TO_A, type ExchangePlan, type ExchangeResult } from './exchange-plan.js';

const run = promisify(execFile);
const WAIT_MS = 5_000;
const LINK_RECOVERY_TRIES = 50;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(what: string, done: () => boolean, ms = WAIT_MS): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(5);
  }
}

function isPromiscuous(iface: string): boolean {
  const IFF_PROMISC = 0x100;
  return (Number.parseInt(readFileSync(`/sys/class/net/${iface}/flags`, 'utf8').trim(), 16) & IFF_PROMISC) !== 0;
}

interface End {
  readonly port: AfPacketPort;
  readonly inbox: Buffer[];
}

function attach(port: AfPacketPort): End {
  const inbox: Buffer[] = [];
  port.onFrame((frame) => {
    if (isTestFrame(frame)) inbox.push(frame);
  });
  return { port, inbox };
}

/**
 * Waits until `to` has everything `from` sent, then sends a barrier frame
 * back and waits for it: frames reach a socket in order, so any frame
 * `from` would have captured of its own sending has arrived by then.
 */
async function exchange(from: End, to: End, specs: readonly TestFrameSpec[], label: string): Promise<{ received: Buffer[]; seenBySender: Buffer[] }> {
  from.inbox.length = 0;
  to.inbox.length = 0;
  for (const spec of specs) if (!from.port.send(testFrame(spec))) throw new Error(`${label}: send refused frame ${spec.seq}`);
  await waitFor(`${label}: ${specs.length} frames`, () => to.inbox.length >= specs.length);
  const back = specs[0]!.direction === 1 ? 2 : 1;
  const barrier = testFrame({ seq: BARRIER_SEQ, length: 60, direction: back });
  to.port.send(barrier);
  await waitFor(`${label}: the barrier frame`, () => from.inbox.some((f) => f.equals(barrier)));
  return { received: [...to.inbox], seenBySender: from.inbox.filter((f) => !f.equals(barrier)) };
}

async function main(plan: ExchangePlan): Promise<ExchangeResult> {
  const a = attach(AfPacketPort.open({ number: 1, iface: plan.a, batchSize: plan.batchSize }));
  const b = attach(AfPacketPort.open({ number: 2, iface: plan.b, batchSize: plan.batchSize }));
  const promiscuousWhileOpen = [isPromiscuous(plan.a), isPromiscuous(plan.b)];

  const aToB = await exchange(a, b, FRAMES_A_TO_B, 'A to B');
  const bToA = await exchange(b, a, FRAMES_B_TO_A, 'B to A');
  const countersAfterExchange: [PortCounters, PortCounters] = [snapshotCounters(a.port.counters), snapshotCounters(b.port.counters)];

  const burstSpecs = Array.from({ length: BURST.count }, (_, seq): TestFrameSpec => ({ seq, length: BURST.length, direction: 1 }));
  const burst = await exchange(a, b, burstSpecs, 'burst');
  const burstMismatch = burst.received.findIndex((frame, i) => !frame.equals(testFrame(burstSpecs[i]!)));

  // One byte over the MTU (1500 + the 14-byte header): the kernel refuses it.
  const dropsBefore = a.port.counters.drops;
  const errorsBefore = a.port.statistics().sendErrors;
  const oversizeAccepted = a.port.send(testFrame({ seq: 1, length: 1515, direction: 1 }));
  const oversizeFollower = await exchange(a, b, [{ seq: 2, length: 60, direction: 1 }], 'after the oversize frame');
  const oversize = {
    accepted: oversizeAccepted,
    drops: a.port.counters.drops - dropsBefore,
    sendErrors: a.port.statistics().sendErrors - errorsBefore,
    receivedLengths: oversizeFollower.received.map((f) => f.length),
  };

  // Link flap on B: the socket reports ENETDOWN and keeps working once the link is back.
  const errorsBeforeFlap = b.port.statistics().receiveErrors;
  await run('ip', ['link', 'set', plan.b, 'down']);
  await waitFor('the link-down error', () => b.port.statistics().receiveErrors > errorsBeforeFlap);
  await run('ip', ['link', 'set', plan.b, 'up']);
  b.inbox.length = 0;
  let recovered = false;
  // The qdisc comes back asynchronously after the link does: probe until a frame passes.
  for (let attempt = 0; attempt < LINK_RECOVERY_TRIES && !recovered; attempt++) {
    a.port.send(testFrame({ seq: attempt, length: 60, direction: 1 }));
    await sleep(100);
    recovered = b.inbox.length > 0;
  }

  const down = AfPacketPort.open({ number: 3, iface: plan.down });
  const downOpened = down.ifindex > 0 && !down.closed;
  await down.close();

  let unknownInterface: ExchangeResult['unknownInterface'];
  try {
    AfPacketPort.open({ number: 4, iface: 'p4nope0' });
    unknownInterface = { code: 'opened', message: '' };
  } catch (err) {
    unknownInterface = { code: (err as { code?: string }).code ?? 'none', message: (err as Error).message };
  }

  await Promise.all([a.port.close(), b.port.close()]);
  await a.port.close(); // idempotent
  return {
    promiscuousWhileOpen,
    promiscuousAfterClose: [isPromiscuous(plan.a), isPromiscuous(plan.b)],
    aToB: { received: aToB.received.map((f) => f.toString('hex')), seenBySender: aToB.seenBySender.length },
    bToA: { received: bToA.received.map((f) => f.toString('hex')), seenBySender: bToA.seenBySender.length },
    countersAfterExchange,
    burst: { received: burst.received.length, firstMismatch: burstMismatch, seenBySender: burst.seenBySender.length },
    oversize,
    linkFlap: { receiveErrors: b.port.statistics().receiveErrors - errorsBeforeFlap, recovered },
    downOpened,
    unknownInterface,
    sendAfterClose: a.port.send(testFrame({ seq: 0, length: 60, direction: 1 })),
    closed: [a.port.closed, b.port.closed],
  };
}

function report(result: unknown): void {
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

const watchdog = setTimeout(() => {
  report({ fatal: 'the child ran out of time' });
  process.exit(3);
}, 25_000);

main(JSON.parse(process.argv[2] ?? '{}') as ExchangePlan)
  .then(report, (err: unknown) => {
    report({ fatal: String((err as Error)?.stack ?? err) });
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
