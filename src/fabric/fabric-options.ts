/** How LoopbackFabric.start runs a topology: switches, programs, ports, deadlines, impairments, interruption. */
import type { TopologySwitch } from '../controller/index.js';
import type { ProgramCache } from '../controller/install/index.js';
import type { Logger } from '../log/logger.js';
import type { FabricProgram } from './fabric-programs.js';
import type { FabricImpairment } from './fabric-impairment.js';

export interface FabricOptions {
  /** 'process' (default): each switch a `p4ina switch` process of the built CLI; 'in-process': launchSwitch in this process. */
  readonly mode?: 'process' | 'in-process';
  /** What each switch runs (default: the topology's program and `ina`, forward.p4 where it names none). */
  readonly program?: (sw: TopologySwitch) => FabricProgram;
  /** A pipeline cache to share, e.g. with -D defines (default: p4ina's front end, no defines). */
  readonly programs?: ProgramCache;
  /** Distinct free UDP ports on 127.0.0.1 for the wires (default: freeUdpPorts of src/demo). */
  readonly udpPorts?: (count: number) => Promise<number[]>;
  /** The built `p4ina` entry the switch processes run (default dist/src/cli/main.js of this package). */
  readonly cliEntry?: string;
  /** How long a switch process may take to start (default 30 s). */
  readonly startTimeoutMs?: number;
  /** Deadline of each of the controller's RPCs (default 30 s). */
  readonly rpcTimeoutMs?: number;
  /** The controller's logger (default module "fabric", at LOG_LEVEL or warn). */
  readonly logger?: Logger;
  /**
   * Seeded loss, duplication and reordering on every host link, both ways:
   * a relay in this process in the middle of each host's cable (loss 0 is
   * fine, to set one later with setImpairment). Undefined: no relays.
   */
  readonly impairment?: FabricImpairment;
  /** Aborting it stops a start in progress (FABRIC_INTERRUPTED, nothing left running) or closes a fabric that is up. */
  readonly signal?: AbortSignal;
}
