/**
 * `--udp-io batched|dgram` of the `p4ina agent` kinds that talk UDP (a UDP
 * wire or the kernel's UDP): taken out of the argv here, once for all of
 * them, so that each agent's own parser (and the demo's worker argv) need
 * not know it. It sets the process's choice for every transport the agent
 * opens (agent/transport/udp-io.ts).
 */
import { isUdpIo, UDP_IO_CHOICES, type UdpIo } from '../agent/transport/index.js';

/** The kinds whose transports are UDP sockets; the TCP baselines do not take the flag. */
export const UDP_AGENT_KINDS: ReadonlySet<string> = new Set(['switchml', 'atp-worker', 'atp-ps', 'rina-worker', 'omnireduce-worker', 'omnireduce-aggregator']);

export const UDP_IO_USAGE = `options of the UDP kinds (${[...UDP_AGENT_KINDS].join(', ')}):
  --udp-io IO  the UDP sockets: ${UDP_IO_CHOICES.join(' or ')} (default: batched when the udp_batch addon
               loads, else dgram); batched sends a window in one sendmmsg and receives with recvmmsg/GRO`;

export type UdpIoArgs = { readonly argv: string[]; readonly udpIo: UdpIo | undefined } | { readonly error: string };

/** The argv without `--udp-io X` / `--udp-io=X` (the last one given wins), or what is wrong with it. */
export function takeUdpIoArg(argv: readonly string[]): UdpIoArgs {
  const rest: string[] = [];
  let udpIo: UdpIo | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let value: string | undefined;
    if (arg === '--udp-io') {
      value = argv[++i];
      if (value === undefined) return { error: `--udp-io needs a value: ${UDP_IO_CHOICES.join(' or ')}` };
    } else if (arg.startsWith('--udp-io=')) {
      value = arg.slice('--udp-io='.length);
    } else {
      rest.push(arg);
      continue;
    }
    if (!isUdpIo(value)) return { error: `--udp-io takes ${UDP_IO_CHOICES.join(' or ')}, not "${value}"` };
    udpIo = value;
  }
  return { argv: rest, udpIo };
}
