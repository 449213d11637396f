// Checks every row of the P4Runtime wire table (test/fixtures/p4runtime-wire.tsv, a copy of
// shared/reference/p4runtime-wire.tsv) against the descriptors protobufjs loads from proto/,
// and every field we declare against the table, so the protos cannot drift from it.
import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { protoRoot } from '../../src/proto/load.js';

interface Row {
  file: string;
  package: string;
  message_or_enum: string;
  kind: string;
  member: string;
  number: string;
  type: string;
  label: string;
  notes: string;
}

const lines = readFileSync(new URL('../fixtures/p4runtime-wire.tsv', import.meta.url), 'utf8').trimEnd().split('\n');
const header = lines[0]!.split('\t');
const rows: Row[] = lines.slice(1).map((line) => {
  const cells = line.split('\t');
  return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])) as unknown as Row;
});

/** Rows newer than v1.5.0 (p4runtime main only), left out on purpose; see proto/README.md. */
const leftOut = (row: Row): boolean => row.notes.includes('after v1.5.0 (main only)');

const root = protoRoot();
const typeName = (field: protobuf.Field): string =>
  field.resolvedType ? field.resolvedType.fullName.replace(/^\./, '') : field.type;

function describeField(field: protobuf.Field): { type: string; label: string } {
  if (field instanceof protobuf.MapField) {
    return { type: `map<${field.keyType},${typeName(field)}>`, label: 'map' };
  }
  const oneof = field.partOf && !field.partOf.name.startsWith('_') ? `oneof:${field.partOf.name}` : '';
  return { type: typeName(field), label: field.repeated ? 'repeated' : oneof };
}

describe('P4Runtime wire table', () => {
  it('has the rows we expect to check', () => {
    expect(rows.length).toBe(535);
  });

  for (const row of rows) {
    const what = `${row.message_or_enum} ${row.kind} ${row.member || '(no members)'}`;
    it(what, () => {
      const shortName = row.message_or_enum;
      if (row.kind === 'service') {
        const service = root.lookupService(shortName);
        const method = service.methods[row.member];
        if (!method) throw new Error(`missing rpc ${row.member}`);
        method.resolve();
        const [request, rest] = row.type.replace(/^rpc /, '').split(' -> ') as [string, string];
        const [response, mode] = rest.split(', ') as [string, string];
        expect(method.resolvedRequestType?.fullName).toBe(`.${request}`);
        expect(method.resolvedResponseType?.fullName).toBe(`.${response}`);
        expect(Boolean(method.requestStream)).toBe(mode.includes('client_streaming'));
        expect(Boolean(method.responseStream)).toBe(mode.includes('server_streaming'));
        return;
      }
      if (row.kind === 'enum') {
        const en = root.lookupEnum(shortName);
        if (leftOut(row)) {
          expect(en.values[row.member]).toBeUndefined();
          return;
        }
        expect(en.values[row.member]).toBe(Number(row.number));
        return;
      }
      const type = root.lookupType(shortName);
      if (!row.member) {
        expect(type.fieldsArray).toHaveLength(0);
        return;
      }
      const field = type.fields[row.member];
      if (leftOut(row)) {
        expect(field).toBeUndefined();
        return;
      }
      if (!field) throw new Error(`missing field ${row.member}`);
      expect(field.id).toBe(Number(row.number));
      expect(describeField(field)).toEqual({ type: row.type, label: row.label });
      expect(Boolean(field.options?.deprecated)).toBe(row.notes.includes('deprecated since'));
    });
  }

  it('declares no field, value or rpc that the table lacks', () => {
    const known = new Set(rows.map((r) => `${r.message_or_enum}#${r.member}`));
    const extras: string[] = [];
    const visit = (ns: protobuf.NamespaceBase): void => {
      for (const nested of ns.nestedArray) {
        const full = nested.fullName.replace(/^\./, '');
        if (full.startsWith('google.protobuf')) continue;
        if (nested instanceof protobuf.Type) {
          for (const f of nested.fieldsArray) if (!known.has(`${full}#${f.name}`)) extras.push(`${full}.${f.name}`);
        } else if (nested instanceof protobuf.Enum) {
          for (const v of Object.keys(nested.values)) if (!known.has(`${full}#${v}`)) extras.push(`${full}.${v}`);
        } else if (nested instanceof protobuf.Service) {
          for (const m of nested.methodsArray) if (!known.has(`${full}#${m.name}`)) extras.push(`${full}.${m.name}`);
        }
        if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested);
      }
    };
    visit(root);
    expect(extras).toEqual([]);
  });
});
