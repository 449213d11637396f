/**
 * @fileoverview The p4ina pipeline IR: the device config the switch
 * emulator executes, as BMv2 executes p4c's JSON. Plain JSON data, versioned
 * (`format`/`version`); every expression carries its type; every name is
 * resolved (variables to numbered storage slots, tables/actions/externs to
 * their P4Info ids and names). README.md beside this file is the contract.
 */

export const IR_FORMAT = 'p4ina-ir';
export const IR_VERSION = 1;

// ---- types -----------------------------------------------------------------

export type IrType =
  | { readonly kind: 'bits'; readonly width: number; readonly signed: boolean }
  | { readonly kind: 'varbit'; readonly maxWidth: number }
  | { readonly kind: 'bool' }
  /** An infinite-precision compile-time integer no context gave a width (e.g. an argument of a generic parameter). */
  | { readonly kind: 'int' }
  | { readonly kind: 'error' }
  | { readonly kind: 'enum'; readonly name: string }
  | { readonly kind: 'header'; readonly name: string }
  | { readonly kind: 'union'; readonly name: string }
  | { readonly kind: 'struct'; readonly name: string }
  | { readonly kind: 'stack'; readonly element: string; readonly size: number }
  | { readonly kind: 'tuple'; readonly elements: readonly IrType[] }
  | { readonly kind: 'string' }
  | { readonly kind: 'void' };

export interface IrHeaderField {
  readonly name: string;
  /** Bits; for a varbit field its maximum. */
  readonly width: number;
  readonly signed: boolean;
  readonly varbit: boolean;
  /** Offset in bits from the start of the header (fields before a varbit only). */
  readonly bitOffset: number;
}

export interface IrHeaderType {
  readonly name: string;
  readonly fields: readonly IrHeaderField[];
  /** Fixed width in bits (a varbit field counts 0). */
  readonly width: number;
  readonly bytes: number;
  /** The `@controller_header` name (packet_in / packet_out), or null. */
  readonly controllerHeader: string | null;
}

export interface IrStructType {
  readonly name: string;
  readonly kind: 'struct' | 'union';
  /** `fieldLists`: the indices N of the field's `@field_list(N, ...)` annotations (what clone/resubmit/recirculate preserve). */
  readonly fields: readonly { readonly name: string; readonly type: IrType; readonly fieldLists: readonly number[] }[];
}

export interface IrEnumType {
  readonly name: string;
  readonly members: readonly string[];
  /** For `enum bit<W> E { A = 1 }`: the underlying width and each member's value (decimal). */
  readonly underlying: { readonly width: number; readonly signed: boolean; readonly values: readonly string[] } | null;
}

// ---- storage ---------------------------------------------------------------

/** Where a slot's value lives; the executor allocates one value per slot per packet. */
export type IrSlotRole = 'headers' | 'metadata' | 'standard_metadata' | 'block-parameter' | 'local' | 'action-parameter' | 'function-parameter';

export interface IrSlot {
  readonly id: number;
  /** A readable name (`MyIngress.set_nhop.port`), for traces only. */
  readonly name: string;
  readonly role: IrSlotRole;
  readonly type: IrType;
}

// ---- expressions -----------------------------------------------------------

export type IrExpression =
  | { readonly op: 'const'; readonly type: IrType; readonly value: string }
  | { readonly op: 'bool'; readonly type: IrType; readonly value: boolean }
  | { readonly op: 'string'; readonly type: IrType; readonly value: string }
  | { readonly op: 'slot'; readonly type: IrType; readonly slot: number }
  | { readonly op: 'field'; readonly type: IrType; readonly base: IrExpression; readonly field: string }
  | { readonly op: 'index'; readonly type: IrType; readonly base: IrExpression; readonly index: IrExpression }
  | { readonly op: 'stack'; readonly type: IrType; readonly base: IrExpression; readonly member: 'next' | 'last' | 'lastIndex' | 'nextIndex' | 'size' }
  | { readonly op: 'slice'; readonly type: IrType; readonly base: IrExpression; readonly high: number; readonly low: number }
  | { readonly op: 'unary'; readonly type: IrType; readonly operator: '!' | '~' | '-'; readonly operand: IrExpression }
  | { readonly op: 'binary'; readonly type: IrType; readonly operator: string; readonly left: IrExpression; readonly right: IrExpression }
  | { readonly op: 'cast'; readonly type: IrType; readonly operand: IrExpression }
  | { readonly op: 'cond'; readonly type: IrType; readonly condition: IrExpression; readonly whenTrue: IrExpression; readonly whenFalse: IrExpression }
  | { readonly op: 'is-valid'; readonly type: IrType; readonly header: IrExpression }
  | { readonly op: 'apply-table'; readonly type: IrType; readonly table: string; readonly result: 'hit' | 'miss' }
  | { readonly op: 'list'; readonly type: IrType; readonly elements: readonly IrExpression[] }
  | { readonly op: 'struct'; readonly type: IrType; readonly fields: readonly { readonly name: string; readonly value: IrExpression }[] }
  | { readonly op: 'call'; readonly type: IrType; readonly call: IrCall }
  | { readonly op: 'dontcare'; readonly type: IrType };

/** What a call calls. */
export type IrCallTarget =
  /** A v1model/core extern function: mark_to_drop, hash, digest, clone, verify, verify_checksum, random... */
  | { readonly kind: 'function'; readonly name: string }
  /** A method of an extern instance (register.read, counter.count...). */
  | { readonly kind: 'method'; readonly instance: string; readonly method: string }
  /** packet_in / packet_out: extract, lookahead, advance, length, emit. */
  | { readonly kind: 'packet'; readonly method: string }
  /** Header and stack built-ins: setValid, setInvalid, push_front, pop_front (`object` is the header/stack). */
  | { readonly kind: 'builtin'; readonly method: string; readonly object: IrExpression }
  /** A user function (`functions` of the program). */
  | { readonly kind: 'user-function'; readonly name: string };

export interface IrArgument {
  /** `in`, `out`, `inout`, or `none` for directionless (constructor-like) parameters. */
  readonly direction: 'in' | 'out' | 'inout' | 'none';
  readonly value: IrExpression;
}

export interface IrCall {
  readonly target: IrCallTarget;
  readonly typeArgs: readonly IrType[];
  readonly args: readonly IrArgument[];
}

// ---- statements ------------------------------------------------------------

export type IrStatement =
  | { readonly kind: 'assign'; readonly target: IrExpression; readonly value: IrExpression }
  | { readonly kind: 'if'; readonly condition: IrExpression; readonly then: readonly IrStatement[]; readonly else: readonly IrStatement[] }
  | { readonly kind: 'block'; readonly body: readonly IrStatement[] }
  | { readonly kind: 'call'; readonly call: IrCall }
  | { readonly kind: 'apply-table'; readonly table: string }
  /** `switch (t.apply().action_run)`: each case lists action names; an empty list is `default`. */
  | { readonly kind: 'switch-action'; readonly table: string; readonly cases: readonly { readonly actions: readonly string[]; readonly isDefault: boolean; readonly body: readonly IrStatement[] }[] }
  /** `switch (expr)` on a value: cases of constant values; fall-through already resolved. */
  | { readonly kind: 'switch'; readonly subject: IrExpression; readonly cases: readonly { readonly values: readonly IrExpression[]; readonly isDefault: boolean; readonly body: readonly IrStatement[] }[] }
  | { readonly kind: 'call-action'; readonly action: string; readonly args: readonly IrExpression[] }
  /** Applies a nested parser/control instance: args copied in to its parameter slots, out/inout copied back. */
  | { readonly kind: 'apply-block'; readonly block: string; readonly args: readonly IrArgument[] }
  | { readonly kind: 'exit' }
  | { readonly kind: 'return'; readonly value: IrExpression | null };

// ---- parser ----------------------------------------------------------------

export type IrKeyset =
  | { readonly kind: 'value'; readonly value: string }
  | { readonly kind: 'mask'; readonly value: string; readonly mask: string }
  | { readonly kind: 'range'; readonly low: string; readonly high: string }
  | { readonly kind: 'value-set'; readonly valueSet: string }
  | { readonly kind: 'default' };

export type IrTransition =
  | { readonly kind: 'goto'; readonly state: string }
  | { readonly kind: 'select'; readonly keys: readonly IrExpression[]; readonly cases: readonly { readonly keysets: readonly IrKeyset[]; readonly state: string }[] };

export interface IrParserState {
  readonly name: string;
  readonly body: readonly IrStatement[];
  /** Null: the state falls to `reject` (p4c requires a transition; a missing one rejects). */
  readonly transition: IrTransition | null;
}

export interface IrValueSet {
  readonly name: string;
  readonly id: number;
  readonly width: number;
  readonly size: number;
}

// ---- blocks, tables, actions, externs ---------------------------------------

export interface IrBlock {
  readonly name: string;
  readonly kind: 'parser' | 'control';
  /** One slot per parameter, in order (packet parameters have slot -1). */
  readonly params: readonly { readonly name: string; readonly direction: 'in' | 'out' | 'inout' | 'none'; readonly slot: number }[];
  /** Local variables with their initializers, run on entry in order. */
  readonly locals: readonly IrStatement[];
  /** Controls: the apply block. */
  readonly apply: readonly IrStatement[];
  /** Parsers: the states (`start` first); `accept`/`reject` are implicit. */
  readonly states: readonly IrParserState[];
  readonly valueSets: readonly IrValueSet[];
}

export interface IrActionParam {
  readonly name: string;
  readonly slot: number;
  readonly width: number;
  readonly type: IrType;
  /** True for directionless parameters: action data from the control plane (P4Info param id = index + 1 among them). */
  readonly controlPlane: boolean;
  readonly direction: 'in' | 'out' | 'inout' | 'none';
}

export interface IrAction {
  /** The P4Info id; 0 for actions the control plane cannot see. */
  readonly id: number;
  readonly name: string;
  readonly params: readonly IrActionParam[];
  readonly body: readonly IrStatement[];
}

export interface IrActionCall {
  readonly action: string;
  readonly actionId: number;
  /** Control-plane arguments as decimal strings, in parameter order. */
  readonly args: readonly string[];
  /** Arguments bound in the `actions` list (directional parameters). */
  readonly boundArgs: readonly IrExpression[];
}

export interface IrTableKey {
  readonly name: string;
  readonly matchKind: string;
  readonly width: number;
  readonly expression: IrExpression;
}

export interface IrTableEntry {
  readonly keys: readonly IrKeyset[];
  readonly priority: number | null;
  readonly action: IrActionCall;
  readonly isConst: boolean;
}

export interface IrTable {
  readonly id: number;
  readonly name: string;
  readonly keys: readonly IrTableKey[];
  readonly actions: readonly { readonly action: string; readonly actionId: number; readonly scope: 'table_and_default' | 'table_only' | 'default_only'; readonly boundArgs: readonly IrExpression[] }[];
  readonly defaultAction: IrActionCall & { readonly isConst: boolean };
  readonly entries: readonly IrTableEntry[];
  readonly isConst: boolean;
  readonly size: number;
  readonly directCounter: string | null;
  readonly directMeter: string | null;
  readonly implementation: string | null;
  readonly supportTimeout: boolean;
}

export interface IrExtern {
  readonly name: string;
  /** The extern type: register, counter, direct_counter, meter, direct_meter, action_profile, action_selector, or another. */
  readonly type: string;
  /** The P4Info id, 0 when P4Info does not list it. */
  readonly id: number;
  readonly typeArgs: readonly IrType[];
  /** Constructor arguments, folded: numbers as decimal strings, enum members as their names. */
  readonly args: readonly string[];
  readonly size: number | null;
}

export interface IrFunction {
  readonly name: string;
  readonly params: readonly { readonly name: string; readonly slot: number; readonly direction: 'in' | 'out' | 'inout' | 'none' }[];
  readonly returnType: IrType;
  readonly body: readonly IrStatement[];
}

export interface IrProgram {
  readonly format: typeof IR_FORMAT;
  readonly version: typeof IR_VERSION;
  readonly architecture: 'v1model';
  readonly source: string;
  readonly headers: readonly IrHeaderType[];
  readonly structs: readonly IrStructType[];
  readonly enums: readonly IrEnumType[];
  /** `error` members; an error value is its index here. */
  readonly errors: readonly string[];
  readonly slots: readonly IrSlot[];
  /** The V1Switch wiring: which block plays each role. */
  readonly pipeline: {
    readonly parser: string;
    readonly verifyChecksum: string;
    readonly ingress: string;
    readonly egress: string;
    readonly computeChecksum: string;
    readonly deparser: string;
  };
  readonly blocks: readonly IrBlock[];
  readonly actions: readonly IrAction[];
  readonly tables: readonly IrTable[];
  readonly externs: readonly IrExtern[];
  readonly functions: readonly IrFunction[];
  /** The headers the deparser emits, in order, when its apply block is only `emit` calls (else null: run the block). */
  readonly deparserEmitOrder: readonly IrExpression[] | null;
}
