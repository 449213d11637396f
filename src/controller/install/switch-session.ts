/**
 * One controller's session with one switch: a P4RuntimeClient connected with
 * the switch's device id and address from the topology, primary for the
 * default role (or refused with INSTALL_NOT_PRIMARY when another controller
 * holds a higher election id), and the switch's pipeline pushed unless the
 * switch's cookie already matches (the client compares cookies). Every Write
 * goes through `write`, which counts requests and updates, so callers and
 * tests can tell "reconciled without writing" from "installed again".
 */
import type { Logger } from '../../log/logger.js';
import { moduleLogger } from '../../log/logger.js';
import type { P4Schema } from '../../p4info/index.js';
import { P4RuntimeClient, isElectionIdUsed, type Entity, type Update, type ElectionIdInput } from '../../p4runtime/index.js';
import type { TopologySwitch } from '../topology.js';
import { InstallError, InstallErrorCode as E } from './errors.js';
import type { Pipeline, ProgramCache } from './program-cache.js';

export interface SessionOptions {
  readonly electionId: ElectionIdInput;
  readonly programs: ProgramCache;
  readonly logger?: Logger;
  /** Deadline of each RPC and of the first arbitration answer (client defaults when left out). */
  readonly rpcTimeoutMs?: number;
}

export interface SessionCounters {
  /** Write requests sent (one write() call may send several batches; counted once). */
  writes: number;
  /** Updates sent in them. */
  updates: number;
  /** Pipelines pushed (0 when the cookie matched). */
  pipelinePushes: number;
}

export class SwitchSession {
  readonly counters: SessionCounters = { writes: 0, updates: 0, pipelinePushes: 0 };

  private constructor(
    readonly sw: TopologySwitch,
    readonly client: P4RuntimeClient,
    readonly pipeline: Pipeline,
  ) {}

  get name(): string {
    return this.sw.name;
  }

  get schema(): P4Schema {
    return this.pipeline.schema;
  }

  /** The switch's target decides what it can do (p4ina's emulator writes registers; BMv2 cannot). */
  get canWriteRegisters(): boolean {
    return this.sw.target === 'emulator';
  }

  /** Connects, becomes primary and pushes the pipeline when the switch runs another one. */
  static async open(sw: TopologySwitch, options: SessionOptions): Promise<SwitchSession> {
    if (sw.grpc === undefined || sw.deviceId === undefined) {
      throw new InstallError(E.INSTALL_NO_PROGRAM, `a ${sw.target} switch has no P4Runtime address; the installer programs only P4Runtime switches`, sw.name);
    }
    const pipeline = options.programs.pipelineFor(sw.program, sw.name);
    const log = options.logger ?? moduleLogger('controller.install', { switch: sw.name });
    const client = new P4RuntimeClient({
      address: sw.grpc,
      deviceId: sw.deviceId,
      electionId: options.electionId,
      reconnect: false,
      logger: log,
      ...(options.rpcTimeoutMs === undefined ? {} : { rpcTimeoutMs: options.rpcTimeoutMs, arbitrationTimeoutMs: options.rpcTimeoutMs }),
    });
    // The client reports stream errors as events; without a listener EventEmitter would throw them.
    client.on('error', (err) => log.warn({ err: err.message }, 'P4Runtime stream error'));
    const session = new SwitchSession(sw, client, pipeline);
    try {
      const { primary } = await client.connect().catch((err: unknown) => {
        const why = isElectionIdUsed(err) ? 'another controller uses the same election id; give each controller its own' : `cannot connect to ${sw.grpc}`;
        throw new InstallError(E.INSTALL_CONNECT_FAILED, `${why}: ${(err as Error).message}`, sw.name, { cause: err });
      });
      if (!primary) {
        throw new InstallError(E.INSTALL_NOT_PRIMARY, `another controller is primary for device ${sw.deviceId} at ${sw.grpc}; stop it or use a higher election id than ${client.electionId}`, sw.name);
      }
      const { pushed } = await client.setPipeline({ p4info: pipeline.p4info, deviceConfig: pipeline.deviceConfig });
      if (pushed) session.counters.pipelinePushes++;
      log.info({ pushed }, pushed ? 'pipeline pushed' : 'pipeline already in place');
      return session;
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
  }

  /** Writes updates in one call (dependent updates go in separate calls), counting them. */
  async write(updates: readonly Update[]): Promise<void> {
    if (updates.length === 0) return;
    this.counters.writes++;
    this.counters.updates += updates.length;
    await this.client.write(updates);
  }

  readAll<T extends Entity>(query: T | readonly T[]): Promise<T[]> {
    return this.client.readAll(query);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
