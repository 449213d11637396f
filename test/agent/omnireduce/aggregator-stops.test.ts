// An aggregator that stops in the middle of a job: two worker processes of
// the built CLI run calls without end through an aggregator in this process,
// which closes its socket once it has completed a number of rounds. The
// workers must then fail on their own with OMNIREDUCE_TIMEOUT and exit 1.
import { afterEach, describe, expect, it } from 'vitest';
import { OmniReduceAggregator } from '../../../src/agent/omnireduce/omnireduce-aggregator.js';
import type { SourcedTransport } from '../../../src/agent/omnireduce/sourced-transport.js';
import { KernelUdpAddressedTransport, socketAddress } from '../../../src/agent/transport/index.js';
import { ChildGroup, waitExit } from '../../../src/demo/child-group.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { missingBuild, spawnWorker } from './helpers/processes.js';

const missing = missingBuild();

describe.skipIf(missing !== undefined)('an OmniReduce aggregator that stops mid-job', () => {
  let group: ChildGroup | undefined;
  let transport: KernelUdpAddressedTransport | undefined;
  afterEach(async () => {
    expect(group?.livePids() ?? [], 'children still running').toEqual([]);
    await group?.close();
    await transport?.close();
  });

  it('leaves its workers to fail with OMNIREDUCE_TIMEOUT within their retries, and exit 1', async () => {
    group = new ChildGroup();
    const [aggPort, ...ports] = await testUdpPorts(3);
    const socket = await KernelUdpAddressedTransport.open({ localAddress: '127.0.0.1', localPort: aggPort! });
    transport = socket;
    let reached: () => void = () => {};
    const enoughRounds = new Promise<void>((resolve) => (reached = resolve));
    // The aggregator's transport, watched: after each datagram, whether the job is well under way.
    const watched: SourcedTransport = {
      sendTo: (to, payload, length) => socket.sendTo(to, payload, length),
      onDatagram: (listener) => socket.onDatagram(listener && ((buf, offset, length, from) => {
        listener(buf, offset, length, from);
        if (aggregator.counters.rounds >= 200) reached();
      })),
    };
    const aggregator = new OmniReduceAggregator({ transport: watched, workers: ports.map((p) => socketAddress('127.0.0.1', p, 'worker')), firstSlot: 0, slotCount: 4, blockSize: 32 });
    const workers = await Promise.all(ports.map((port, rank) => spawnWorker(group!, rank, [
      '--local', `127.0.0.1:${port}`, '--rank', String(rank), '--workers', '2', '--aggregator', `127.0.0.1:${aggPort}@0+4`,
      '--block-size', '32', '--length', '1000', '--sparsity', '0.5', '--iterations', '1000000', '--timeout', '20', '--max-retries', '3',
    ])));
    const exitedEarly = Promise.race(workers.map((w) => w.exited.then(() => w.name)));
    const first = await Promise.race([enoughRounds.then(() => 'rounds'), exitedEarly]);
    expect(first, `a worker exited before the aggregator stopped: ${workers.map((w) => w.stderr()).join('\n')}`).toBe('rounds');
    aggregator.detach();
    await socket.close();
    const exited = await Promise.all(workers.map((w) => waitExit(w, 60_000)));
    expect(exited).toEqual([true, true]);
    for (const w of workers) {
      expect(w.exit()?.code).toBe(1);
      expect(w.stderr()).toMatch(/^error OMNIREDUCE_TIMEOUT: worker \d: aggregator 127\.0\.0\.1:\d+ did not answer slot \d .* through 3 retransmissions/);
    }
  }, 90_000);
});
