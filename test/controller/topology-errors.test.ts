import { describe, expect, test } from 'vitest';
import { ControllerError, parseTopology } from '../../src/controller/index.js';
import { errorOf, fixtureJson, problemsOf } from './helpers.js';

type Json = Record<string, unknown>;
type Mutation = (json: Json) => void;

const hosts = (j: Json): Record<string, Json> => j['hosts'] as Record<string, Json>;
const switches = (j: Json): Record<string, Json> => j['switches'] as Record<string, Json>;
const links = (j: Json): unknown[] => j['links'] as unknown[];

/** Applies `mutate` to a fixture and returns the [code, path] of every problem reported. */
function problems(fixtureName: string, mutate: Mutation): [string, string][] {
  const json = fixtureJson(fixtureName);
  mutate(json);
  return problemsOf(() => parseTopology(json));
}

describe('every validation error has its code and the JSON path to fix', () => {
  const cases: [string, string, Mutation, [string, string][]][] = [
    ['missing sections', 'single-switch.json', (j) => { delete j['hosts']; delete j['links']; },
      [['TOPOLOGY_MISSING_FIELD', '$.hosts'], ['TOPOLOGY_MISSING_FIELD', '$.links']]],
    ['a section of the wrong type', 'single-switch.json', (j) => { j['links'] = {}; }, [['TOPOLOGY_WRONG_TYPE', '$.links']]],
    ['an unknown top-level field', 'single-switch.json', (j) => { j['switchs'] = {}; }, [['TOPOLOGY_UNKNOWN_FIELD', '$.switchs']]],
    ['a host without ip and mac', 'tutorial-pod.json', (j) => { hosts(j)['h1'] = {}; },
      [['TOPOLOGY_MISSING_FIELD', '$.hosts.h1.ip'], ['TOPOLOGY_MISSING_FIELD', '$.hosts.h1.mac']]],
    ['a host that is not an object', 'tutorial-pod.json', (j) => { (j['hosts'] as Record<string, unknown>)['h1'] = '10.0.1.1'; }, [['TOPOLOGY_WRONG_TYPE', '$.hosts.h1']]],
    ['malformed addresses', 'tutorial-pod.json', (j) => { hosts(j)['h1']!['ip'] = '10.0.1/24'; hosts(j)['h2']!['mac'] = '08:00:00:00:01'; hosts(j)['h3']!['ip'] = '10.0.2.3/33'; },
      [['TOPOLOGY_BAD_ADDRESS', '$.hosts.h1.ip'], ['TOPOLOGY_BAD_ADDRESS', '$.hosts.h2.mac'], ['TOPOLOGY_BAD_ADDRESS', '$.hosts.h3.ip']]],
    ['a command that is not a string', 'tutorial-pod.json', (j) => { hosts(j)['h1']!['commands'] = ['ok', 7]; }, [['TOPOLOGY_WRONG_TYPE', '$.hosts.h1.commands[1]']]],
    ['a misspelt switch field', 'single-switch.json', (j) => { switches(j)['s1']!['devce_id'] = 3; }, [['TOPOLOGY_UNKNOWN_FIELD', '$.switches.s1.devce_id']]],
    ['an unknown target and role', 'single-switch.json', (j) => { switches(j)['s1']!['target'] = 'ovs'; switches(j)['s1']!['role'] = 'leaf'; },
      [['TOPOLOGY_BAD_VALUE', '$.switches.s1.target'], ['TOPOLOGY_BAD_VALUE', '$.switches.s1.role']]],
    ['a bad gRPC address and cpu port', 'single-switch.json', (j) => { switches(j)['s1']!['grpc'] = 'localhost'; switches(j)['s1']!['cpu_port'] = 511; },
      [['TOPOLOGY_BAD_ADDRESS', '$.switches.s1.grpc'], ['TOPOLOGY_BAD_VALUE', '$.switches.s1.cpu_port']]],
    ['ina that is not a boolean', 'single-switch.json', (j) => { switches(j)['s1']!['ina'] = 'yes'; }, [['TOPOLOGY_WRONG_TYPE', '$.switches.s1.ina']]],
    ['a switch with an ip but no mac', 'single-switch.json', (j) => { delete switches(j)['s1']!['mac']; }, [['TOPOLOGY_MISSING_FIELD', '$.switches.s1.mac']]],
    ['an INA switch without its own address', 'single-switch.json', (j) => { delete switches(j)['s1']!['mac']; delete switches(j)['s1']!['ip']; },
      [['TOPOLOGY_INA_WITHOUT_ADDRESS', '$.switches.s1']]],
    ['a program object naming no file', 'single-switch.json', (j) => { switches(j)['s1']!['program'] = {}; }, [['TOPOLOGY_MISSING_FIELD', '$.switches.s1.program']]],
    ['a P4Info without a device config', 'single-switch.json', (j) => { switches(j)['s1']!['program'] = { p4info: 'x.txtpb' }; }, [['TOPOLOGY_MISSING_FIELD', '$.switches.s1.program.config']]],
    ['P4Runtime fields on a Linux bridge', 'single-switch.json', (j) => { switches(j)['s1']!['target'] = 'linux-bridge'; },
      [['TOPOLOGY_BAD_VALUE', '$.switches.s1.grpc'], ['TOPOLOGY_BAD_VALUE', '$.switches.s1.device_id'], ['TOPOLOGY_BAD_VALUE', '$.switches.s1.cpu_port'], ['TOPOLOGY_BAD_VALUE', '$.switches.s1.program'], ['TOPOLOGY_BAD_VALUE', '$.switches.s1.ina']]],
    ['a rack name on a spine', 'leaf-spine-1.json', (j) => { switches(j)['s3']!['rack'] = 'r3'; }, [['TOPOLOGY_BAD_VALUE', '$.switches.s3.rack']]],
    ['a name used by a host and a switch', 'tutorial-pod.json', (j) => { switches(j)['h1'] = {}; }, [['TOPOLOGY_DUPLICATE_NAME', '$.switches.h1']]],
    ['a node name that looks like a port', 'tutorial-pod.json', (j) => { switches(j)['s9-p1'] = {}; links(j).push(['s9-p1-p1', 's3-p9']); },
      [['TOPOLOGY_BAD_NAME', '$.switches["s9-p1"]']]],
    ['a link to an unknown node', 'tutorial-pod.json', (j) => { links(j).push(['h9', 's1-p9'], ['h1', 's9-p1']); },
      [['TOPOLOGY_UNKNOWN_NODE', '$.links[8][0]'], ['TOPOLOGY_UNKNOWN_NODE', '$.links[9][1]']]],
    ['a switch end without a port, a host end with one', 'tutorial-pod.json', (j) => { links(j)[0] = ['h1', 's1']; links(j)[1] = ['s1-p2', 'h2-p1']; },
      [['TOPOLOGY_BAD_ENDPOINT', '$.links[0][1]'], ['TOPOLOGY_BAD_ENDPOINT', '$.links[1][1]']]],
    ['a port beyond 510', 'tutorial-pod.json', (j) => { links(j)[0] = ['h1', 's1-p511']; }, [['TOPOLOGY_BAD_VALUE', '$.links[0][1]']]],
    ['a link array of the wrong length, a bad latency and bandwidth', 'tutorial-pod.json', (j) => { links(j)[0] = ['h1']; links(j)[1] = ['s1-p2', 'h2', '5 parsecs', -1]; },
      [['TOPOLOGY_BAD_VALUE', '$.links[0]'], ['TOPOLOGY_BAD_VALUE', '$.links[1][2]'], ['TOPOLOGY_BAD_VALUE', '$.links[1][3]']]],
    ['an object link with one end and an unknown field', 'single-switch.json', (j) => { links(j)[0] = { nodes: ['h1'], delay: 1 }; },
      [['TOPOLOGY_UNKNOWN_FIELD', '$.links[0].delay'], ['TOPOLOGY_BAD_VALUE', '$.links[0].nodes']]],
    ['a port used twice', 'tutorial-pod.json', (j) => { links(j)[5] = ['h4', 's1-p1']; }, [['TOPOLOGY_PORT_IN_USE', '$.links[5][1]']]],
    ['a link on the CPU port', 'tutorial-pod.json', (j) => { switches(j)['s1']!['cpu_port'] = 3; }, [['TOPOLOGY_PORT_IS_CPU_PORT', '$.links[2][0]']]],
    ['a host-to-host link', 'tutorial-pod.json', (j) => { links(j)[0] = ['h1', 'h2']; }, [['TOPOLOGY_HOST_TO_HOST', '$.links[0]']]],
    ['a switch linked to itself', 'tutorial-pod.json', (j) => { links(j).push(['s1-p7', 's1-p8']); }, [['TOPOLOGY_SELF_LINK', '$.links[8]']]],
    ['a multi-homed host', 'tutorial-pod.json', (j) => { links(j).push(['h1', 's2-p9']); }, [['TOPOLOGY_HOST_MULTI_HOMED', '$.links[8][0]']]],
    ['a host without a link', 'tutorial-pod.json', (j) => { links(j).splice(0, 1); }, [['TOPOLOGY_HOST_UNLINKED', '$.hosts.h1']]],
    ['a host under a spine', 'leaf-spine-1.json', (j) => { links(j)[0] = { nodes: ['h1', 's3-p9'] }; }, [['TOPOLOGY_HOST_UNDER_NON_TOR', '$.links[0].nodes[0]']]],
    ['duplicate IP, MAC, device id and gRPC address', 'leaf-spine-1.json', (j) => {
      hosts(j)['h2']!['ip'] = '10.0.1.1/24';
      switches(j)['s3']!['mac'] = '08:00:00:00:02:02';
      switches(j)['s2']!['device_id'] = 1;
      switches(j)['s3']!['grpc'] = '0.0.0.0:50051';
    }, [
      ['TOPOLOGY_DUPLICATE_IP', '$.hosts.h2.ip'],
      ['TOPOLOGY_DUPLICATE_DEVICE_ID', '$.switches.s2.device_id'],
      ['TOPOLOGY_DUPLICATE_MAC', '$.switches.s3.mac'],
      ['TOPOLOGY_DUPLICATE_GRPC_ADDRESS', '$.switches.s3.grpc'],
    ]],
    ['a duplicate rack name', 'leaf-spine-1.json', (j) => { switches(j)['s2']!['rack'] = 'r1'; }, [['TOPOLOGY_DUPLICATE_NAME', '$.switches.s2.rack']]],
    ['a part of the network nobody can reach', 'leaf-spine-1.json', (j) => { links(j).splice(5, 1); }, [['TOPOLOGY_DISCONNECTED', '$.links']]],
  ];

  test.each(cases)('%s', (_, name, mutate, expected) => {
    expect(problems(name, mutate)).toEqual(expected);
  });
});

describe('messages say what to fix', () => {
  test('a typo gets a suggestion', () => {
    const json = fixtureJson('single-switch.json');
    (json['switches'] as Record<string, Json>)['s1']!['device'] = 2;
    expect(errorOf(() => parseTopology(json)).message).toContain('did you mean "device_id"?');
  });

  test('a port used twice names the link that has it', () => {
    const json = fixtureJson('tutorial-pod.json');
    links(json).push(['s1-p3', 's4-p9']);
    expect(errorOf(() => parseTopology(json)).message).toBe(
      '$.links[8][0]: port 3 of "s1" is already used by $.links[2]; a port takes one link, pick a free one',
    );
  });

  test('a default device id that collides says it is a default', () => {
    const json = fixtureJson('tutorial-pod.json');
    switches(json)['s1']!['device_id'] = 1;
    const error = errorOf(() => parseTopology(json));
    expect(error.problems.map((p) => [p.code, p.path])).toEqual([['TOPOLOGY_DUPLICATE_DEVICE_ID', '$.switches.s2']]);
    expect(error.message).toContain('the default device_id 1 (from the switch\'s position; set "device_id")');
  });

  test('several problems are reported together, each on its own line', () => {
    const json = fixtureJson('tutorial-pod.json');
    hosts(json)['h1']!['ip'] = 'nope';
    switches(json)['s2']!['role'] = 'leaf';
    const error = errorOf(() => parseTopology(json, { sourcePath: 'pod.json' }));
    expect(error).toBeInstanceOf(ControllerError);
    expect(error.code).toBe('TOPOLOGY_BAD_ADDRESS');
    expect(error.path).toBe('$.hosts.h1.ip');
    expect(error.message.split('\n')).toEqual([
      'pod.json: 2 problems:',
      '  $.hosts.h1.ip: "nope" is not an IPv4 address; write four decimal octets, e.g. 10.0.1.1',
      '  $.switches.s2.role: "role" must be one of "tor", "spine", "core", not "leaf"',
    ]);
  });

  test('input that is not even an object never crashes', () => {
    for (const junk of [null, 42, 'topology', [], true]) {
      expect(problemsOf(() => parseTopology(junk))).toEqual([['TOPOLOGY_WRONG_TYPE', '$']]);
    }
  });
});
