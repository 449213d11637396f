// Client arbitration rules (P4Runtime spec §"Client Arbitration and Controller Replication"),
// tested on the pure bookkeeping with strings standing in for streams.
import { status as Code } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { type ArbitrationNotice, Arbitrator } from '../../../src/switch/runtime/arbitration.js';

type Notice = ArbitrationNotice<string, string>;

const DEVICE = 1n;

function arbitrator(options: { maxStreamsPerRole?: number } = {}): Arbitrator<string, string> {
  return new Arbitrator<string, string>({ deviceId: DEVICE, ...options });
}

function req(electionId: bigint | undefined, more: { role?: string; deviceId?: bigint; config?: string } = {}) {
  return { deviceId: more.deviceId ?? DEVICE, role: more.role ?? '', electionId, roleConfig: more.config ?? null };
}

/** Notices as [stream, status code, election id] for compact comparison. */
function brief(notices: Notice[]): [string, number, bigint | undefined][] {
  return notices.map((n) => [n.stream, n.status.code, n.electionId]);
}

describe('Arbitrator: who is primary', () => {
  it('makes the first stream with an election id primary and tells it alone', () => {
    const arb = arbitrator();
    const result = arb.update('A', req(5n));
    expect(result.status.code).toBe(Code.OK);
    expect(brief(result.notices)).toEqual([['A', Code.OK, 5n]]);
    expect(arb.isPrimary('A')).toBe(true);
    expect(arb.primaries()).toEqual(['A']);
  });

  it('tells a newly connected backup alone, with the primary election id and ALREADY_EXISTS', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    expect(brief(arb.update('B', req(3n)).notices)).toEqual([['B', Code.ALREADY_EXISTS, 5n]]);
    expect(arb.isPrimary('B')).toBe(false);
  });

  it('promotes a higher election id and notifies every stream (new primary OK, backups ALREADY_EXISTS)', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    const result = arb.update('C', req(9n));
    expect(brief(result.notices)).toEqual([
      ['A', Code.ALREADY_EXISTS, 9n],
      ['B', Code.ALREADY_EXISTS, 9n],
      ['C', Code.OK, 9n],
    ]);
    expect(arb.primaries()).toEqual(['C']);
  });

  it('lets a backup re-elect itself with a higher id, demoting the old primary', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    const result = arb.update('B', req(6n));
    expect(brief(result.notices)).toEqual([
      ['A', Code.ALREADY_EXISTS, 6n],
      ['B', Code.OK, 6n],
    ]);
    expect(arb.isPrimary('A')).toBe(false);
    expect(arb.isPrimary('B')).toBe(true);
  });

  it('leaves no primary when the primary downgrades itself, and tells everyone NOT_FOUND', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    const result = arb.update('A', req(2n));
    expect(brief(result.notices)).toEqual([
      ['A', Code.NOT_FOUND, 5n],
      ['B', Code.NOT_FOUND, 5n],
    ]);
    expect(arb.primaries()).toEqual([]);
  });

  it('notifies everyone again when the primary repeats its update', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    expect(brief(arb.update('A', req(5n)).notices)).toEqual([
      ['A', Code.OK, 5n],
      ['B', Code.ALREADY_EXISTS, 5n],
    ]);
  });

  it('keeps the highest id seen after the primary disconnects: lower ids stay backups, an equal id becomes primary', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    expect(brief(arb.disconnect('A'))).toEqual([['B', Code.NOT_FOUND, 5n]]);
    expect(arb.primaries()).toEqual([]);
    // B re-sends its id, C arrives lower than 5: neither becomes primary (BMv2 would promote one).
    expect(brief(arb.update('B', req(3n)).notices)).toEqual([['B', Code.NOT_FOUND, 5n]]);
    expect(brief(arb.update('C', req(4n)).notices)).toEqual([['C', Code.NOT_FOUND, 5n]]);
    expect(brief(arb.update('D', req(5n)).notices)).toEqual([
      ['B', Code.ALREADY_EXISTS, 5n],
      ['C', Code.ALREADY_EXISTS, 5n],
      ['D', Code.OK, 5n],
    ]);
  });

  it('sends nothing when a backup disconnects', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    expect(arb.disconnect('B')).toEqual([]);
    expect(arb.disconnect('unknown')).toEqual([]);
    expect(arb.isPrimary('A')).toBe(true);
  });
});

describe('Arbitrator: unset election ids', () => {
  it('never makes an unset id primary; it is told NOT_FOUND and an unset id when there was never a primary', () => {
    const arb = arbitrator();
    const result = arb.update('A', req(undefined));
    expect(result.status.code).toBe(Code.OK);
    expect(brief(result.notices)).toEqual([['A', Code.NOT_FOUND, undefined]]);
    expect(arb.primaries()).toEqual([]);
  });

  it('does not treat unset as {0,0}: id 0 can be primary, and unset ids never clash', () => {
    const arb = arbitrator();
    arb.update('A', req(undefined));
    expect(arb.update('B', req(undefined)).status.code).toBe(Code.OK);
    expect(brief(arb.update('C', req(0n)).notices)).toEqual([
      ['A', Code.ALREADY_EXISTS, 0n],
      ['B', Code.ALREADY_EXISTS, 0n],
      ['C', Code.OK, 0n],
    ]);
  });

  it('demotes a primary that clears its election id', () => {
    const arb = arbitrator();
    arb.update('A', req(2n));
    expect(brief(arb.update('A', req(undefined)).notices)).toEqual([['A', Code.NOT_FOUND, 2n]]);
  });
});

describe('Arbitrator: errors that end the stream', () => {
  it('refuses an unknown device with NOT_FOUND', () => {
    const arb = arbitrator();
    const result = arb.update('A', req(1n, { deviceId: 7n }));
    expect(result.status.code).toBe(Code.NOT_FOUND);
    expect(result.notices).toEqual([]);
    expect(arb.size).toBe(0);
  });

  it('refuses an election id held by another live stream with INVALID_ARGUMENT', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    const result = arb.update('B', req(5n));
    expect(result.status.code).toBe(Code.INVALID_ARGUMENT);
    expect(arb.membership('B')).toBeUndefined();
    // Once A is gone, 5 is free again (and equals the highest seen, so it wins).
    arb.disconnect('A');
    expect(brief(arb.update('B', req(5n)).notices)).toEqual([['B', Code.OK, 5n]]);
  });

  it('ends a live stream that takes another stream’s id, notifying the others if it was primary', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    const result = arb.update('A', req(3n));
    expect(result.status.code).toBe(Code.INVALID_ARGUMENT);
    expect(brief(result.notices)).toEqual([['B', Code.NOT_FOUND, 5n]]);
    expect(arb.membership('A')).toBeUndefined();
  });

  it('ends a stream whose later update changes the device or the role with FAILED_PRECONDITION', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    const moved = arb.update('B', req(3n, { deviceId: 2n }));
    expect(moved.status.code).toBe(Code.FAILED_PRECONDITION);
    expect(arb.membership('B')).toBeUndefined();
    const recast = arb.update('A', req(5n, { role: 'other' }));
    expect(recast.status.code).toBe(Code.FAILED_PRECONDITION);
    expect(arb.size).toBe(0);
  });

  it('refuses streams beyond the per-role limit with RESOURCE_EXHAUSTED', () => {
    const arb = arbitrator({ maxStreamsPerRole: 2 });
    arb.update('A', req(1n));
    arb.update('B', req(2n));
    expect(arb.update('C', req(3n)).status.code).toBe(Code.RESOURCE_EXHAUSTED);
    expect(arb.update('C', req(3n, { role: 'other' })).status.code).toBe(Code.OK);
  });
});

describe('Arbitrator: roles', () => {
  it('arbitrates each role on its own; the same election id may serve two roles', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    const result = arb.update('B', req(5n, { role: 'stats' }));
    expect(result.status.code).toBe(Code.OK);
    expect(brief(result.notices)).toEqual([['B', Code.OK, 5n]]);
    expect(arb.primaries().sort()).toEqual(['A', 'B']);
    expect(result.notices[0]!.role).toBe('stats');
  });

  it('remembers the primary’s role config and echoes it in notices', () => {
    const arb = arbitrator();
    arb.update('A', req(5n, { role: 'r', config: 'cfg-1' }));
    const result = arb.update('B', req(1n, { role: 'r', config: 'ignored-from-backup' }));
    expect(result.notices.map((n) => n.roleConfig)).toEqual(['cfg-1']);
  });
});

describe('Arbitrator.checkPrimary (Write and SetForwardingPipelineConfig)', () => {
  it('checks device, then role, then primacy', () => {
    const arb = arbitrator();
    expect(arb.checkPrimary(9n, '', 1n).code).toBe(Code.NOT_FOUND);
    expect(arb.checkPrimary(DEVICE, 'nobody', 1n).code).toBe(Code.NOT_FOUND);
    expect(arb.checkPrimary(DEVICE, '', 1n).code).toBe(Code.PERMISSION_DENIED);
    arb.update('A', req(5n));
    arb.update('B', req(3n));
    expect(arb.checkPrimary(DEVICE, '', 5n).code).toBe(Code.OK);
    expect(arb.checkPrimary(DEVICE, '', 3n).code).toBe(Code.PERMISSION_DENIED);
    expect(arb.checkPrimary(DEVICE, '', undefined).code).toBe(Code.PERMISSION_DENIED);
    expect(arb.checkPrimary(9n, '', 5n).code).toBe(Code.NOT_FOUND);
  });

  it('denies the old id once the primary leaves, and checks roles separately', () => {
    const arb = arbitrator();
    arb.update('A', req(5n));
    arb.update('R', req(7n, { role: 'r' }));
    expect(arb.checkPrimary(DEVICE, 'r', 7n).code).toBe(Code.OK);
    expect(arb.checkPrimary(DEVICE, 'r', 5n).code).toBe(Code.PERMISSION_DENIED);
    arb.disconnect('A');
    expect(arb.checkPrimary(DEVICE, '', 5n).code).toBe(Code.PERMISSION_DENIED);
  });
});
