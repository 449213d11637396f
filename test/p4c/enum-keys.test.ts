// Match keys of enum type. p4c gives a serializable enum key (`enum bit<8> E`)
// the underlying bitwidth, no type_name, and a type_info.serializable_enums
// entry; for an enum without an underlying type its P4Runtime serializer
// reports "width not well-defined" (BMv2 serializes P4Info before the mid end
// turns enums into bit<32>), so we reject it with P4C4017 instead of writing a
// match field without a bitwidth that our own switch would refuse.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage } from '../../src/proto/codec.js';
import type * as p4i from '../../src/proto/p4i.js';
import type * as p4r from '../../src/proto/p4r.js';
import { buildPipeline } from '../../src/switch/state/pipeline-config.js';
import { compileProgram, memoryFileSystem, nodeFileSystem } from '../../src/p4c/index.js';
import { codesAt, CORPUS_DIR, V1MODEL } from './helpers.js';

/** A v1model program with `enumDecl`, an action `a` (line 9) and a table keyed on `m.k` (line 12). */
const PROGRAM = (enumDecl: string, keyType: string): string =>
  `${V1MODEL}${enumDecl}
header h_t { bit<8> a; }
struct hs_t { h_t h; }
struct m_t { ${keyType} k; }
parser P(packet_in pk, out hs_t hdr, inout m_t m, inout standard_metadata_t sm) { state start { pk.extract(hdr.h); transition accept; } }
control I(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) {
    action a() { }
    table t {
        key = {
            m.k: exact;
        }
        actions = { a; }
    }
    apply { t.apply(); }
}
control E(inout hs_t hdr, inout m_t m, inout standard_metadata_t sm) { apply { } }
control V(inout hs_t hdr, inout m_t m) { apply { } }
control D(packet_out pk, in hs_t hdr) { apply { pk.emit(hdr.h); } }
V1Switch(P(), V(), I(), E(), V(), D()) main;
`;

function compile(text: string): ReturnType<typeof compileProgram> {
  return compileProgram('test.p4', { text, fileSystem: memoryFileSystem({ 'test.p4': text }, nodeFileSystem) });
}

/** Installs `p4info` in our switch's pipeline, as SetForwardingPipelineConfig would (throws if refused). */
function installInSwitch(p4info: p4i.P4Info): void {
  const decoded = decodeMessage<p4i.P4Info__Output>('p4.config.v1.P4Info', encodeMessage('p4.config.v1.P4Info', p4info));
  const config = { p4info: decoded, p4_device_config: Buffer.alloc(0), cookie: null } as p4r.ForwardingPipelineConfig__Output;
  buildPipeline(config);
}

describe('match keys of enum type', () => {
  it('rejects an enum without an underlying type, naming the field and the fix', () => {
    const result = compile(PROGRAM('enum Direction { In, Out }', 'Direction'));
    expect(result.p4info).toBeNull();
    expect(codesAt(result.diagnostics)).toEqual(['P4C4017@12:13']);
    const message = result.diagnostics[0]!.message;
    expect(message).toContain("match field 'm.k' has type Direction");
    expect(message).toContain('enum bit<8> Direction');
  });

  it('gives a serializable enum key its underlying bitwidth and describes the enum in type_info', () => {
    const result = compile(PROGRAM('enum bit<12> Kind { Low = 1, High = 0x802 }', 'Kind'));
    expect(codesAt(result.diagnostics)).toEqual([]);
    const field = result.p4info!.tables![0]!.match_fields![0]!;
    expect(field).toEqual({ id: 1, name: 'm.k', bitwidth: 12, match_type: 'EXACT' });
    expect(result.p4info!.type_info!.serializable_enums).toEqual({
      Kind: {
        underlying_type: { bitwidth: 12 },
        members: [
          { name: 'Low', value: Buffer.from([0x00, 0x01]) },
          { name: 'High', value: Buffer.from([0x08, 0x02]) },
        ],
      },
    });
    expect(() => installInSwitch(result.p4info!)).not.toThrow();
  });

  it('rejects action data of such an enum, which p4c would emit without a bitwidth', () => {
    const text = PROGRAM('enum Direction { In, Out }', 'bit<8>').replace('action a() { }', 'action a(Direction d) { }');
    const result = compile(text);
    expect(result.p4info).toBeNull();
    expect(codesAt(result.diagnostics)).toEqual(['P4C4018@9:24']);
    expect(result.diagnostics[0]!.message).toContain("parameter 'd' of action 'a' is action data of type Direction");
  });

  it('compiles syntax_tour.p4 to a P4Info our switch installs', () => {
    const result = compileProgram(path.join(CORPUS_DIR, 'syntax_tour.p4'));
    expect(codesAt(result.diagnostics)).toEqual([]);
    const classify = result.p4info!.tables!.find((t) => t.preamble!.name === 'TourIngress.classify');
    expect(classify?.match_fields?.map((f) => [f.name, f.bitwidth])).toEqual([['proto', 8], ['meta.l4proto', 8]]);
    expect(() => installInSwitch(result.p4info!)).not.toThrow();
  });
});
