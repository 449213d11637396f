/**
 * The commands of an STF file, as the parser produces them: names and values
 * still as text (they are resolved against the program's P4Info later), each
 * with the 1-based line it came from.
 */

/** `name:value` in a table key or `name:value` in an action call. */
export interface NameValue {
  readonly name: string;
  readonly value: string;
}

/** `ACTION(PARAM:VALUE, ...)`. */
export interface ActionText {
  readonly name: string;
  readonly args: readonly NameValue[];
}

/**
 * What an `expect` line wants: hex nibbles with `*` for "any nibble", and
 * whether the packet must end there (`$`).
 */
export interface ExpectPattern {
  /** Upper-case hex digits and `*`, one character per nibble. */
  readonly nibbles: string;
  /** True when the line ended in `$`: the packet may not be longer. */
  readonly exactLength: boolean;
}

export type CounterField = 'packets' | 'bytes';
export type Comparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A counter or register cell: `NAME(INDEX)` or, for direct counters, `NAME($HANDLE)`. */
export interface CellRef {
  readonly name: string;
  /** A numeric index, or the handle of an `add ... = HANDLE` entry (direct counters). */
  readonly index: number | { readonly handle: string };
}

interface At<K extends string> {
  readonly kind: K;
  readonly line: number;
}

export type StfCommand =
  | (At<'add'> & { readonly table: string; readonly priority: number | undefined; readonly keys: readonly NameValue[]; readonly action: ActionText; readonly handle: string | undefined })
  | (At<'setdefault'> & { readonly table: string; readonly action: ActionText })
  | (At<'remove_all'> & Record<never, never>)
  | (At<'packet'> & { readonly port: number; readonly data: Buffer })
  | (At<'expect'> & { readonly port: number; readonly pattern: ExpectPattern | undefined })
  | (At<'no_packet'> & Record<never, never>)
  | (At<'wait'> & Record<never, never>)
  | (At<'mc_mgrp_create'> & { readonly group: number })
  | (At<'mc_mgrp_destroy'> & { readonly group: number })
  | (At<'mc_node_create'> & { readonly rid: number; readonly ports: readonly number[] })
  | (At<'mc_node_destroy'> & { readonly handle: number })
  | (At<'mc_node_associate'> & { readonly group: number; readonly handle: number })
  | (At<'mc_node_dissociate'> & { readonly group: number; readonly handle: number })
  | (At<'mirroring_add'> & { readonly session: number; readonly port: number })
  | (At<'mirroring_delete'> & { readonly session: number })
  | (At<'register_write'> & { readonly register: string; readonly index: number; readonly value: string })
  | (At<'register_read'> & { readonly register: string; readonly index: number })
  | (At<'register_reset'> & { readonly register: string })
  | (At<'check_register'> & { readonly cell: CellRef; readonly op: Comparison; readonly value: string })
  | (At<'counter_read'> & { readonly counter: string; readonly index: number })
  | (At<'counter_write'> & { readonly counter: string; readonly index: number; readonly packets: bigint; readonly bytes: bigint })
  | (At<'counter_reset'> & { readonly counter: string })
  | (At<'check_counter'> & { readonly cell: CellRef; readonly field: CounterField; readonly op: Comparison; readonly value: bigint });
