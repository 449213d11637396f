/**
 * The running switch: DeviceState + P4RuntimeServer + ports + the compiled
 * v1model executor.
 *
 * Consistency: everything here runs on Node's single event loop. A frame
 * callback processes its packet to the end synchronously; a P4Runtime Write
 * batch is applied synchronously inside one RPC callback; a pipeline change
 * swaps `this.processor` synchronously inside SetForwardingPipelineConfig's
 * callback, after the new pipeline was compiled. None of these can
 * interleave, so a packet sees either the whole batch or none of it, and
 * either the old pipeline or the new one, never a half-installed one.
 * Packets waiting in egress queues (ports with a rate) leave from timers, on
 * the same loop; a pipeline change drops them (they hold the old program's
 * headers and metadata), counted as drops of their egress port.
 */
import type { Logger } from 'pino';
import type { IrProgram } from '../../p4c/ir/types.js';
import { moduleLogger } from '../../log/logger.js';
import type * as p4i from '../../proto/p4i.js';
import type * as p4r from '../../proto/p4r.js';
import type { CompiledPipeline } from '../pipeline/compiled-pipeline.js';
import type { QueuedPacket } from '../pipeline/queued-egress.js';
import { V1ModelProcessor, type DropReason } from '../pipeline/v1model-processor.js';
import type { PacketIoPort } from '../ports/packet-io-port.js';
import type { Port } from '../ports/port.js';
import type { PortSet } from '../ports/port-set.js';
import { EgressQueues } from '../queues/egress-queues.js';
import type { PortRate } from '../queues/port-rate.js';
import type { QueueStats } from '../queues/port-queue.js';
import { realQueueClock, type QueueClock } from '../queues/queue-clock.js';
import type { QueueSetting } from '../queues/queue-setting.js';
import type { IdleTimer } from '../runtime/idle-timeout-notifier.js';
import { P4RuntimeServer, type ServerLimits, type StartOptions } from '../runtime/server.js';
import { DeviceState, type InstalledPipeline } from '../state/device-state.js';
import type { PipelineLimits } from '../state/pipeline-config.js';
import { Code } from '../state/status.js';
import { compileInstalled, populateFromIr, verifyIr } from './pipeline-loader.js';
import { PortStatsTable, type PortStats } from './port-stats.js';

/** A device config that carries no program: empty, blank, or `{}`. */
function isPlaceholder(deviceConfig: Buffer): boolean {
  const text = deviceConfig.toString('utf8').trim();
  return text === '' || /^\{\s*\}$/.test(text);
}

export interface SwitchDeviceOptions {
  readonly deviceId?: number | bigint;
  readonly ports: PortSet;
  /** The CPU port: egress to it becomes a PacketIn; PacketOuts enter ingress from it. */
  readonly cpuPort?: number | undefined;
  readonly logger?: Logger;
  /** Clock and timer of idle timeouts (hits, TTLs, scans); real time by default. Tests pass a fake one. */
  readonly idleTimer?: IdleTimer;
  /** What one pipeline may declare and take (memory budget, array cells, …). */
  readonly pipelineLimits?: Partial<PipelineLimits>;
  /** The P4Runtime server's limits (reads in flight, entities per read, streams, …). */
  readonly serverLimits?: Partial<ServerLimits>;
  /** Egress queues: transmit rates and capacities, for every port or one (docs/switch.md). None: every port is unlimited. */
  readonly queues?: readonly QueueSetting[];
  /** Clock and timers of the egress queues and of standard_metadata's timestamps; real time by default. Tests pass a virtual one. */
  readonly queueClock?: QueueClock;
}

export class SwitchDevice implements PacketIoPort {
  readonly state: DeviceState;
  readonly server: P4RuntimeServer;
  readonly stats = new PortStatsTable();
  private readonly log: Logger;
  private readonly compiled = new WeakMap<InstalledPipeline, CompiledPipeline>();
  private processor: V1ModelProcessor | undefined;
  private processingErrors = 0;
  private readonly clock: QueueClock;
  private readonly queues: EgressQueues<QueuedPacket>;
  private readonly onFrame = (frame: Buffer, port: Port): void => this.receive(frame, port);

  constructor(private readonly options: SwitchDeviceOptions) {
    this.log = options.logger ?? moduleLogger('switch.device');
    this.clock = options.queueClock ?? realQueueClock;
    this.queues = new EgressQueues<QueuedPacket>(this.clock, (port, item, at, depthAfter) => this.depart(port, item, at, depthAfter));
    this.queues.configure(options.queues ?? []);
    const services = { log: this.log, emitDigest: (id: number, data: p4r.P4Data) => this.emitDigest(id, data) };
    const irs = new WeakMap<InstalledPipeline, IrProgram>();
    this.state = new DeviceState({
      logger: this.log,
      ...(options.idleTimer ? { clock: () => options.idleTimer!.now() } : {}),
      ...(options.pipelineLimits ? { limits: options.pipelineLimits } : {}),
      deviceConfig: {
        // No program (empty bytes or an empty JSON object, as P4Runtime-only tests push): accepted, the data plane drops everything.
        verify: (pipeline) => {
          if (!isPlaceholder(pipeline.deviceConfig)) irs.set(pipeline, verifyIr(pipeline, this.state.limits, services));
        },
        populate: (pipeline, forwarding) => {
          const ir = irs.get(pipeline);
          if (ir) populateFromIr(ir, forwarding);
        },
        prepare: (pipeline) => {
          const ir = irs.get(pipeline);
          if (ir) this.compiled.set(pipeline, compileInstalled(ir, pipeline, services));
        },
      },
    });
    this.server = new P4RuntimeServer({
      deviceId: options.deviceId ?? 0,
      state: this.state,
      packetIo: this,
      logger: this.log,
      ...(options.idleTimer ? { idleTimer: options.idleTimer } : {}),
      ...(options.serverLimits ? { limits: options.serverLimits } : {}),
    });
    this.state.onPipelineChange((p) => this.usePipeline(p));
    options.ports.onFrame(this.onFrame);
  }

  /** The switch's ports (wrapped by pcap recording when that is on). */
  get ports(): PortSet {
    return this.options.ports;
  }

  /** Starts the P4Runtime server. */
  start(options: StartOptions = {}): Promise<{ port: number }> {
    return this.server.start(options);
  }

  /** Stops the server and closes the ports (packets still queued are dropped). */
  async stop(): Promise<void> {
    this.options.ports.onFrame(undefined);
    this.queues.flush();
    await this.server.stop();
    await this.options.ports.close();
  }

  /** Installs a program as SetForwardingPipelineConfig(VERIFY_AND_COMMIT) would; throws with the status message if refused. */
  loadPipeline(p4info: p4i.P4Info__Output, irText: string, cookie?: string): void {
    const config: p4r.ForwardingPipelineConfig__Output = {
      p4info,
      p4_device_config: Buffer.from(irText, 'utf8'),
      cookie: cookie === undefined ? null : { cookie },
    };
    const s = this.state.setPipeline('VERIFY_AND_COMMIT', config);
    if (s.code !== Code.OK) throw new Error(s.message);
  }

  /**
   * Per-port counters: packets in (handed to the pipeline), out, dropped (by
   * the program, the traffic manager or a full port), malformed (frames the
   * port refused as too short for Ethernet, plus frames the executor failed on).
   */
  portStats(): Record<number, PortStats> {
    for (const port of this.options.ports) {
      const s = this.stats.of(port.number);
      s.malformedByPort = port.counters.malformed;
    }
    return this.stats.snapshot();
  }

  /**
   * Sets the transmit rate of one port's egress queue, or of every port's
   * (replacing per-port rates), as BMv2's set_queue_rate and
   * set_all_queue_rates do; 'unlimited' removes it (packets waiting leave at
   * once). Takes effect from the next packet. Throws QueueError.
   */
  setPortRate(rate: PortRate | 'unlimited', port?: number): void {
    this.queues.setRate(rate, port);
    this.log.info({ port: port ?? 'all', rate }, 'egress queue rate set');
  }

  /**
   * Sets the capacity in packets of one port's egress queue, or of every
   * port's, as BMv2's set_queue_depth and set_all_queue_depths do. Packets
   * already queued beyond it stay. Throws QueueError.
   */
  setQueueDepth(depth: number, port?: number): void {
    this.queues.setDepth(depth, port);
    this.log.info({ port: port ?? 'all', depth }, 'egress queue depth set');
  }

  /** The rate and capacity that apply to a port now. Throws QueueError for a bad port number. */
  queueSettings(port: number): { rate: PortRate | undefined; depth: number } {
    return this.queues.settingsOf(port);
  }

  /** Egress queue counters of the attached ports with a rate, and of any port whose queue saw packets. */
  queueStats(): Record<number, QueueStats> {
    const out: Record<number, QueueStats> = {};
    for (const [port, s] of this.queues.stats()) {
      if (this.options.ports.has(port) || port === this.options.cpuPort || s.enqueued + s.tailDrops + s.flushed > 0) out[port] = s;
    }
    return out;
  }

  injectPacketOut(payload: Buffer, metadata: ReadonlyMap<string, Buffer>): void {
    const processor = this.processor;
    if (!processor) return;
    const port = this.options.cpuPort ?? 0;
    try {
      processor.injectPacketOut(payload, metadata);
    } catch (err) {
      this.failed(err, port);
    }
  }

  /** One frame from a port: the data plane's hot path, so no closure or lookup beyond an array read. */
  receive(frame: Buffer, port: Port): void {
    const number = port.number;
    const stats = this.stats.of(number);
    stats.packetsIn++;
    const processor = this.processor;
    if (!processor) {
      stats.dropped++;
      return;
    }
    try {
      processor.process(frame, number);
    } catch (err) {
      this.failed(err, number);
    }
  }

  /** A bug in the executor must not take the switch down: count it and log the first and every 1000th. */
  private failed(err: unknown, port: number): void {
    this.stats.of(port).failed++;
    if (this.processingErrors++ % 1000 === 0) this.log.error({ err, port }, 'packet processing failed; packet dropped');
  }

  private usePipeline(pipeline: InstalledPipeline | undefined): void {
    const flushed = this.queues.flush();
    for (const [port, n] of flushed) this.stats.of(port).dropped += n;
    if (flushed.size > 0) this.log.info({ dropped: Object.fromEntries(flushed) }, 'pipeline change: packets waiting in egress queues dropped');
    const compiled = pipeline ? this.compiled.get(pipeline) : undefined;
    if (!pipeline || !compiled) {
      this.processor = undefined;
      if (pipeline) this.log.warn('the pipeline has no device config: packets are dropped until one with p4ina IR is pushed');
      return;
    }
    this.processor = new V1ModelProcessor(compiled, pipeline.forwarding, {
      output: (port, frame) => this.output(port, frame),
      packetIn: (payload, metadata) => {
        this.stats.of(this.options.cpuPort ?? 0).packetsOut++;
        this.server.emitPacketIn(payload, metadata);
      },
      drop: (port, reason) => this.dropped(port, reason),
    }, { cpuPort: this.options.cpuPort, queues: this.queues.byPort, clock: () => this.clock.nowMicros() });
    this.log.info({ source: compiled.program.source }, 'data plane running the new pipeline');
  }

  private output(portNumber: number, frame: Buffer): void {
    const port = this.options.ports.get(portNumber);
    const stats = this.stats.of(portNumber);
    if (!port || !port.send(frame)) {
      stats.dropped++;
      return;
    }
    stats.packetsOut++;
  }

  private dropped(port: number, reason: DropReason): void {
    this.stats.of(port).dropped++;
    if (this.log.isLevelEnabled('trace')) this.log.trace({ port, reason }, 'packet dropped');
    if (reason === 'queue_full') {
      // Congestion is normal operation: the first tail drop of a port and every 1000th after it.
      const tailDrops = this.queues.tailDrops(port);
      if (tailDrops % 1000 === 1) this.log.info({ port, tailDrops }, 'egress queue full: packets tail-dropped');
    }
  }

  /** A packet leaves a port's egress queue (from a timer, or at once): egress runs on it. */
  private depart(port: number, item: QueuedPacket, at: number, depthAfter: number): void {
    const processor = this.processor;
    if (!processor) {
      this.stats.of(port).dropped++;
      return;
    }
    try {
      processor.depart(item, at, depthAfter);
    } catch (err) {
      this.failed(err, port);
    }
  }

  private emitDigest(digestId: number, data: p4r.P4Data): void {
    this.server.emitDigest(digestId, data);
  }
}
