// StreamChannel against a stand-in for the grpc-js call whose client never reads: the
// outgoing queue stays bounded (droppable messages dropped, then the stream ended).
// Plus the server's lifecycle: stop() ends open streams, a busy address is refused.
import { EventEmitter } from 'node:events';
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type * as p4r from '../../../src/proto/p4r.js';
import { Arbitrator } from '../../../src/switch/runtime/arbitration.js';
import { DigestBatcher } from '../../../src/switch/runtime/digest-batcher.js';
import { DiscardingPacketIo } from '../../../src/switch/runtime/discarding-packet-io.js';
import { P4RuntimeServer } from '../../../src/switch/runtime/server.js';
import { type StreamArbitrator, type StreamCall, StreamChannel } from '../../../src/switch/runtime/stream-channel.js';
import { DeviceState } from '../../../src/switch/state/device-state.js';
import { type Harness, primaryStream, startHarness } from './harness.js';

/** The parts of a grpc-js server duplex call that StreamChannel uses; nothing is ever read by the client. */
class StalledCall extends EventEmitter {
  readonly written: p4r.StreamMessageResponse[] = [];
  writableEnded = false;
  cancelled = false;
  endedWith: { code: number; details: string } | undefined;

  get writableLength(): number {
    return this.written.length;
  }
  getPeer(): string {
    return 'test-peer';
  }
  write(message: p4r.StreamMessageResponse): boolean {
    this.written.push(message);
    return false;
  }
  end(): void {
    this.writableEnded = true;
  }
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'error') {
      this.endedWith = args[0] as { code: number; details: string };
      this.writableEnded = true;
    }
    return super.emit(event, ...args);
  }
}

describe('StreamChannel with a client that does not read', () => {
  it('drops PacketIns past the soft limit and ends the stream past the hard limit', () => {
    const arbitrator: StreamArbitrator = new Arbitrator({ deviceId: 1n });
    const call = new StalledCall();
    let closed = false;
    const channel = new StreamChannel(call as unknown as StreamCall, {
      arbitrator,
      state: { pipeline: undefined },
      packetIo: new DiscardingPacketIo(),
      digests: new DigestBatcher({ configOf: () => undefined, deliver: () => false }),
      logger: pino({ level: 'silent' }),
      limits: { softQueue: 3, hardQueue: 5 },
      onClosed: () => (closed = true),
    });
    call.emit('data', { update: 'arbitration', arbitration: { device_id: '1', role: null, election_id: { high: '0', low: '1' }, status: null } });
    expect(arbitrator.isPrimary(channel)).toBe(true);
    expect(call.written).toHaveLength(1); // the arbitration notice

    const packet = { payload: Buffer.from('x'), metadata: [] };
    expect([channel.sendPacketIn(packet), channel.sendPacketIn(packet), channel.sendPacketIn(packet)]).toEqual([true, true, false]);
    expect(call.written).toHaveLength(3);

    // Notices are never dropped, but they too stop at the hard limit, which ends the stream.
    const notice = arbitrator.update(channel, { deviceId: 1n, role: '', electionId: 1n, roleConfig: null }).notices[0]!;
    channel.notify(notice);
    channel.notify(notice);
    expect(call.written).toHaveLength(5);
    channel.notify(notice);
    expect(call.endedWith?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(closed).toBe(true);
    expect(arbitrator.size).toBe(0);
    expect(channel.sendPacketIn(packet)).toBe(false);
  });
});

describe('P4RuntimeServer lifecycle', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('ends open streams with UNAVAILABLE when it stops', async () => {
    h = await startHarness();
    const stream = await primaryStream(h, 1n);
    await h.server.stop();
    expect((await stream.status).code).toBe(grpc.status.UNAVAILABLE);
  });

  it('serves device id 0, as BMv2 does by default', async () => {
    h = await startHarness({ deviceId: 0 });
    const stream = h.stream();
    stream.arbitrate(1n, { deviceId: 0 });
    expect(await stream.nextArbitration()).toEqual([grpc.status.OK, '1']);
  });

  it('refuses streams beyond its limit with RESOURCE_EXHAUSTED', async () => {
    h = await startHarness({ limits: { maxStreams: 1 } });
    await primaryStream(h, 1n);
    const extra = h.stream();
    expect((await extra.status).code).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it('refuses an address that is already in use with SWITCH_BIND_FAILED', async () => {
    h = await startHarness();
    const second = new P4RuntimeServer({ deviceId: 0, state: new DeviceState(), logger: pino({ level: 'silent' }) });
    await expect(second.start({ address: `127.0.0.1:${h.port}` })).rejects.toMatchObject({ code: 'SWITCH_BIND_FAILED' });
    await second.stop();
  });
});
