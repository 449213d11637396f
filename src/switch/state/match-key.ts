/**
 * Match keys of table entries and value-set members: validation of the
 * `FieldMatch` list against the P4Info match fields (spec §9.1.1 "Match
 * Format") and the stored, matcher-ready form.
 *
 * Every field value is kept padded to its byte width, so a matcher compares
 * fixed-size buffers. The key string that identifies an entry is the latin1
 * view of one buffer laid out field by field in P4Info order:
 * - EXACT: the value (width bytes);
 * - OPTIONAL: a presence byte, the value;
 * - LPM: a presence byte, the value, the prefix mask;
 * - TERNARY: a presence byte, the value, the mask;
 * - RANGE: a presence byte, the low bound, the high bound.
 * For a table whose fields are all EXACT the key is therefore just the
 * concatenated padded field values: the data plane builds the same string
 * from the packet and looks it up in one Map. A full RANGE (0 to the field's
 * maximum) is keyed as an omitted field, since both mean "don't care"; its
 * `FieldValue` still says what was written.
 * No bigint anywhere: every check works on bytes.
 */
import { compareAt } from '../../p4info/bytestring.js';
import type { MatchFieldInfo } from '../../p4info/entities.js';
import type * as p4r from '../../proto/p4r.js';
import { invalidArgument, unimplemented } from './entity-error.js';
import { byteWidth, canonicalOf, checkBytes, isZero, padInto } from './validation.js';

export type MatchKind = 'exact' | 'lpm' | 'ternary' | 'range' | 'optional';

/** One field of a stored entry; value/mask/bounds padded to the field's byte width. */
export type FieldValue =
  | { readonly kind: 'exact'; readonly value: Buffer }
  | { readonly kind: 'optional'; readonly value: Buffer }
  | { readonly kind: 'lpm'; readonly value: Buffer; readonly mask: Buffer; readonly prefixLen: number }
  | { readonly kind: 'ternary'; readonly value: Buffer; readonly mask: Buffer }
  | { readonly kind: 'range'; readonly low: Buffer; readonly high: Buffer };

/** A checked match as a table entry keeps it: the key, and the full RANGE fields keyed as don't care (slot indexes). */
export interface KeyedMatch {
  readonly matchKey: string;
  readonly fullRanges: readonly number[] | undefined;
}

export interface ParsedMatch {
  /** Per P4Info match field, in P4Info order; undefined = don't care. */
  readonly fields: readonly (FieldValue | undefined)[];
  /** Identifies the match within its table (see the file comment for the layout). */
  readonly matchKey: string;
}

interface Slot {
  readonly id: number;
  readonly name: string;
  readonly bitwidth: number;
  /** The standard kind, or undefined for an architecture-specific match type we cannot match on. */
  readonly kind: MatchKind | undefined;
  readonly matchType: string;
  /** "match field NAME", for messages (made once: every entry's checks take it). */
  readonly what: string;
  readonly width: number;
  readonly offset: number;
  /** Zero bits in front of the value when padded to whole bytes. */
  readonly padBits: number;
  /** The largest value of the field, padded: the top of a full range. */
  readonly max: Buffer;
}

const STANDARD: Readonly<Record<string, MatchKind>> = { EXACT: 'exact', LPM: 'lpm', TERNARY: 'ternary', RANGE: 'range', OPTIONAL: 'optional' };

function maxValue(bitwidth: number, width: number): Buffer {
  const out = Buffer.alloc(width, 0xff);
  const padBits = width * 8 - bitwidth;
  if (width > 0) out[0] = 0xff >> padBits;
  return out;
}

/** Sets the top `prefixLen` bits of the field (after `padBits` padding bits) in `width` bytes at `offset`. */
function writePrefixMask(target: Buffer, offset: number, padBits: number, prefixLen: number): void {
  const end = padBits + prefixLen;
  let bit = padBits;
  while (bit < end) {
    if ((bit & 7) === 0 && end - bit >= 8) {
      target[offset + (bit >> 3)] = 0xff;
      bit += 8;
    } else {
      target[offset + (bit >> 3)]! |= 0x80 >> (bit & 7);
      bit++;
    }
  }
}

/** The number of bits set in `bytes`: an LPM mask's prefix length. */
function bitCount(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) for (let v = bytes[i]!; v !== 0; v &= v - 1) n++;
  return n;
}

/** True when the `width` bytes at `value` have a bit set outside the `width` bytes at `mask`. */
function outsideMask(key: Buffer, value: number, mask: number, width: number): boolean {
  for (let i = 0; i < width; i++) if ((key[value + i]! & ~key[mask + i]!) !== 0) return true;
  return false;
}

export class MatchLayout {
  readonly slots: readonly Slot[];
  /** True when every field is EXACT: the key is the concatenation of the padded values. */
  readonly exactOnly: boolean;
  private readonly scratch: Buffer;
  private readonly indexById = new Map<number, number>();

  constructor(
    fields: readonly MatchFieldInfo[],
    /** What owns the fields, for messages: "table ingress.acl (id 33…)". */
    private readonly owner: string,
  ) {
    let offset = 0;
    const slots: Slot[] = [];
    for (const f of fields) {
      const kind = STANDARD[f.matchType];
      const width = byteWidth(f.bitwidth);
      slots.push({
        id: f.id,
        name: f.name,
        bitwidth: f.bitwidth,
        kind,
        matchType: f.matchType,
        what: `match field ${f.name}`,
        width,
        offset,
        padBits: width * 8 - f.bitwidth,
        max: maxValue(f.bitwidth, width),
      });
      this.indexById.set(f.id, slots.length - 1);
      offset += kind === 'exact' ? width : kind === 'optional' ? 1 + width : 1 + 2 * width;
    }
    this.slots = slots;
    this.scratch = Buffer.alloc(offset);
    this.exactOnly = slots.every((s) => s.kind === 'exact');
  }

  /** Validates a match and returns its stored form; throws EntityError (INVALID_ARGUMENT, UNIMPLEMENTED). */
  parse(match: readonly p4r.FieldMatch__Output[]): ParsedMatch {
    const { matchKey, fullRanges } = this.parseKey(match);
    return { fields: this.fieldsOf(matchKey, fullRanges), matchKey };
  }

  /**
   * Validates a match as `parse` does and returns only its key (what a table entry keeps), and which
   * fields were a full RANGE keyed as don't care. Builds nothing per field: the checks read the key.
   */
  parseKey(match: readonly p4r.FieldMatch__Output[]): KeyedMatch {
    const slots = this.slots;
    const given = this.inP4InfoOrder(match) ? match : this.byPosition(match);
    // One buffer per layout, zeroed for each match: nothing keeps a view of it, only the string.
    const key = this.scratch.fill(0);
    let fullRanges: number[] | undefined;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      const fm = given[i];
      if (fm) {
        if (this.fill(slot, fm, key)) (fullRanges ??= []).push(i);
      } else if (slot.kind === 'exact') {
        throw invalidArgument(`exact match field ${slot.name} (id ${slot.id}) is missing: exact fields cannot be don't-care`);
      }
    }
    return { matchKey: key.toString('latin1'), fullRanges };
  }

  /** True when the match gives every field once, in P4Info order (what clients send): its positions are the slots'. */
  private inP4InfoOrder(match: readonly p4r.FieldMatch__Output[]): boolean {
    const slots = this.slots;
    if (match.length !== slots.length) return false;
    for (let i = 0; i < slots.length; i++) if (match[i]!.field_id !== slots[i]!.id) return false;
    return true;
  }

  /** The given FieldMatch of each slot (undefined: don't care); throws for unknown and repeated ids. */
  private byPosition(match: readonly p4r.FieldMatch__Output[]): (p4r.FieldMatch__Output | undefined)[] {
    const slots = this.slots;
    const given = new Array<p4r.FieldMatch__Output | undefined>(slots.length);
    for (const fm of match) {
      const i = this.indexById.get(fm.field_id);
      if (i === undefined) throw invalidArgument(`${this.owner} has no match field with id ${fm.field_id}`);
      if (given[i]) throw invalidArgument(`match field ${slots[i]!.name} (id ${fm.field_id}) is given twice`);
      given[i] = fm;
    }
    return given;
  }

  /** Checks one field and writes it into the key; true when it is a full RANGE, keyed as don't care. */
  private fill(slot: Slot, fm: p4r.FieldMatch__Output, key: Buffer): boolean {
    const what = slot.what;
    if (slot.kind === undefined) throw unimplemented(`${what} has match type ${slot.matchType}, which this switch cannot match on`);
    if (fm.field_match_type !== slot.kind) {
      throw invalidArgument(`${what} is ${slot.kind.toUpperCase()} but the request gives ${fm.field_match_type ? `a ${fm.field_match_type.toUpperCase()} match` : 'no match value'}`);
    }
    const { offset, width, bitwidth } = slot;
    const a = offset + 1;
    const b = offset + 1 + width;
    const hex = (at: number): string => canonicalOf(key.subarray(at, at + width)).toString('hex');
    switch (slot.kind) {
      case 'exact':
        padInto(key, offset, width, checkBytes(fm.exact!.value, bitwidth, what, 'value'));
        return false;
      case 'optional':
        key[offset] = 1;
        padInto(key, a, width, checkBytes(fm.optional!.value, bitwidth, what, 'value'));
        return false;
      case 'lpm': {
        const { prefix_len: prefixLen, value } = fm.lpm!;
        if (prefixLen === 0) throw invalidArgument(`${what}: prefix length 0 is a don't-care match; omit the field instead`);
        if (prefixLen < 0 || prefixLen > bitwidth) throw invalidArgument(`${what}: prefix length ${prefixLen} is outside 1..${bitwidth}`);
        key[offset] = 1;
        padInto(key, a, width, checkBytes(value, bitwidth, what, 'value'));
        writePrefixMask(key, b, slot.padBits, prefixLen);
        if (outsideMask(key, a, b, width)) throw invalidArgument(`${what}: value 0x${hex(a)} has bits set past the /${prefixLen} prefix`);
        return false;
      }
      case 'ternary': {
        const t = fm.ternary!;
        key[offset] = 1;
        padInto(key, a, width, checkBytes(t.value, bitwidth, what, 'value'));
        padInto(key, b, width, checkBytes(t.mask, bitwidth, what, 'mask'));
        if (isZero(key, b, b + width)) throw invalidArgument(`${what}: a zero mask is a don't-care match; omit the field instead`);
        if (outsideMask(key, a, b, width)) throw invalidArgument(`${what}: value 0x${hex(a)} has bits outside mask 0x${hex(b)} (value & mask must equal value)`);
        return false;
      }
      case 'range': {
        const r = fm.range!;
        key[offset] = 1;
        padInto(key, a, width, checkBytes(r.low, bitwidth, what, 'low bound'));
        padInto(key, b, width, checkBytes(r.high, bitwidth, what, 'high bound'));
        if (compareAt(key, a, key, b, width) > 0) throw invalidArgument(`${what}: low bound 0x${hex(a)} is above high bound 0x${hex(b)}`);
        if (!isZero(key, a, a + width) || compareAt(key, b, slot.max, 0, width) !== 0) return false;
        // The full range is "don't care". The spec wants the field omitted instead, but BMv2 accepts it
        // (docs/p4runtime.md), so we do too: keyed as the omitted field (it is the same entry); the
        // caller remembers it, so that reads return it as written.
        key.fill(0, offset, b + width);
        return true;
      }
    }
  }

  /**
   * The stored fields of a match, decoded from its match key (the layout in the file comment): what
   * `parse` returned for it, given the full RANGE fields that `parseKey` found (the key holds them as
   * omitted fields).
   */
  fieldsOf(matchKey: string, fullRanges?: readonly number[]): (FieldValue | undefined)[] {
    const key = Buffer.from(matchKey, 'latin1');
    const slots = this.slots;
    const fields = new Array<FieldValue | undefined>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const { kind, offset, width } = slots[i]!;
      if (kind === 'exact') {
        fields[i] = { kind, value: key.subarray(offset, offset + width) };
        continue;
      }
      if (key[offset] === 0) continue;
      const a = key.subarray(offset + 1, offset + 1 + width);
      const b = key.subarray(offset + 1 + width, offset + 1 + 2 * width);
      if (kind === 'optional') fields[i] = { kind, value: a };
      else if (kind === 'lpm') fields[i] = { kind, value: a, mask: b, prefixLen: bitCount(b) };
      else if (kind === 'ternary') fields[i] = { kind, value: a, mask: b };
      else if (kind === 'range') fields[i] = { kind, low: a, high: b };
    }
    for (const i of fullRanges ?? []) {
      const { width, max } = slots[i]!;
      fields[i] = { kind: 'range', low: Buffer.alloc(width), high: Buffer.from(max) };
    }
    return fields;
  }

  /** The canonical FieldMatch list of a stored match, in P4Info order (don't-care fields omitted). */
  toProto(fields: readonly (FieldValue | undefined)[]): p4r.FieldMatch[] {
    const out: p4r.FieldMatch[] = [];
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (!f) continue;
      const field_id = this.slots[i]!.id;
      const c = (v: Buffer): Buffer => Buffer.from(canonicalOf(v));
      switch (f.kind) {
        case 'exact':
          out.push({ field_id, exact: { value: c(f.value) } });
          break;
        case 'optional':
          out.push({ field_id, optional: { value: c(f.value) } });
          break;
        case 'lpm':
          out.push({ field_id, lpm: { value: c(f.value), prefix_len: f.prefixLen } });
          break;
        case 'ternary':
          out.push({ field_id, ternary: { value: c(f.value), mask: c(f.mask) } });
          break;
        case 'range':
          out.push({ field_id, range: { low: c(f.low), high: c(f.high) } });
          break;
      }
    }
    return out;
  }
}
