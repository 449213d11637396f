// Packet I/O and digests end to end, with the packet_io fixture's controller
// headers and digest: PacketOut metadata by name reaches the data plane port,
// PacketIns and digest lists reach the primary only, and an ack lets the same
// digest through again. To show that a backup received nothing, the backup
// re-arbitrates afterwards: the answer comes on the same stream, after
// anything the switch could have queued for it before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { del, digestEntry, insert, modify, P4StreamError, type P4RuntimeClient } from '../../src/p4runtime/index.js';
import type * as p4r from '../../src/proto/p4r.js';
import { fixtureP4Info, idsOf } from './helpers/programs.js';
import { SwitchUnderTest } from './helpers/switch-under-test.js';
import { nextWithin, until } from './helpers/wait.js';
import { PRIMARY, b } from './helpers/entities.js';

const P4INFO = fixtureP4Info('packet_io');
const DIGEST = idsOf(P4INFO).digest('learn_digest_t');

/** A learn_digest_t value: { src_addr: bit<48>, ingress_port: bit<9> }. */
const learned = (mac: number, port: number): p4r.P4Data => ({
  struct: { members: [{ bitstring: b(0, 0, 0, 0, 0, mac) }, { bitstring: b(0, port) }] },
});

let sw: SwitchUnderTest;
let primary: P4RuntimeClient;
let backup: P4RuntimeClient;
beforeEach(async () => {
  sw = await SwitchUnderTest.start();
  primary = await sw.primaryWith(P4INFO, { electionId: PRIMARY });
  backup = await sw.connect({ electionId: 10n });
  backup.useP4Info(P4INFO);
});
afterEach(async () => {
  await sw.stop();
});

/** Waits until everything the switch sent `client` before now has been handled. */
async function drained(client: P4RuntimeClient): Promise<void> {
  await client.setElectionId(client.electionId);
}

describe('PacketOut', () => {
  it('hands the payload and the packet_out metadata by name to the data plane', async () => {
    await primary.packetOut(b(0xde, 0xad, 0xbe, 0xef), { egress_port: 3 });
    await until('the PacketOut at the port', () => sw.packetIo.packets.length === 1);
    const [packet] = sw.packetIo.packets;
    expect(packet!.payload).toEqual(b(0xde, 0xad, 0xbe, 0xef));
    expect(Object.fromEntries(packet!.metadata)).toEqual({ egress_port: b(3), _pad: b(0) });
  });

  it("drops a backup's PacketOut", async () => {
    await backup.packetOut(b(1), { egress_port: 1 });
    await drained(backup);
    await primary.packetOut(b(2), { egress_port: 2 });
    await until('the primary’s PacketOut', () => sw.packetIo.packets.length >= 1);
    await drained(primary);
    expect(sw.packetIo.packets.map((p) => p.payload)).toEqual([b(2)]);
  });

  it('answers a PacketOut it cannot check with a StreamError, which the client reports as an error event', async () => {
    // A second switch, without a pipeline: the PacketOut cannot be checked against a packet_out header.
    const bare = await SwitchUnderTest.start();
    try {
      const client = await bare.connect({ electionId: 1n });
      await client.packetOut(b(1));
      const event = await until('the error event', () => bare.events(client).find((e) => e.type === 'error'));
      expect(event.type === 'error' && event.error).toBeInstanceOf(P4StreamError);
      expect(event.type === 'error' && (event.error as P4StreamError).grpcCodeName).toBe('FAILED_PRECONDITION');
      expect(bare.packetIo.packets).toEqual([]);
    } finally {
      await bare.stop();
    }
  });

  it('refuses PacketOuts with missing, unknown or too wide metadata (bare stream: the client refuses them)', async () => {
    const stream = sw.raw.stream();
    stream.arbitrate(PRIMARY + 1n);
    expect((await stream.next()).arbitration?.status?.code).toBe(0);
    const bad: p4r.PacketMetadata[][] = [
      [{ metadata_id: 1, value: b(1) }],
      [{ metadata_id: 1, value: b(1) }, { metadata_id: 2, value: b(0) }, { metadata_id: 9, value: b(0) }],
      [{ metadata_id: 1, value: b(2, 0) }, { metadata_id: 2, value: b(0) }],
      [{ metadata_id: 1, value: b() }, { metadata_id: 2, value: b(0) }],
      [{ metadata_id: 1, value: b(1) }, { metadata_id: 1, value: b(1) }, { metadata_id: 2, value: b(0) }],
    ];
    for (const metadata of bad) {
      stream.send({ packet: { payload: b(7), metadata } });
      const answer = await stream.next();
      expect(answer.error).toMatchObject({ canonical_code: 3 /* INVALID_ARGUMENT */ });
      expect(answer.error?.packet_out?.packet_out?.payload).toEqual(b(7));
    }
    // Padded values that fit are accepted and handed over canonical.
    stream.send({ packet: { payload: b(8), metadata: [{ metadata_id: 1, value: b(0, 0, 4) }, { metadata_id: 2, value: b(0) }] } });
    await until('the valid PacketOut', () => sw.packetIo.packets.length === 1);
    expect(sw.packetIo.packets[0]!.metadata.get('egress_port')).toEqual(b(4));
  });
});

describe('PacketIn', () => {
  it('reaches the packets() of the primary only, with metadata by name', async () => {
    const toPrimary = primary.packets();
    const toBackup = backup.packets();
    const queued = sw.server.emitPacketIn(b(0xca, 0xfe), new Map<string, Uint8Array>([['ingress_port', b(0, 5)], ['_pad', b(0)]]));
    expect(queued).toBe(1);
    const packet = await nextWithin(toPrimary, 'a PacketIn');
    expect(packet.payload).toEqual(b(0xca, 0xfe));
    expect(packet.metadata).toEqual({ ingress_port: 5, _pad: 0 });
    await drained(backup);
    expect(toBackup.size).toBe(0);
    expect(backup.unclaimed.packets).toBe(0);
  });

  it('follows primacy: after a takeover the new primary gets the PacketIns', async () => {
    const toOld = primary.packets();
    await backup.setElectionId(PRIMARY + 1n);
    const toNew = backup.packets();
    expect(sw.server.emitPacketIn(b(1), new Map([['ingress_port', b(1)], ['_pad', b(0)]]))).toBe(1);
    expect((await nextWithin(toNew, 'a PacketIn at the new primary')).payload).toEqual(b(1));
    await drained(primary);
    expect(toOld.size).toBe(0);
  });

  it('counts PacketIns that arrive while nobody iterates, and keeps none', async () => {
    sw.server.emitPacketIn(b(1), new Map([['ingress_port', b(1)], ['_pad', b(0)]]));
    await until('the unclaimed PacketIn', () => primary.unclaimed.packets === 1);
    const later = primary.packets();
    await drained(primary);
    expect(later.size).toBe(0);
  });
});

describe('digests', () => {
  it('are off until a DigestEntry enables them', async () => {
    expect(sw.server.emitDigest(DIGEST, learned(1, 1))).toBe('disabled');
    await primary.write(insert(digestEntry('learn_digest_t', { maxListSize: 1 })));
    expect(sw.server.emitDigest(DIGEST, learned(1, 1))).toBe('sent');
    await primary.write(del(digestEntry('learn_digest_t')));
    expect(sw.server.emitDigest(DIGEST, learned(1, 1))).toBe('disabled');
  });

  it('reach digests() of the primary, decoded by the digest type; ack() lets the same digest through again', async () => {
    await primary.write(insert(digestEntry('learn_digest_t', { maxTimeoutNs: 0, maxListSize: 1, ackTimeoutNs: 600_000_000_000 })));
    const lists = primary.digests();
    const toBackup = backup.digests();
    expect(sw.server.emitDigest(DIGEST, learned(0xaa, 3))).toBe('sent');
    const first = await nextWithin(lists, 'a digest list');
    expect(first).toMatchObject({ digestId: DIGEST, name: 'learn_digest_t', data: [{ src_addr: 0xaa, ingress_port: 3 }] });

    // Until it is acked, the same data is suppressed; other data is not.
    expect(sw.server.emitDigest(DIGEST, learned(0xaa, 3))).toBe('duplicate');
    expect(sw.server.emitDigest(DIGEST, learned(0xbb, 3))).toBe('sent');
    expect(await nextWithin(lists, 'the second digest list')).toMatchObject({ data: [{ src_addr: 0xbb }] });

    await first.ack();
    await until('the ack to reach the switch', () => sw.server.emitDigest(DIGEST, learned(0xaa, 3)) === 'sent');
    const again = await nextWithin(lists, 'the digest after the ack');
    expect(again).toMatchObject({ data: [{ src_addr: 0xaa, ingress_port: 3 }] });
    expect(again.listId).not.toBe(first.listId);

    await drained(backup);
    expect(toBackup.size).toBe(0);
  });

  it('sends a partial list when max_timeout_ns passes, and lets data through again when ack_timeout_ns passes without an ack', async () => {
    await primary.write(insert(digestEntry('learn_digest_t', { maxTimeoutNs: 1_000_000, maxListSize: 100, ackTimeoutNs: 1_000_000 })));
    const lists = primary.digests();
    expect(sw.server.emitDigest(DIGEST, learned(4, 4))).toBe('queued');
    const first = await nextWithin(lists, 'the list sent on max_timeout_ns');
    expect(first.data).toEqual([{ src_addr: 4, ingress_port: 4 }]);
    expect(first.timestamp).toBeGreaterThan(0n);
    // Not acked: once ack_timeout_ns has passed the same data is queued again rather than suppressed.
    await until('the ack timeout', () => sw.server.emitDigest(DIGEST, learned(4, 4)) === 'queued');
    expect((await nextWithin(lists, 'the list after the ack timeout')).data).toEqual([{ src_addr: 4, ingress_port: 4 }]);
  });

  it('gathers digests into lists of max_list_size', async () => {
    await primary.write(insert(digestEntry('learn_digest_t', { maxTimeoutNs: 600_000_000_000, maxListSize: 2 })));
    const lists = primary.digests();
    expect(sw.server.emitDigest(DIGEST, learned(1, 1))).toBe('queued');
    expect(sw.server.emitDigest(DIGEST, learned(2, 1))).toBe('sent');
    expect((await nextWithin(lists, 'a list of two')).data).toEqual([
      { src_addr: 1, ingress_port: 1 },
      { src_addr: 2, ingress_port: 1 },
    ]);
    await primary.write(modify(digestEntry('learn_digest_t', { maxListSize: 1 })));
    expect(sw.server.emitDigest(DIGEST, learned(3, 1))).toBe('sent');
    expect((await nextWithin(lists, 'a list of one')).data).toHaveLength(1);
  });
});
