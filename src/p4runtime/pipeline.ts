/**
 * Forwarding pipeline configs: what SetForwardingPipelineConfig sends (P4Info,
 * device config, cookie) and what GetForwardingPipelineConfig answers, in
 * plain form. For BMv2 the device config is the BMv2 JSON; for p4ina's switch
 * it is the IR JSON; for Tofino, bf-p4c's output.
 */
import { decodeMessage } from '../proto/codec.js';
import type * as p4i from '../proto/p4i.js';
import type * as p4r from '../proto/p4r.js';
import { P4Schema } from '../p4info/index.js';
import { canonicalP4InfoBytes, pipelineCookie } from './cookie.js';

export type PipelineAction = 'VERIFY' | 'VERIFY_AND_SAVE' | 'VERIFY_AND_COMMIT' | 'COMMIT' | 'RECONCILE_AND_COMMIT';
export type PipelineResponseType = 'ALL' | 'COOKIE_ONLY' | 'P4INFO_AND_COOKIE' | 'DEVICE_CONFIG_AND_COOKIE';

export interface SetPipelineInput {
  /** The P4Info (decoded message or a schema built from it). Optional only for COMMIT. */
  readonly p4info?: p4i.P4Info | P4Schema;
  /** The target's binary or JSON config; a string is sent as UTF-8. */
  readonly deviceConfig?: Uint8Array | string;
  /** Defaults to `pipelineCookie(P4Info, deviceConfig)`. */
  readonly cookie?: bigint;
  /** Defaults to VERIFY_AND_COMMIT. */
  readonly action?: PipelineAction;
  /** Push even when the switch reports the same cookie. */
  readonly force?: boolean;
}

export interface PipelineConfig {
  readonly p4info?: p4i.P4Info__Output;
  readonly deviceConfig?: Buffer;
  readonly cookie?: bigint;
}

/** A pipeline ready to send: the P4Info in canonical decoded form, the config bytes and the cookie. */
export interface PreparedPipeline {
  readonly p4info: p4i.P4Info__Output | undefined;
  readonly deviceConfig: Buffer;
  readonly cookie: bigint | undefined;
  readonly action: PipelineAction;
}

export function preparePipeline(input: SetPipelineInput): PreparedPipeline {
  const action = input.action ?? 'VERIFY_AND_COMMIT';
  const deviceConfig = typeof input.deviceConfig === 'string' ? Buffer.from(input.deviceConfig, 'utf8') : Buffer.from(input.deviceConfig ?? []);
  if (!input.p4info) {
    if (action !== 'COMMIT') throw new TypeError(`setPipeline: ${action} needs a p4info`);
    return { p4info: undefined, deviceConfig, cookie: input.cookie, action };
  }
  const raw = input.p4info instanceof P4Schema ? input.p4info.p4info : input.p4info;
  // One binary round trip gives both the cookie's input and the canonical decoded form that P4Schema expects.
  const bytes = canonicalP4InfoBytes(raw);
  const p4info = decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', bytes);
  return { p4info, deviceConfig, cookie: input.cookie ?? pipelineCookie(bytes, deviceConfig), action };
}

/** The `config` field of the request; COMMIT sends none (the switch commits what it saved). */
export function pipelineConfigMessage(p: PreparedPipeline): p4r.ForwardingPipelineConfig | null {
  if (p.action === 'COMMIT') return null;
  return {
    p4info: p.p4info ?? null,
    p4_device_config: p.deviceConfig,
    cookie: p.cookie === undefined ? null : { cookie: p.cookie.toString() },
  };
}

export function decodePipelineConfig(response: p4r.GetForwardingPipelineConfigResponse__Output): PipelineConfig {
  const c = response.config;
  if (!c) return {};
  const out: { p4info?: p4i.P4Info__Output; deviceConfig?: Buffer; cookie?: bigint } = {};
  if (c.p4info) out.p4info = c.p4info;
  if (c.p4_device_config.length) out.deviceConfig = c.p4_device_config;
  if (c.cookie) out.cookie = BigInt(c.cookie.cookie);
  return out;
}
