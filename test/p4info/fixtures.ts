// The P4Info of the programs in test/fixtures/p4info, for the tests of this
// directory: p4c 1.2.4.8's output for them (../shared/p4c-outputs) when it is
// there and fresh, else p4ina's, which test/p4c/p4info-p4c.test.ts checks
// equal to p4c's byte for byte.
import { p4infoFixtureFile, p4infoFixtureText } from '../helpers/p4c-outputs.js';

/** Every program `NAME.p4` of test/fixtures/p4info. */
export const FIXTURES = ['forwarding', 'acl', 'register', 'counter', 'packet_io'] as const;
export type FixtureName = (typeof FIXTURES)[number];

/** A file holding the program's P4Info text. */
export const fixturePath = (name: FixtureName): string => p4infoFixtureFile(name);

export function fixtureText(name: FixtureName): string {
  return p4infoFixtureText(name);
}
