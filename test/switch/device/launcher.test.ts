import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSwitchArgs } from '../../../src/cli/switch-command.js';
import { writeP4InfoFile } from '../../../src/p4info/index.js';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import { readProgram } from '../../../src/switch/device/switch-launcher.js';
import { compileCorpus } from '../pipeline/harness.js';
import { udpRig, type UdpRig } from './udp-rig.js';

const dirs: string[] = [];
let rig: UdpRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'p4ina-launch-'));
  dirs.push(d);
  return d;
}

/** Writes NAME.ir.json and NAME.p4info.txtpb as `p4ina compile` does. */
function compileTo(dir: string, name: string): string {
  const p = compileCorpus(name);
  const config = path.join(dir, `${name}.ir.json`);
  writeFileSync(config, p.irText);
  writeP4InfoFile(path.join(dir, `${name}.p4info.txtpb`), p.p4info);
  return config;
}

describe('starting the switch with a program', () => {
  it('finds the P4Info beside NAME.ir.json, or takes --p4info', () => {
    const dir = tempDir();
    const config = compileTo(dir, 'calc');
    expect(readProgram(config, undefined).p4infoFile).toBe(path.join(dir, 'calc.p4info.txtpb'));
    const other = path.join(dir, 'elsewhere.txtpb');
    writeP4InfoFile(other, compileCorpus('calc').p4info);
    expect(readProgram(config, other).p4infoFile).toBe(other);
  });

  it('refuses BMv2 JSON, non-IR files and a missing P4Info with a message saying what to do', () => {
    const dir = tempDir();
    const bmv2 = path.join(dir, 'prog.json');
    writeFileSync(bmv2, JSON.stringify({ __meta__: { version: [2, 23] }, pipelines: [] }));
    expect(() => readProgram(bmv2, undefined)).toThrow(/BMv2 JSON.*p4ina compile/);
    const junk = path.join(dir, 'junk.ir.json');
    writeFileSync(junk, '{"format": "other"}');
    expect(() => readProgram(junk, undefined)).toThrow(/not p4ina IR/);
    const lonely = path.join(dir, 'lonely.ir.json');
    writeFileSync(lonely, compileCorpus('calc').irText);
    expect(() => readProgram(lonely, undefined)).toThrow(/--p4info/);
    expect(() => readProgram(path.join(dir, 'missing.ir.json'), undefined)).toThrow(/cannot read CONFIG/);
  });

  it('runs CONFIG from the start, with no P4Runtime push (calc answers from its const entries)', async () => {
    const dir = tempDir();
    rig = await udpRig([1], { configFile: compileTo(dir, 'calc') });
    const request = Buffer.from('000000000002000000000001123450340126000000070000000500000000', 'hex');
    await rig.hosts.get(1)!.send(request);
    const reply = Buffer.from(request);
    request.copy(reply, 0, 6, 12);
    request.copy(reply, 6, 0, 6);
    reply.writeUInt32BE(7 & 5, 26); // op 0x26 is '&'
    expect(await rig.hosts.get(1)!.frames(1)).toEqual([reply.toString('hex')]);
  });

  it('the command line takes -i, --pcap, --p4info and CONFIG', () => {
    const o = parseSwitchArgs(['-i', '1@udp:127.0.0.1:0:127.0.0.1:9001', '--pcap', 'pcaps', '--p4info', 'x.p4info.txtpb', 'x.ir.json', '--', '--cpu-port', '255']);
    expect(o).toMatchObject({ interfaces: [{ port: 1, iface: 'udp:127.0.0.1:0:127.0.0.1:9001' }], pcapDir: 'pcaps', p4info: 'x.p4info.txtpb', config: 'x.ir.json', cpuPort: 255 });
  });
});

describe('pipelines the executor cannot run are refused at VERIFY, before anything changes', () => {
  it('a program with a varbit field: INVALID_ARGUMENT naming it; the running pipeline stays', async () => {
    const text = `
#include <core.p4>
#include <v1model.p4>
header opt_t { bit<8> len; varbit<320> data; }
struct headers { opt_t o; }
struct metadata { }
parser P(packet_in pkt, out headers h, inout metadata m, inout standard_metadata_t sm) {
  state start { pkt.extract(h.o, 32w16); transition accept; }
}
control V(inout headers h, inout metadata m) { apply { } }
control I(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control E(inout headers h, inout metadata m, inout standard_metadata_t sm) { apply { } }
control C(inout headers h, inout metadata m) { apply { } }
control D(packet_out pkt, in headers h) { apply { pkt.emit(h.o); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`;
    const varbit = compileCorpus('varbit_test', text);
    rig = await udpRig([1], { configFile: compileTo(tempDir(), 'calc') });
    const config = decodeMessage<p4r.ForwardingPipelineConfig__Output>(
      'p4.v1.ForwardingPipelineConfig',
      encodeMessage('p4.v1.ForwardingPipelineConfig', { p4info: varbit.p4info, p4_device_config: Buffer.from(varbit.irText) }),
    );
    for (const action of ['VERIFY', 'VERIFY_AND_COMMIT']) {
      const status = rig.sw.device.state.setPipeline(action, config);
      expect(status.code).toBe(3);
      expect(status.message).toMatch(/varbit/);
    }
    // The refused pipelines changed nothing: calc's program and its table are still there.
    expect(rig.sw.device.state.pipeline!.schema.tables.find('MyIngress.calculate')?.name).toBe('MyIngress.calculate');
  });
});
