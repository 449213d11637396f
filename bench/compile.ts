/**
 * Compile times of the P4 front end: every program in p4/ and in the
 * front end's test corpus, plus a generated program of 500+ lines, both
 * in process (`compileProgram`: preprocess → … → P4Info and IR; the first
 * run and the median of warm runs) and as a whole command
 * (`node dist/src/cli/main.js compile`, process start and file writes
 * included). Target: under 300 ms in process for a 500-line program.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileProgram, formatDiagnostics } from '../src/p4c/index.js';
import type { Cell } from '../src/report/table.js';
import type { Benchmark, BenchResult } from './benchmark.js';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));
/** bench/ is compiled to dist/bench/: the repository root is two levels up. */
const ROOT = here('../../');
const MAIN_JS = here('../src/cli/main.js');

function programsIn(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.p4')).sort().map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/** A v1model program of `tables` tables, each with its actions: about 12 lines per table. */
export function generatedProgram(tables: number): string {
  const lines = [
    '#include <core.p4>', '#include <v1model.p4>',
    'header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }',
    'header ipv4_t { bit<8> ver_ihl; bit<8> tos; bit<16> len; bit<16> id; bit<16> frag; bit<8> ttl; bit<8> proto; bit<16> csum; bit<32> src; bit<32> dst; }',
    'struct headers_t { ethernet_t ethernet; ipv4_t ipv4; }',
    'struct metadata_t { bit<32> acc; bit<16> tag; }',
    'parser P(packet_in pk, out headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {',
    '    state start { pk.extract(hdr.ethernet); transition select(hdr.ethernet.type) { 0x0800: ipv4; default: accept; } }',
    '    state ipv4 { pk.extract(hdr.ipv4); transition accept; }',
    '}',
    'control V(inout headers_t hdr, inout metadata_t meta) { apply { } }',
    'control I(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) {',
    '    register<bit<32>>(1024) acc;',
  ];
  const applies: string[] = [];
  for (let i = 0; i < tables; i++) {
    lines.push(
      `    action set_${i}(bit<9> port, bit<16> tag) {`,
      '        sm.egress_spec = port;',
      `        meta.tag = tag + ${i};`,
      `        acc.read(meta.acc, ${i});`,
      `        acc.write(${i}, meta.acc + (bit<32>)hdr.ipv4.len);`,
      '    }',
      `    table t_${i} {`,
      `        key = { hdr.ipv4.dst: lpm; hdr.ipv4.proto: ternary; meta.tag: exact; }`,
      `        actions = { set_${i}; NoAction; }`,
      `        size = ${1024 + i};`,
      '        default_action = NoAction();',
      '    }',
    );
    applies.push(`        if (hdr.ipv4.ttl > ${i % 200}) { t_${i}.apply(); }`);
  }
  lines.push('    apply {', ...applies, '    }', '}');
  lines.push(
    'control E(inout headers_t hdr, inout metadata_t meta, inout standard_metadata_t sm) { apply { } }',
    'control D(packet_out pk, in headers_t hdr) { apply { pk.emit(hdr.ethernet); pk.emit(hdr.ipv4); } }',
    'V1Switch(P(), V(), I(), E(), V(), D()) main;',
  );
  return `${lines.join('\n')}\n`;
}

function millis(run: () => void): number {
  const t0 = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const compileBench: Benchmark = {
  name: 'compile',
  summary: 'P4 front end: compile each program in p4/ and the test corpus, in process and as `p4ina compile`',
  async run({ quick, progress }): Promise<BenchResult> {
    const work = mkdtempSync(path.join(tmpdir(), 'p4ina-bench-compile-'));
    try {
      const generated = path.join(work, 'generated.p4');
      writeFileSync(generated, generatedProgram(42));
      const programs = [...programsIn(path.join(ROOT, 'p4')), ...programsIn(path.join(ROOT, 'test', 'p4c', 'corpus')), generated];
      const warmRuns = quick ? 5 : 30;
      const commandRuns = quick ? 1 : 5;
      const rows: Cell[][] = [];
      for (const file of programs) {
        const name = path.relative(ROOT, file).startsWith('..') ? 'generated (42 tables)' : path.relative(ROOT, file);
        progress(`compile ${name}`);
        const lines = readFileSync(file, 'utf8').split('\n').length;
        let failure = '';
        const first = millis(() => {
          const result = compileProgram(file);
          if (result.hasErrors) failure = formatDiagnostics(result.diagnostics);
        });
        if (failure) throw new Error(`${name} does not compile:\n${failure}`);
        const warm = median(Array.from({ length: warmRuns }, () => millis(() => compileProgram(file))));
        const command = median(Array.from({ length: commandRuns }, () => millis(() => {
          const child = spawnSync(process.execPath, [MAIN_JS, 'compile', file, '-o', work], { encoding: 'utf8', timeout: 60_000 });
          if (child.status !== 0) throw new Error(`p4ina compile ${name} failed (${String(child.status)}): ${child.stderr}`);
        })));
        rows.push([name, lines, first.toFixed(1), warm.toFixed(1), command.toFixed(0)]);
      }
      return {
        title: 'P4 front end compile time (ms)',
        columns: ['program', 'lines', 'first in process', `in process (median of ${warmRuns})`, `p4ina compile (median of ${commandRuns})`],
        rows,
        notes: [
          'In process: compileProgram() from source text to P4Info and IR (preprocess, parse, resolve-names, type-check, fold-constants, check-control-plane, emit-p4info, lower-to-ir); "first" includes JIT warm-up.',
          'p4ina compile: a fresh `node dist/src/cli/main.js compile` process, writing the IR and P4Info; dominated by Node start-up and module loading.',
          'Lines count the program file only, not core.p4/v1model.p4 (~300 lines more, compiled every time). Target: < 300 ms in process for 500 lines.',
        ],
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
