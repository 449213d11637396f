// The hosts of the switch tests: the switch's own address, and the rack
// workers on switch ports 1.. that the ATP and Rina tests share.
import { ipv4FromText, macFromText } from '../../../src/wire/index.js';

export interface Host {
  readonly mac: number;
  readonly ip: number;
  readonly udpPort: number;
  readonly switchPort: number;
}

export const SWITCH_MAC = macFromText('02:00:00:00:00:fe');
export const SWITCH_IP = ipv4FromText('10.0.0.254');

/** Rack worker w: switch port w + 1, UDP port `firstUdpPort` + w. */
export function rackWorker(w: number, firstUdpPort: number): Host {
  return { mac: macFromText('02:00:00:00:01:01') + w, ip: ipv4FromText('10.0.1.1') + w, udpPort: firstUdpPort + w, switchPort: w + 1 };
}
