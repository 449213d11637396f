/**
 * Registers (spec §9.7), readable and writable over P4Runtime (BMv2 cannot,
 * PI#376). Cells are a Uint32Array when the cell type is bit<W>/int<W> with
 * W <= 32, else an array of bigints; int<W> values are kept as their W-bit
 * two's-complement pattern. MODIFY only; an unset index writes every cell.
 * Registers of struct, tuple or other non-bitstring types are not supported
 * (UNIMPLEMENTED), and skipped by wildcard reads.
 */
import { bigIntToBytes, bytesToBigInt } from '../../p4info/bytestring.js';
import type { RegisterInfo } from '../../p4info/entities.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import { invalidArgument, notFound, unimplemented } from './entity-error.js';
import { Store, type UndoLog } from './undo-log.js';
import { arrayIndex, bytesToUint, checkBytes, describe, modifyOnly, uintToBytes, type UpdateType } from './validation.js';

export type RegisterCells = Uint32Array | bigint[];

export interface RegisterArray {
  readonly info: RegisterInfo;
  readonly label: string;
  /** The cell width, or undefined for a type this switch cannot hold. */
  readonly bitwidth: number | undefined;
  readonly cells: RegisterCells;
}

export class RegisterStore extends Store {
  private readonly byId = new Map<number, RegisterArray>();

  constructor(schema: P4Schema, undo: UndoLog, allocate = true) {
    super(undo);
    for (const info of schema.registers.all) {
      const w = info.bitwidth;
      const size = allocate ? info.size : 0;
      const cells: RegisterCells = w !== undefined && w <= 32 ? new Uint32Array(size) : new Array<bigint>(size).fill(0n);
      this.byId.set(info.id, { info, label: describe('register', info.name, info.id), bitwidth: w, cells });
    }
  }

  /** The cells of a register, for the data plane. */
  find(id: number): RegisterArray | undefined {
    return this.byId.get(id);
  }

  lookup(id: number): RegisterArray {
    const r = this.byId.get(id);
    if (!r) throw notFound(`no register with id ${id} in the P4Info`);
    return r;
  }

  all(): IterableIterator<RegisterArray> {
    return this.byId.values();
  }

  write(type: UpdateType, e: p4r.RegisterEntry__Output): void {
    modifyOnly(type, 'a register entry');
    const r = this.lookup(e.register_id);
    const w = r.bitwidth;
    if (w === undefined) throw unimplemented(`${r.label} holds a ${r.info.typeSpec?.type_spec ?? 'unknown'} type; only bit<W> and int<W> registers are supported`);
    const index = arrayIndex(e.index, r.info.size, r.label);
    if (!e.data || e.data.data !== 'bitstring') {
      throw invalidArgument(`${r.label} holds bit<${w}> values: data must be a P4Data bitstring${e.data?.data ? `, not ${e.data.data}` : ''}`);
    }
    const bytes = checkBytes(e.data.bitstring!, w, `value for ${r.label}`);
    const from = index ?? 0;
    const to = index === undefined ? r.info.size : index + 1;
    const cells = r.cells;
    if (this.undo.active) {
      const before = cells.slice(from, to);
      this.undo.record(() => {
        for (let i = from; i < to; i++) cells[i] = before[i - from]!;
        this.touch();
      });
    }
    if (cells instanceof Uint32Array) cells.fill(bytesToUint(bytes), from, to);
    else cells.fill(bytesToBigInt(bytes), from, to);
    this.touch();
  }

  /**
   * The cells a read selects, produced one by one as the caller iterates (a wildcard read of a
   * large register never exists as one array). The request is checked here, before iteration.
   */
  read(e: p4r.RegisterEntry__Output): Iterable<p4r.Entity> {
    const selected = e.register_id ? [this.lookup(e.register_id)] : [...this.byId.values()].filter((r) => r.bitwidth !== undefined);
    const ranges = selected.map((r) => {
      if (r.bitwidth === undefined) throw unimplemented(`${r.label} holds a non-bitstring type, which this switch does not support`);
      const index = e.register_id ? arrayIndex(e.index, r.info.size, r.label) : undefined;
      return { r, from: index ?? 0, to: index === undefined ? r.info.size : index + 1 };
    });
    return (function* cells(): Generator<p4r.Entity> {
      for (const { r, from, to } of ranges) {
        const cells = r.cells;
        for (let i = from; i < to && i < cells.length; i++) {
          const value = cells instanceof Uint32Array ? uintToBytes(cells[i]!) : bigIntToBytes(cells[i]!);
          yield { register_entry: { register_id: r.info.id, index: { index: i }, data: { bitstring: value } } };
        }
      }
    })();
  }
}
