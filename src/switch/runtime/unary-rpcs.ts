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
import { DEFAULT_ROLE, describeRole, roleKey } from './role.js';
import { writeAccess } from './role-config.js';
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
  const role = roleKey(request.role, request.role_id);
  const allowed = ctx.arbitrator.checkPrimary(BigInt(request.device_id), role, electionIdFrom(request.election_id));
  if (!isOk(allowed)) return refused(failure(allowed));
  if (role !== DEFAULT_ROLE) {
    return refused(fail(Code.PERMISSION_DENIED, `${describeRole(role)} may not set the pipeline: only the primary of the default role (no role name) may`));
  }
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
  const role = roleKey(request.role, request.role_id);
  const allowed = ctx.arbitrator.checkPrimary(BigInt(request.device_id), role, electionIdFrom(request.election_id));
  if (!isOk(allowed)) return refused(failure(allowed));
  if (!ATOMICITIES.has(String(request.atomicity))) {
    return refused(fail(Code.INVALID_ARGUMENT, `unknown atomicity ${String(request.atomicity)}`));
  }
  const atomicity = request.atomicity as Atomicity;
  // A named role writes only what its role config gives it (role-config.ts); the default role writes anything.
  const access = role === DEFAULT_ROLE ? undefined : request.updates.map((u) => writeAccess(role, ctx.arbitrator.roleConfig(role), u));
  const permitted = access ? request.updates.filter((_, i) => isOk(access[i]!)) : request.updates;
  if (access && permitted.length < request.updates.length && atomicity !== 'CONTINUE_ON_ERROR') {
    const aborted = { code: Code.ABORTED, message: `not applied: ${describeRole(role)} may not write every update of this ${atomicity} batch` };
    return refused(batchFailure(access.map((s) => (isOk(s) ? aborted : s)), 'update', ctx.maxErrorDetailsBytes));
  }
  const applied = permitted.length ? ctx.state.write(permitted, atomicity) : [];
  if (!Array.isArray(applied)) return isOk(applied) ? ok({}) : refused(failure(applied));
  if (applied.length !== permitted.length) {
    return refused(fail(Code.INTERNAL, `the device state answered ${applied.length} statuses for ${permitted.length} updates`));
  }
  let next = 0;
  const result = access ? access.map((s) => (isOk(s) ? applied[next++]! : s)) : applied;
  return result.every(isOk) ? ok({}) : refused(batchFailure(result, 'update', ctx.maxErrorDetailsBytes));
}
