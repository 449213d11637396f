/**
 * Errors of AF_PACKET ports: the addon is missing or broken, the platform is
 * not Linux, or opening the socket failed (permissions, no such interface).
 * Each has a stable code from AF_PACKET_ERROR_CODES and a message that says
 * what to fix; `errnoName` keeps the system's reason (e.g. "EPERM") when
 * there is one.
 */
import { P4inaError } from '../../../errors/p4ina-error.js';

export const AF_PACKET_ERROR_CODES = {
  /** Not Linux: AF_PACKET sockets exist only there. */
  unsupportedPlatform: 'AF_PACKET_UNSUPPORTED_PLATFORM',
  /** build/Release/af_packet.node is not there: the addon was never built. */
  addonNotBuilt: 'AF_PACKET_ADDON_NOT_BUILT',
  /** The addon file is there but Node cannot load it (stale or broken build). */
  addonLoadFailed: 'AF_PACKET_ADDON_LOAD_FAILED',
  /** Not root and no CAP_NET_RAW (EPERM/EACCES). */
  permission: 'AF_PACKET_PERMISSION',
  /** No interface of that name in this network namespace (ENODEV). */
  noInterface: 'AF_PACKET_NO_INTERFACE',
  /** The interface does not carry Ethernet frames (e.g. loopback, tun). */
  notEthernet: 'AF_PACKET_NOT_ETHERNET',
  /** Any other failure while opening; the message names the system call. */
  openFailed: 'AF_PACKET_OPEN_FAILED',
} as const;

export type AfPacketErrorCode = (typeof AF_PACKET_ERROR_CODES)[keyof typeof AF_PACKET_ERROR_CODES];

export class AfPacketError extends P4inaError<AfPacketErrorCode> {
  /** The errno name behind the error ("EPERM", "ENODEV"…), when the system gave one. */
  readonly errnoName: string | undefined;

  constructor(code: AfPacketErrorCode, message: string, options?: { cause?: unknown; errnoName?: string }) {
    super(code, message, options);
    this.errnoName = options?.errnoName;
  }
}
