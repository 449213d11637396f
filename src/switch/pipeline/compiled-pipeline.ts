/**
 * One IR program compiled into closures against one pipeline's device state.
 * Compiled once per SetForwardingPipelineConfig; per packet, only closures
 * run. The stages are exposed one by one so the traffic manager can run them
 * in v1model's order (see traffic-manager.ts).
 */
import type { Logger } from 'pino';
import type { IrBlock, IrCall, IrProgram, IrStatement } from '../../p4c/ir/types.js';
import type { P4Schema } from '../../p4info/schema.js';
import type * as p4r from '../../proto/p4r.js';
import type { ForwardingState } from '../state/forwarding-state.js';
import { checkIrNumbers } from './ir-numbers.js';
import { PipelineLoadError } from './pipeline-load-error.js';
import type { CompileEnv, Eval, Exec, TableResult } from './compile-env.js';
import { ActionSelection } from './action-selection.js';
import { compileParser } from './compile-parser.js';
import { bindArguments, StatementCompiler } from './compile-statement.js';
import { entryWrittenSlots } from './entry-written-slots.js';
import { compileTable } from './compile-table.js';
import { compileExternFunction } from './extern-functions.js';
import { compileExternMethod } from './extern-methods.js';
import { generateEvaluator } from './generate-expression.js';
import { generateDeparser, type HeaderDeparser } from './generate-deparser.js';
import { generateCopier, generateResetter } from './generate-reset.js';
import { PacketCompiler } from './packet-methods.js';
import { FLOW_EXIT, FLOW_NEXT, PacketContext } from './packet-context.js';
import { StandardMetadata } from './standard-metadata.js';
import { ValueFactory, type Value } from './values.js';

export interface PipelineServices {
  readonly forwarding: ForwardingState;
  readonly schema: P4Schema;
  readonly log: Logger;
  /** True when the program's const/initial entries were installed into the table stores (program-entries.ts). */
  readonly programEntriesInstalled?: boolean;
  emitDigest(digestId: number, data: p4r.P4Data): void;
  /** A uniform random number in [0, 1) (random(), hash random). */
  random?(): number;
}

export class CompiledPipeline implements CompileEnv {
  readonly values: ValueFactory;
  readonly sm: StandardMetadata;
  private readonly statements: StatementCompiler;
  private readonly packets: PacketCompiler;
  private readonly actions = new Map<string, { action: IrProgram['actions'][number]; body: Exec }>();
  private readonly blocks = new Map<string, { block: IrBlock; run: Exec }>();
  private readonly tables = new Map<string, (ctx: PacketContext) => TableResult>();
  private readonly slotMakers: (() => Value)[];
  private readonly slotResetters: ((v: Value) => Value)[];
  private readonly slotCopiers: ((dst: Value, src: Value) => Value)[];
  /** The slots whose values a packet carries between blocks (entry-written-slots.ts): the only ones reset and copied. */
  private readonly carriedSlots: number[];
  private readonly stages: { parser: Exec; verifyChecksum: Exec; ingress: Exec; egress: Exec; computeChecksum: Exec; deparser: Exec };
  /** The deparser as one generated function, when it only emits values at plain locations (generate-deparser.ts). */
  private readonly headerDeparser: HeaderDeparser | undefined;

  constructor(
    readonly program: IrProgram,
    private readonly services: PipelineServices,
  ) {
    checkIrNumbers(program);
    this.values = new ValueFactory(program);
    this.sm = new StandardMetadata(program);
    this.statements = new StatementCompiler(this);
    this.packets = new PacketCompiler(this, this.statements.exprs);
    for (const h of program.headers) {
      if (h.fields.some((f) => f.varbit)) throw new PipelineLoadError(`header ${h.name} has a varbit field; this switch does not support varbit yet`);
    }
    this.slotMakers = program.slots.map((s) => {
      const type = s.type;
      return () => this.values.make(type);
    });
    this.slotResetters = program.slots.map((s) => generateResetter(s.type, this.values));
    this.slotCopiers = program.slots.map((s) => generateCopier(s.type, this.values));
    const entryWritten = entryWrittenSlots(program);
    this.carriedSlots = program.slots.map((_, i) => i).filter((i) => !entryWritten.has(i));
    const order = program.deparserEmitOrder;
    this.headerDeparser = order ? generateDeparser(order, this, this.statements.exprs) : undefined;
    const p = program.pipeline;
    this.stages = {
      parser: this.block(p.parser).run,
      verifyChecksum: this.block(p.verifyChecksum).run,
      ingress: this.block(p.ingress).run,
      egress: this.block(p.egress).run,
      computeChecksum: this.block(p.computeChecksum).run,
      deparser: this.compileDeparser(),
    };
  }

  // ---- per packet -------------------------------------------------------------

  /** A fresh context for a packet entering the parser. */
  /**
   * The context of a new packet entering ingress, reusing the one of the
   * previous packet when `reuse` is given (the caller guarantees nothing
   * refers to it any more): no allocation per packet beyond the frame out.
   */
  reuseContext(reuse: PacketContext, packet: Buffer): PacketContext {
    const slots = reuse.slots;
    const carried = this.carriedSlots;
    for (let k = 0; k < carried.length; k++) {
      const i = carried[k]!;
      slots[i] = this.slotResetters[i]!(slots[i]);
    }
    reuse.restart(packet);
    return reuse;
  }

  /**
   * Makes `dst` (a context nobody refers to any more) a copy of `src` as it
   * leaves ingress (a multicast replica), in place, or a new copy without `dst`.
   */
  copyContextInto(dst: PacketContext | undefined, src: PacketContext): PacketContext {
    const ctx = dst ?? this.newContext(src.packet);
    const from = src.slots;
    const to = ctx.slots;
    const carried = this.carriedSlots;
    for (let k = 0; k < carried.length; k++) {
      const i = carried[k]!;
      to[i] = this.slotCopiers[i]!(to[i], from[i]);
    }
    ctx.restart(src.packet);
    ctx.cursor = src.cursor;
    ctx.truncateTo = src.truncateTo;
    return ctx;
  }

  newContext(packet: Buffer): PacketContext {
    const slots = new Array<Value>(this.slotMakers.length);
    for (let i = 0; i < slots.length; i++) slots[i] = this.slotMakers[i]!();
    const ctx = new PacketContext(slots);
    ctx.packet = packet;
    return ctx;
  }

  parse(ctx: PacketContext): void {
    this.stages.parser(ctx);
  }

  verifyChecksum(ctx: PacketContext): void {
    this.stages.verifyChecksum(ctx);
  }

  ingress(ctx: PacketContext): void {
    this.stages.ingress(ctx);
  }

  egress(ctx: PacketContext): void {
    this.stages.egress(ctx);
  }

  computeChecksum(ctx: PacketContext): void {
    this.stages.computeChecksum(ctx);
  }

  /** Runs the deparser: the emitted headers then the payload (unparsed bytes), as one frame. */
  deparse(ctx: PacketContext): Buffer {
    const packet = ctx.packet;
    const payloadBytes = Math.max(0, packet.length - ctx.cursor);
    if (this.headerDeparser !== undefined) {
      const out = this.headerDeparser(ctx, payloadBytes);
      copyPayload(packet, ctx.cursor, out, out.length - payloadBytes, payloadBytes);
      return out;
    }
    ctx.emittedCount = 0;
    this.stages.deparser(ctx);
    const headers = ctx.emittedHeaders;
    const layouts = ctx.emittedLayouts;
    const writers = ctx.emittedWriters;
    const count = ctx.emittedCount;
    // One allocation per frame out: the headers are written straight into it, then the payload copied.
    let headerBytes = 0;
    for (let i = 0; i < count; i++) headerBytes += layouts[i]!.bytes;
    const frame = Buffer.allocUnsafe(headerBytes + payloadBytes);
    for (let i = 0, offset = 0; i < count; i++) {
      writers[i]!(frame, offset, headers[i]!.fields);
      offset += layouts[i]!.bytes;
    }
    copyPayload(packet, ctx.cursor, frame, headerBytes, payloadBytes);
    return frame;
  }

  // ---- CompileEnv -------------------------------------------------------------

  errorIndex(name: string): number {
    const i = this.program.errors.indexOf(name);
    return i < 0 ? 0 : i;
  }

  compileStatements(body: readonly IrStatement[]): Exec {
    return this.statements.compileAll(body);
  }

  action(name: string): { readonly action: IrProgram['actions'][number]; readonly body: Exec } {
    let entry = this.actions.get(name);
    if (!entry) {
      const action = this.program.actions.find((a) => a.name === name);
      if (!action) throw new PipelineLoadError(`the IR names action ${name} but does not define it`);
      entry = { action, body: () => FLOW_NEXT };
      this.actions.set(name, entry);
      const body = this.statements.compileAll(action.body);
      entry.body = body;
    }
    return entry;
  }

  block(name: string): { readonly block: IrBlock; readonly run: Exec } {
    let entry = this.blocks.get(name);
    if (!entry) {
      const block = this.program.blocks.find((b) => b.name === name);
      if (!block) throw new PipelineLoadError(`the IR names block ${name} but does not define it`);
      // Registered before compiling so a self-reference cannot recurse; the real body replaces the stub.
      const holder: { block: IrBlock; run: Exec } = { block, run: () => FLOW_NEXT };
      this.blocks.set(name, holder);
      if (block.kind === 'parser') {
        holder.run = compileParser(block, this, this.statements, {
          valueSet: (id) => this.services.forwarding.valueSets.find(id),
          setParserError: (ctx, error) => this.sm.set(ctx, 'parser_error', error),
          nested: name !== this.program.pipeline.parser,
        });
      } else {
        const locals = this.statements.compileAll(block.locals);
        const apply = this.statements.compileAll(block.apply);
        holder.run = (ctx) => {
          locals(ctx);
          return apply(ctx) === FLOW_EXIT ? FLOW_EXIT : FLOW_NEXT;
        };
      }
      entry = holder;
    }
    return entry;
  }

  registerCells(instance: string): Uint32Array | undefined {
    const extern = this.program.externs.find((e) => e.name === instance);
    if (!extern || extern.type !== 'register') return undefined;
    const cells = this.services.forwarding.registers.find(extern.id)?.cells;
    return cells instanceof Uint32Array ? cells : undefined;
  }

  compileApply(name: string): (ctx: PacketContext) => TableResult {
    let apply = this.tables.get(name);
    if (!apply) {
      const table = this.program.tables.find((t) => t.name === name);
      if (!table) throw new PipelineLoadError(`the IR applies table ${name} but does not define it`);
      const profile = table.implementation ? this.program.externs.find((e) => e.name === table.implementation) : undefined;
      if (table.implementation && !profile) throw new PipelineLoadError(`table ${name} names action profile ${table.implementation}, which the IR does not declare`);
      const selection = profile
        ? new ActionSelection(profile, table.keys.filter((k) => k.matchKind === 'selector').map((k) => k.expression), this.statements.exprs, this.values, this.services.forwarding)
        : undefined;
      apply = compileTable(table, this, this.statements, {
        store: (id) => this.services.forwarding.tables.find(id),
        programEntriesInstalled: this.services.programEntriesInstalled ?? false,
        selection,
        packetLength: (ctx) => this.sm.get(ctx, 'packet_length'),
      });
      this.tables.set(name, apply);
    }
    return apply;
  }

  compileCall(call: IrCall): Eval {
    const t = call.target;
    switch (t.kind) {
      case 'function': {
        const fn = compileExternFunction(t.name, call, {
          program: this.program,
          values: this.values,
          exprs: this.statements.exprs,
          evaluator: (list) => generateEvaluator(this, this.statements.exprs, list),
          sm: this.sm,
          log: this.services.log,
          digestId: (typeName) => this.services.schema.digests.find(typeName)?.id,
          emitDigest: (id, data) => this.services.emitDigest(id, data),
          random: () => (this.services.random ? this.services.random() : Math.random()),
        });
        if (!fn) throw new PipelineLoadError(`extern function ${t.name} is not implemented by this switch`);
        return fn;
      }
      case 'method': {
        const extern = this.program.externs.find((e) => e.name === t.instance);
        if (!extern) throw new PipelineLoadError(`the IR calls ${t.instance}.${t.method} but declares no extern ${t.instance}`);
        const fn = compileExternMethod(extern, t.method, call, this.statements.exprs, this.services.forwarding, (ctx) => this.sm.get(ctx, 'packet_length'));
        if (!fn) throw new PipelineLoadError(`extern ${extern.type}.${t.method} (${t.instance}) is not implemented by this switch`);
        return fn;
      }
      case 'packet':
        return this.packets.packetMethod(t.method, call);
      case 'builtin':
        return this.packets.builtin(t.method, call);
      case 'user-function': {
        const fn = this.program.functions.find((f) => f.name === t.name);
        if (!fn) throw new PipelineLoadError(`the IR calls function ${t.name} but does not define it`);
        const binding = bindArguments(this.statements.exprs, fn.params, call.args);
        let body: Exec | undefined;
        return (ctx) => {
          body ??= this.statements.compileAll(fn.body);
          binding.copyIn(ctx);
          ctx.returnValue = undefined;
          body(ctx);
          const result = ctx.returnValue;
          binding.copyOut(ctx);
          return result;
        };
      }
    }
  }

  /** The general deparser (packet-methods.ts emits, then deparse writes them); unused when headerDeparser exists. */
  private compileDeparser(): Exec {
    const order = this.program.deparserEmitOrder;
    if (!order) return this.block(this.program.pipeline.deparser).run;
    if (this.headerDeparser !== undefined) return () => FLOW_NEXT;
    const parts = order.map((e) => this.packets.compileEmit(e));
    return (ctx) => {
      for (let i = 0; i < parts.length; i++) parts[i]!(ctx);
      return FLOW_NEXT;
    };
  }
}

/** The unparsed rest of the packet after the headers; short payloads byte by byte (Buffer.copy's own overhead is larger than the loop). */
function copyPayload(packet: Buffer, from: number, frame: Buffer, at: number, bytes: number): void {
  if (bytes > 128) packet.copy(frame, at, from);
  else for (let i = 0; i < bytes; i++) frame[at + i] = packet[from + i]!;
}
