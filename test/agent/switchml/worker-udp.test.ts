import { afterEach, describe, expect, test } from 'vitest';
import { KernelUdpTransport, UdpWireTransport } from '../../../src/agent/transport/index.js';
import { ipv4FromText, macFromText, SWITCHML_PORTS } from '../../../src/wire/index.js';
import { eventually, openUdpHandles } from '../transport/helpers.js';
import { checkAgainstFloat64, expectedSwitchMlResult, sameBits, seededTensors } from './helpers/numbers.js';
import { runJob } from './helpers/run-job.js';
import { KernelUdpTestSwitch, WireTestSwitch, type TestSwitchJob } from './helpers/udp-test-switch.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  expect(await openUdpHandles()).toEqual([]);
});

/** Real sockets on a shared machine: timeouts long enough that only the injected loss causes retransmissions, mostly. */
const SOCKET_TIMING = { timeoutMs: 20, backoff: { minTimeoutMs: 5, maxTimeoutMs: 200 }, maxRetries: 100 };

describe('SwitchML over real UDP sockets on 127.0.0.1', () => {
  test('kernel UDP: 3 workers through a test switch that loses 5% of updates and results', async () => {
    const job: TestSwitchJob = { jobId: 21, slotBase: 0, poolSize: 16, workerIds: [0, 1, 2] };
    // The job spec tells the switch each worker's address; here the workers bind first and report theirs.
    const addresses = new Map<string, { address: string; port: number }>();
    const sw = await KernelUdpTestSwitch.open([job], addresses, { loss: 0.05, seed: 'kernel' });
    cleanups.push(() => sw.close());
    const bound = await Promise.all(
      job.workerIds.map(async (workerId) => {
        const t = await KernelUdpTransport.open({ localAddress: '127.0.0.1', remoteAddress: '127.0.0.1', remotePort: sw.port });
        cleanups.push(() => t.close());
        addresses.set(`21/${workerId}`, { address: '127.0.0.1', port: t.local.port });
        return t;
      }),
    );
    const calls = [seededTensors(3, 5000, 'kernel-a'), seededTensors(3, 777, 'kernel-b')];
    const outcomes = await runJob(bound, 21, job.workerIds, calls, { ...SOCKET_TIMING, poolSize: 16 });
    outcomes.forEach((outcome, i) => {
      const expected = expectedSwitchMlResult(calls[i]!, 64);
      for (const result of outcome.results) expect(sameBits(result, expected)).toBe(true);
      expect(checkAgainstFloat64(outcome.results[0]!, calls[i]!, 64).violations).toBe(0);
    });
    expect(sw.lossy.dropped).toBeGreaterThan(0);
    expect(outcomes.flatMap((o) => o.stats).reduce((s, st) => s + st.retransmissions, 0)).toBeGreaterThan(0);
  });

  test('UDP wire: 4 agents build Ethernet frames, answer the switch’s ARP, and reduce through 5% loss', async () => {
    const switchAddress = { mac: macFromText('02:00:00:00:00:fe'), ip: ipv4FromText('10.0.0.254') };
    const job: TestSwitchJob = { jobId: 22, slotBase: 8, poolSize: 12, workerIds: [0, 1, 2, 3] };
    const hosts = job.workerIds.map((w) => ({ mac: `02:00:00:00:00:0${w + 1}`, ip: `10.0.0.${w + 1}`, udpPort: 40000 + w }));
    const sw = await WireTestSwitch.open(
      [job],
      job.workerIds.map((workerId) => ({ jobId: 22, workerId, ip: ipv4FromText(hosts[workerId]!.ip), udpPort: hosts[workerId]!.udpPort })),
      switchAddress,
      { loss: 0.05, seed: 'wire' },
    );
    cleanups.push(() => sw.close());
    const transports = await Promise.all(
      job.workerIds.map(async (workerId) => {
        const t = await UdpWireTransport.open({
          peerPort: sw.portOf(22, workerId).socket.address().port,
          host: hosts[workerId]!,
          remote: { mac: switchAddress.mac, ip: switchAddress.ip, udpPort: SWITCHML_PORTS.first + workerId },
        });
        cleanups.push(() => t.close());
        return t;
      }),
    );
    sw.connect(new Map(transports.map((t, workerId) => [sw.portOf(22, workerId), t.local.port])));
    expect(await eventually(() => sw.everyMacLearned)).toBe(true);
    expect(transports.every((t) => t.arpReplies === 1)).toBe(true);

    const tensors = seededTensors(4, 3001, 'wire');
    const [outcome] = await runJob(transports, 22, job.workerIds, [tensors], { ...SOCKET_TIMING, poolSize: 12 });
    const expected = expectedSwitchMlResult(tensors, 64);
    for (const result of outcome!.results) expect(sameBits(result, expected)).toBe(true);
    expect(sw.lossy.dropped).toBeGreaterThan(0);
    expect(transports.every((t) => t.malformed === 0 && t.notForUs === 0 && t.foreign === 0)).toBe(true);
  });
});
