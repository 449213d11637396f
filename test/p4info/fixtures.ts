// The P4Info fixtures of test/fixtures/p4info, for the tests of this directory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'p4info');

/** Every program that has a `NAME.p4` and a `NAME.p4info.txtpb`. */
export const FIXTURES = ['forwarding', 'acl', 'register', 'counter', 'packet_io'] as const;
export type FixtureName = (typeof FIXTURES)[number];

export const fixturePath = (name: FixtureName): string => join(FIXTURE_DIR, `${name}.p4info.txtpb`);

export function fixtureText(name: FixtureName): string {
  return readFileSync(fixturePath(name), 'utf8');
}
