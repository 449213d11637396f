// Golden tests of the parser and printer: each corpus program parses
// cleanly, prints exactly as its golden test/golden/parse/NAME.p4, and the
// printed text parses back to the same tree (and prints the same again).
// Regenerate goldens with UPDATE_GOLDEN=1 and review the diff.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  annotationBodyText,
  defaultLibraryDir,
  formatDiagnostics,
  parseProgram,
  parseSource,
  printProgram,
  withoutSpans,
  type Declaration,
  type StructLikeDeclaration,
} from '../../src/p4c/index.js';
import { CORPUS_DIR, corpusPrograms, expectGolden, parseText, V1MODEL } from './helpers.js';

describe.each(corpusPrograms())('corpus program %s', (name) => {
  it('parses cleanly, matches its golden, and round-trips', () => {
    const file = path.join(CORPUS_DIR, name);
    const first = parseProgram(file);
    expect(formatDiagnostics(first.diagnostics)).toBe('');
    const printed = printProgram(first.ast, { libraryFiles: first.sources.libraryFiles() });
    expectGolden(`parse/${name}`, printed);

    const second = parseSource(printed, file);
    expect(formatDiagnostics(second.diagnostics)).toBe('');
    // The whole tree, library declarations included: the printed program
    // configures the library as the original did.
    expect(withoutSpans(second.ast)).toEqual(withoutSpans(first.ast));
    expect(printProgram(second.ast, { libraryFiles: second.sources.libraryFiles() })).toBe(printed);
  });
});

const names = (declarations: readonly Declaration[]): string[] =>
  declarations.map((d) => `${d.kind}:${'name' in d ? d.name.text : ''}`);

describe('our library files', () => {
  for (const [file, defines] of [
    ['core.p4', []],
    ['v1model.p4', []],
    ['v1model.p4', ['V1MODEL_VERSION=20200408']],
  ] as const) {
    it(`${file} ${defines.join(' ')} parses cleanly and round-trips`, () => {
      const parsed = parseProgram(path.join(defaultLibraryDir(), file), { defines });
      expect(formatDiagnostics(parsed.diagnostics)).toBe('');
      const printed = printProgram(parsed.ast);
      const again = parseSource(printed, 'printed.p4');
      expect(formatDiagnostics(again.diagnostics)).toBe('');
      expect(withoutSpans(again.ast)).toEqual(withoutSpans(parsed.ast));
    });
  }

  it('core.p4 declares the core library, with NoAction annotated as P4Info shows it', () => {
    const { ast } = parseProgram(path.join(defaultLibraryDir(), 'core.p4'));
    expect(names(ast.declarations)).toEqual([
      'ErrorDeclaration:',
      'ExternDeclaration:packet_in',
      'ExternDeclaration:packet_out',
      'ExternFunctionDeclaration:verify',
      'ActionDeclaration:NoAction',
      'MatchKindDeclaration:',
      'ExternFunctionDeclaration:static_assert',
      'ExternFunctionDeclaration:static_assert',
    ]);
    const [errors, packetIn, , , noAction, matchKinds] = ast.declarations;
    expect(errors!.kind === 'ErrorDeclaration' && errors.members.map((m) => m.text)).toEqual([
      'NoError', 'PacketTooShort', 'NoMatch', 'StackOutOfBounds', 'HeaderTooShort', 'ParserTimeout', 'ParserInvalidArgument',
    ]);
    expect(packetIn!.kind === 'ExternDeclaration' && packetIn.methods.map((m) => m.name.text)).toEqual([
      'extract', 'extract', 'lookahead', 'advance', 'length',
    ]);
    expect(noAction!.kind === 'ActionDeclaration' && noAction.annotations.map((a) => `@${a.name.text}(${annotationBodyText(a)})`)).toEqual([
      '@noWarn("unused")',
    ]);
    expect(matchKinds!.kind === 'MatchKindDeclaration' && matchKinds.members.map((m) => m.text)).toEqual(['exact', 'ternary', 'lpm']);
  });

  it('v1model.p4 declares the architecture', () => {
    const { ast } = parseText(V1MODEL);
    const declared = names(ast.declarations);
    for (const expected of [
      'ConstantDeclaration:__v1model_version',
      'StructDeclaration:standard_metadata_t',
      'EnumDeclaration:CounterType',
      'EnumDeclaration:MeterType',
      'EnumDeclaration:HashAlgorithm',
      'EnumDeclaration:CloneType',
      'ExternDeclaration:counter',
      'ExternDeclaration:direct_counter',
      'ExternDeclaration:meter',
      'ExternDeclaration:direct_meter',
      'ExternDeclaration:register',
      'ExternDeclaration:action_profile',
      'ExternDeclaration:action_selector',
      'ExternFunctionDeclaration:random',
      'ExternFunctionDeclaration:digest',
      'ExternFunctionDeclaration:mark_to_drop',
      'ExternFunctionDeclaration:hash',
      'ExternFunctionDeclaration:verify_checksum',
      'ExternFunctionDeclaration:update_checksum',
      'ExternFunctionDeclaration:verify_checksum_with_payload',
      'ExternFunctionDeclaration:update_checksum_with_payload',
      'ExternFunctionDeclaration:clone',
      'ExternFunctionDeclaration:clone_preserving_field_list',
      'ExternFunctionDeclaration:resubmit_preserving_field_list',
      'ExternFunctionDeclaration:recirculate_preserving_field_list',
      'ExternFunctionDeclaration:truncate',
      'ExternFunctionDeclaration:assert',
      'ExternFunctionDeclaration:assume',
      'ExternFunctionDeclaration:log_msg',
      'ParserTypeDeclaration:Parser',
      'ControlTypeDeclaration:VerifyChecksum',
      'ControlTypeDeclaration:Ingress',
      'ControlTypeDeclaration:Egress',
      'ControlTypeDeclaration:ComputeChecksum',
      'ControlTypeDeclaration:Deparser',
      'PackageTypeDeclaration:V1Switch',
    ]) {
      expect(declared).toContain(expected);
    }
    expect(declared.filter((d) => d === 'ExternFunctionDeclaration:mark_to_drop')).toHaveLength(2);
    const metadata = ast.declarations.find((d) => d.kind === 'StructDeclaration' && d.name.text === 'standard_metadata_t') as StructLikeDeclaration;
    const fields = metadata.fields.map((f) => `${f.name.text}:${f.type.kind === 'BitsType' ? printWidth(f.type.width) : f.type.kind}`);
    expect(fields).toEqual([
      'ingress_port:9', 'egress_spec:9', 'egress_port:9', 'instance_type:32', 'packet_length:32',
      'enq_timestamp:32', 'enq_qdepth:19', 'deq_timedelta:32', 'deq_qdepth:19',
      'ingress_global_timestamp:48', 'egress_global_timestamp:48', 'mcast_grp:16', 'egress_rid:16',
      'checksum_error:1', 'parser_error:ErrorType', 'priority:3',
    ]);
  });

  it('V1MODEL_VERSION 20200408 gives PortId_t and typed indices', () => {
    const { ast, diagnostics } = parseText('#define V1MODEL_VERSION 20200408\n' + V1MODEL);
    expect(diagnostics).toEqual([]);
    const register = ast.declarations.find((d) => d.kind === 'ExternDeclaration' && d.name.text === 'register');
    expect(register?.kind === 'ExternDeclaration' && register.typeParams.map((t) => t.text)).toEqual(['T', 'I']);
    expect(names(ast.declarations)).toContain('TypedefDeclaration:PortId_t');
  });
});

function printWidth(width: unknown): string {
  return width && typeof width === 'object' && 'value' in width ? String(width.value) : '?';
}
