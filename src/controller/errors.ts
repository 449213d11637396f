/**
 * Errors of the controller's model: topology files, job specs, rollout plans
 * and capacity. Every code is stable (tests and tools match on it) and every
 * message says where the problem is (a JSON path such as `$.links[3][1]`) and
 * what to change. A file with several problems reports all of them at once,
 * so a user fixes a topology in one pass instead of one error per run.
 */
import { P4inaError } from '../errors/p4ina-error.js';

/** Stable codes; never reworded. */
export const ControllerErrorCode = {
  // --- topology files ---
  /** The topology file could not be read. */
  TOPOLOGY_FILE_UNREADABLE: 'TOPOLOGY_FILE_UNREADABLE',
  /** The topology file is not JSON. */
  TOPOLOGY_BAD_JSON: 'TOPOLOGY_BAD_JSON',
  /** A field has the wrong JSON type (an object where a string belongs, …). */
  TOPOLOGY_WRONG_TYPE: 'TOPOLOGY_WRONG_TYPE',
  /** A required field is absent. */
  TOPOLOGY_MISSING_FIELD: 'TOPOLOGY_MISSING_FIELD',
  /** A field the format does not define (usually a typo). Keys starting with `_` are free for comments. */
  TOPOLOGY_UNKNOWN_FIELD: 'TOPOLOGY_UNKNOWN_FIELD',
  /** A value out of range or not one of the allowed words. */
  TOPOLOGY_BAD_VALUE: 'TOPOLOGY_BAD_VALUE',
  /** A node name that cannot be used (empty, or looks like a switch port reference). */
  TOPOLOGY_BAD_NAME: 'TOPOLOGY_BAD_NAME',
  /** A malformed IPv4, MAC or gRPC address. */
  TOPOLOGY_BAD_ADDRESS: 'TOPOLOGY_BAD_ADDRESS',
  /** Two nodes (or two racks) share a name. */
  TOPOLOGY_DUPLICATE_NAME: 'TOPOLOGY_DUPLICATE_NAME',
  /** Two nodes share an IPv4 address. */
  TOPOLOGY_DUPLICATE_IP: 'TOPOLOGY_DUPLICATE_IP',
  /** Two nodes share a MAC address. */
  TOPOLOGY_DUPLICATE_MAC: 'TOPOLOGY_DUPLICATE_MAC',
  /** Two switches share a P4Runtime device id. */
  TOPOLOGY_DUPLICATE_DEVICE_ID: 'TOPOLOGY_DUPLICATE_DEVICE_ID',
  /** Two switches listen on the same gRPC address. */
  TOPOLOGY_DUPLICATE_GRPC_ADDRESS: 'TOPOLOGY_DUPLICATE_GRPC_ADDRESS',
  /** A link end that is neither a host name nor `<switch>-p<port>`. */
  TOPOLOGY_BAD_ENDPOINT: 'TOPOLOGY_BAD_ENDPOINT',
  /** A link names a host or switch that the file does not define. */
  TOPOLOGY_UNKNOWN_NODE: 'TOPOLOGY_UNKNOWN_NODE',
  /** A switch port appears in more than one link. */
  TOPOLOGY_PORT_IN_USE: 'TOPOLOGY_PORT_IN_USE',
  /** A link uses the switch's CPU port, which belongs to the controller. */
  TOPOLOGY_PORT_IS_CPU_PORT: 'TOPOLOGY_PORT_IS_CPU_PORT',
  /** A link joins two hosts; hosts connect to switches only. */
  TOPOLOGY_HOST_TO_HOST: 'TOPOLOGY_HOST_TO_HOST',
  /** A link joins a switch to itself. */
  TOPOLOGY_SELF_LINK: 'TOPOLOGY_SELF_LINK',
  /** A host with more than one link: hosts are single-homed. */
  TOPOLOGY_HOST_MULTI_HOMED: 'TOPOLOGY_HOST_MULTI_HOMED',
  /** A host without a link. */
  TOPOLOGY_HOST_UNLINKED: 'TOPOLOGY_HOST_UNLINKED',
  /** A host attached to a switch whose role is not `tor`. */
  TOPOLOGY_HOST_UNDER_NON_TOR: 'TOPOLOGY_HOST_UNDER_NON_TOR',
  /** An INA-capable switch without its own IPv4 and MAC address. */
  TOPOLOGY_INA_WITHOUT_ADDRESS: 'TOPOLOGY_INA_WITHOUT_ADDRESS',
  /** Some nodes cannot reach others. */
  TOPOLOGY_DISCONNECTED: 'TOPOLOGY_DISCONNECTED',
  /** A derived view was asked about a node the topology does not have. */
  TOPOLOGY_NO_SUCH_NODE: 'TOPOLOGY_NO_SUCH_NODE',

  // --- job specs ---
  /** The job file could not be read. */
  JOB_FILE_UNREADABLE: 'JOB_FILE_UNREADABLE',
  /** The job file is not JSON. */
  JOB_BAD_JSON: 'JOB_BAD_JSON',
  JOB_WRONG_TYPE: 'JOB_WRONG_TYPE',
  JOB_MISSING_FIELD: 'JOB_MISSING_FIELD',
  JOB_UNKNOWN_FIELD: 'JOB_UNKNOWN_FIELD',
  JOB_BAD_VALUE: 'JOB_BAD_VALUE',
  /** A malformed IPv4 or MAC address. */
  JOB_BAD_ADDRESS: 'JOB_BAD_ADDRESS',
  /** Ranks that are not exactly 0..n−1, each once. */
  JOB_BAD_RANKS: 'JOB_BAD_RANKS',
  /** Two workers with the same address and UDP port. */
  JOB_DUPLICATE_WORKER: 'JOB_DUPLICATE_WORKER',
  /** The algorithm (or the PS fallback) needs a parameter server and the spec names none. */
  JOB_NEEDS_PARAMETER_SERVER: 'JOB_NEEDS_PARAMETER_SERVER',
  /** A worker (or the parameter server) is not a host of the topology. */
  JOB_UNKNOWN_HOST: 'JOB_UNKNOWN_HOST',
  /** A worker's address or MAC disagrees with its host in the topology. */
  JOB_HOST_MISMATCH: 'JOB_HOST_MISMATCH',

  // --- rollout ---
  /** An ATP job whose level-1 contributors (or one rack's workers) would exceed the 31 a 5-bit fan-in counts, whatever aggregates. */
  ATP_TOO_MANY_CONTRIBUTORS: 'ATP_TOO_MANY_CONTRIBUTORS',
  /** An ATP job whose parameter server shares a host with a worker: that worker's packets would never cross a switch. */
  ATP_PS_ON_WORKER_HOST: 'ATP_PS_ON_WORKER_HOST',

  // --- capacity ---
  /** The job does not fit: the error's `shortfalls` say what and how much is free. Nothing was allocated. */
  CAPACITY_EXHAUSTED: 'CAPACITY_EXHAUSTED',
  /** A job with this id already holds resources. */
  CAPACITY_JOB_EXISTS: 'CAPACITY_JOB_EXISTS',
  /** release() of a job that holds nothing. */
  CAPACITY_UNKNOWN_JOB: 'CAPACITY_UNKNOWN_JOB',
  /** A demand that makes no sense (a switch twice, no slots, …). */
  CAPACITY_BAD_DEMAND: 'CAPACITY_BAD_DEMAND',
  /** Limits that make no sense (an empty slot pool, overlapping group ranges, …). */
  CAPACITY_BAD_LIMITS: 'CAPACITY_BAD_LIMITS',
  /** A snapshot (what was read back from the switches) contradicts itself or the limits. */
  CAPACITY_INCONSISTENT_STATE: 'CAPACITY_INCONSISTENT_STATE',
} as const;

export type ControllerErrorCode = (typeof ControllerErrorCode)[keyof typeof ControllerErrorCode];

/** One thing wrong with an input, where it is, and what to do about it. */
export interface Problem {
  readonly code: ControllerErrorCode;
  /** JSON path of the offending value, `$` for the whole document. */
  readonly path: string;
  readonly message: string;
}

/** An error of the controller's model; `problems` lists everything found (the first is this error's code and path). */
export class ControllerError extends P4inaError<ControllerErrorCode> {
  /** JSON path of the first problem. */
  readonly path: string;
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[], options?: { cause?: unknown; source?: string }) {
    if (problems.length === 0) throw new RangeError('a ControllerError needs at least one problem');
    const first = problems[0]!;
    const where = options?.source ? `${options.source}: ` : '';
    const message =
      problems.length === 1
        ? `${where}${first.path}: ${first.message}`
        : `${where}${problems.length} problems:\n${problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`;
    super(first.code, message, options);
    this.path = first.path;
    this.problems = problems;
  }

  /** A ControllerError with a single problem. */
  static of(code: ControllerErrorCode, path: string, message: string): ControllerError {
    return new ControllerError([{ code, path, message }]);
  }
}

/** Collects problems while an input is read, so that all of them can be reported together. */
export class ProblemLog {
  readonly problems: Problem[] = [];

  add(code: ControllerErrorCode, path: string, message: string): void {
    this.problems.push({ code, path, message });
  }

  get empty(): boolean {
    return this.problems.length === 0;
  }

  /** Throws a ControllerError holding every problem so far, if there is one. */
  throwIfAny(source?: string): void {
    if (this.problems.length > 0) throw new ControllerError([...this.problems], source === undefined ? undefined : { source });
  }
}
