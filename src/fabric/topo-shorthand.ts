/**
 * The `--topo` shorthand of the testbeds: `single,hosts=K` (K hosts on one
 * switch) or `leafspine,racks=R,hosts=H,spines=S` (R racks of H hosts, each
 * ToR linked to every one of S spines). The same words, defaults, limits
 * and messages as mininet/p4ina_mininet/topologies.py (parse_topo), so that
 * one shorthand names the same network in Mininet and on loopback.
 */
import { FABRIC_ERROR_CODES, FabricError } from './fabric-error.js';

export type TopoShorthand =
  | { readonly kind: 'single'; readonly hosts: number }
  | { readonly kind: 'leafspine'; readonly racks: number; readonly hosts: number; readonly spines: number };

const DEFAULTS = {
  single: { hosts: 4 },
  leafspine: { racks: 2, hosts: 2, spines: 1 },
} as const;

/** Each count is 1 to this, as in Mininet. */
export const MAX_TOPO_COUNT = 32;

function bad(message: string): FabricError {
  return new FabricError(FABRIC_ERROR_CODES.badTopo, message);
}

/** 'single,hosts=4' or 'leafspine,racks=2,hosts=2,spines=1'; settings left out keep their defaults. Throws FabricError (FABRIC_BAD_TOPO). */
export function parseTopoShorthand(text: string): TopoShorthand {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const kind = parts[0];
  if (kind !== 'single' && kind !== 'leafspine') {
    throw bad('--topo: start with "single" or "leafspine", e.g. single,hosts=4 or leafspine,racks=2,hosts=2,spines=1');
  }
  const allowed: Readonly<Record<string, number>> = DEFAULTS[kind];
  const values: Record<string, number> = { ...allowed };
  for (const part of parts.slice(1)) {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    if (eq < 0 || !Object.hasOwn(allowed, key)) {
      const takes = Object.keys(allowed)
        .map((k) => `${k}=N`)
        .join(', ');
      throw bad(`--topo ${text}: unknown setting "${part}"; ${kind} takes ${takes}`);
    }
    const value = part.slice(eq + 1);
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_TOPO_COUNT) {
      throw bad(`--topo ${text}: ${key} must be a whole number from 1 to ${MAX_TOPO_COUNT}`);
    }
    values[key] = Number(value);
  }
  return kind === 'single' ? { kind, hosts: values.hosts! } : { kind, racks: values.racks!, hosts: values.hosts!, spines: values.spines! };
}

/** The shorthand's text, settings in Mininet's order: `leafspine,racks=2,hosts=2,spines=1`. */
export function formatTopoShorthand(topo: TopoShorthand): string {
  return topo.kind === 'single' ? `single,hosts=${topo.hosts}` : `leafspine,racks=${topo.racks},hosts=${topo.hosts},spines=${topo.spines}`;
}
