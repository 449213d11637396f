/**
 * How much memory a pipeline may take, estimated from its P4Info and device
 * config before anything is allocated, and checked against the switch's
 * budget. The figures are this switch's own costs (V8 on 64 bits): what a
 * store allocates up front (counter, meter and register arrays), what tables,
 * action profiles and value sets take when filled to their declared size,
 * and the device config (the IR, parsed and compiled). A pipeline over the
 * budget is refused with RESOURCE_EXHAUSTED giving the figures, at VERIFY
 * time, so nothing is allocated for it.
 */
import type { P4Schema } from '../../p4info/schema.js';
import { resourceExhausted } from './entity-error.js';

/** Bytes per cell and per entry. Tables, profiles and value sets count at their declared size. */
export const COST = {
  counterCell: 16, // two Float64Arrays
  meterCell: 96, // the settings slot, the data plane's token buckets (8 Float64Arrays) and its applied slot
  narrowRegisterCell: 4, // Uint32Array, bit<W> W <= 32
  /** A bigint cell: the array slot, the bigint's header, and 8 bytes per 64 bits. */
  wideRegisterCell: (bits: number) => 8 + 16 + 8 * Math.ceil(bits / 64),
  tableEntry: 256, // record, key string, action call, metadata
  keyByte: 4, // the key kept as a string and as field values
  directCounter: 16,
  directMeter: 96,
  profileMember: 192,
  valueSetMember: 64,
  /** A table whose P4Info size is 0 ("not given") counts as this many entries. */
  unsizedTable: 1024,
  /** Per object of the P4Info (schema, validators, stores). */
  object: 1024,
  /** Per byte of device config: the parsed IR and the code compiled from it. */
  deviceConfigByte: 8,
} as const;

export interface BudgetItem {
  readonly what: string;
  readonly bytes: number;
}

export interface PipelineEstimate {
  readonly bytes: number;
  /** The largest items, largest first, for messages. */
  readonly items: readonly BudgetItem[];
}

/** The estimate of a pipeline's memory, from its schema and device config size. */
export function estimatePipeline(schema: P4Schema, deviceConfigBytes: number): PipelineEstimate {
  const items: BudgetItem[] = [];
  const add = (what: string, bytes: number): void => {
    if (bytes > 0) items.push({ what, bytes });
  };
  for (const c of schema.counters.all) add(`counter ${c.name} (${c.size} cells)`, c.size * COST.counterCell);
  for (const m of schema.meters.all) add(`meter ${m.name} (${m.size} cells)`, m.size * COST.meterCell);
  for (const r of schema.registers.all) {
    const w = r.bitwidth ?? 64;
    add(`register ${r.name} (${r.size} cells of ${w} bits)`, r.size * (w <= 32 ? COST.narrowRegisterCell : COST.wideRegisterCell(w)));
  }
  for (const t of schema.tables.all) {
    const keyBytes = t.matchFields.all.reduce((n, f) => n + Math.ceil(Math.max(f.bitwidth, 0) / 8), 0);
    const perEntry = COST.tableEntry + keyBytes * COST.keyByte + (t.directCounterId ? COST.directCounter : 0) + (t.directMeterId ? COST.directMeter : 0);
    const entries = t.size > 0 ? t.size : COST.unsizedTable;
    add(`table ${t.name} (${entries} entries)`, entries * perEntry);
  }
  for (const p of schema.actionProfiles.all) add(`action profile ${p.name} (${p.size} members)`, p.size * COST.profileMember);
  for (const v of schema.valueSets.all) {
    const keyBytes = v.match.all.reduce((n, f) => n + Math.ceil(Math.max(f.bitwidth, 0) / 8), 0);
    add(`value set ${v.name} (${v.size} members)`, v.size * (COST.valueSetMember + keyBytes * COST.keyByte));
  }
  const objects =
    schema.actions.size + schema.tables.size + schema.actionProfiles.size + schema.counters.size + schema.directCounters.size + schema.meters.size +
    schema.directMeters.size + schema.registers.size + schema.digests.size + schema.controllerHeaders.size + schema.valueSets.size;
  add(`${objects} P4Info objects`, objects * COST.object);
  add(`the device config (${deviceConfigBytes} bytes)`, deviceConfigBytes * COST.deviceConfigByte);
  items.sort((a, b) => b.bytes - a.bytes);
  return { bytes: items.reduce((n, i) => n + i.bytes, 0), items };
}

/** "1.5 GiB", "12.0 MiB", "800 bytes". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Throws EntityError (RESOURCE_EXHAUSTED) with the figures when the estimate is over `budgetBytes`. */
export function checkBudget(estimate: PipelineEstimate, budgetBytes: number): void {
  if (estimate.bytes <= budgetBytes) return;
  const largest = estimate.items.slice(0, 4).map((i) => `${i.what}: ${formatBytes(i.bytes)}`);
  const more = estimate.items.length > 4 ? `, and ${estimate.items.length - 4} smaller` : '';
  throw resourceExhausted(
      `the pipeline would take about ${formatBytes(estimate.bytes)}, over this switch's pipeline memory budget of ${formatBytes(budgetBytes)} ` +
        `(largest: ${largest.join('; ')}${more}); declare smaller arrays and tables, or start the switch with a larger --pipeline-memory-budget`,
  );
}
