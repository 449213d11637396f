// `--transport wire`: a worker and an aggregator of the built CLI joined by a
// UDP wire (each end's socket the other's peer, as a switch port would be),
// building Ethernet/IPv4/UDP frames themselves. The aggregator knows the
// worker by the IPv4 source and UDP port inside its frames, which are not the
// wire socket's, so the job completes only if the wire names the sender.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { workerTensor } from '../../../src/agent/baseline/sparse-tensor.js';
import { ChildGroup, waitExit } from '../../../src/demo/child-group.js';
import { testUdpPorts } from '../../helpers/test-ports.js';
import { expectedSwitchMlResult } from '../switchml/helpers/numbers.js';
import { aggregatorReport, missingBuild, spawnWorker, startAggregator, workerReport } from './helpers/processes.js';

const WORKER_MAC = '02:00:00:00:00:01';
const AGGREGATOR_MAC = '02:00:00:00:00:09';

describe.skipIf(missingBuild() !== undefined)('OmniReduce over a UDP wire', () => {
  let group: ChildGroup | undefined;
  afterEach(async () => {
    expect(group?.livePids() ?? [], 'children still running').toEqual([]);
    await group?.close();
  });

  it('one worker and one aggregator: the exact sum, from frames addressed 10.0.0.1 → 10.0.0.9', async () => {
    group = new ChildGroup();
    const [workerEnd, aggregatorEnd] = await testUdpPorts(2);
    const aggregator = await startAggregator(group, 'aggregator', [
      '--transport', 'wire', '--listen', '10.0.0.9:48880', '--wire-local', `127.0.0.1:${aggregatorEnd}`, '--peer', `127.0.0.1:${workerEnd}`,
      '--mac', AGGREGATOR_MAC, '--gateway-mac', WORKER_MAC, '--workers', '10.0.0.1:48880', '--slots', '4', '--block-size', '100',
    ]);
    const worker = await spawnWorker(group, 0, [
      '--transport', 'wire', '--local', '10.0.0.1:48880', '--wire-local', `127.0.0.1:${workerEnd}`, '--peer', `127.0.0.1:${aggregatorEnd}`,
      '--mac', WORKER_MAC, '--gateway-mac', AGGREGATOR_MAC, '--rank', '0', '--workers', '1', '--aggregator', '10.0.0.9:48880@0+4',
      '--block-size', '100', '--length', '5000', '--sparsity', '0.7', '--pattern', 'clustered', '--seed', '3', '--check',
    ]);
    expect(await waitExit(worker, 60_000)).toBe(true);
    expect([worker.exit()?.code, worker.stderr()]).toEqual([0, '']);
    await group.stop([aggregator]);
    const tensor = workerTensor(5000, 3, 0, 1, { sparsity: 0.7, pattern: 'clustered', blockElements: 100 });
    const expected = expectedSwitchMlResult([tensor], 100);
    const report = workerReport(worker);
    expect(report.resultSha256).toBe(createHash('sha256').update(new Uint8Array(expected.buffer)).digest('hex'));
    expect(report.check).toMatchObject({ boundViolations: 0 });
    const agg = aggregatorReport(aggregator);
    expect(agg).toMatchObject({ listen: '10.0.0.9:48880', workers: ['10.0.0.1:48880'], waiting: [] });
    expect(agg.counters).toMatchObject({ invalid: 0 });
    expect(agg.counters.rounds).toBeGreaterThan(0);
  }, 90_000);
});
