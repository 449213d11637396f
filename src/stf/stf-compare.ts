/**
 * One received packet against one `expect` pattern, nibble by nibble as p4c's
 * runner compares them: `*` matches any nibble, the packet may be longer than
 * the pattern unless the pattern ends in `$`, and never shorter.
 */
import type { ExpectPattern } from './stf-commands.js';

export type Mismatch =
  | { readonly kind: 'too-short'; readonly expectedNibbles: number; readonly receivedNibbles: number }
  | { readonly kind: 'too-long'; readonly expectedNibbles: number; readonly receivedNibbles: number }
  | { readonly kind: 'differs'; readonly nibble: number; readonly expected: string; readonly received: string };

/** Undefined when the packet matches. */
export function comparePacket(pattern: ExpectPattern, packet: Uint8Array): Mismatch | undefined {
  const received = Buffer.from(packet).toString('hex').toUpperCase();
  const want = pattern.nibbles;
  for (let i = 0; i < want.length && i < received.length; i++) {
    const w = want[i]!;
    if (w !== '*' && w !== received[i]) return { kind: 'differs', nibble: i, expected: w, received: received[i]! };
  }
  if (received.length < want.length) return { kind: 'too-short', expectedNibbles: want.length, receivedNibbles: received.length };
  if (pattern.exactLength && received.length > want.length) return { kind: 'too-long', expectedNibbles: want.length, receivedNibbles: received.length };
  return undefined;
}

/** A one-line description of a mismatch. */
export function describeMismatch(m: Mismatch): string {
  switch (m.kind) {
    case 'too-short':
      return `packet too short: ${m.receivedNibbles / 2} bytes, expected at least ${m.expectedNibbles / 2}`;
    case 'too-long':
      return `packet too long: ${m.receivedNibbles / 2} bytes, expected exactly ${m.expectedNibbles / 2} ("$")`;
    case 'differs':
      return `differs at byte ${Math.floor(m.nibble / 2)} (hex digit ${m.nibble}): expected ${m.expected}, got ${m.received}`;
  }
}
