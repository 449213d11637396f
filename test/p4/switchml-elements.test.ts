// switchml.p4 compiled for each packet size a job may choose: 64 values
// (SwitchML's own), 128, 256 and 364 (the most whose IPv4 packet fits a
// 1500-byte MTU: maxElementsPerPacket of src/controller/job.ts). For each:
// no diagnostic; the P4Info sizes the installer reads the count from; one
// extract per value, in order; a round of two workers through the IR oracle
// comes back as the int32 sums, value by value, and a lost result is answered
// with the same stored sums; and gcc's cpp, which p4c runs as its
// preprocessor, gives the same program as p4ina's own preprocessor.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maxElementsPerPacket } from '../../src/controller/index.js';
import { compileProgram, formatDiagnostics, serializeIr } from '../../src/p4c/index.js';
import { formatP4Info, parseP4Info } from '../../src/p4info/index.js';
import { SWITCHML_HEADER_LENGTH } from '../../src/wire/index.js';
import { compiled, SWITCHML_P4 } from './helpers.js';
import { decodeResult, installJob, startSwitch, updateFrame, worker } from './support/fixture.js';
import { parserState, text } from './support/ir-parser.js';

const SIZES = [64, 128, 256, 364] as const;
const DEFAULT_SLOTS = 4096;

const define = (n: number): string[] => [`SWITCHML_ELEMENTS=${n}`];

it('364 is the most values a SwitchML packet carries within the MTU', () => {
  expect(maxElementsPerPacket('switchml')).toBe(364);
  expect(20 + 8 + SWITCHML_HEADER_LENGTH + 4 * 364).toBeLessThanOrEqual(1500);
  expect(20 + 8 + SWITCHML_HEADER_LENGTH + 4 * 365).toBeGreaterThan(1500);
});

describe.each(SIZES)('switchml.p4 with %i values per packet', (n) => {
  it('says so in its P4Info: values / seen, the count the installer checks jobs against', () => {
    const { schema } = compiled(SWITCHML_P4, define(n));
    const seen = schema.registers.find('ingress.switchml.seen')!;
    const values = schema.registers.find('ingress.switchml.values')!;
    expect(seen.size).toBe(2 * DEFAULT_SLOTS);
    expect(values.size).toBe(2 * DEFAULT_SLOTS * n);
  });

  it('parses the values as one header stack, one extract per value, in order', () => {
    const { ir } = compiled(SWITCHML_P4, define(n));
    const stack = ir.structs.find((s) => s.name === 'headers_t')!.fields.find((f) => f.name === 'switchml_values')!;
    expect(stack.type).toEqual({ kind: 'stack', element: 'switchml_value_h', size: n });
    const extracts = parserState(ir, 'parse_switchml_values').body.map((s) => (s.kind === 'call' ? text(s.call.args[0]!.value) : s.kind));
    expect(extracts).toEqual(Array.from({ length: n }, (_, i) => `slot0.switchml_values[${i}]`));
  });

  it('sums a round of two workers value by value, and answers a lost result with the stored sums', () => {
    const sw = startSwitch(SWITCHML_P4, define(n));
    installJob(sw, { jobId: 7, slotBase: 3, poolSize: 2, workers: [0, 1], group: 1 });
    // Large, negative and wrapping values, different at every index.
    const a = Array.from({ length: n }, (_, i) => (i * 0x01000193) | 0);
    const b = Array.from({ length: n }, (_, i) => (0x7fff0000 - i * 7919) | 0);
    const sums = a.map((x, i) => (x + b[i]!) | 0);
    expect(sw.process(updateFrame({ worker: 0, tsi: 5, slot: 1, values: a }, n), worker(0).switchPort)).toEqual([]);
    const results = sw.process(updateFrame({ worker: 1, tsi: 5, slot: 1, values: b }, n), worker(1).switchPort);
    expect(results.map((p) => p.port)).toEqual([worker(0).switchPort, worker(1).switchPort]);
    for (const packet of results) {
      const { frame, switchMl, values } = decodeResult(packet);
      expect(frame.udp.length).toBe(8 + SWITCHML_HEADER_LENGTH + 4 * n);
      expect(switchMl).toMatchObject({ messageType: 2, elementCount: n, tsi: 5, slot: 1 });
      expect(values).toEqual(sums);
    }
    const again = sw.process(updateFrame({ worker: 0, tsi: 5, slot: 1, values: a.map(() => 1) }, n), worker(0).switchPort);
    expect(again.map((p) => p.port)).toEqual([worker(0).switchPort]);
    expect(decodeResult(again[0]!).values).toEqual(sums);
  });
});

describe('bad counts', () => {
  it.each(['0', '365'])('-D SWITCHML_ELEMENTS=%s stops with the #error that gives the range', (n) => {
    const result = compileProgram(SWITCHML_P4, { defines: [`SWITCHML_ELEMENTS=${n}`] });
    expect(result.diagnostics.map((d) => d.id)).toEqual(['ErrorDirective']);
    expect(result.diagnostics[0]!.message).toContain('SWITCHML_ELEMENTS must be from 1 to 364');
  });
});

// p4c runs `cpp -C -undef -nostdinc -x assembler-with-cpp` (frontends/common/parser_options.cpp).
// Here it expands switchml.p4 with empty stand-ins for the two system
// headers, which stay includes, so that both texts compile against p4ina's core.p4 and v1model.p4.
const cppMissing = spawnSync('cpp', ['--version']).error !== undefined;

describe.skipIf(cppMissing)("gcc's cpp, as p4c preprocesses, gives the same program", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'p4ina-cpp-'));
  writeFileSync(path.join(dir, 'core.p4'), '');
  writeFileSync(path.join(dir, 'v1model.p4'), '');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(SIZES)('with %i values per packet', (n) => {
    const cpp = spawnSync('cpp', ['-P', '-C', '-undef', '-nostdinc', '-x', 'assembler-with-cpp', `-DSWITCHML_ELEMENTS=${n}`, '-I', dir, SWITCHML_P4], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(cpp.stderr).toBe('');
    // switchml.p4 defines V1MODEL_VERSION for v1model.p4, which cpp has consumed; the library includes come back.
    const file = path.join(dir, `switchml-${n}.p4`);
    writeFileSync(file, `#define V1MODEL_VERSION 20180101\n#include <core.p4>\n#include <v1model.p4>\n${cpp.stdout}`);
    const viaCpp = compileProgram(file);
    expect(formatDiagnostics(viaCpp.diagnostics)).toBe('');
    const ours = compiled(SWITCHML_P4, define(n));
    const withoutSource = (ir: NonNullable<typeof viaCpp.ir>): string => serializeIr({ ...ir, source: '' });
    expect(withoutSource(viaCpp.ir!)).toBe(withoutSource(ours.ir));
    expect(parseP4Info(formatP4Info(viaCpp.p4info!, 'text'), 'text')).toEqual(ours.p4info);
  });
});
