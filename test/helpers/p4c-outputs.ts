// What the real p4c (p4c-bm2-ss 1.2.4.8, --arch v1model) wrote for each P4
// program of the repository: ../shared/p4c-outputs beside the checkout, a tree
// that mirrors the repository's paths (PROGRAM.p4/ holds p4info.txtpb,
// p4info.json, bmv2.json when p4c accepted the program, p4c.log and
// source.sha256). Outputs are used only while source.sha256 matches the
// program's current text: a changed program gets fresh outputs at the next
// review, and until then its comparisons are skipped with a message naming it.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileProgram, formatDiagnostics } from '../../src/p4c/index.js';
import { formatP4Info } from '../../src/p4info/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const P4C_OUTPUTS_DIR = process.env.P4C_OUTPUTS_DIR ?? path.resolve(REPO_ROOT, '..', 'shared', 'p4c-outputs');

/** The folders whose `*.p4` files are whole programs (includes live in their `include/` subfolders). */
export const PROGRAM_DIRS = ['p4', 'test/p4c/corpus', 'test/golden/parse', 'test/fixtures/p4info', 'bench/fixtures'] as const;

export interface P4cOutput {
  /** The program, relative to the repository root (`p4/forward.p4`). */
  readonly program: string;
  readonly dir: string;
  /** p4c's `--p4runtime-files x.p4info.txtpb`, or null when it wrote none. */
  readonly p4infoText: string | null;
  /** p4c's `--p4runtime-files x.p4info.json`, or null. */
  readonly p4infoJson: string | null;
  /** False when p4c refused the program (no bmv2.json). */
  readonly accepted: boolean;
  /** Everything p4c printed (errors and warnings). */
  readonly log: string;
  /** p4c's error lines (`file(line): [--Werror=…] error: …`). */
  readonly errors: readonly string[];
}

export type P4cLookup = { readonly output: P4cOutput } | { readonly output: null; readonly reason: string };

/** Every program of the repository, relative to its root, sorted. */
export function repositoryPrograms(): string[] {
  return PROGRAM_DIRS.flatMap((dir) =>
    readdirSync(path.join(REPO_ROOT, dir))
      .filter((f) => f.endsWith('.p4'))
      .map((f) => `${dir}/${f}`),
  ).sort();
}

/**
 * source.sha256 covers the program's own file only. The files it includes
 * with `#include "…"` are checked against test/fixtures/p4info/
 * p4c-outputs-includes.json: their sha256 when p4c-outputs was made
 * (repository commit 95d04bf). A program whose outputs are regenerated after
 * an include changed needs its entry there updated too.
 */
const INCLUDES_FILE = path.join(REPO_ROOT, 'test', 'fixtures', 'p4info', 'p4c-outputs-includes.json');

/** The first local include of `program` (recursively) whose text differs from the one p4c compiled, or undefined. */
function changedInclude(program: string): string | undefined {
  const recorded = (JSON.parse(readFileSync(INCLUDES_FILE, 'utf8')) as Record<string, Record<string, string>>)[program] ?? {};
  const seen = new Set<string>();
  const pending = [program];
  while (pending.length > 0) {
    const file = pending.pop()!;
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const m of text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)) {
      const included = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!));
      if (seen.has(included) || !existsSync(path.join(REPO_ROOT, included))) continue;
      seen.add(included);
      if (recorded[included] !== sha256(path.join(REPO_ROOT, included))) return included;
      pending.push(included);
    }
  }
  return undefined;
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function readIfExists(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/** p4c's outputs for `program` (relative to the repository), or why there are none usable. */
export function p4cOutput(program: string): P4cLookup {
  const dir = path.join(P4C_OUTPUTS_DIR, program);
  const recorded = readIfExists(path.join(dir, 'source.sha256'));
  if (recorded === null) return { output: null, reason: `no p4c output for ${program} (looked in ${dir})` };
  const current = sha256(path.join(REPO_ROOT, program));
  const expected = recorded.trim().split(/\s+/)[0];
  if (expected !== current) {
    return { output: null, reason: `p4c output for ${program} is stale: ${program} changed since it was compiled (sha256 ${current}, outputs for ${expected})` };
  }
  const staleInclude = changedInclude(program);
  if (staleInclude) return { output: null, reason: `p4c output for ${program} is stale: its include ${staleInclude} changed since it was compiled` };
  const log = readIfExists(path.join(dir, 'p4c.log')) ?? '';
  return {
    output: {
      program,
      dir,
      p4infoText: readIfExists(path.join(dir, 'p4info.txtpb')),
      p4infoJson: readIfExists(path.join(dir, 'p4info.json')),
      accepted: existsSync(path.join(dir, 'bmv2.json')),
      log,
      errors: log.split('\n').filter((line) => /\berror:/.test(line)),
    },
  };
}

/**
 * Says on stderr which programs `suite` could not compare with p4c's output
 * and why (no output yet, or the program or an include changed since p4c
 * compiled it), so that a skipped comparison is never silent: vitest's
 * default reporter does not name skipped tests.
 */
export function reportUncompared(suite: string, reasons: readonly string[]): void {
  if (reasons.length === 0) return;
  console.warn(`${suite}: ${reasons.length} program(s) not compared with p4c until their outputs in ${P4C_OUTPUTS_DIR} are regenerated:\n${reasons.map((r) => `  - ${r}`).join('\n')}`);
}

/**
 * The P4Info text of one of the programs in test/fixtures/p4info (`forwarding`,
 * `acl`, …) as a file, for tests that need a realistic P4Info as input: p4c's
 * own output when it is available and fresh, else p4ina's (which
 * test/p4c/p4info-p4c.test.ts checks equal to p4c's byte for byte).
 */
export function p4infoFixtureFile(name: string): string {
  const program = `test/fixtures/p4info/${name}.p4`;
  const lookup = p4cOutput(program);
  if (lookup.output?.p4infoText != null) return path.join(lookup.output.dir, 'p4info.txtpb');
  const cached = compiledFixtures.get(name);
  if (cached) return cached;
  const result = compileProgram(path.join(REPO_ROOT, program));
  if (!result.p4info) throw new Error(`${program} does not compile:\n${formatDiagnostics(result.diagnostics)}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'p4ina-p4info-fixture-'));
  const file = path.join(dir, `${name}.p4info.txtpb`);
  writeFileSync(file, formatP4Info(result.p4info, 'text'));
  compiledFixtures.set(name, file);
  return file;
}

const compiledFixtures = new Map<string, string>();

export function p4infoFixtureText(name: string): string {
  return readFileSync(p4infoFixtureFile(name), 'utf8');
}
