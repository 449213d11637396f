/**
 * Where the demo finds the package's files: the package root (p4/ is there)
 * and the built `p4ina` entry its child processes run. The demo runs from
 * dist/src/demo when installed and from src/demo under the test runner;
 * children always run the built JavaScript (dist/src/cli/main.js), since
 * node cannot run the TypeScript sources by itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bounded: a package root is never more than a few directories above this file. */
const MAX_LEVELS = 6;

/** The directory holding p4ina's package.json, searched upwards from this module. */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < MAX_LEVELS; i++) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && isP4inaManifest(manifest)) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('cannot find p4ina’s package.json above the demo module');
}

function isP4inaManifest(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'p4ina';
  } catch {
    return false;
  }
}

/** The built command-line entry that child processes run. */
export function builtCliEntry(root = packageRoot()): string {
  return path.join(root, 'dist', 'src', 'cli', 'main.js');
}

/** The SwitchML program the demo compiles. */
export function switchMlSource(root = packageRoot()): string {
  return path.join(root, 'p4', 'switchml.p4');
}

/** The ATP program the demo compiles for `--algorithm atp`. */
export function atpSource(root = packageRoot()): string {
  return path.join(root, 'p4', 'atp.p4');
}

/** Rina's ToR program, which `p4ina rollout` gives a stage's INA ToRs. */
export function rinaSource(root = packageRoot()): string {
  return path.join(root, 'p4', 'rina_tor.p4');
}

/** p4/omnireduce.p4: the OmniReduce aggregator in a switch, which also forwards the host aggregators' traffic. */
export function omniReduceSource(root = packageRoot()): string {
  return path.join(root, 'p4', 'omnireduce.p4');
}
