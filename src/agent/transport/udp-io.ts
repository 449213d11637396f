/**
 * Which UDP socket an agent transport opens: our batched addon
 * (src/net/udp-batch) or Node's dgram. A transport's `udpIo` option decides;
 * without it, the process's choice (`p4ina agent --udp-io`, set once by the
 * CLI because every agent's own option parser would otherwise need the flag),
 * else batched when the addon loads. The choice is logged once at info, as
 * the switch's UDP wires do, so a run's log says which I/O it measured.
 */
import { moduleLogger } from '../../log/logger.js';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';
import { resolveUdpIo, UDP_IO_CHOICES, type UdpIo, type UdpIoChoice } from '../../net/udp-batch/udp-io-kind.js';

export { UDP_IO_CHOICES, type UdpIo, type UdpIoChoice };

const log = moduleLogger('agent.transport.udp');
let processDefault: UdpIo | undefined;
let loggedChoice: string | undefined;

/** True for the names `--udp-io` takes. */
export function isUdpIo(text: string): text is UdpIo {
  return (UDP_IO_CHOICES as readonly string[]).includes(text);
}

/** Sets the I/O of transports opened without `udpIo` in this process (undefined: back to the automatic choice). */
export function setDefaultUdpIo(io: UdpIo | undefined): void {
  processDefault = io;
}

/**
 * The I/O for a transport that asked for `asked`. Throws TransportError
 * (TRANSPORT_UDP_IO_UNAVAILABLE) when batched I/O is asked for explicitly and
 * the addon cannot be used here.
 */
export function chooseUdpIo(asked: UdpIo | undefined, what: string): UdpIoChoice {
  const wanted = asked ?? processDefault;
  const choice = resolveUdpIo(wanted, (error) => {
    throw new TransportError(
      TRANSPORT_ERROR_CODES.udpIoUnavailable,
      `${what}: batched UDP I/O was asked for, but ${error.message}; build the addon (npm run build:addon) or use --udp-io dgram`,
      { cause: error },
    );
  });
  const key = `${choice.io}:${choice.why}`;
  if (loggedChoice !== key) {
    loggedChoice = key;
    const how = choice.io === 'batched' ? 'batched I/O (recvmmsg/sendmmsg with UDP GRO/GSO)' : "Node's dgram (one syscall per datagram)";
    log.info({ udpIo: choice.io, why: choice.why }, `agent UDP sockets use ${how}: ${choice.why}`);
  }
  return choice;
}
