// A deliberately naive interpreter of p4ina's pipeline IR, for checking what
// p4/forward.p4 and p4/switchml.p4 do to packets independently of the
// emulator (src/switch). Everything is a BigInt or a plain object, nothing
// is compiled or cached, so it is slow and easy to read. It covers the IR
// the two programs use (exact and LPM tables, registers, counters,
// csum16, multicast) and throws on anything else rather than guess.
import type { IrBlock, IrCall, IrExpression, IrProgram, IrStatement } from '../../../src/p4c/index.js';
import { bitsToBytes, csum16, pushBits, readBits, toSigned, wrap } from './bits.js';
import { clone, headerLayout, initialValue, type Header, type Stack, type Struct, type Value } from './ir-values.js';

/** A control-plane entry: exact keys as numbers, LPM keys as prefixes. */
export interface OracleEntry {
  keys: (bigint | { value: bigint; prefixLength: number })[];
  action: string;
  args: bigint[];
}

export interface OraclePacket { port: number; bytes: Buffer }

const DROP_PORT = 511n;
const INSTANCE_TYPE_REPLICATION = 5n;

class Exit {}
class Return {}
class ParserStop { constructor(readonly error: number) {} }

export class IrOracle {
  readonly registers = new Map<string, bigint[]>();
  readonly counters = new Map<string, number[]>();
  /** Table entries by table name. */
  readonly entries = new Map<string, OracleEntry[]>();
  /** Default actions set by the control plane, by table name. */
  readonly defaults = new Map<string, { action: string; args: bigint[] }>();
  /** PRE multicast groups: id → replicas. */
  readonly groups = new Map<number, { port: number; rid: number }[]>();

  private readonly blocks = new Map<string, IrBlock>();
  private slots: Value[] = [];
  private packet: Buffer = Buffer.alloc(0);
  private cursor = 0;
  private emitted: number[] = [];

  constructor(readonly ir: IrProgram) {
    for (const block of ir.blocks) this.blocks.set(block.name, block);
    for (const e of ir.externs) {
      if (e.type === 'register') this.registers.set(e.name, new Array<bigint>(e.size ?? 0).fill(0n));
      else if (e.type === 'counter') this.counters.set(e.name, new Array<number>(e.size ?? 0).fill(0));
      else throw new Error(`the oracle has no ${e.type} extern`);
    }
  }

  counter(name: string): readonly number[] {
    const cells = this.counters.get(name);
    if (!cells) throw new Error(`no counter ${name}`);
    return cells;
  }

  register(name: string): readonly bigint[] {
    const cells = this.registers.get(name);
    if (!cells) throw new Error(`no register ${name}`);
    return cells;
  }

  addEntry(table: string, entry: OracleEntry): void {
    this.entries.set(table, [...(this.entries.get(table) ?? []), entry]);
  }

  /** Runs one packet through the whole pipeline; returns what leaves, by port, in replica order. */
  process(bytes: Buffer, ingressPort: number): OraclePacket[] {
    this.slots = this.ir.slots.map((s) => initialValue(this.ir, s.type));
    this.packet = bytes;
    this.cursor = 0;
    this.standardMetadata().fields.ingress_port = BigInt(ingressPort);
    this.standardMetadata().fields.packet_length = BigInt(bytes.length);
    this.parse();
    const payload = bytes.subarray(this.cursor / 8);
    this.runBlock(this.ir.pipeline.verifyChecksum);
    this.runBlock(this.ir.pipeline.ingress);
    const sm = this.standardMetadata().fields;
    const copies: { port: number; rid: number; replica: boolean }[] = [];
    if (sm.mcast_grp !== 0n) {
      for (const r of this.groups.get(Number(sm.mcast_grp)) ?? []) copies.push({ ...r, replica: true });
    } else if (sm.egress_spec !== DROP_PORT) {
      copies.push({ port: Number(sm.egress_spec), rid: 0, replica: false });
    }
    const afterIngress = this.slots;
    const out: OraclePacket[] = [];
    for (const copy of copies) {
      this.slots = afterIngress.map((v) => clone(v));
      const f = this.standardMetadata().fields;
      f.egress_port = BigInt(copy.port);
      f.egress_spec = BigInt(copy.port);
      f.egress_rid = BigInt(copy.rid);
      if (copy.replica) f.instance_type = INSTANCE_TYPE_REPLICATION;
      this.runBlock(this.ir.pipeline.egress);
      if (this.standardMetadata().fields.egress_spec === DROP_PORT) continue;
      this.runBlock(this.ir.pipeline.computeChecksum);
      this.emitted = [];
      this.runBlock(this.ir.pipeline.deparser);
      out.push({ port: copy.port, bytes: Buffer.concat([bitsToBytes(this.emitted), payload]) });
    }
    return out;
  }

  private standardMetadata(): Struct {
    return this.slots[2] as Struct;
  }

  private parse(): void {
    const parser = this.blocks.get(this.ir.pipeline.parser)!;
    let state = 'start';
    try {
      for (let steps = 0; state !== 'accept' && state !== 'reject'; steps++) {
        if (steps > 1000) throw new Error('parser loops');
        const current = parser.states.find((s) => s.name === state)!;
        this.run(current.body);
        const transition = current.transition;
        if (!transition) state = 'reject';
        else if (transition.kind === 'goto') state = transition.state;
        else {
          const keys = transition.keys.map((k) => this.evaluate(k) as bigint);
          const chosen = transition.cases.find((c) =>
            c.keysets.every((ks, i) => {
              if (ks.kind === 'default') return true;
              if (ks.kind === 'value') return BigInt(ks.value) === keys[i];
              if (ks.kind === 'mask') return (keys[i]! & BigInt(ks.mask)) === (BigInt(ks.value) & BigInt(ks.mask));
              throw new Error(`the oracle has no ${ks.kind} keysets`);
            }),
          );
          state = chosen ? chosen.state : 'reject';
        }
      }
    } catch (stop) {
      if (!(stop instanceof ParserStop)) throw stop;
      this.standardMetadata().fields.parser_error = BigInt(stop.error);
    }
  }

  private runBlock(name: string): void {
    try {
      this.run(this.blocks.get(name)!.apply);
    } catch (signal) {
      if (!(signal instanceof Exit) && !(signal instanceof Return)) throw signal;
    }
  }

  private run(body: readonly IrStatement[]): void {
    for (const statement of body) this.execute(statement);
  }

  private execute(s: IrStatement): void {
    switch (s.kind) {
      case 'assign': return this.assign(s.target, this.evaluate(s.value));
      case 'if': return this.run(this.evaluate(s.condition) ? s.then : s.else);
      case 'block': return this.run(s.body);
      case 'call': return this.call(s.call);
      case 'apply-table': this.applyTable(s.table); return;
      case 'apply-block': {
        const block = this.blocks.get(s.block)!;
        block.params.forEach((p, i) => { this.slots[p.slot] = clone(this.evaluate(s.args[i]!.value)); });
        try {
          this.run(block.apply);
        } catch (signal) {
          if (!(signal instanceof Return)) throw signal;
        }
        block.params.forEach((p, i) => { if (p.direction !== 'in') this.assign(s.args[i]!.value, this.slots[p.slot]!); });
        return;
      }
      case 'exit': throw new Exit();
      case 'return': throw new Return();
      default: throw new Error(`the oracle cannot run ${s.kind}`);
    }
  }

  private evaluate(e: IrExpression): Value {
    switch (e.op) {
      case 'const': return BigInt(e.value);
      case 'bool': return e.value;
      case 'slot': return this.slots[e.slot]!;
      case 'field': return (this.evaluate(e.base) as Header | Struct).fields[e.field]!;
      case 'index': return (this.evaluate(e.base) as Stack).elements[Number(this.evaluate(e.index) as bigint)]!;
      case 'is-valid': return (this.evaluate(e.header) as Header).valid;
      case 'apply-table': return this.applyTable(e.table) === (e.result === 'hit');
      case 'list': return e.elements.map((x) => this.evaluate(x));
      case 'cond': return this.evaluate(this.evaluate(e.condition) ? e.whenTrue : e.whenFalse);
      case 'cast': {
        const v = this.evaluate(e.operand);
        if (e.type.kind === 'bool') return v !== 0n;
        if (typeof v === 'boolean') return v ? 1n : 0n;
        const from = e.operand.type;
        const n = from.kind === 'bits' && from.signed ? toSigned(v as bigint, from.width) : (v as bigint);
        return e.type.kind === 'bits' ? wrap(n, e.type.width) : n;
      }
      case 'unary': {
        const v = this.evaluate(e.operand);
        if (e.operator === '!') return !v;
        const width = (e.type as { width: number }).width;
        return wrap(e.operator === '~' ? ~(v as bigint) : -(v as bigint), width);
      }
      case 'binary': return this.binary(e);
      default: throw new Error(`the oracle cannot evaluate ${e.op}`);
    }
  }

  private binary(e: Extract<IrExpression, { op: 'binary' }>): Value {
    if (e.operator === '&&') return (this.evaluate(e.left) as boolean) && (this.evaluate(e.right) as boolean);
    if (e.operator === '||') return (this.evaluate(e.left) as boolean) || (this.evaluate(e.right) as boolean);
    const l = this.evaluate(e.left) as bigint;
    const r = this.evaluate(e.right) as bigint;
    const type = e.left.type;
    const [a, b] = type.kind === 'bits' && type.signed ? [toSigned(l, type.width), toSigned(r, type.width)] : [l, r];
    const width = e.type.kind === 'bits' ? e.type.width : 0;
    switch (e.operator) {
      case '==': return l === r;
      case '!=': return l !== r;
      case '<': return a < b;
      case '>': return a > b;
      case '<=': return a <= b;
      case '>=': return a >= b;
      case '+': return wrap(l + r, width);
      case '-': return wrap(l - r, width);
      case '*': return wrap(l * r, width);
      case '&': return l & r;
      case '|': return l | r;
      case '^': return l ^ r;
      case '<<': return wrap(l << r, width);
      default: throw new Error(`the oracle has no operator ${e.operator}`);
    }
  }

  private assign(target: IrExpression, value: Value): void {
    const v = clone(value);
    if (target.op === 'slot') this.slots[target.slot] = v;
    else if (target.op === 'field') {
      const fits = typeof v === 'bigint' && target.type.kind === 'bits';
      (this.evaluate(target.base) as Header | Struct).fields[target.field] = fits ? wrap(v, (target.type as { width: number }).width) : v;
    } else if (target.op === 'index') {
      (this.evaluate(target.base) as Stack).elements[Number(this.evaluate(target.index) as bigint)] = v as Header;
    } else throw new Error(`the oracle cannot assign to ${target.op}`);
  }

  private call(c: IrCall): void {
    const { target, args } = c;
    const arg = (i: number): IrExpression => args[i]!.value;
    if (target.kind === 'function' && target.name === 'mark_to_drop') {
      const sm = this.evaluate(arg(0)) as Struct;
      sm.fields.egress_spec = DROP_PORT;
      sm.fields.mcast_grp = 0n;
    } else if (target.kind === 'function' && (target.name === 'verify_checksum' || target.name === 'update_checksum')) {
      if (!this.evaluate(arg(0))) return;
      const list = arg(1) as Extract<IrExpression, { op: 'list' }>;
      const sum = csum16(list.elements.map((x) => [this.evaluate(x) as bigint, (x.type as { width: number }).width] as const));
      if (target.name === 'update_checksum') this.assign(arg(2), sum);
      else if (sum !== this.evaluate(arg(2))) this.standardMetadata().fields.checksum_error = 1n;
    } else if (target.kind === 'method') {
      const index = (i: number): number => Number(this.evaluate(arg(i)) as bigint);
      const cells = (target.method === 'count' ? this.counters : this.registers).get(target.instance)!;
      const i = index(target.method === 'read' ? 1 : 0);
      if (i >= cells.length) throw new Error(`${target.instance}[${i}] is out of range`);
      if (target.method === 'read') this.assign(arg(0), (cells as bigint[])[i]!);
      else if (target.method === 'write') (cells as bigint[])[i] = this.evaluate(arg(1)) as bigint;
      else if (target.method === 'count') (cells as number[])[i]! += 1;
      else throw new Error(`the oracle has no method ${target.method}`);
    } else if (target.kind === 'packet' && target.method === 'extract') {
      const layout = headerLayout(this.ir, (arg(0).type as { name: string }).name);
      if (this.cursor + layout.width > this.packet.length * 8) throw new ParserStop(this.ir.errors.indexOf('PacketTooShort'));
      const header: Header = { kind: 'header', valid: true, fields: {} };
      for (const f of layout.fields) header.fields[f.name] = readBits(this.packet, this.cursor + f.bitOffset, f.width);
      this.cursor += layout.width;
      this.assign(arg(0), header);
    } else if (target.kind === 'packet' && target.method === 'emit') {
      const v = this.evaluate(arg(0)) as Header | Stack;
      const type = arg(0).type;
      const layout = headerLayout(this.ir, type.kind === 'stack' ? type.element : (type as { name: string }).name);
      for (const h of v.kind === 'stack' ? v.elements : [v]) {
        if (h.valid) for (const f of layout.fields) pushBits(this.emitted, h.fields[f.name]!, f.width);
      }
    } else throw new Error(`the oracle cannot call ${JSON.stringify(target)}`);
  }

  /** Exact keys must all be equal; the longest matching LPM prefix wins. Returns hit. */
  private applyTable(name: string): boolean {
    const table = this.ir.tables.find((t) => t.name === name)!;
    const keys = table.keys.map((k) => this.evaluate(k.expression) as bigint);
    let best: OracleEntry | undefined;
    let bestLength = -1;
    for (const entry of this.entries.get(name) ?? []) {
      let length = 0;
      const matches = entry.keys.every((k, i) => {
        if (typeof k === 'bigint') return k === keys[i];
        const width = table.keys[i]!.width;
        length += k.prefixLength;
        const mask = wrap(((1n << BigInt(k.prefixLength)) - 1n) << BigInt(width - k.prefixLength), width);
        return (keys[i]! & mask) === k.value;
      });
      if (matches && length > bestLength) [best, bestLength] = [entry, length];
    }
    const chosen = best ?? this.defaults.get(name) ?? { action: table.defaultAction.action, args: table.defaultAction.args.map(BigInt) };
    const action = this.ir.actions.find((a) => a.name === chosen.action)!;
    action.params.filter((p) => p.controlPlane).forEach((p, i) => { this.slots[p.slot] = chosen.args[i]!; });
    try {
      this.run(action.body);
    } catch (signal) {
      if (!(signal instanceof Return)) throw signal;
    }
    return best !== undefined;
  }
}

