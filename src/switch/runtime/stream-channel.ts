/**
 * One StreamChannel call: arbitration updates, PacketOuts and digest acks in;
 * arbitration notices, PacketIns, digest lists, idle-timeout notifications and
 * StreamErrors out.
 *
 * What a client sends never grows server memory without bound: outgoing
 * PacketIns, digest lists, idle-timeout notifications and StreamErrors are
 * dropped while the client has
 * `softQueue` messages unread, and a client that lets `hardQueue` messages
 * pile up (arbitration notices are never dropped) has its stream ended with
 * RESOURCE_EXHAUSTED.
 */
import { status as Code, type ServerDuplexStream } from '@grpc/grpc-js';
import type { Logger } from '../../log/logger.js';
import type * as p4r from '../../proto/p4r.js';
import type { PacketIoPort } from '../ports/packet-io-port.js';
import type { DeviceState } from '../state/device-state.js';
import { isOk, type Status } from '../state/status.js';
import type { ArbitrationNotice, Arbitrator } from './arbitration.js';
import type { DigestBatcher, DigestListReady } from './digest-batcher.js';
import { electionIdFrom, electionIdTo } from './election-id.js';
import { ERROR_SPACE, failure } from './grpc-failure.js';
import { checkPacketOut } from './packet-out.js';
import { roleKeyOfArbitration, roleMessage } from './role.js';
import { checkOverlap, notifiedOf, parseRoleConfig, receivesPackets, type RoleConfig } from './role-config.js';

export type StreamCall = ServerDuplexStream<p4r.StreamMessageRequest__Output, p4r.StreamMessageResponse>;
export type StreamArbitrator = Arbitrator<StreamChannel, RoleConfig>;
export type StreamNotice = ArbitrationNotice<StreamChannel, RoleConfig>;

export interface StreamLimits {
  /** Unread messages beyond which PacketIns, digest lists and StreamErrors are dropped. */
  softQueue: number;
  /** Unread messages beyond which the stream is ended. */
  hardQueue: number;
}

export interface StreamChannelContext {
  readonly arbitrator: StreamArbitrator;
  readonly state: Pick<DeviceState, 'pipeline'>;
  readonly packetIo: PacketIoPort;
  readonly digests: DigestBatcher;
  readonly logger: Logger;
  readonly limits: StreamLimits;
  /** Called once when the call is over, however it ended. */
  onClosed(channel: StreamChannel): void;
}

/** Sends each notice on its stream. */
export function deliverNotices(notices: readonly StreamNotice[]): void {
  for (const notice of notices) notice.stream.notify(notice);
}

export class StreamChannel {
  private finished = false;
  private dropped = 0;
  private readonly logger: Logger;

  constructor(
    private readonly call: StreamCall,
    private readonly ctx: StreamChannelContext,
  ) {
    this.logger = ctx.logger.child({ peer: call.getPeer() });
    call.on('data', (message: p4r.StreamMessageRequest__Output) => this.receive(message));
    // The client closed its side: the session is over, so we close ours.
    call.on('end', () => this.terminate({ code: Code.OK, message: '' }));
    // grpc-js emits 'cancelled' whenever the call is over, also after a status we sent.
    call.on('cancelled', () => this.finish());
    call.on('error', (err: unknown) => {
      this.logger.debug({ err }, 'stream channel error');
      this.finish();
    });
  }

  /** Sends an arbitration notice to this stream's client. */
  notify(notice: StreamNotice): void {
    this.send(
      {
        arbitration: {
          device_id: notice.deviceId.toString(),
          role: roleMessage(notice.role, notice.roleConfig?.any ?? null),
          election_id: electionIdTo(notice.electionId),
          status: { code: notice.status.code, message: notice.status.message },
        },
      },
      false,
    );
  }

  /** Queues a PacketIn; false when dropped because the client is not reading. */
  sendPacketIn(packet: p4r.PacketIn): boolean {
    return this.send({ packet }, true);
  }

  /** Queues a digest list; false when dropped because the client is not reading. */
  sendDigestList(list: DigestListReady): boolean {
    return this.send(
      {
        digest: {
          digest_id: list.digestId,
          list_id: list.listId.toString(),
          data: list.data,
          timestamp: list.timestampNs.toString(),
        },
      },
      true,
    );
  }

  /** Queues an idle-timeout notification; false when dropped because the client is not reading. */
  sendIdleTimeout(notification: p4r.IdleTimeoutNotification): boolean {
    return this.send({ idle_timeout_notification: notification }, true);
  }

  /** Ends the call with `status` (OK ends it normally) after what is queued. */
  terminate(status: Status): void {
    const open = !this.call.writableEnded && !this.call.cancelled;
    this.finish();
    if (!open) return;
    if (isOk(status)) this.call.end();
    else this.call.emit('error', failure(status)); // grpc-js: sets the status, then ends
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    deliverNotices(this.ctx.arbitrator.disconnect(this));
    if (this.dropped > 0) this.logger.info({ dropped: this.dropped }, 'stream closed; messages were dropped because the client did not read them');
    this.ctx.onClosed(this);
  }

  private send(message: p4r.StreamMessageResponse, droppable: boolean): boolean {
    if (this.finished || this.call.writableEnded || this.call.cancelled) return false;
    const unread = this.call.writableLength;
    if (droppable && unread >= this.ctx.limits.softQueue) {
      this.dropped++;
      this.logger.trace({ unread }, 'client is not reading its stream: message dropped');
      return false;
    }
    if (!droppable && unread >= this.ctx.limits.hardQueue) {
      this.terminate({ code: Code.RESOURCE_EXHAUSTED, message: `the client left ${unread} stream messages unread` });
      return false;
    }
    this.call.write(message);
    return true;
  }

  private receive(message: p4r.StreamMessageRequest__Output): void {
    if (this.finished) return;
    try {
      switch (message.update) {
        case 'arbitration':
          return this.onArbitration(message.arbitration!);
        case 'packet':
          return this.onPacketOut(message.packet!);
        case 'digest_ack':
          return this.onDigestAck(message.digest_ack!);
        case 'other':
          return this.streamError(Code.UNIMPLEMENTED, 'p4ina has no architecture-specific stream messages', { other: { other: message.other } });
        default:
          return this.streamError(Code.INVALID_ARGUMENT, 'empty StreamMessageRequest: set one of arbitration, packet, digest_ack or other', {
            other: {},
          });
      }
    } catch (err) {
      this.logger.error({ err }, 'stream message handling failed');
      this.streamError(Code.INTERNAL, `the switch failed to handle the message: ${String(err)}`, { other: {} });
    }
  }

  private onArbitration(update: p4r.MasterArbitrationUpdate__Output): void {
    const role = roleKeyOfArbitration(update.role);
    const parsed = parseRoleConfig(role, update.role?.config ?? null);
    let refused = 'refused' in parsed ? parsed.refused : undefined;
    const roleConfig = 'config' in parsed ? parsed.config : null;
    if (!refused && roleConfig) {
      const overlap = checkOverlap(role, roleConfig.policy, this.ctx.arbitrator.roleConfigs());
      if (!isOk(overlap)) refused = overlap;
    }
    if (refused) {
      this.logger.info({ code: Code[refused.code], reason: refused.message }, 'role config refused; ending stream');
      this.terminate(refused);
      return;
    }
    const result = this.ctx.arbitrator.update(this, {
      deviceId: BigInt(update.device_id),
      role,
      electionId: electionIdFrom(update.election_id),
      roleConfig,
    });
    deliverNotices(result.notices);
    if (!isOk(result.status)) {
      this.logger.info({ code: Code[result.status.code], reason: result.status.message }, 'arbitration refused; ending stream');
      this.terminate(result.status);
    }
  }

  private onPacketOut(packet: p4r.PacketOut__Output): void {
    if (!this.ctx.arbitrator.isPrimary(this)) {
      this.logger.trace('PacketOut from a stream that is not primary: dropped');
      return;
    }
    const role = this.ctx.arbitrator.membership(this)!.role;
    if (!receivesPackets(role, this.ctx.arbitrator.roleConfig(role))) {
      this.streamError(Code.PERMISSION_DENIED, 'this role does no packet I/O: its role config does not set receives_packet_ins', { packet_out: { packet_out: packet } });
      return;
    }
    const pipeline = this.ctx.state.pipeline;
    if (!pipeline) {
      this.streamError(Code.FAILED_PRECONDITION, 'no forwarding pipeline is installed, so PacketOuts cannot be checked', { packet_out: { packet_out: packet } });
      return;
    }
    const check = checkPacketOut(pipeline.schema.packetHeader('packet_out'), packet);
    if (!check.ok) {
      this.streamError(Code.INVALID_ARGUMENT, check.message, { packet_out: { packet_out: packet } });
      return;
    }
    try {
      this.ctx.packetIo.injectPacketOut(packet.payload, check.metadata);
    } catch (err) {
      this.logger.warn({ err }, 'the data plane failed to take a PacketOut; dropped');
    }
  }

  private onDigestAck(ack: p4r.DigestListAck__Output): void {
    if (!this.ctx.arbitrator.isPrimary(this)) return; // only the primary's acks count
    const role = this.ctx.arbitrator.membership(this)!.role;
    if (!notifiedOf(role, this.ctx.arbitrator.roleConfig(role), ack.digest_id)) return; // nor those of a role that does not get the digest
    if (!this.ctx.state.pipeline?.schema.digests.find(ack.digest_id)) {
      this.streamError(Code.INVALID_ARGUMENT, `digest id ${ack.digest_id} is not in the installed P4Info`, { digest_list_ack: { digest_list_ack: ack } });
      return;
    }
    if (!this.ctx.digests.ack(ack.digest_id, BigInt(ack.list_id))) {
      this.logger.trace({ digestId: ack.digest_id, listId: ack.list_id }, 'ack for a digest list that is not outstanding (late or unknown): ignored');
    }
  }

  private streamError(code: number, message: string, details: Omit<p4r.StreamError, 'canonical_code' | 'message' | 'space' | 'code'>): void {
    this.send({ error: { canonical_code: code, message, space: ERROR_SPACE, ...details } }, true);
  }
}
