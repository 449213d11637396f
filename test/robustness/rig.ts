// A whole switch (SwitchDevice: device state, IR executor, P4Runtime server) on
// 127.0.0.1 with no ports, a bare grpc-js stub for it, and a primary stream, for
// the robustness tests: everything goes over real gRPC, and every call has a
// deadline so a bug fails a test instead of hanging it.
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { decodeStatusDetails } from '../../src/p4runtime/errors.js';
import { p4RuntimeGrpc } from '../../src/proto/load.js';
import type * as p4i from '../../src/proto/p4i.js';
import type * as p4r from '../../src/proto/p4r.js';
import { SwitchDevice, type SwitchDeviceOptions } from '../../src/switch/device/switch-device.js';
import { PortSet } from '../../src/switch/ports/port-set.js';
import { StreamProbe } from '../switch/runtime/harness.js';

export type Stub = InstanceType<ReturnType<typeof p4RuntimeGrpc>['p4']['v1']['P4Runtime']>;

export const DEVICE = 1;
export const PRIMARY = 10n;
const DEADLINE_MS = 10_000;

export interface Answer {
  code: number;
  details: string;
  /** The per-item codes of a failed batch (grpc-status-details-bin), empty otherwise. */
  items: number[];
}

function itemCodes(metadata: grpc.Metadata | undefined): number[] {
  const [raw] = metadata?.get('grpc-status-details-bin') ?? [];
  return Buffer.isBuffer(raw) ? (decodeStatusDetails(raw) ?? []).map((e) => e.canonical_code) : [];
}

export interface SwitchRig {
  readonly device: SwitchDevice;
  readonly stub: Stub;
  readonly port: number;
  stream(): StreamProbe;
  /** A unary call's status: code 0 on success. Never rejects. */
  call(method: 'Write' | 'SetForwardingPipelineConfig' | 'GetForwardingPipelineConfig' | 'Capabilities', request: object): Promise<Answer & { response?: unknown }>;
  /** A Read's final status and how many entities came. Never rejects. */
  read(request: p4r.ReadRequest): Promise<Answer & { entities: number }>;
  push(p4info: p4i.P4Info__Output, deviceConfig: Buffer, action?: string): Promise<Answer>;
  close(): Promise<void>;
}

export async function switchRig(options: Partial<Pick<SwitchDeviceOptions, 'pipelineLimits' | 'serverLimits'>> = {}): Promise<SwitchRig> {
  const device = new SwitchDevice({ deviceId: DEVICE, ports: new PortSet(), logger: pino({ level: process.env.ROBUSTNESS_LOG ?? 'silent' }), ...options });
  const { port } = await device.start({ address: '127.0.0.1:0' });
  const Client = p4RuntimeGrpc().p4.v1.P4Runtime;
  const stub = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 });
  const probes: StreamProbe[] = [];
  const call: SwitchRig['call'] = (method, request) =>
    new Promise((resolve) => {
      const fn = stub[method].bind(stub) as unknown as (r: object, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, v?: unknown) => void) => void;
      fn(request, { deadline: Date.now() + DEADLINE_MS }, (err, response) =>
        resolve(err ? { code: err.code, details: err.details, items: itemCodes(err.metadata) } : { code: grpc.status.OK, details: '', items: [], response }),
      );
    });
  const rig: SwitchRig = {
    device,
    stub,
    port,
    stream() {
      const probe = new StreamProbe(stub);
      probes.push(probe);
      return probe;
    },
    call,
    read: (request) =>
      new Promise((resolve) => {
        let entities = 0;
        const c = stub.Read(request, { deadline: Date.now() + DEADLINE_MS });
        c.on('data', (r: p4r.ReadResponse__Output) => (entities += r.entities.length));
        c.on('error', () => undefined);
        c.on('status', (s: grpc.StatusObject) => resolve({ code: s.code, details: s.details, items: itemCodes(s.metadata), entities }));
      }),
    push: (p4info, deviceConfig, action = 'VERIFY_AND_COMMIT') =>
      call('SetForwardingPipelineConfig', {
        device_id: DEVICE,
        election_id: { high: '0', low: PRIMARY.toString() },
        action,
        config: { p4info, p4_device_config: deviceConfig },
      }),
    async close() {
      for (const p of probes) p.close();
      stub.close();
      await device.stop();
    },
  };
  const primary = rig.stream();
  primary.arbitrate(PRIMARY, { deviceId: DEVICE });
  const [code] = await primary.nextArbitration();
  if (code !== grpc.status.OK) throw new Error(`the rig's stream did not become primary (code ${code})`);
  return rig;
}

/** Whether an answer is INTERNAL, as a whole or for any item of its batch. */
export const isInternal = (a: Answer): boolean => a.code === grpc.status.INTERNAL || a.items.includes(grpc.status.INTERNAL);

/** One-line counts of answers by gRPC code name, e.g. "OK 12, INVALID_ARGUMENT 40". */
export function tally(codes: readonly number[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(grpc.status[c] ?? String(c), (counts.get(grpc.status[c] ?? String(c)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(', ');
}
