/**
 * A job's workers in this process, as the demo's agents run them: one
 * SwitchMlWorker per member over a UDP-wire transport (user-space
 * Ethernet/IPv4/UDP frames on the member's wire), worker id = rank in the
 * job. `allreduce` runs every member's call at once. Timing: a first timeout
 * above the emulated switch's queueing delay, a low ceiling, and the worker's
 * own bound on retries, so a test that cannot finish fails by itself instead
 * of hanging.
 */
import { SwitchMlWorker } from '../../../../src/agent/switchml/switchml-worker.js';
import type { SwitchMlStats } from '../../../../src/agent/switchml/switchml-stats.js';
import { UdpWireTransport } from '../../../../src/agent/transport/index.js';
import { SWITCHML_PORTS } from '../../../../src/wire/index.js';
import { ELEMENTS, SWITCH, type E2eHost } from './network.js';
import type { Wires } from './wires.js';

export const E2E_TIMING = {
  timeoutMs: 50,
  // Under 10% loss a call sees a hundred timeouts or more, and a round's
  // result waits for the slowest worker's retransmission, which inflates the
  // measured round trip: a ceiling of 300 ms keeps each lost packet's stall
  // short. A spurious retransmission costs nothing but a dropped duplicate or
  // a unicast result. 30 retransmissions without an answer (about 9 s) fail the call.
  backoff: { factor: 2, maxTimeoutMs: 300 },
  maxRetries: 30,
} as const;

export interface FleetOutcome {
  readonly results: Float32Array[];
  readonly stats: SwitchMlStats[];
}

export class WorkerFleet {
  private constructor(
    readonly jobId: number,
    readonly workers: readonly SwitchMlWorker[],
  ) {}

  /** Opens a transport and a worker per member (all closed again if one fails). */
  static async open(wires: Wires, jobId: number, members: readonly E2eHost[], poolSize: number): Promise<WorkerFleet> {
    const transports: UdpWireTransport[] = [];
    try {
      for (const host of members) {
        const wire = wires.ports[wires.hosts.indexOf(host)];
        if (!wire) throw new Error(`${host.name} has no wire`);
        transports.push(
          await UdpWireTransport.open({
            localAddress: '127.0.0.1',
            localPort: wire.agentSocket,
            peerAddress: '127.0.0.1',
            peerPort: wire.agentPeer,
            host: { mac: host.mac, ip: host.ip, udpPort: host.udpPort },
            remote: { mac: SWITCH.mac, ip: SWITCH.ip, udpPort: SWITCHML_PORTS.first },
          }),
        );
      }
    } catch (err) {
      await Promise.allSettled(transports.map((t) => t.close()));
      throw err;
    }
    const workers = transports.map(
      (transport, rank) =>
        new SwitchMlWorker({ ...E2E_TIMING, transport, jobId, workerId: rank, numWorkers: members.length, poolSize, elementsPerPacket: ELEMENTS, closeTransport: true }),
    );
    return new WorkerFleet(jobId, workers);
  }

  /** tensors[rank] on every worker at once. */
  async allreduce(tensors: readonly Float32Array[]): Promise<FleetOutcome> {
    const outcomes = await Promise.all(this.workers.map((w, rank) => w.allreduce(tensors[rank]!)));
    return { results: outcomes.map((o) => o.result), stats: outcomes.map((o) => o.stats) };
  }

  /** Closes the workers and their transports. Idempotent. */
  close(): Promise<void> {
    return Promise.allSettled(this.workers.map((w) => w.close())).then(() => undefined);
  }
}
