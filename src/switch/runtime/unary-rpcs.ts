/**
 * The unary P4Runtime RPCs as plain functions from a decoded request to a
 * response or a failure, so that the gRPC plumbing stays in server.ts. The
 * order of checks follows the spec: unknown device → NOT_FOUND, then (for
 * writers) not the primary → PERMISSION_DENIED, then the device state, which
 * answers a Write without a pipeline with FAILED_PRECONDITION and checks the
 * pipeline actions and response types.
 */
import { status as Code } from '@grpc/grpc-js';
import type * as p4r from '../../proto/p4r.js';
import type { Atomicity, DeviceState } from '../state/device-state.js';
import { isOk } from '../state/status.js';
import { electionIdFrom } from './election-id.js';
import { batchFailure, fail, failure, type GrpcFailure } from './grpc-failure.js';
import { roleKey } from './role.js';
import type { StreamArbitrator } from './stream-channel.js';

/** The P4Runtime version we speak: the v1.5 messages (idle-timeout notifications are not produced yet). */
export const P4RUNTIME_API_VERSION = '1.5.0';

export interface RpcContext {
  readonly deviceId: bigint;
  readonly state: DeviceState;
  readonly arbitrator: StreamArbitrator;
  /** Trailer budget for per-update errors (see grpc-failure.ts). */
  readonly maxErrorDetailsBytes: number;
}

export type RpcResult<T> = { ok: true; response: T } | { ok: false; failure: GrpcFailure };

const ATOMICITIES: ReadonlySet<string> = new Set<Atomicity>(['CONTINUE_ON_ERROR', 'ROLLBACK_ON_ERROR', 'DATAPLANE_ATOMIC']);

const ok = <T>(response: T): RpcResult<T> => ({ ok: true, response });
const refused = <T>(f: GrpcFailure): RpcResult<T> => ({ ok: false, failure: f });

/** NOT_FOUND unless the request names the device this server serves. */
export function checkDevice(ctx: RpcContext, deviceId: string): GrpcFailure | undefined {
  if (BigInt(deviceId) === ctx.deviceId) return undefined;
  return fail(Code.NOT_FOUND, `device ${deviceId} is not served here; this server is device ${ctx.deviceId}`);
}

export function capabilities(): RpcResult<p4r.CapabilitiesResponse> {
  return ok({ p4runtime_api_version: P4RUNTIME_API_VERSION });
}

export function setForwardingPipelineConfig(
  ctx: RpcContext,
  request: p4r.SetForwardingPipelineConfigRequest__Output,
): RpcResult<p4r.SetForwardingPipelineConfigResponse> {
  const allowed = ctx.arbitrator.checkPrimary(BigInt(request.device_id), roleKey(request.role, request.role_id), electionIdFrom(request.election_id));
  if (!isOk(allowed)) return refused(failure(allowed));
  // An action number this proto does not name decodes as a number; the state refuses it.
  const status = ctx.state.setPipeline(String(request.action), request.config);
  return isOk(status) ? ok({}) : refused(failure(status));
}

export function getForwardingPipelineConfig(
  ctx: RpcContext,
  request: p4r.GetForwardingPipelineConfigRequest__Output,
): RpcResult<p4r.GetForwardingPipelineConfigResponse> {
  const wrongDevice = checkDevice(ctx, request.device_id);
  if (wrongDevice) return refused(wrongDevice);
  const result = ctx.state.getPipeline(String(request.response_type));
  if (!isOk(result.status)) return refused(failure(result.status));
  return ok({ config: result.config ?? null });
}

export function write(ctx: RpcContext, request: p4r.WriteRequest__Output): RpcResult<p4r.WriteResponse> {
  const allowed = ctx.arbitrator.checkPrimary(BigInt(request.device_id), roleKey(request.role, request.role_id), electionIdFrom(request.election_id));
  if (!isOk(allowed)) return refused(failure(allowed));
  if (!ATOMICITIES.has(String(request.atomicity))) {
    return refused(fail(Code.INVALID_ARGUMENT, `unknown atomicity ${String(request.atomicity)}`));
  }
  const result = ctx.state.write(request.updates, request.atomicity as Atomicity);
  if (!Array.isArray(result)) return isOk(result) ? ok({}) : refused(failure(result));
  if (result.length !== request.updates.length) {
    return refused(fail(Code.INTERNAL, `the device state answered ${result.length} statuses for ${request.updates.length} updates`));
  }
  return result.every(isOk) ? ok({}) : refused(batchFailure(result, 'update', ctx.maxErrorDetailsBytes));
}
