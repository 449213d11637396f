#!/usr/bin/env node
/**
 * Compares the P4Info our front end writes with p4c's golden P4Info files.
 *
 *   node scripts/compare-p4c-samples.mjs DIR [--normalize-newer] [--json] [--timeout MS]
 *                                          [--filter REGEX] [--lines N] [--only-differences]
 *                                          [--dist DIR] [-I DIR]
 *
 * DIR is either a p4c checkout (DIR/testdata/p4_16_samples...) or a directory
 * laid out like p4c's testdata:
 *
 *   DIR/p4_16_samples/NAME.p4                           the program (and files it includes)
 *   DIR/p4_16_samples_outputs/NAME.p4.p4info.txtpb      p4c's P4Info for it
 *
 * Every golden is visited (sub-folders too, e.g. dash/); programs that do not
 * include v1model.p4 are listed as "not v1model" and left out of the totals.
 * Each program is compiled in a worker thread (dist/src/p4c, in process, no
 * CLI) with a per-program timeout; an exception or a timeout is a result,
 * never the end of the run. Needs dist/ built (`npx tsc -p tsconfig.json`);
 * --dist DIR uses another build (DIR/src/p4c), e.g. a snapshot made with
 * `npx tsc -p tsconfig.json --outDir DIR` whose parent has p4/ and node_modules/.
 *
 * --normalize-newer strips from the goldens what p4c releases newer than
 * 1.2.4.8 (our target) add: `initial_default_action { ... }` blocks in tables
 * (and the interim scalar `initial_default_action_id: N`) and
 * `annotations: "@corelib"` lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const HERE = dirname(fileURLToPath(import.meta.url));
let DIST = resolve(HERE, '..', 'dist', 'src');
const GOLDEN_SUFFIX = '.p4info.txtpb';

// ---------------------------------------------------------------------------
// Worker: compiles one program per message and answers with our P4Info text.
// ---------------------------------------------------------------------------

async function workerMain() {
  DIST = workerData.dist;
  const p4c = await import(pathToFileURL(join(DIST, 'p4c', 'index.js')).href);
  const p4info = await import(pathToFileURL(join(DIST, 'p4info', 'index.js')).href);
  parentPort.on('message', ({ id, path, includeDirs }) => {
    try {
      const result = p4c.compileProgram(path, { includeDirs });
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      // emit-p4info runs before lower-to-ir: a program whose P4Info was built
      // but whose IR lowering failed still has a P4Info worth comparing.
      let info = result.p4info;
      if (!info) {
        try {
          info = result.context.table(p4c.P4INFO).p4info ?? null;
        } catch {
          info = null;
        }
      }
      const emitted = info && (!result.stoppedAfter || result.stoppedAfter === 'lower-to-ir' || result.stoppedAfter === 'emit-p4info') ? info : null;
      const firstError = errors.length ? firstLine(p4c.formatDiagnostic(errors[0])) : null;
      parentPort.postMessage({
        id,
        ok: true,
        text: emitted ? p4info.formatP4Info(emitted, 'text') : null,
        errors: errors.length,
        firstError,
        errorCodes: [...new Set(errors.map((d) => p4c.codeString(d.code)))],
        stoppedAfter: result.stoppedAfter ?? null,
      });
    } catch (error) {
      parentPort.postMessage({ id, ok: false, exception: String(error?.stack ?? error).split('\n').slice(0, 3).join(' | ') });
    }
  });
  parentPort.postMessage({ ready: true });
}

function firstLine(text) {
  return String(text).split('\n')[0].trim();
}

class Compiler {
  constructor(timeoutMs) {
    this.timeoutMs = timeoutMs;
    this.worker = null;
    this.next = 0;
  }

  async start() {
    this.worker = new Worker(fileURLToPath(import.meta.url), { workerData: { role: 'compiler', dist: DIST } });
    this.worker.unref();
    await new Promise((res, rej) => {
      const onMessage = (m) => {
        if (m?.ready) {
          this.worker.off('message', onMessage);
          this.worker.off('error', rej);
          res();
        }
      };
      this.worker.on('message', onMessage);
      this.worker.once('error', rej);
    });
  }

  /** Resolves with the worker's answer, {timeout: true}, or {ok: false, exception} if the worker died. */
  async compile(path, includeDirs) {
    if (!this.worker) {
      try {
        await this.start();
      } catch (error) {
        throw new Error(`cannot load the compiler from ${DIST}: ${firstLine(error?.message ?? error)}`, { cause: error });
      }
    }
    const id = ++this.next;
    const worker = this.worker;
    return new Promise((res) => {
      let timer;
      const done = (value, restart) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (restart) {
          void worker.terminate();
          this.worker = null;
        }
        res(value);
      };
      const onMessage = (m) => {
        if (m?.id === id) done(m, false);
      };
      const onError = (e) => done({ ok: false, exception: `worker error: ${firstLine(e?.message ?? e)}` }, true);
      const onExit = (code) => done({ ok: false, exception: `worker exited (${code})` }, true);
      timer = setTimeout(() => done({ timeout: true }, true), this.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, path, includeDirs });
    });
  }

  async stop() {
    if (this.worker) await this.worker.terminate();
    this.worker = null;
  }
}

// ---------------------------------------------------------------------------
// Goldens and normalization
// ---------------------------------------------------------------------------

function locate(dir) {
  const candidates = [join(dir, 'testdata'), dir];
  for (const base of candidates) {
    const samples = join(base, 'p4_16_samples');
    const outputs = join(base, 'p4_16_samples_outputs');
    if (existsSync(samples) && existsSync(outputs)) return { samples, outputs };
  }
  throw new Error(`${dir}: no p4_16_samples/ and p4_16_samples_outputs/ here or under testdata/`);
}

function goldensUnder(dir) {
  const found = [];
  const walk = (d) => {
    for (const entry of readdirSync(d).sort()) {
      const full = join(d, entry);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (entry.endsWith(GOLDEN_SUFFIX)) found.push(full);
    }
  };
  walk(dir);
  return found;
}

/** True if the program includes v1model.p4 (directly; a quoted include of a file that does is followed once). */
function usesV1model(path, seen = new Set()) {
  if (seen.has(path) || !existsSync(path)) return false;
  seen.add(path);
  const text = readFileSync(path, 'utf8');
  const includes = [...text.matchAll(/^\s*#\s*include\s*[<"]([^>"]+)[>"]/gm)].map((m) => m[1]);
  if (includes.some((f) => /(^|\/)v1model\.p4$/.test(f))) return true;
  return includes.some((f) => !/(^|\/)(core|psa|pna|ubpf_model|ebpf_model|xdp_model|tna|t2na|dpdk\/.*)\.p4$/.test(f) && usesV1model(join(dirname(path), f), seen));
}

/** Removes `initial_default_action { ... }` blocks and `annotations: "@corelib"` lines (p4c > 1.2.4.8). */
export function normalizeNewer(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*initial_default_action\s*\{\s*$/.test(line)) {
      let depth = 1;
      while (depth > 0 && ++i < lines.length) {
        depth += (lines[i].match(/\{/g) ?? []).length - (lines[i].match(/\}/g) ?? []).length;
      }
      continue;
    }
    // Some p4c versions between 1.2.4.8 and the proto's final form wrote the same thing as a scalar.
    if (/^\s*initial_default_action_id:\s*\d+\s*$/.test(line)) continue;
    if (/^\s*annotations:\s*"@corelib"\s*$/.test(line)) continue;
    out.push(line);
  }
  return out.join('\n');
}

function canonicalLines(text) {
  const lines = text.replace(/\r\n/g, '\n').split('\n').map((l) => l.replace(/\s+$/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A line diff (LCS) of golden vs ours, as hunks of {line (1-based in golden), minus[], plus[]}.
 * Falls back to a positional comparison for very large files.
 */
export function diffLines(a, b) {
  const n = a.length;
  const m = b.length;
  let start = 0;
  while (start < n && start < m && a[start] === b[start]) start++;
  let endA = n;
  let endB = m;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops = [];
  const na = endA - start;
  const nb = endB - start;
  if (na * nb > 25_000_000) {
    for (let i = 0; i < Math.max(na, nb); i++) {
      if (i < na) ops.push({ t: '-', i: start + i, s: a[start + i] });
      if (i < nb) ops.push({ t: '+', i: start + Math.min(i, na), s: b[start + i] });
    }
  } else {
    const w = nb + 1;
    const lcs = new Uint32Array((na + 1) * w);
    for (let i = na - 1; i >= 0; i--) {
      for (let j = nb - 1; j >= 0; j--) {
        lcs[i * w + j] = a[start + i] === b[start + j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < na || j < nb) {
      if (i < na && j < nb && a[start + i] === b[start + j]) {
        ops.push({ t: '=' });
        i++;
        j++;
      } else if (j < nb && (i === na || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j])) {
        ops.push({ t: '+', i: start + i, s: b[start + j] });
        j++;
      } else {
        ops.push({ t: '-', i: start + i, s: a[start + i] });
        i++;
      }
    }
  }
  const hunks = [];
  let current = null;
  for (const op of ops) {
    if (op.t === '=') {
      current = null;
      continue;
    }
    if (!current) {
      current = { line: op.i + 1, minus: [], plus: [] };
      hunks.push(current);
    }
    (op.t === '-' ? current.minus : current.plus).push(op.s);
  }
  return hunks;
}

// ---------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------

function parseArgs(argv) {
  const options = { dir: null, json: false, normalizeNewer: false, timeoutMs: 20_000, filter: null, lines: 6, onlyDifferences: false, includeDirs: [] };
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    const value = () => {
      if (k + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++k];
    };
    switch (arg) {
      case '--json': options.json = true; break;
      case '--normalize-newer': options.normalizeNewer = true; break;
      case '--timeout': options.timeoutMs = Number(value()); break;
      case '--filter': options.filter = new RegExp(value()); break;
      case '--lines': options.lines = Number(value()); break;
      case '--only-differences': options.onlyDifferences = true; break;
      case '-I': options.includeDirs.push(resolve(value())); break;
      case '--dist': DIST = join(resolve(value()), 'src'); break;
      case '-h':
      case '--help':
        process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split(' */')[0].split('\n').slice(2).map((l) => l.replace(/^ \*( |$)/, '')).join('\n') + '\n');
        process.exit(0);
        break;
      default:
        if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
        if (options.dir) throw new Error('one directory only');
        options.dir = resolve(arg);
    }
  }
  if (!options.dir) throw new Error('usage: compare-p4c-samples.mjs DIR [--normalize-newer] [--json] [--timeout MS] [--filter REGEX]');
  return options;
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  if (!existsSync(join(DIST, 'p4c', 'index.js'))) {
    process.stderr.write(`no ${join(DIST, 'p4c', 'index.js')}: build first (npx tsc -p tsconfig.json)\n`);
    return 2;
  }
  const { samples, outputs } = locate(options.dir);
  const compiler = new Compiler(options.timeoutMs);
  const results = [];
  for (const golden of goldensUnder(outputs)) {
    const name = relative(outputs, golden).slice(0, -GOLDEN_SUFFIX.length);
    if (options.filter && !options.filter.test(name)) continue;
    const program = join(samples, name);
    const result = { name, status: '', detail: null, hunks: [] };
    results.push(result);
    if (!existsSync(program)) {
      result.status = 'no program';
      continue;
    }
    if (!usesV1model(program)) {
      result.status = 'not v1model';
      continue;
    }
    const started = Date.now();
    const answer = await compiler.compile(program, [dirname(program), ...options.includeDirs]);
    result.ms = Date.now() - started;
    if (answer.timeout) {
      result.status = 'timeout';
      result.detail = `no answer in ${options.timeoutMs} ms`;
      continue;
    }
    if (!answer.ok) {
      result.status = 'crash';
      result.detail = answer.exception;
      continue;
    }
    if (answer.text === null) {
      result.status = 'fail';
      result.detail = answer.firstError ?? `stopped after ${answer.stoppedAfter}`;
      result.errorCodes = answer.errorCodes;
      continue;
    }
    if (answer.errors) {
      result.irError = answer.firstError;
      result.errorCodes = answer.errorCodes;
    }
    let goldenText = readFileSync(golden, 'utf8');
    if (options.normalizeNewer) goldenText = normalizeNewer(goldenText);
    const hunks = diffLines(canonicalLines(goldenText), canonicalLines(answer.text));
    result.status = hunks.length === 0 ? 'equal' : 'differ';
    result.hunks = hunks;
    if (hunks.length) {
      result.linesMinus = hunks.reduce((s, h) => s + h.minus.length, 0);
      result.linesPlus = hunks.reduce((s, h) => s + h.plus.length, 0);
    }
  }
  await compiler.stop();

  const v1 = results.filter((r) => r.status !== 'not v1model' && r.status !== 'no program');
  const count = (s) => v1.filter((r) => r.status === s).length;
  const totals = {
    golden: v1.length,
    compile: count('equal') + count('differ'),
    equal: count('equal'),
    differ: count('differ'),
    fail: count('fail') + count('crash') + count('timeout'),
    failDetail: { fail: count('fail'), crash: count('crash'), timeout: count('timeout') },
    notV1model: results.filter((r) => r.status === 'not v1model').length,
    noProgram: results.filter((r) => r.status === 'no program').length,
  };

  if (options.json) {
    process.stdout.write(JSON.stringify({ dir: options.dir, normalizeNewer: options.normalizeNewer, totals, results }, null, 2) + '\n');
    return 0;
  }

  const out = [];
  out.push(`p4c samples in ${options.dir}${options.normalizeNewer ? ' (goldens normalized to p4c 1.2.4.8)' : ''}`);
  out.push('');
  out.push('| p4c golden present | we compile | equal | differ | we fail |');
  out.push('|---:|---:|---:|---:|---:|');
  out.push(`| ${totals.golden} | ${totals.compile} | ${totals.equal} | ${totals.differ} | ${totals.fail} |`);
  out.push('');
  out.push(`(we fail = ${totals.failDetail.fail} rejected, ${totals.failDetail.crash} crashed, ${totals.failDetail.timeout} timed out; ` +
    `${totals.notV1model} goldens are not v1model programs, ${totals.noProgram} have no program)`);
  out.push('');
  out.push('| program | status | first difference / error |');
  out.push('|---|---|---|');
  for (const r of results) {
    if (options.onlyDifferences && (r.status === 'equal' || r.status === 'not v1model')) continue;
    let detail = '';
    if (r.status === 'differ') {
      const h = r.hunks[0];
      detail = `line ${h.line}: ` + [...h.minus.slice(0, 2).map((l) => `-${l.trim()}`), ...h.plus.slice(0, 2).map((l) => `+${l.trim()}`)].join(' ') +
        ` (${r.hunks.length} hunk${r.hunks.length > 1 ? 's' : ''}, -${r.linesMinus} +${r.linesPlus})`;
    } else if (r.detail) {
      detail = r.detail;
    }
    if (r.irError) detail += ` [IR: ${r.irError}]`;
    out.push(`| ${r.name} | ${r.status} | ${detail.replace(/\|/g, '\\|')} |`);
  }
  const differing = results.filter((r) => r.status === 'differ');
  if (differing.length && options.lines > 0) {
    out.push('');
    out.push('## First differing lines (- golden, + ours)');
    for (const r of differing) {
      out.push('');
      out.push(`### ${r.name}`);
      out.push('```diff');
      let shown = 0;
      for (const h of r.hunks) {
        if (shown >= options.lines) break;
        out.push(`@@ golden line ${h.line}`);
        for (const l of h.minus) if (shown++ < options.lines) out.push(`-${l}`);
        for (const l of h.plus) if (shown++ < options.lines) out.push(`+${l}`);
      }
      out.push('```');
    }
  }
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

if (isMainThread) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
} else if (workerData?.role === 'compiler') {
  await workerMain();
}
