/**
 * Client arbitration (P4Runtime spec §"Client Arbitration and Controller
 * Replication"), as pure bookkeeping: which stream is primary for each
 * (device, role), and who must be told what after each update or disconnect.
 * The caller owns the streams and sends the notices this returns.
 *
 * The spec's rule, not BMv2's: the primary is the stream whose election id
 * equals the highest id ever seen for the role. A primary that leaves takes
 * the primacy with it until a stream arrives with that id or a higher one.
 * An unset election id never becomes primary and never clashes with others.
 */
import { status as Code } from '@grpc/grpc-js';
import { OK, type Status } from '../state/status.js';
import { type ElectionId, formatElectionId } from './election-id.js';
import { describeRole } from './role.js';

export interface ArbitrationRequest<C> {
  deviceId: bigint;
  /** Role key (see role.ts); '' is the default role. */
  role: string;
  electionId: ElectionId;
  /** The role config the client sent, remembered from the primary and echoed. */
  roleConfig: C | null;
}

/** One MasterArbitrationUpdate to send, before it is turned into a message. */
export interface ArbitrationNotice<S, C> {
  stream: S;
  deviceId: bigint;
  role: string;
  /** The highest election id seen for the role; unset if there was never a primary. */
  electionId: ElectionId;
  roleConfig: C | null;
  /** OK to the primary, ALREADY_EXISTS to backups, NOT_FOUND to all when there is no primary. */
  status: Status;
}

export interface ArbitrationResult<S, C> {
  /** OK when the update was accepted; otherwise the status that ends the sender's stream. */
  status: Status;
  notices: ArbitrationNotice<S, C>[];
}

export interface ArbitratorOptions {
  deviceId: bigint;
  /** Live streams allowed per role; more → RESOURCE_EXHAUSTED. */
  maxStreamsPerRole?: number;
  /** Distinct roles remembered; a new role beyond → RESOURCE_EXHAUSTED. */
  maxRoles?: number;
}

interface Member {
  role: string;
  electionId: ElectionId;
}

interface RoleGroup<S, C> {
  /** Live streams in the order they arrived. */
  streams: Set<S>;
  /** Highest election id ever seen for this role; only a restart forgets it. */
  highest: ElectionId;
  primary: S | undefined;
  config: C | null;
}

export class Arbitrator<S, C = unknown> {
  readonly deviceId: bigint;
  private readonly maxStreamsPerRole: number;
  private readonly maxRoles: number;
  private readonly members = new Map<S, Member>();
  private readonly groups = new Map<string, RoleGroup<S, C>>();

  constructor(options: ArbitratorOptions) {
    this.deviceId = options.deviceId;
    this.maxStreamsPerRole = options.maxStreamsPerRole ?? 32;
    this.maxRoles = options.maxRoles ?? 256;
  }

  /** Applies a MasterArbitrationUpdate received on `stream`. */
  update(stream: S, request: ArbitrationRequest<C>): ArbitrationResult<S, C> {
    const member = this.members.get(stream);
    const taken = (group: RoleGroup<S, C> | undefined): boolean =>
      request.electionId !== undefined &&
      !!group &&
      [...group.streams].some((other) => other !== stream && this.members.get(other)?.electionId === request.electionId);

    if (!member) {
      if (request.deviceId !== this.deviceId) {
        return refuse(Code.NOT_FOUND, `device ${request.deviceId} is not served here; this server is device ${this.deviceId}`);
      }
      let group = this.groups.get(request.role);
      if (taken(group)) return refuse(Code.INVALID_ARGUMENT, duplicateMessage(request));
      if (!group) {
        if (this.groups.size >= this.maxRoles) {
          return refuse(Code.RESOURCE_EXHAUSTED, `too many roles (limit ${this.maxRoles}); use fewer distinct role names`);
        }
        group = { streams: new Set(), highest: undefined, primary: undefined, config: null };
        this.groups.set(request.role, group);
      }
      if (group.streams.size >= this.maxStreamsPerRole) {
        return refuse(Code.RESOURCE_EXHAUSTED, `${describeRole(request.role)} already has ${group.streams.size} streams (limit ${this.maxStreamsPerRole})`);
      }
      group.streams.add(stream);
      this.members.set(stream, { role: request.role, electionId: request.electionId });
      return { status: OK, notices: this.elect(stream, group, request, false) };
    }

    if (request.deviceId !== this.deviceId) {
      return this.terminate(stream, Code.FAILED_PRECONDITION, `this stream is arbitrated for device ${this.deviceId}; open a new stream for device ${request.deviceId}`);
    }
    if (request.role !== member.role) {
      return this.terminate(
        stream,
        Code.FAILED_PRECONDITION,
        `this stream is arbitrated for ${describeRole(member.role)}; open a new stream to use ${describeRole(request.role)}`,
      );
    }
    const group = this.groups.get(member.role)!;
    if (taken(group)) return this.terminate(stream, Code.INVALID_ARGUMENT, duplicateMessage(request));
    const wasPrimary = group.primary === stream;
    member.electionId = request.electionId;
    return { status: OK, notices: this.elect(stream, group, request, wasPrimary) };
  }

  /** Forgets a stream that closed; returns the notices its departure causes. */
  disconnect(stream: S): ArbitrationNotice<S, C>[] {
    const member = this.members.get(stream);
    if (!member) return [];
    this.members.delete(stream);
    const group = this.groups.get(member.role)!;
    group.streams.delete(stream);
    if (group.primary !== stream) {
      this.forgetIfEmpty(member.role, group);
      return [];
    }
    group.primary = undefined;
    return this.noticesToAll(member.role, group);
  }

  /**
   * Whether a Write or SetForwardingPipelineConfig carrying these values comes
   * from the primary: NOT_FOUND for an unknown device or role, PERMISSION_DENIED
   * when there is no primary or the election id is not the primary's.
   */
  checkPrimary(deviceId: bigint, role: string, electionId: ElectionId): Status {
    if (deviceId !== this.deviceId) {
      return { code: Code.NOT_FOUND, message: `device ${deviceId} is not served here; this server is device ${this.deviceId}` };
    }
    const group = this.groups.get(role);
    if (!group && role !== '') {
      return { code: Code.NOT_FOUND, message: `${describeRole(role)} is unknown: no stream has arbitrated for it` };
    }
    if (!group?.primary) {
      return {
        code: Code.PERMISSION_DENIED,
        message: `${describeRole(role)} has no primary controller: open a StreamChannel and send a MasterArbitrationUpdate with the highest election id first`,
      };
    }
    if (electionId === undefined || this.members.get(group.primary)?.electionId !== electionId) {
      return {
        code: Code.PERMISSION_DENIED,
        message: `election id ${formatElectionId(electionId)} is not the primary's for ${describeRole(role)}; only the primary may write`,
      };
    }
    return OK;
  }

  /** True when `stream` is the primary of its role. */
  isPrimary(stream: S): boolean {
    const member = this.members.get(stream);
    return !!member && this.groups.get(member.role)?.primary === stream;
  }

  /** The role key and election id of an arbitrated stream, undefined before its first accepted update. */
  membership(stream: S): Readonly<Member> | undefined {
    return this.members.get(stream);
  }

  /** The config the primary of `role` arbitrated with (kept after it leaves, until another primary replaces it). */
  roleConfig(role: string): C | null {
    return this.groups.get(role)?.config ?? null;
  }

  /** Every known role and its config. */
  roleConfigs(): [string, C | null][] {
    return [...this.groups].map(([role, group]) => [role, group.config]);
  }

  /** The primary of every role that has one, with its role and config. */
  primaryRoles(): { stream: S; role: string; config: C | null }[] {
    const out: { stream: S; role: string; config: C | null }[] = [];
    for (const [role, group] of this.groups) if (group.primary !== undefined) out.push({ stream: group.primary, role, config: group.config });
    return out;
  }

  /** The primary stream of every role that has one (packet-ins and digests go to these). */
  primaries(): S[] {
    const out: S[] = [];
    for (const group of this.groups.values()) if (group.primary !== undefined) out.push(group.primary);
    return out;
  }

  /** Number of arbitrated live streams. */
  get size(): number {
    return this.members.size;
  }

  /** Decides the primary after `stream` sent an accepted update, per the spec's two cases. */
  private elect(stream: S, group: RoleGroup<S, C>, request: ArbitrationRequest<C>, wasPrimary: boolean): ArbitrationNotice<S, C>[] {
    const id = request.electionId;
    if (id !== undefined && (group.highest === undefined || id >= group.highest)) {
      group.highest = id;
      group.primary = stream;
      group.config = request.roleConfig;
      return this.noticesToAll(request.role, group);
    }
    if (wasPrimary) {
      // The primary downgraded itself: nobody is primary until a high enough id arrives.
      group.primary = undefined;
      return this.noticesToAll(request.role, group);
    }
    return [this.notice(stream, request.role, group)];
  }

  private terminate(stream: S, code: number, message: string): ArbitrationResult<S, C> {
    return { status: { code, message }, notices: this.disconnect(stream) };
  }

  private noticesToAll(role: string, group: RoleGroup<S, C>): ArbitrationNotice<S, C>[] {
    return [...group.streams].map((s) => this.notice(s, role, group));
  }

  private notice(stream: S, role: string, group: RoleGroup<S, C>): ArbitrationNotice<S, C> {
    let status: Status;
    if (group.primary === undefined) status = { code: Code.NOT_FOUND, message: `${describeRole(role)} has no primary` };
    else if (group.primary === stream) status = { code: Code.OK, message: 'you are the primary' };
    else status = { code: Code.ALREADY_EXISTS, message: 'another controller is the primary; you are a backup' };
    return { stream, deviceId: this.deviceId, role, electionId: group.highest, roleConfig: group.config, status };
  }

  /** A role nobody holds and that never had a primary carries no memory worth keeping. */
  private forgetIfEmpty(role: string, group: RoleGroup<S, C>): void {
    if (group.streams.size === 0 && group.highest === undefined) this.groups.delete(role);
  }
}

function refuse<S, C>(code: number, message: string): ArbitrationResult<S, C> {
  return { status: { code, message }, notices: [] };
}

function duplicateMessage(request: ArbitrationRequest<unknown>): string {
  return `election id ${formatElectionId(request.electionId)} is already used by another live stream of ${describeRole(request.role)}; choose a different one`;
}
