/**
 * `p4ina switch`: one emulated v1model switch (ports, the pipeline executor,
 * a P4Runtime server), started with BMv2 simple_switch_grpc's command line
 * so that Mininet scripts can run either. CONFIG is our IR (`p4ina compile`
 * output); its P4Info comes from --p4info or from the compile output beside
 * it. Starting with CONFIG is the same as pushing it with
 * SetForwardingPipelineConfig(VERIFY_AND_COMMIT).
 */
import { readFileSync } from 'node:fs';
import { P4inaError } from '../errors/p4ina-error.js';
import { rootLogger } from '../log/logger.js';
import { formatPortRate } from '../switch/queues/port-rate.js';
import { QueueError } from '../switch/queues/queue-error.js';
import { parsePortRateArg, parseQueueDepthArg, type QueueSetting } from '../switch/queues/queue-setting.js';
import { UDP_WIRE_IO_CHOICES, type UdpWireIo } from '../switch/ports/udp-wire-io.js';

const USAGE = `usage: p4ina switch [options] (--no-p4 | CONFIG) [-- target-options]

Runs one emulated v1model switch with a P4Runtime server. The flags are those of
BMv2's simple_switch_grpc.

options:
  --device-id N                 P4Runtime device id (default 0)
  -i, --interface PORT@SPEC     attach a port: PORT@IFACE (AF_PACKET, needs root) or
                                PORT@udp:LOCALADDR:LOCALPORT:PEERADDR:PEERPORT (a UDP wire)
  --udp-io batched|dgram        the sockets of UDP wires: batched (our udp_batch addon: recvmmsg/
                                sendmmsg with UDP GRO/GSO) or dgram (Node's, one syscall per
                                datagram). Default: batched where the addon loads, else dgram
  --pcap DIR                    record every port's frames in and out to DIR/*.pcap
  --p4info FILE                 the P4Info of CONFIG (default: NAME.p4info.txtpb/.json/.bin
                                beside NAME.ir.json, as p4ina compile writes them)
  --log-console                 log to stdout as JSON lines (level from -L, default info)
  -L, --log-level LEVEL         trace, debug, info, warn, error or off (default warn)
  --no-p4                       start without a program; push one with SetForwardingPipelineConfig
  CONFIG                        a program to run from the start: NAME.ir.json from p4ina compile
                                (BMv2's JSON is not accepted: compile the P4 with p4ina compile)
  --thrift-port N               accepted for compatibility and ignored: p4ina has no Thrift server
  --pipeline-memory-budget SIZE the memory one pipeline may take, estimated from its P4Info and
                                IR before anything is allocated (default 1GiB; e.g. 512MiB, 4GiB);
                                a bigger pipeline is refused with RESOURCE_EXHAUSTED
  --max-array-cells N           cells of one counter, meter or register array (default 16777216)
  --max-read-entities N         entities one ReadRequest may name (default 10000)
  --max-reads-in-flight N       Read RPCs streamed at once, all clients together (default 16)
  --port-rate RATE[@PORT]       transmit rate of a port's egress queue, or of every port's without
                                @PORT: packets/s as 1000pps or 2.5kpps (a bare number is packets/s,
                                as BMv2's set_queue_rate), bits/s as 10Mbps, 1Gbps or 800kbps
                                (k, M, G are powers of 1000), or unlimited (the default: no queue).
                                Repeatable; a per-port value wins over the every-port one
  --queue-depth N[@PORT]        capacity of a port's egress queue in packets (default 64, as BMv2);
                                packets beyond it are tail-dropped. Repeatable, as --port-rate.
                                Only ports with a rate queue; see docs/switch.md
  -h, --help                    show this help

target options (after --):
  --grpc-server-addr ADDR       where P4Runtime listens (default 127.0.0.1:9559; port 0 = any free port)
  --cpu-port N                  the CPU port for PacketIn/PacketOut (1..510)
  --priority-queues N           accepted for compatibility and ignored: p4ina has one egress
                                queue per port (see --port-rate)

Send SIGUSR1 to log the per-port counters (packets in, out, dropped, malformed) and the egress
queues' (depth, most packets queued, tail drops).
  --grpc-server-ssl             serve TLS; needs --grpc-server-cert and --grpc-server-key
  --grpc-server-cert FILE       the server's certificate (PEM)
  --grpc-server-key FILE        the server's private key (PEM)
  --grpc-server-cacert FILE     CA certificate to check client certificates against (PEM)
  --grpc-server-with-client-auth  require client certificates (needs --grpc-server-cacert)
`;

const LEVELS: Record<string, string> = { trace: 'trace', debug: 'debug', info: 'info', warn: 'warn', error: 'error', off: 'silent' };

export interface SwitchOptions {
  help: boolean;
  deviceId: bigint;
  interfaces: { port: number; iface: string }[];
  pcapDir: string | undefined;
  logConsole: boolean;
  logLevel: string | undefined;
  noP4: boolean;
  config: string | undefined;
  p4info: string | undefined;
  thriftPort: number | undefined;
  grpcAddress: string;
  cpuPort: number | undefined;
  tls: { certFile: string; keyFile: string; caFile: string | undefined; clientAuth: boolean } | undefined;
  /** --pipeline-memory-budget, in bytes. */
  pipelineMemoryBudget: number | undefined;
  udpIo: UdpWireIo | undefined;
  maxArrayCells: number | undefined;
  maxReadEntities: number | undefined;
  maxReadsInFlight: number | undefined;
  /** --port-rate and --queue-depth, in the order given. */
  queues: QueueSetting[];
  /** BMv2's --priority-queues, accepted and ignored (one queue per port). */
  priorityQueues: number | undefined;
}

/** A command line we cannot run; the message says what to change. */
export class UsageError extends P4inaError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}

function integer(flag: string, text: string, max: bigint): bigint {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag} takes a non-negative integer, not "${text}"`);
  const value = BigInt(text);
  if (value > max) throw new UsageError(`${flag} ${text} is too large (at most ${max})`);
  return value;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** "512MiB", "4GiB", "1000000": bytes (units are powers of 1024). */
function byteSize(flag: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(text.trim());
  const unit = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new UsageError(`${flag} takes a size such as 512MiB, 4GiB or a number of bytes, not "${text}"`);
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1024 * 1024) throw new UsageError(`${flag} ${text} is too small (at least 1MiB)`);
  return bytes;
}

function positive(flag: string, text: string, max: bigint): number {
  const value = Number(integer(flag, text, max));
  if (value === 0) throw new UsageError(`${flag} must be at least 1`);
  return value;
}

/** A --port-rate or --queue-depth value; the QueueError's message becomes a usage error. */
function queueArg(flag: string, text: string, parse: (text: string) => QueueSetting): QueueSetting {
  try {
    return parse(text);
  } catch (err) {
    if (err instanceof QueueError) throw new UsageError(`${flag} ${text}: ${err.message}`);
    throw err;
  }
}

function checkAddress(text: string): string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(text);
  if (!match || Number(match[2]) > 65535) throw new UsageError(`--grpc-server-addr takes HOST:PORT (e.g. 127.0.0.1:9559), not "${text}"`);
  return text;
}

function checkCpuPort(text: string): number {
  const port = Number(integer('--cpu-port', text, 1n << 32n));
  if (port === 0) throw new UsageError('--cpu-port 0 is not allowed: port 0 is a data port; choose 1..510');
  if (port > 511) throw new UsageError(`--cpu-port ${port} does not fit v1model's 9-bit ports; choose 1..510`);
  if (port === 511) throw new UsageError('--cpu-port 511 is the drop port; choose 1..510');
  return port;
}

/** Parses argv (after "switch"). Throws UsageError. */
export function parseSwitchArgs(argv: readonly string[]): SwitchOptions {
  const split = argv.indexOf('--');
  const general = split < 0 ? argv : argv.slice(0, split);
  const target = split < 0 ? [] : argv.slice(split + 1);
  const options: SwitchOptions = {
    help: false,
    deviceId: 0n,
    interfaces: [],
    pcapDir: undefined,
    logConsole: false,
    logLevel: undefined,
    noP4: false,
    config: undefined,
    p4info: undefined,
    thriftPort: undefined,
    grpcAddress: '127.0.0.1:9559',
    cpuPort: undefined,
    tls: undefined,
    pipelineMemoryBudget: undefined,
    udpIo: undefined,
    maxArrayCells: undefined,
    maxReadEntities: undefined,
    maxReadsInFlight: undefined,
    queues: [],
    priorityQueues: undefined,
  };
  const positionals: string[] = [];
  walk(general, (flag, value) => {
    switch (flag) {
      case '-h':
      case '--help':
        options.help = true;
        return false;
      case '--device-id':
        options.deviceId = integer(flag, value(), (1n << 64n) - 1n);
        return true;
      case '-i':
      case '--interface': {
        const text = value();
        const match = /^(\d+)@(.+)$/.exec(text);
        if (!match) throw new UsageError(`${flag} takes PORT@IFACE (e.g. 1@s1-eth1), not "${text}"`);
        const port = Number(integer(flag, match[1]!, 510n));
        if (options.interfaces.some((i) => i.port === port)) throw new UsageError(`port ${port} is given twice with ${flag}`);
        options.interfaces.push({ port, iface: match[2]! });
        return true;
      }
      case '--pcap':
        options.pcapDir = value();
        return true;
      case '--p4info':
        options.p4info = value();
        return true;
      case '--log-console':
        options.logConsole = true;
        return false;
      case '-L':
      case '--log-level': {
        const level = value();
        if (!(level in LEVELS)) throw new UsageError(`${flag} takes one of ${Object.keys(LEVELS).join(', ')}, not "${level}"`);
        options.logLevel = LEVELS[level];
        return true;
      }
      case '--no-p4':
        options.noP4 = true;
        return false;
      case '--thrift-port':
        options.thriftPort = Number(integer(flag, value(), 65535n));
        return true;
      case '--udp-io': {
        const io = value();
        if (!(UDP_WIRE_IO_CHOICES as readonly string[]).includes(io)) throw new UsageError(`${flag} takes ${UDP_WIRE_IO_CHOICES.join(' or ')}, not "${io}"`);
        options.udpIo = io as UdpWireIo;
        return true;
      }
      case '--pipeline-memory-budget':
        options.pipelineMemoryBudget = byteSize(flag, value());
        return true;
      case '--max-array-cells':
        options.maxArrayCells = positive(flag, value(), 1n << 31n);
        return true;
      case '--max-read-entities':
        options.maxReadEntities = positive(flag, value(), 1n << 24n);
        return true;
      case '--max-reads-in-flight':
        options.maxReadsInFlight = positive(flag, value(), 4096n);
        return true;
      case '--port-rate':
        options.queues.push(queueArg(flag, value(), parsePortRateArg));
        return true;
      case '--queue-depth':
        options.queues.push(queueArg(flag, value(), parseQueueDepthArg));
        return true;
      default:
        if (flag.startsWith('--grpc-server') || flag === '--cpu-port') throw new UsageError(`${flag} is a target option: put it after --`);
        if (flag.startsWith('-')) throw new UsageError(`unknown option ${flag}`);
        positionals.push(flag);
        return false;
    }
  });
  const tls = { ssl: false, cert: undefined as string | undefined, key: undefined as string | undefined, ca: undefined as string | undefined, clientAuth: false };
  walk(target, (flag, value) => {
    switch (flag) {
      case '--grpc-server-addr':
        options.grpcAddress = checkAddress(value());
        return true;
      case '--cpu-port':
        options.cpuPort = checkCpuPort(value());
        return true;
      case '--priority-queues':
        options.priorityQueues = Number(integer(flag, value(), 32n));
        return true;
      case '--grpc-server-ssl':
        tls.ssl = true;
        return false;
      case '--grpc-server-cert':
        tls.cert = value();
        return true;
      case '--grpc-server-key':
        tls.key = value();
        return true;
      case '--grpc-server-cacert':
        tls.ca = value();
        return true;
      case '--grpc-server-with-client-auth':
        tls.clientAuth = true;
        return false;
      default:
        throw new UsageError(`unknown target option ${flag}`);
    }
  });
  if (options.help) return options;
  if (positionals.length > 1) throw new UsageError(`one CONFIG at most, got ${positionals.join(' ')}`);
  options.config = positionals[0];
  if (options.noP4 === (options.config !== undefined)) throw new UsageError('give either --no-p4 or a CONFIG file (exactly one)');
  if (tls.ssl) {
    if (!tls.cert || !tls.key) throw new UsageError('--grpc-server-ssl needs --grpc-server-cert and --grpc-server-key');
    if (tls.clientAuth && !tls.ca) throw new UsageError('--grpc-server-with-client-auth needs --grpc-server-cacert');
    options.tls = { certFile: tls.cert, keyFile: tls.key, caFile: tls.ca, clientAuth: tls.clientAuth };
  } else if (tls.cert || tls.key || tls.ca || tls.clientAuth) {
    throw new UsageError('certificate options take effect only with --grpc-server-ssl; add it');
  }
  return options;
}

/**
 * Calls `take(flag, value)` for each token; `take` returns whether it used the
 * value. Accepts `--flag value` and `--flag=value`.
 */
function walk(tokens: readonly string[], take: (flag: string, value: () => string) => boolean): void {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const flag = eq > 0 ? token.slice(0, eq) : token;
    const inline = eq > 0 ? token.slice(eq + 1) : undefined;
    let usedNext = false;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = tokens[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      usedNext = true;
      return next;
    };
    const tookValue = take(flag, value);
    if (!tookValue && inline !== undefined) throw new UsageError(`${flag} takes no value`);
    if (usedNext) i++;
  }
}

function readPem(flag: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new UsageError(`${flag} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** `; egress queues: rate 10Mbps, depth 16@2` for the start-up line, or nothing. */
function describeQueues(settings: readonly QueueSetting[]): string {
  const parts = settings.map((s) => {
    const where = s.port === undefined ? '' : `@${s.port}`;
    return s.rate !== undefined ? `rate ${s.rate === 'unlimited' ? 'unlimited' : formatPortRate(s.rate)}${where}` : `depth ${String(s.depth)}${where}`;
  });
  return parts.length > 0 ? `; egress queues: ${parts.join(', ')}` : '';
}

export async function run(argv: string[]): Promise<number> {
  let options: SwitchOptions;
  let tls: { cert: Buffer; key: Buffer; ca?: Buffer; requireClientCert: boolean } | undefined;
  try {
    options = parseSwitchArgs(argv);
    if (options.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (options.p4info !== undefined && options.config === undefined) throw new UsageError('--p4info goes with a CONFIG file; with --no-p4 push the P4Info with SetForwardingPipelineConfig');
    if (options.tls) {
      const { certFile, keyFile, caFile, clientAuth } = options.tls;
      tls = {
        cert: readPem('--grpc-server-cert', certFile),
        key: readPem('--grpc-server-key', keyFile),
        ...(caFile ? { ca: readPem('--grpc-server-cacert', caFile) } : {}),
        requireClientCert: clientAuth,
      };
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`p4ina switch: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.thriftPort !== undefined) process.stderr.write(`p4ina switch: --thrift-port ${options.thriftPort} ignored (p4ina has no Thrift server)\n`);
  if (options.priorityQueues !== undefined && options.priorityQueues > 1) {
    process.stderr.write(`p4ina switch: --priority-queues ${options.priorityQueues} ignored (p4ina has one egress queue per port; standard_metadata.priority is not used)\n`);
  }
  rootLogger().level = options.logLevel ?? (options.logConsole ? 'info' : (process.env.LOG_LEVEL ?? 'warn'));

  // Loaded after the level is set, so that loggers made at import time get it.
  const { launchSwitch } = await import('../switch/device/switch-launcher.js');
  let launched: Awaited<ReturnType<typeof launchSwitch>>;
  try {
    launched = await launchSwitch({
      deviceId: options.deviceId,
      ports: options.interfaces.map((i) => `${i.port}@${i.iface}`),
      pcapDir: options.pcapDir,
      cpuPort: options.cpuPort,
      configFile: options.config,
      p4infoFile: options.p4info,
      server: { address: options.grpcAddress, ...(tls ? { tls } : {}) },
      pipelineLimits: {
        ...(options.pipelineMemoryBudget !== undefined ? { memoryBudgetBytes: options.pipelineMemoryBudget } : {}),
        ...(options.maxArrayCells !== undefined ? { maxArrayCells: options.maxArrayCells } : {}),
      },
      serverLimits: {
        ...(options.maxReadEntities !== undefined ? { maxReadEntities: options.maxReadEntities } : {}),
        ...(options.maxReadsInFlight !== undefined ? { maxReadsInFlight: options.maxReadsInFlight } : {}),
      },
      queues: options.queues,
      ...(options.udpIo !== undefined ? { udpIo: options.udpIo } : {}),
    });
  } catch (err) {
    if (!P4inaError.is(err)) throw err;
    process.stderr.write(`p4ina switch: ${err.message}\n`);
    return 1;
  }
  const host = options.grpcAddress.slice(0, options.grpcAddress.lastIndexOf(':'));
  const where = `${host}:${launched.grpcPort}`;
  const ports = options.interfaces.map((i) => `${i.port}@${i.iface}`).join(', ') || 'none';
  const program = options.config
    ? `running ${options.config} (P4Info ${launched.p4infoFile ?? '?'})`
    : `no program yet: push one with SetForwardingPipelineConfig (P4Info + the NAME.ir.json of p4ina compile)`;
  process.stdout.write(
    `p4ina switch: P4Runtime server for device ${options.deviceId} listening on ${where} (${tls ? 'TLS' : 'plaintext'}); ` +
      `ports: ${ports}${options.cpuPort !== undefined ? `; CPU port ${options.cpuPort}` : ''}${describeQueues(options.queues)}; ${program}; Ctrl-C stops\n`,
  );
  const onUsr1 = (): void => {
    const queues = launched.device.queueStats();
    rootLogger().info({ ports: launched.device.portStats(), queues }, 'per-port counters');
    process.stderr.write(`p4ina switch: per-port counters ${JSON.stringify(launched.device.portStats())}\n`);
    if (Object.keys(queues).length > 0) process.stderr.write(`p4ina switch: egress queues ${JSON.stringify(queues)}\n`);
  };
  process.on('SIGUSR1', onUsr1);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (sig: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(sig);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  process.off('SIGUSR1', onUsr1);
  rootLogger().info({ signal }, 'stopping');
  await launched.stop();
  return 0;
}
