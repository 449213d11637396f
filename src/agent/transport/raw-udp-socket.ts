/**
 * Opening a raw IPv4 socket for protocol UDP, through the `raw-socket`
 * package. The package is loaded lazily, the first time a raw socket is
 * asked for, so that everything else works where it is not installed or its
 * addon was not built; each way this can fail is a TransportError that says
 * what to do.
 */
import { createRequire } from 'node:module';
import { TRANSPORT_ERROR_CODES, TransportError } from './transport-error.js';
import type { RawSocket, RawSocketModule } from './raw-socket-module.js';

const PACKAGE = 'raw-socket';
const INSTALL = `install it with \`npm_config_nodedir=/usr npm install ${PACKAGE}\` (node-gyp builds its addon: needs g++, make and python3)`;
const WHAT = 'reading IPv4 CE marks on the kernel’s UDP (the ATP agents’ --ecn-ip)';

const require = createRequire(import.meta.url);
/** The package, through Node's require (which caches it): raw-socket is CommonJS, and loading it here rather than importing it keeps it optional. */
const requirePackage = (): unknown => require('raw-socket');

/** Loads raw-socket (tests pass their own `load`); TRANSPORT_RAW_SOCKET_MISSING when it is absent or does not load. */
export function loadRawSocketModule(load: () => unknown = requirePackage): RawSocketModule {
  let loaded: unknown;
  try {
    loaded = load();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'MODULE_NOT_FOUND' ? `the ${PACKAGE} package or its built addon is missing` : `the ${PACKAGE} package does not load (${(err as Error).message})`;
    throw new TransportError(TRANSPORT_ERROR_CODES.rawSocketMissing, `${WHAT} needs a raw IP socket, and ${why}: ${INSTALL}`, { cause: err });
  }
  const module = loaded as Partial<RawSocketModule> | null;
  if (typeof module?.createSocket !== 'function' || typeof module.Protocol?.UDP !== 'number' || typeof module.SocketOption?.SO_RCVBUF !== 'number') {
    throw new TransportError(TRANSPORT_ERROR_CODES.rawSocketMissing, `${WHAT}: the ${PACKAGE} that loaded is not the expected one (1.8.x); re${INSTALL}`);
  }
  return module as RawSocketModule;
}

/**
 * A raw IPv4 socket for UDP: it receives a copy of every UDP datagram the
 * host delivers locally, IPv4 header included. Needs CAP_NET_RAW.
 */
export function openRawUdpSocket(bufferSize: number, module: RawSocketModule = loadRawSocketModule()): RawSocket {
  try {
    return module.createSocket({ protocol: module.Protocol.UDP, addressFamily: module.AddressFamily.IPv4, bufferSize });
  } catch (err) {
    const message = (err as Error).message;
    if (/not permitted|permission denied/i.test(message)) {
      throw new TransportError(
        TRANSPORT_ERROR_CODES.rawSocketNotPermitted,
        `${WHAT} needs a raw IP socket, which this process may not open (${message}): run it as root or with CAP_NET_RAW (e.g. \`setcap cap_net_raw+ep $(command -v node)\`), or do without IPv4 CE marks`,
        { cause: err },
      );
    }
    throw new TransportError(TRANSPORT_ERROR_CODES.rawSocketFailed, `${WHAT}: cannot open a raw IP socket: ${message}`, { cause: err });
  }
}
