/**
 * `--transport wire` for the ATP agents: a UDP wire to a switch port, the
 * loopback mode where an emulated switch's ports are UDP sockets (the demo).
 * The agent builds Ethernet/IPv4/UDP frames itself: its own MAC, the IPv4
 * address and port of `--local` (worker) or `--listen` (PS) as the source,
 * and its gateway's MAC as the destination of every frame (the ToR routes
 * ATP packets by IPv4 towards the PS, and ACKs back). Without `--transport`,
 * or with `udp`, the agents use the kernel's UDP as before.
 */
import { isIPv4 } from 'node:net';
import { macFromText } from '../../wire/index.js';
import { UdpWireTransport } from '../transport/index.js';
import { bad, endpoint, required, text, type Values } from './cli-values.js';

export interface AtpWire {
  /** This end's socket (default 127.0.0.1, a port the system chooses). */
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
  /** The switch port's socket. */
  readonly peerAddress: string;
  readonly peerPort: number;
  /** This host's MAC, and the MAC every frame is sent to. */
  readonly mac: string;
  readonly gatewayMac: string;
}

export const ATP_WIRE_OPTIONS = {
  transport: { type: 'string' },
  peer: { type: 'string' },
  'wire-local': { type: 'string' },
  mac: { type: 'string' },
  'gateway-mac': { type: 'string' },
} as const;

export const ATP_WIRE_USAGE = `  --transport T         udp (default): the kernel's UDP; wire: a UDP wire to a switch port, frames built here,
                        with --peer ADDR:PORT (the switch port's socket) [--wire-local ADDR:PORT (this end's socket)]
                        --mac MAC (this host) --gateway-mac MAC (the ToR: every frame goes to it; no ARP)`;

export const ATP_ECN_IP_USAGE = `  --ecn-ip              read CE in the IPv4 headers of what arrives, a congestion mark like ATP's ecn bit, from any hop
                        (a raw IP socket beside the UDP one: needs root or CAP_NET_RAW); a wire always reads it`;

function mac(values: Values, name: string): string {
  const raw = required(values, name, 'with --transport wire');
  try {
    macFromText(raw);
  } catch (err) {
    throw bad(`--${name}: ${(err as Error).message}`);
  }
  return raw;
}

/**
 * The wire, or undefined for the kernel's UDP. `own` is the agent's address
 * in the frames (`--local` or `--listen`): on a wire it must be IPv4 with a
 * port, since nobody else can choose it.
 */
export function parseAtpWire(values: Values, own: { address: string; port: number; option: string }): AtpWire | undefined {
  const kind = text(values, 'transport') ?? 'udp';
  const wireOnly = ['peer', 'wire-local', 'mac', 'gateway-mac'].filter((name) => values[name] !== undefined);
  if (kind === 'udp') {
    if (wireOnly.length > 0) throw bad(`--${wireOnly[0]} is for --transport wire only`);
    return undefined;
  }
  if (kind !== 'wire') throw bad(`--transport must be udp or wire, got "${kind}"`);
  if (!isIPv4(own.address) || own.port === 0) throw bad(`--${own.option} must be an IPv4 address and a port other than 0 with --transport wire (frames carry them), got "${own.address}:${own.port}"`);
  const peer = endpoint(required(values, 'peer', 'with --transport wire (the switch port’s ADDRESS:PORT)'), 'peer');
  const localRaw = text(values, 'wire-local');
  const local = localRaw === undefined ? undefined : endpoint(localRaw, 'wire-local', { allowZeroPort: true });
  return { localAddress: local?.address, localPort: local?.port, peerAddress: peer.address, peerPort: peer.port, mac: mac(values, 'mac'), gatewayMac: mac(values, 'gateway-mac') };
}

/**
 * Opens the wire with `own` as this host's IPv4 address and port and `to`
 * as where `send` goes (a worker's PS; a PS names each destination with
 * `sendTo` and passes its own address).
 */
export function openAtpWire(wire: AtpWire, own: { address: string; port: number }, to: { address: string; port: number }): Promise<UdpWireTransport> {
  return UdpWireTransport.open({
    localAddress: wire.localAddress,
    localPort: wire.localPort,
    peerAddress: wire.peerAddress,
    peerPort: wire.peerPort,
    host: { mac: wire.mac, ip: own.address, udpPort: own.port },
    remote: { mac: wire.gatewayMac, ip: to.address, udpPort: to.port },
  });
}
