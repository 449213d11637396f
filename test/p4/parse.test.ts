// Every P4 file of p4/ goes through p4ina's front end without a diagnostic,
// for the default and for other SWITCHML_ELEMENTS, and bad configuration
// stops with the #error that names it.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProgram, formatDiagnostics, parseProgram } from '../../src/p4c/index.js';
import { ATP_P4, FORWARD_P4, INCLUDE_DIR, ROOT, SWITCHML_P4 } from './helpers.js';

const includes = readdirSync(INCLUDE_DIR).filter((f) => f.endsWith('.p4')).sort().map((f) => path.join(INCLUDE_DIR, f));
const programs = [FORWARD_P4, SWITCHML_P4, ATP_P4];
const relative = (file: string): string => path.relative(ROOT, file);

function parseDiagnostics(file: string, defines: string[] = []): string {
  return formatDiagnostics(parseProgram(file, { includeDirs: [INCLUDE_DIR], defines }).diagnostics);
}

describe('parsing', () => {
  it('finds the shared includes', () => {
    expect(includes.map((f) => path.basename(f))).toEqual([
      'atp_aggregation.p4', 'atp_config.p4', 'atp_headers.p4', 'atp_parser.p4', 'atp_values.p4', 'checksums.p4', 'forwarding.p4', 'headers.p4', 'omnireduce_aggregation.p4', 'omnireduce_config.p4', 'omnireduce_headers.p4', 'omnireduce_parser.p4', 'omnireduce_round.p4', 'omnireduce_values.p4', 'parser.p4', 'rina_aggregation.p4', 'rina_config.p4', 'rina_headers.p4', 'rina_parser.p4', 'rina_round.p4', 'rina_value_ops.p4', 'rina_values.p4', 'switchml_aggregation.p4', 'switchml_config.p4', 'switchml_values.p4',
    ]);
  });

  it.each([...programs, ...includes].map(relative))('%s parses without diagnostics', (file) => {
    expect(parseDiagnostics(path.join(ROOT, file))).toBe('');
  });

  it.each(['1', '8', '12', '32', '256', '364'])('the programs parse with -D SWITCHML_ELEMENTS=%s', (n) => {
    for (const file of programs) expect(parseDiagnostics(file, [`SWITCHML_ELEMENTS=${n}`])).toBe('');
  });

  it('parses without -I: the programs include their files by relative path', () => {
    for (const file of programs) expect(formatDiagnostics(parseProgram(file).diagnostics)).toBe('');
  });
});

describe('configuration checks', () => {
  it.each([
    ['SWITCHML_ELEMENTS=0', 'SWITCHML_ELEMENTS must be from 1 to 364'],
    ['SWITCHML_ELEMENTS=365', 'SWITCHML_ELEMENTS must be from 1 to 364'],
    ['SWITCHML_SLOTS=0', 'SWITCHML_SLOTS must be from 1 to 32768'],
    ['SWITCHML_SLOTS=32769', 'SWITCHML_SLOTS must be from 1 to 32768'],
    ['SWITCHML_MAX_JOBS=0', 'SWITCHML_MAX_JOBS must be from 1 to 65536'],
  ])('-D %s stops switchml.p4 with an #error', (define, message) => {
    const result = compileProgram(SWITCHML_P4, { defines: [define] });
    expect(result.hasErrors).toBe(true);
    expect(result.p4info).toBeNull();
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.id)).toEqual(['ErrorDirective']);
    expect(errors[0]!.message).toContain(message);
  });

  it.each([
    ['ATP_VALUES=12', 'ATP_VALUES must be a multiple of 8 from 8 to 256'],
    ['ATP_VALUES=264', 'ATP_VALUES must be a multiple of 8 from 8 to 256'],
    ['ATP_AGGREGATORS=0', 'ATP_AGGREGATORS must be from 1 to 65536'],
    ['ATP_AGGREGATORS=65537', 'ATP_AGGREGATORS must be from 1 to 65536'],
    ['ATP_MAX_JOBS=0', 'ATP_MAX_JOBS must be from 1 to 65536'],
  ])('-D %s stops atp.p4 with an #error', (define, message) => {
    const result = compileProgram(ATP_P4, { defines: [define] });
    expect(result.p4info).toBeNull();
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.id)).toEqual(['ErrorDirective']);
    expect(errors[0]!.message).toContain(message);
  });

  it.each(['8', '256'])('atp.p4 compiles without a diagnostic with -D ATP_VALUES=%s', (n) => {
    expect(formatDiagnostics(compileProgram(ATP_P4, { defines: [`ATP_VALUES=${n}`] }).diagnostics)).toBe('');
  });

  it('forward.p4 checks SWITCHML_ELEMENTS too: it parses SwitchML headers to forward them', () => {
    const result = compileProgram(FORWARD_P4, { defines: ['SWITCHML_ELEMENTS=365'] });
    expect(result.diagnostics.map((d) => d.id)).toEqual(['ErrorDirective']);
  });
});
