/**
 * Which UDP sockets a switch's wires or an agent's transport use, and how the
 * choice is made for both: `dgram` when asked for; otherwise our batched addon
 * when it loads here; otherwise dgram, unless batched was asked for
 * explicitly, which `unavailable` then turns into the caller's typed error.
 */
import { tryLoadUdpBatchAddon } from './load-udp-batch-addon.js';
import type { NativeUdpBatchModule } from './native-udp-batch.js';
import type { UdpBatchError } from './udp-batch-error.js';

/** Our batched addon, or Node's dgram. */
export type UdpIo = 'batched' | 'dgram';
export const UDP_IO_CHOICES: readonly UdpIo[] = ['batched', 'dgram'];

export type UdpIoChoice = { readonly io: 'dgram'; readonly why: string } | { readonly io: 'batched'; readonly why: string; readonly addon: NativeUdpBatchModule };

/** The sockets for `wanted` (undefined: the automatic choice); `unavailable` throws when batched was asked for and cannot be had. */
export function resolveUdpIo(wanted: UdpIo | undefined, unavailable: (error: UdpBatchError) => never): UdpIoChoice {
  if (wanted === 'dgram') return { io: 'dgram', why: 'asked for (udp-io dgram)' };
  const loaded = tryLoadUdpBatchAddon();
  if ('addon' in loaded) return { io: 'batched', why: wanted === 'batched' ? 'asked for (udp-io batched)' : 'the udp_batch addon loads', addon: loaded.addon };
  if (wanted === 'batched') unavailable(loaded.error);
  return { io: 'dgram', why: `the udp_batch addon cannot be used: ${loaded.error.message}` };
}
