/**
 * Reading the `hosts` and `switches` objects of a topology file, field by
 * field. Tutorials' fields are accepted unchanged; p4ina's fields are
 * optional and defaulted the way the tutorials' P4RuntimeSwitch numbers its
 * switches (device ids from 0, gRPC ports from 50051, in file order), so a
 * tutorials topology loads as it is. A switch's role may depend on its links
 * and is settled later (topology-load.ts).
 */
import { parseGrpcAddress, parseIpv4, parseIpv4WithPrefix, parseMac, type Parsed } from './address-text.js';
import { ControllerErrorCode as C, type ProblemLog } from './errors.js';
import { ObjectReader, type ReaderCodes } from './json-reader.js';
import { nodeNameProblem } from './names.js';
import {
  FIRST_DEFAULT_GRPC_PORT,
  SWITCH_ROLES,
  SWITCH_TARGETS,
  type SwitchProgram,
  type SwitchRole,
  type TopologyHost,
  type TopologySwitch,
} from './topology.js';

export const TOPOLOGY_CODES: ReaderCodes = {
  wrongType: C.TOPOLOGY_WRONG_TYPE,
  missing: C.TOPOLOGY_MISSING_FIELD,
  unknownField: C.TOPOLOGY_UNKNOWN_FIELD,
  badValue: C.TOPOLOGY_BAD_VALUE,
};

const HOST_FIELDS = ['ip', 'mac', 'commands'] as const;
const SWITCH_FIELDS = [
  'target', 'grpc', 'device_id', 'cpu_port', 'program', 'ina', 'role', 'rack', 'ip', 'mac',
  'runtime_json', 'cli_input', 'priority_queues',
] as const;
const PROGRAM_FIELDS = ['p4', 'p4info', 'config'] as const;

/** v1model egress ports are 9 bits and 511 drops: a usable port is 0..510. */
export const MAX_PORT = 510;

/** A switch as read from the file, before its role is settled by its links. */
export type SwitchDraft = Omit<TopologySwitch, 'role' | 'roleGiven' | 'rack'> & {
  readonly givenRole: SwitchRole | undefined;
  readonly givenRack: string | undefined;
};

function address<T>(reader: ObjectReader, key: string, parse: (text: string) => Parsed<T>): T | undefined {
  const text = reader.text(key);
  if (text === undefined) return undefined;
  const parsed = parse(text);
  if (!parsed.ok) {
    reader.log.add(C.TOPOLOGY_BAD_ADDRESS, reader.at(key), parsed.why);
    return undefined;
  }
  return parsed.value;
}

export function checkNodeName(name: string, path: string, log: ProblemLog): boolean {
  const problem = nodeNameProblem(name);
  if (problem) log.add(C.TOPOLOGY_BAD_NAME, path, problem);
  return problem === undefined;
}

export function readHost(name: string, value: unknown, path: string, log: ProblemLog): TopologyHost | undefined {
  const r = ObjectReader.of(value, path, log, TOPOLOGY_CODES, `host "${name}"`);
  if (!r) return undefined;
  r.rejectUnknown(HOST_FIELDS, 'a host');
  const nameOk = checkNodeName(name, path, log);
  const hasIp = r.require('ip', 'give the host\'s address, e.g. "ip": "10.0.1.1/24"');
  const hasMac = r.require('mac', 'give the host\'s MAC, e.g. "mac": "08:00:00:00:01:11"');
  const ip = hasIp ? address(r, 'ip', parseIpv4WithPrefix) : undefined;
  const mac = hasMac ? address(r, 'mac', parseMac) : undefined;
  const commands = readCommands(r);
  if (!nameOk || ip === undefined || mac === undefined || commands === undefined) return undefined;
  return {
    kind: 'host',
    name,
    ip: ip.ip,
    ipText: r.value['ip'] as string,
    prefixLength: ip.prefixLength,
    mac,
    macText: r.value['mac'] as string,
    commands,
  };
}

function readCommands(r: ObjectReader): string[] | undefined {
  const list = r.array('commands');
  if (list === undefined) return r.has('commands') ? undefined : [];
  const out: string[] = [];
  let good = true;
  list.forEach((c, i) => {
    if (typeof c === 'string') out.push(c);
    else {
      r.log.add(C.TOPOLOGY_WRONG_TYPE, `${r.at('commands')}[${i}]`, `a command must be a string (a shell command line)`);
      good = false;
    }
  });
  return good ? out : undefined;
}

/** undefined: the switch has no program; null: the program was malformed (and reported). */
function readProgram(r: ObjectReader): SwitchProgram | undefined | null {
  const value = r.value['program'];
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (value.trim() === '') {
      r.log.add(C.TOPOLOGY_BAD_VALUE, r.at('program'), '"program" must not be empty');
      return null;
    }
    // The tutorials' "program" is the compiled BMv2 JSON; a .p4 file is a source to compile.
    return value.endsWith('.p4') ? { p4: value } : { config: value };
  }
  const p = r.object('program', '"program"');
  if (!p) return null;
  p.rejectUnknown(PROGRAM_FIELDS, 'a program');
  const program: { p4?: string; p4info?: string; config?: string } = {};
  for (const key of PROGRAM_FIELDS) {
    const file = p.text(key);
    if (file !== undefined) program[key] = file;
  }
  if (Object.keys(program).length === 0) {
    r.log.add(C.TOPOLOGY_MISSING_FIELD, r.at('program'), '"program" names no file; give "p4" (a source) or "p4info" and "config" (compiled artefacts)');
    return null;
  }
  if (program.p4info !== undefined && program.config === undefined && program.p4 === undefined) {
    r.log.add(C.TOPOLOGY_MISSING_FIELD, p.at('config'), 'a P4Info alone cannot be pushed to a switch; add "config" (the device config) or "p4" (the source)');
    return null;
  }
  return program;
}

/** `index` counts the P4Runtime switches before this one, for the tutorials' defaults. */
export function readSwitch(name: string, value: unknown, path: string, index: number, log: ProblemLog): SwitchDraft | undefined {
  const r = ObjectReader.of(value, path, log, TOPOLOGY_CODES, `switch "${name}"`);
  if (!r) return undefined;
  const before = log.problems.length;
  r.rejectUnknown(SWITCH_FIELDS, 'a switch');
  checkNodeName(name, path, log);
  const target = r.has('target') ? r.oneOf('target', SWITCH_TARGETS) : 'emulator';
  const bridge = target === 'linux-bridge';
  for (const key of ['grpc', 'device_id', 'cpu_port', 'program'] as const) {
    if (bridge && r.has(key)) r.log.add(C.TOPOLOGY_BAD_VALUE, r.at(key), `a "linux-bridge" has no P4Runtime, so "${key}" means nothing; remove it or change "target"`);
  }
  const grpc = address(r, 'grpc', parseGrpcText);
  const deviceId = r.integer('device_id', 0, Number.MAX_SAFE_INTEGER);
  const cpuPort = r.integer('cpu_port', 1, MAX_PORT, ' (0 is refused by BMv2 and 511 is the drop port)');
  const program = readProgram(r);
  const ina = r.boolean('ina');
  if (bridge && ina === true) r.log.add(C.TOPOLOGY_BAD_VALUE, r.at('ina'), 'a "linux-bridge" cannot aggregate; set "ina": false or change "target"');
  const role = r.oneOf('role', SWITCH_ROLES);
  const rack = r.text('rack');
  const ip = address(r, 'ip', parseIpv4);
  const mac = address(r, 'mac', parseMac);
  if (r.has('ip') !== r.has('mac')) {
    const [given, absent] = r.has('ip') ? ['ip', 'mac'] : ['mac', 'ip'];
    r.log.add(C.TOPOLOGY_MISSING_FIELD, r.at(absent), `"${name}" has "${given}" but no "${absent}": a switch answers ARP and sources packets with both; give both or neither`);
  }
  const runtimeJson = r.text('runtime_json');
  const cliInput = r.text('cli_input');
  const priorityQueues = r.integer('priority_queues', 1, 64);
  if (log.problems.length > before || target === undefined) return undefined;
  return {
    kind: 'switch',
    name,
    target,
    givenRole: role,
    givenRack: rack,
    ina: ina ?? false,
    deviceId: bridge ? undefined : (deviceId ?? index),
    grpc: bridge ? undefined : (grpc ?? `127.0.0.1:${FIRST_DEFAULT_GRPC_PORT + index}`),
    cpuPort,
    program: program ?? undefined,
    ip,
    ipText: ip === undefined ? undefined : (r.value['ip'] as string),
    mac,
    macText: mac === undefined ? undefined : (r.value['mac'] as string),
    runtimeJson,
    cliInput,
    priorityQueues,
  };
}

/** gRPC addresses are validated here and kept as text ("host:port"). */
function parseGrpcText(text: string): Parsed<string> {
  const parsed = parseGrpcAddress(text);
  return parsed.ok ? { ok: true, value: text.trim() } : parsed;
}
