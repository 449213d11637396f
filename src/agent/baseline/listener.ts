/**
 * A listening TCP socket for the baselines. Binding is separate from use so
 * that a test or the local runner can bind port 0 first, learn the port the
 * system chose, and only then tell every worker where everyone is.
 * Connections arriving while nobody takes them are closed at once.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { BASELINE_ERROR_CODES, BaselineError } from './baseline-error.js';
import { formatEndpoint, type Endpoint } from './endpoint.js';

export class Listener {
  private handler: ((socket: Socket) => void) | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly server: Server,
    /** The bound address, with the actual port. */
    readonly endpoint: Endpoint,
  ) {
    server.on('connection', (socket) => {
      if (this.handler) this.handler(socket);
      else socket.destroy();
    });
  }

  /** Binds `endpoint` (port 0: any free port). Throws BASELINE_LISTEN_FAILED. */
  static bind(endpoint: Endpoint): Promise<Listener> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', (err) => {
        reject(new BaselineError(BASELINE_ERROR_CODES.listenFailed, `cannot listen on ${formatEndpoint(endpoint)}: ${err.message}`, { cause: err }));
      });
      server.listen({ host: endpoint.host, port: endpoint.port }, () => {
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : endpoint.port;
        // Errors after listening (rare: e.g. EMFILE on accept) are not fatal to the job; the accept just fails.
        server.removeAllListeners('error');
        server.on('error', () => {});
        resolve(new Listener(server, { host: endpoint.host, port }));
      });
    });
  }

  get address(): string {
    return formatEndpoint(this.endpoint);
  }

  /** True until close() is called. */
  get listening(): boolean {
    return this.server.listening && !this.closing;
  }

  /** Sets who takes new connections (undefined: close them). */
  onConnection(handler: ((socket: Socket) => void) | undefined): void {
    this.handler = handler;
  }

  /**
   * Stops accepting. Resolves when the server has closed, which Node reports
   * only after every connection it accepted has closed too; so call it early
   * and await it after closing those connections.
   */
  close(): Promise<void> {
    this.handler = undefined;
    this.closing ??= new Promise((resolve) => this.server.close(() => resolve()));
    return this.closing;
  }
}
