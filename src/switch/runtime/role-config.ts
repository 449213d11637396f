/**
 * Role configs (P4Runtime spec §"Role Config"), enforced. The spec leaves the
 * config's format to the target; we take Stratum's `stratum.P4RoleConfig`
 * (stratum/public/proto/p4_role_config.proto), which ONOS and other
 * controllers already send, packed in `Role.config`:
 *
 *   exclusive_p4_ids (1), shared_p4_ids (2): the P4 objects (tables, counters,
 *     meters, registers, action profiles, digests, value sets, by P4Info id) the
 *     role may write; no other named role may write an exclusive one;
 *   packet_in_filter (3) {metadata_id, value}: only PacketIns whose metadata
 *     field has that value; receives_packet_ins (4): PacketIns at all (and
 *     PacketOuts from the role);
 *   can_push_pipeline (5): must be false here: only the default role's
 *     primary sets the pipeline.
 *
 * The default role (no name) has full access and takes no config. A named
 * role without a config may read and arbitrate, nothing else: so no second
 * controller can write what it was not given. A config of another type is
 * refused at arbitration (INVALID_ARGUMENT): a config we cannot enforce must
 * not look accepted.
 */
import { status as Code } from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import type * as p4r from '../../proto/p4r.js';
import type * as rpc from '../../proto/rpc.js';
import { OK, type Status } from '../state/status.js';
import { DEFAULT_ROLE, describeRole } from './role.js';

export const ROLE_CONFIG_TYPE_URL = 'type.googleapis.com/stratum.P4RoleConfig';

/** What a named role may do, from its P4RoleConfig (or nothing, without one). */
export interface RolePolicy {
  readonly exclusive: ReadonlySet<number>;
  readonly shared: ReadonlySet<number>;
  readonly receivesPacketIns: boolean;
  readonly packetInFilter: { readonly metadataId: number; readonly value: Buffer } | undefined;
}

/** A role's config as the arbitrator keeps it: the Any to echo, and the policy it grants. */
export interface RoleConfig {
  readonly any: rpc.Any__Output;
  readonly policy: RolePolicy;
}

export const NO_ACCESS: RolePolicy = { exclusive: new Set(), shared: new Set(), receivesPacketIns: false, packetInFilter: undefined };

const P4RoleConfig = protobuf.Root.fromJSON({
  nested: {
    stratum: {
      nested: {
        P4RoleConfig: {
          fields: {
            exclusive_p4_ids: { rule: 'repeated', type: 'uint32', id: 1 },
            shared_p4_ids: { rule: 'repeated', type: 'uint32', id: 2 },
            packet_in_filter: { type: 'PacketFilter', id: 3 },
            receives_packet_ins: { type: 'bool', id: 4 },
            can_push_pipeline: { type: 'bool', id: 5 },
          },
          nested: { PacketFilter: { fields: { metadata_id: { type: 'uint32', id: 1 }, value: { type: 'bytes', id: 2 } } } },
        },
      },
    },
  },
}).lookupType('stratum.P4RoleConfig');

interface DecodedRoleConfig {
  exclusive_p4_ids: number[];
  shared_p4_ids: number[];
  packet_in_filter: { metadata_id: number; value: Buffer } | null;
  receives_packet_ins: boolean;
  can_push_pipeline: boolean;
}

/** Encodes a P4RoleConfig as the Any to put in Role.config (for clients and tests). */
export function packRoleConfig(config: Partial<DecodedRoleConfig>): { type_url: string; value: Buffer } {
  return { type_url: ROLE_CONFIG_TYPE_URL, value: Buffer.from(P4RoleConfig.encode(P4RoleConfig.fromObject(config)).finish()) };
}

const invalid = (message: string): Status => ({ code: Code.INVALID_ARGUMENT, message });

/** The role config of an arbitration update, or the status that refuses it. */
export function parseRoleConfig(role: string, any: rpc.Any__Output | null): { config: RoleConfig | null } | { refused: Status } {
  if (!any) return { config: null };
  if (role === DEFAULT_ROLE) return { refused: invalid('the default role has full access and takes no role config: name the role the config is for') };
  if (any.type_url !== ROLE_CONFIG_TYPE_URL) {
    return {
      refused: invalid(
        `a role config of type ${any.type_url || '(none)'} cannot be enforced here; send ${ROLE_CONFIG_TYPE_URL} (Stratum's P4RoleConfig: the P4 ids the role may write, and whether it gets PacketIns), or none for a read-only role`,
      ),
    };
  }
  let decoded: DecodedRoleConfig;
  try {
    decoded = P4RoleConfig.toObject(P4RoleConfig.decode(any.value), { defaults: true, arrays: true, bytes: Buffer }) as DecodedRoleConfig;
  } catch (e) {
    return { refused: invalid(`the role config is not a valid P4RoleConfig: ${e instanceof Error ? e.message : String(e)}`) };
  }
  if (decoded.can_push_pipeline) {
    return { refused: invalid(`${describeRole(role)} asks to push pipelines; here only the default role's primary sets the pipeline: set can_push_pipeline false`) };
  }
  const exclusive = new Set(decoded.exclusive_p4_ids);
  const both = decoded.shared_p4_ids.find((id) => exclusive.has(id));
  if (both !== undefined) return { refused: invalid(`P4 id ${both} is both exclusive and shared in the role config; list it once`) };
  const filter = decoded.packet_in_filter;
  return {
    config: {
      any,
      policy: {
        exclusive,
        shared: new Set(decoded.shared_p4_ids),
        receivesPacketIns: decoded.receives_packet_ins,
        packetInFilter: filter && filter.metadata_id ? { metadataId: filter.metadata_id, value: canonical(Buffer.from(filter.value)) } : undefined,
      },
    },
  };
}

/** OK unless `policy` claims exclusively what another role's config holds, or shares what another holds exclusively. */
export function checkOverlap(role: string, policy: RolePolicy, others: Iterable<[string, RoleConfig | null]>): Status {
  for (const [other, config] of others) {
    if (other === role || !config) continue;
    const theirs = config.policy;
    const clash =
      [...policy.exclusive].find((id) => theirs.exclusive.has(id) || theirs.shared.has(id)) ?? [...policy.shared].find((id) => theirs.exclusive.has(id));
    if (clash !== undefined) {
      return invalid(`P4 id ${clash} is already held by ${describeRole(other)}, and one of the two holds it exclusively: give each object to one role, or share it in both`);
    }
  }
  return OK;
}

/** The P4 object an update writes, by P4Info id; 'pre' for multicast groups and clone sessions; undefined for nothing. */
function writtenId(entity: p4r.Entity__Output | null): number | 'pre' | undefined {
  switch (entity?.entity) {
    case 'table_entry':
      return entity.table_entry!.table_id;
    case 'direct_counter_entry':
      return entity.direct_counter_entry!.table_entry?.table_id;
    case 'direct_meter_entry':
      return entity.direct_meter_entry!.table_entry?.table_id;
    case 'action_profile_member':
      return entity.action_profile_member!.action_profile_id;
    case 'action_profile_group':
      return entity.action_profile_group!.action_profile_id;
    case 'counter_entry':
      return entity.counter_entry!.counter_id;
    case 'meter_entry':
      return entity.meter_entry!.meter_id;
    case 'register_entry':
      return entity.register_entry!.register_id;
    case 'digest_entry':
      return entity.digest_entry!.digest_id;
    case 'value_set_entry':
      return entity.value_set_entry!.value_set_id;
    case 'packet_replication_engine_entry':
      return 'pre';
    default:
      return undefined;
  }
}

/** Whether `role` may apply `update`: OK, or PERMISSION_DENIED saying what the role lacks. */
export function writeAccess(role: string, config: RoleConfig | null, update: p4r.Update__Output): Status {
  if (role === DEFAULT_ROLE) return OK;
  const policy = config?.policy ?? NO_ACCESS;
  const id = writtenId(update.entity);
  if (id === 'pre') {
    return { code: Code.PERMISSION_DENIED, message: `multicast groups and clone sessions belong to the default role; ${describeRole(role)} may not write them` };
  }
  if (id !== undefined && id !== 0 && (policy.exclusive.has(id) || policy.shared.has(id))) return OK;
  const what = id ? `P4 object ${id}` : 'this entity';
  return {
    code: Code.PERMISSION_DENIED,
    message: config
      ? `${describeRole(role)} may not write ${what}: its role config does not list it in exclusive_p4_ids or shared_p4_ids`
      : `${describeRole(role)} has no role config, so it may only read: arbitrate with a ${ROLE_CONFIG_TYPE_URL} listing the P4 ids it writes, or use the default role`,
  };
}

/** Whether the primary of `role` gets PacketIns like `packet` (and may send PacketOuts, when `packet` is undefined). */
export function receivesPackets(role: string, config: RoleConfig | null, packet?: p4r.PacketIn): boolean {
  if (role === DEFAULT_ROLE) return true;
  const policy = config?.policy;
  if (!policy?.receivesPacketIns) return false;
  const filter = policy.packetInFilter;
  if (!filter || !packet) return true;
  const field = packet.metadata?.find((m) => m.metadata_id === filter.metadataId);
  return !!field?.value && canonical(Buffer.from(field.value)).equals(filter.value);
}

/** Whether the primary of `role` gets notifications about P4 object `id` (digest lists, idle timeouts of a table). */
export function notifiedOf(role: string, config: RoleConfig | null, id: number): boolean {
  if (role === DEFAULT_ROLE) return true;
  const policy = config?.policy;
  return !!policy && (policy.exclusive.has(id) || policy.shared.has(id));
}

function canonical(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}
