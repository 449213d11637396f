/**
 * Indirect tables (action_profile / action_selector): an entry names a
 * member (one action call) or a group (members, one chosen per packet by the
 * selector's hash over the `selector` key fields, as BMv2 does: hash mod the
 * number of slots, a member taking `weight` slots as PI installs a weighted
 * member into BMv2 that many times). Members and groups are read from the
 * device state at each lookup, so P4Runtime changes apply to the next packet.
 */
import type { IrExpression, IrExtern } from '../../p4c/ir/types.js';
import { BitPacker, createHashFunction, isHashAlgorithm } from '../externs/index.js';
import type { ActionCall } from '../state/action-call.js';
import type { ForwardingState } from '../state/forwarding-state.js';
import type { EntryAction } from '../state/table-store.js';
import type { ExpressionCompiler } from './compile-expression.js';
import { packValue } from './extern-functions.js';
import type { PacketContext } from './packet-context.js';
import type { ValueFactory } from './values.js';

export class ActionSelection {
  private readonly packer = new BitPacker();
  private readonly selectorKeys: { value: (ctx: PacketContext) => unknown; type: IrExpression['type'] }[];
  private readonly hash;

  constructor(
    private readonly profile: IrExtern,
    selectorKeys: readonly IrExpression[],
    exprs: ExpressionCompiler,
    private readonly values: ValueFactory,
    private readonly state: ForwardingState,
  ) {
    this.selectorKeys = selectorKeys.map((k) => ({ value: exprs.compile(k), type: k.type }));
    const algorithm = profile.args[0] ?? 'crc16';
    this.hash = createHashFunction(isHashAlgorithm(algorithm) ? algorithm : 'crc16');
  }

  /** The action call an indirect entry runs for this packet, or undefined (unknown member, empty group). */
  choose(ctx: PacketContext, action: EntryAction): ActionCall | undefined {
    const p = this.state.actionProfiles.profile(this.profile.id);
    if (!p) return undefined;
    if (action.kind === 'member') return p.members.get(action.memberId);
    if (action.kind !== 'group') return action.call;
    const slots = p.groups.get(action.groupId)?.slots;
    if (!slots || slots.length === 0) return undefined;
    this.packer.reset();
    for (const k of this.selectorKeys) packValue(this.packer, k.value(ctx) as never, k.type, this.values);
    const h = this.hash.hashNumber(this.packer.bytes(), this.packer.byteLength);
    return p.members.get(slots[h % slots.length]!);
  }
}
