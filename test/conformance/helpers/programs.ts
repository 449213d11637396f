// The programs the conformance suite pushes: the P4Info of the programs in
// test/fixtures/p4info (p4c 1.2.4.8's output, test/helpers/p4c-outputs.ts), the kitchen-sink P4Info of the test helpers (a size-4 table, a const
// table, action scopes, direct and indirect counters and meters, a register, a
// digest, controller headers), and the kitchen sink extended with what neither
// has: an action selector with an indirect table, and a parser value set.
import { assignIds, IdPrefix, P4Schema, readP4InfoFile } from '../../../src/p4info/index.js';
import { CONVERSION, messageType } from '../../../src/proto/load.js';
import type * as p4i from '../../../src/proto/p4i.js';
import { p4infoFixtureFile } from '../../helpers/p4c-outputs.js';
import { kitchenSinkP4Info } from '../../helpers/p4info-builder.js';

export type FixtureName = 'forwarding' | 'acl' | 'register' | 'counter' | 'packet_io';

/** A file with the program's P4Info text: p4c's output, or p4ina's equal one when p4c's is not at hand. */
export function fixturePath(name: FixtureName): string {
  return p4infoFixtureFile(name);
}

/** A fixture read from its text file, as a user loads it. */
export function fixtureP4Info(name: FixtureName): p4i.P4Info__Output {
  return readP4InfoFile(fixturePath(name));
}

export function kitchenSink(): p4i.P4Info__Output {
  return kitchenSinkP4Info();
}

type Plain = Record<string, unknown[]>;

/** A copy of `p4info` changed by `edit`, which works on the sparse plain form (snake_case, no defaults). */
export function editedP4Info(p4info: p4i.P4Info__Output, edit: (plain: Plain) => void): p4i.P4Info__Output {
  const type = messageType('p4.config.v1.P4Info');
  const plain = type.toObject(type.fromObject(p4info as unknown as Record<string, unknown>), { ...CONVERSION, defaults: false }) as Plain;
  edit(plain);
  return type.toObject(type.fromObject(plain), CONVERSION) as p4i.P4Info__Output;
}

/**
 * The kitchen sink plus an action selector (`ingress.ecmp_selector`, 8 members,
 * groups of up to 4) behind an indirect table `ingress.ecmp`, and a parser value
 * set `parser.tpids` of one exact and one ternary field, at most 3 members.
 */
export function kitchenSinkWithProfiles(): p4i.P4Info__Output {
  const base = kitchenSinkP4Info();
  const actionId = (name: string): number => base.actions.find((a) => a.preamble!.name === name)!.preamble!.id;
  const ecmp = assignIds(IdPrefix.TABLE, [...base.tables.map((t) => t.preamble!.name), 'ingress.ecmp']).get('ingress.ecmp')!;
  const selector = assignIds(IdPrefix.ACTION_PROFILE, ['ingress.ecmp_selector']).get('ingress.ecmp_selector')!;
  const valueSet = assignIds(IdPrefix.VALUE_SET, ['parser.tpids']).get('parser.tpids')!;
  return editedP4Info(base, (plain) => {
    plain.tables!.push({
      preamble: { id: ecmp, name: 'ingress.ecmp', alias: 'ecmp' },
      match_fields: [{ id: 1, name: 'hdr.ipv4.dst_addr', bitwidth: 32, match_type: 'EXACT' }],
      action_refs: [{ id: actionId('ingress.set_nhop') }, { id: actionId('ingress.drop') }],
      implementation_id: selector,
      size: '64',
    });
    plain.action_profiles = [
      { preamble: { id: selector, name: 'ingress.ecmp_selector', alias: 'ecmp_selector' }, table_ids: [ecmp], with_selector: true, size: '8', max_group_size: 4 },
    ];
    plain.value_sets = [
      {
        preamble: { id: valueSet, name: 'parser.tpids', alias: 'tpids' },
        match: [
          { id: 1, name: 'tpid', bitwidth: 16, match_type: 'EXACT' },
          { id: 2, name: 'pcp', bitwidth: 3, match_type: 'TERNARY' },
        ],
        size: 3,
      },
    ];
  });
}

/** P4Info ids by name, for requests built by hand. */
export function idsOf(p4info: p4i.P4Info__Output) {
  const schema = new P4Schema(p4info);
  return {
    schema,
    table: (name: string): number => schema.tables.get(name).id,
    action: (name: string): number => schema.actions.get(name).id,
    counter: (name: string): number => schema.counters.get(name).id,
    meter: (name: string): number => schema.meters.get(name).id,
    register: (name: string): number => schema.registers.get(name).id,
    digest: (name: string): number => schema.digests.get(name).id,
    profile: (name: string): number => schema.actionProfiles.get(name).id,
    valueSet: (name: string): number => schema.valueSets.get(name).id,
  };
}
