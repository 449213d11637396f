/** Small builders the conformance files share: the primary's election id, byte strings, and the kitchen sink's L2 entries. */
import { action, table } from '../../../src/p4runtime/index.js';

/** The election id the suites' primary controller uses. */
export const PRIMARY = 100n;

export const b = (...bytes: number[]): Buffer => Buffer.from(bytes);

export const mac = (last: number): string => `00:00:00:00:00:${last.toString(16).padStart(2, '0')}`;

/** An entry of the kitchen sink's `ingress.l2` table: destination MAC 00:…:last to `port`. */
export const l2 = (last: number, port = 1) => table('ingress.l2', { 'hdr.ethernet.dst_addr': mac(last) }, action('ingress.forward', { port }));
