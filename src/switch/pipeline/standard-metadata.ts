/** Named access to standard_metadata_t's fields (index resolved once per pipeline). */
import type { IrProgram } from '../../p4c/ir/types.js';
import { wrap } from './bits.js';
import type { PacketContext } from './packet-context.js';
import { StructValue, type Bits } from './values.js';

export const STANDARD_METADATA_SLOT = 2;

export type StandardField =
  | 'ingress_port' | 'egress_spec' | 'egress_port' | 'instance_type' | 'packet_length' | 'enq_timestamp' | 'enq_qdepth'
  | 'deq_timedelta' | 'deq_qdepth' | 'ingress_global_timestamp' | 'egress_global_timestamp' | 'mcast_grp' | 'egress_rid'
  | 'checksum_error' | 'parser_error' | 'priority';

export class StandardMetadata {
  private readonly index = new Map<string, { i: number; width: number }>();
  /** Field indices of the fields the traffic manager touches per packet (−1 when the program's struct lacks one). */
  readonly at: Readonly<Record<StandardField, number>>;

  constructor(program: IrProgram) {
    const layout = program.structs.find((s) => s.name === 'standard_metadata_t');
    layout?.fields.forEach((f, i) => this.index.set(f.name, { i, width: f.type.kind === 'bits' ? f.type.width : 32 }));
    const names: StandardField[] = [
      'ingress_port', 'egress_spec', 'egress_port', 'instance_type', 'packet_length', 'enq_timestamp', 'enq_qdepth', 'deq_timedelta',
      'deq_qdepth', 'ingress_global_timestamp', 'egress_global_timestamp', 'mcast_grp', 'egress_rid', 'checksum_error', 'parser_error', 'priority',
    ];
    this.at = Object.fromEntries(names.map((n) => [n, this.index.get(n)?.i ?? -1])) as Record<StandardField, number>;
  }

  get(ctx: PacketContext, name: StandardField): number {
    const at = this.index.get(name);
    if (!at) return 0;
    return Number((ctx.slots[STANDARD_METADATA_SLOT] as StructValue).fields[at.i] ?? 0);
  }

  set(ctx: PacketContext, name: StandardField, value: number): void {
    this.setIn(ctx.slots[STANDARD_METADATA_SLOT] as StructValue, name, value);
  }

  /** Sets a field in a standard_metadata struct value (also one passed to an extern). */
  setIn(sm: StructValue, name: StandardField, value: number): void {
    const at = this.index.get(name);
    if (at) sm.fields[at.i] = wrap(value, at.width) as Bits;
  }

  /** A setter for one field, resolved now: per packet one array store of the wrapped value. */
  setter(name: StandardField): (sm: StructValue, value: number) => void {
    const at = this.index.get(name);
    if (!at) return () => undefined;
    const { i, width } = at;
    if (width >= 32) return (sm, value) => void (sm.fields[i] = wrap(value, width) as Bits);
    const mask = (1 << width) - 1;
    return (sm, value) => void (sm.fields[i] = value >= 0 && value <= mask ? value : (wrap(value, width) as Bits));
  }

  /** The width of a field (0 when the program's struct lacks it). */
  widthOf(name: StandardField): number {
    return this.index.get(name)?.width ?? 0;
  }

  /** A getter for one field, resolved now. */
  getter(name: StandardField): (ctx: PacketContext) => number {
    const at = this.index.get(name);
    if (!at) return () => 0;
    const i = at.i;
    return (ctx) => {
      const v = (ctx.slots[STANDARD_METADATA_SLOT] as StructValue).fields[i];
      return typeof v === 'number' ? v : Number(v ?? 0);
    };
  }
}
