/**
 * Errors of the batched UDP socket addon: not Linux, not built, or broken.
 * Socket-level failures (EADDRINUSE, ECONNREFUSED…) stay errno errors with
 * the errno name as `code`, as Node's dgram reports them.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

export const UDP_BATCH_ERROR_CODES = {
  /** Not Linux: recvmmsg/sendmmsg with GSO/GRO are Linux's. */
  unsupportedPlatform: 'UDP_BATCH_UNSUPPORTED_PLATFORM',
  /** build/Release/udp_batch.node is not there: the addon was never built. */
  addonNotBuilt: 'UDP_BATCH_ADDON_NOT_BUILT',
  /** The addon file is there but Node cannot load it (stale or broken build). */
  addonLoadFailed: 'UDP_BATCH_ADDON_LOAD_FAILED',
} as const;

export type UdpBatchErrorCode = (typeof UDP_BATCH_ERROR_CODES)[keyof typeof UDP_BATCH_ERROR_CODES];

export class UdpBatchError extends P4inaError<UdpBatchErrorCode> {}
