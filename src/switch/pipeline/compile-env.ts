/**
 * What the expression and statement compilers need from the pipeline
 * compiler: value layouts, and compilation of calls and table applications
 * (which close over device state). An interface, so the compilers do not
 * import each other in a cycle.
 */
import type { IrAction, IrBlock, IrCall, IrProgram, IrStatement } from '../../p4c/ir/types.js';
import type { Flow, PacketContext } from './packet-context.js';
import type { Value, ValueFactory } from './values.js';

export type Eval = (ctx: PacketContext) => Value;
export type Exec = (ctx: PacketContext) => Flow;

export interface LValue {
  readonly get: Eval;
  readonly set: (ctx: PacketContext, v: Value) => void;
}

export interface TableResult {
  hit: boolean;
  /** The name of the action that ran. */
  action: string;
  /** FLOW_EXIT when the action exited. */
  flow: Flow;
}

/** Raised inside a parser to stop it with an error (index into `errors`). Never escapes the executor. */
export class ParserStop {
  constructor(readonly error: number) {}
}

export interface CompileEnv {
  readonly program: IrProgram;
  readonly values: ValueFactory;
  /** Index of an error member (e.g. "PacketTooShort"). */
  errorIndex(name: string): number;
  /** Compiles a call; its result is the returned value (undefined for void). */
  compileCall(call: IrCall): Eval;
  /** Compiles the application of a table. */
  compileApply(table: string): (ctx: PacketContext) => TableResult;
  compileStatements(body: readonly IrStatement[]): Exec;
  /** An action and its compiled body (compiled once, on first use). */
  action(name: string): { readonly action: IrAction; readonly body: Exec };
  /** The cells of register instance `instance` when they are a Uint32Array (widths ≤ 32), for inline reads and writes. */
  registerCells?(instance: string): Uint32Array | undefined;
  /** A parser or control block, run with its locals initialised (controls: apply; parsers: the state machine). */
  block(name: string): { readonly block: IrBlock; readonly run: Exec };
}
