/**
 * The UDP destination ports by which switches and hosts recognise each INA
 * protocol: one block of 16 per protocol, so a sender may spread its flows
 * over several ports (SwitchML does, one per worker thread, for receive-side
 * scaling) and a P4 parser needs one range match per protocol. SwitchML's
 * block is the one its code uses; the others follow it (OmniReduce's DPDK
 * code defaults to 48864 = 0xBEE0 too, which would collide, hence a block of
 * its own). See docs/wire.md.
 */

export interface PortBlock {
  readonly first: number;
  readonly last: number;
}

export const SWITCHML_PORTS: PortBlock = { first: 0xbee0, last: 0xbeef };
export const OMNIREDUCE_PORTS: PortBlock = { first: 0xbef0, last: 0xbeff };
export const ATP_PORTS: PortBlock = { first: 0xbf00, last: 0xbf0f };
export const RINA_PORTS: PortBlock = { first: 0xbf10, last: 0xbf1f };

export type InaProtocol = 'switchml' | 'omnireduce' | 'atp' | 'rina';

const BLOCKS: readonly (readonly [InaProtocol, PortBlock])[] = [
  ['switchml', SWITCHML_PORTS],
  ['omnireduce', OMNIREDUCE_PORTS],
  ['atp', ATP_PORTS],
  ['rina', RINA_PORTS],
];

export function inPortBlock(port: number, block: PortBlock): boolean {
  return port >= block.first && port <= block.last;
}

/** The protocol whose block holds `port`, or undefined for ordinary traffic. */
export function inaProtocolForPort(port: number): InaProtocol | undefined {
  for (const [protocol, block] of BLOCKS) if (inPortBlock(port, block)) return protocol;
  return undefined;
}
