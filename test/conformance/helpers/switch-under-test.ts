// The switch under test: a real P4RuntimeServer over a fresh DeviceState on
// 127.0.0.1 (port 0), P4RuntimeClients made for it (their events recorded), and
// a bare stub for what the client refuses to send. stop() closes every client,
// stub and stream it made, then the server, so a test's afterEach cleans up
// even when the test failed half-way.
import { pino } from 'pino';
import type { Logger } from '../../../src/log/logger.js';
import type { P4Schema } from '../../../src/p4info/index.js';
import { P4RuntimeClient, type Arbitration, type P4RuntimeClientOptions } from '../../../src/p4runtime/index.js';
import type * as p4i from '../../../src/proto/p4i.js';
import type { PacketIoPort } from '../../../src/switch/ports/packet-io-port.js';
import { P4RuntimeServer, type ServerLimits, type TlsOptions } from '../../../src/switch/runtime/server.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { RawP4Runtime } from './raw-p4runtime.js';
import { WAIT_MS } from './wait.js';

/** Logs of the code under test; silent unless CONFORMANCE_LOG names a pino level. */
export function quietLogger(): Logger {
  return pino({ level: process.env.CONFORMANCE_LOG ?? 'silent' });
}

/** PacketOuts the server handed to the data plane. */
export class RecordingPacketIo implements PacketIoPort {
  readonly packets: { payload: Buffer; metadata: Map<string, Buffer> }[] = [];

  injectPacketOut(payload: Buffer, metadata: ReadonlyMap<string, Buffer>): void {
    this.packets.push({ payload: Buffer.from(payload), metadata: new Map(metadata) });
  }
}

/** What a client reported through its events, in order. */
export type ClientEvent =
  | { type: 'primary' | 'backup'; arbitration: Arbitration }
  | { type: 'disconnect' | 'error'; error: Error }
  | { type: 'reconnect'; attempt: number; primary: boolean };

export type ClientOptions = Partial<P4RuntimeClientOptions> & { electionId: P4RuntimeClientOptions['electionId'] };

export class SwitchUnderTest {
  readonly address: string;
  readonly raw: RawP4Runtime;
  private readonly clients: P4RuntimeClient[] = [];
  private readonly eventLogs = new Map<P4RuntimeClient, ClientEvent[]>();
  private stopped = false;

  private constructor(
    readonly server: P4RuntimeServer,
    readonly state: DeviceState,
    readonly packetIo: RecordingPacketIo,
    readonly port: number,
    readonly deviceId: number,
  ) {
    this.address = `127.0.0.1:${port}`;
    this.raw = new RawP4Runtime(this.address, deviceId);
  }

  /** A switch on `address` (default 127.0.0.1 port 0, a free port), with TLS when given. The bare stub speaks plaintext. */
  static async start(options: { deviceId?: number; limits?: Partial<ServerLimits>; address?: string; tls?: TlsOptions } = {}): Promise<SwitchUnderTest> {
    const deviceId = options.deviceId ?? 1;
    const state = new DeviceState({ logger: quietLogger() });
    const packetIo = new RecordingPacketIo();
    const server = new P4RuntimeServer({ deviceId, state, packetIo, logger: quietLogger(), ...(options.limits ? { limits: options.limits } : {}) });
    const { port } = await server.start({ address: options.address ?? '127.0.0.1:0', ...(options.tls ? { tls: options.tls } : {}) });
    return new SwitchUnderTest(server, state, packetIo, port, deviceId);
  }

  /** A client for this switch, not yet connected; no reconnection unless asked for. */
  client(options: ClientOptions): P4RuntimeClient {
    const client = new P4RuntimeClient({
      address: this.address,
      deviceId: this.deviceId,
      reconnect: false,
      logger: quietLogger(),
      rpcTimeoutMs: WAIT_MS,
      arbitrationTimeoutMs: WAIT_MS,
      ...options,
    });
    const log: ClientEvent[] = [];
    client.on('primary', (arbitration) => log.push({ type: 'primary', arbitration }));
    client.on('backup', (arbitration) => log.push({ type: 'backup', arbitration }));
    client.on('disconnect', (error) => log.push({ type: 'disconnect', error }));
    client.on('error', (error) => log.push({ type: 'error', error }));
    client.on('reconnect', ({ attempt, primary }) => log.push({ type: 'reconnect', attempt, primary }));
    this.clients.push(client);
    this.eventLogs.set(client, log);
    return client;
  }

  /** A connected client. */
  async connect(options: ClientOptions): Promise<P4RuntimeClient> {
    const client = this.client(options);
    await client.connect();
    return client;
  }

  /** A client that is primary (it must have the highest election id) and has pushed `p4info`. */
  async primaryWith(p4info: p4i.P4Info__Output | P4Schema, options: ClientOptions = { electionId: 100n }): Promise<P4RuntimeClient> {
    const client = await this.connect(options);
    if (!client.isPrimary) throw new Error(`the client with election id ${client.electionId} did not become primary`);
    await client.setPipeline({ p4info, deviceConfig: '{}' });
    return client;
  }

  /** The events a client made by client() has reported so far. */
  events(client: P4RuntimeClient): ClientEvent[] {
    const log = this.eventLogs.get(client);
    if (!log) throw new Error('not a client of this switch');
    return log;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.allSettled(this.clients.map((c) => c.close()));
    this.raw.close();
    await this.server.stop();
  }
}
