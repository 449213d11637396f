/**
 * Methods of extern instances, on the device state so that P4Runtime sees
 * and sets the same cells: register read/write, counter.count,
 * meter.execute_meter (token buckets in MeterArray, configured from the
 * state's meter configs), direct_counter.count (the table counts on hit),
 * direct_meter.read (the running entry's meter config, buckets per entry).
 */
import type { IrCall, IrExtern } from '../../p4c/ir/types.js';
import { METER_GREEN, MeterArray } from '../externs/index.js';
import type { ForwardingState } from '../state/forwarding-state.js';
import type { MeterSettings } from '../state/meter-config.js';
import { toBigInt, wrap } from './bits.js';
import type { Eval } from './compile-env.js';
import { widthOf, type ExpressionCompiler } from './compile-expression.js';
import type { PacketContext } from './packet-context.js';
import type { Bits } from './values.js';

export function compileExternMethod(
  extern: IrExtern,
  method: string,
  call: IrCall,
  exprs: ExpressionCompiler,
  state: ForwardingState,
  packetLength: (ctx: PacketContext) => number,
): Eval | undefined {
  const args = call.args.map((a) => a.value);
  switch (`${extern.type}.${method}`) {
    case 'register.read': {
      const out = exprs.lvalue(args[0]!);
      const index = exprs.compile(args[1]!);
      const width = widthOf(args[0]!.type);
      const reg = state.registers.find(extern.id);
      if (!reg) return () => undefined;
      const cells = reg.cells;
      return (ctx) => {
        const i = Number(index(ctx));
        const v = i >= 0 && i < cells.length ? cells[i]! : 0;
        out.set(ctx, wrap(v, width));
        return undefined;
      };
    }
    case 'register.write': {
      const index = exprs.compile(args[0]!);
      const value = exprs.compile(args[1]!);
      const reg = state.registers.find(extern.id);
      if (!reg) return () => undefined;
      const cells = reg.cells;
      if (cells instanceof Uint32Array) {
        return (ctx) => {
          const i = Number(index(ctx));
          if (i >= 0 && i < cells.length) cells[i] = Number(value(ctx));
          return undefined;
        };
      }
      const width = reg.bitwidth ?? widthOf(args[1]!.type);
      return (ctx) => {
        const i = Number(index(ctx));
        if (i >= 0 && i < cells.length) cells[i] = toBigInt(wrap(value(ctx) as Bits, width));
        return undefined;
      };
    }
    case 'counter.count': {
      const index = exprs.compile(args[0]!);
      const counter = state.counters.find(extern.id);
      if (!counter) return () => undefined;
      return (ctx) => {
        const i = Number(index(ctx));
        if (i >= 0 && i < counter.packets.length) {
          counter.packets[i]!++;
          counter.bytes[i]! += packetLength(ctx);
        }
        return undefined;
      };
    }
    case 'meter.execute_meter': {
      const index = exprs.compile(args[0]!);
      const out = exprs.lvalue(args[1]!);
      const width = widthOf(args[1]!.type);
      const meter = state.meters.find(extern.id);
      if (!meter) return () => undefined;
      const unit = extern.args.includes('bytes') ? 'bytes' : 'packets';
      const buckets = new MeterArray(meter.configs.length, unit);
      const applied: (MeterSettings | undefined)[] = new Array<MeterSettings | undefined>(meter.configs.length).fill(undefined);
      return (ctx) => {
        const i = Number(index(ctx));
        if (!(i >= 0 && i < applied.length)) return undefined;
        const config = meter.configs[i];
        if (config !== applied[i]) {
          // The controller changed this cell's config: refill its buckets from the new rates.
          applied[i] = config;
          buckets.configure(i, config ? { cir: config.cir, cburst: config.cburst, pir: config.pir, pburst: config.pburst } : undefined);
        }
        const color = buckets.execute(i, packetLength(ctx));
        if (color !== undefined) out.set(ctx, wrap(color, width));
        return undefined;
      };
    }
    case 'direct_counter.count':
      return () => undefined;
    case 'direct_meter.read': {
      const out = exprs.lvalue(args[0]!);
      const width = widthOf(args[0]!.type);
      const unit = extern.args.includes('bytes') ? 'bytes' : 'packets';
      // One token-bucket pair per entry, made on the entry's first metered packet and refilled when its config changes.
      const buckets = new WeakMap<object, { config: MeterSettings | undefined; meter: MeterArray }>();
      return (ctx) => {
        const entry = ctx.entry;
        const config = entry?.meter;
        if (!entry || !config) {
          out.set(ctx, wrap(METER_GREEN, width));
          return undefined;
        }
        let b = buckets.get(entry);
        if (!b || b.config !== config) {
          b = { config, meter: new MeterArray(1, unit) };
          b.meter.configure(0, { cir: config.cir, cburst: config.cburst, pir: config.pir, pburst: config.pburst });
          buckets.set(entry, b);
        }
        out.set(ctx, wrap(b.meter.execute(0, packetLength(ctx)) ?? METER_GREEN, width));
        return undefined;
      };
    }
    default:
      return undefined;
  }
}
