// A first session with p4ina's P4Runtime client, against a running switch:
//
//   node dist/src/cli/main.js switch --no-p4    # terminal 1: a switch with no program, P4Runtime on 127.0.0.1:9559
//   node examples/p4runtime-quickstart.mjs      # terminal 2
//
// It pushes a hand-written P4Info (forwarding.p4info.txtpb, beside this file),
// inserts entries by name, reads them back, deletes them, and shows the error a
// bad entry gets. Pass another address as the first argument.
import { fileURLToPath } from 'node:url';
import { P4RuntimeClient, P4WriteError, action, del, insert, readP4InfoFile, table } from 'p4ina';

const address = process.argv[2] ?? '127.0.0.1:9559';
const p4info = readP4InfoFile(fileURLToPath(new URL('./forwarding.p4info.txtpb', import.meta.url)));

const client = new P4RuntimeClient({ address, deviceId: 0, electionId: 1n, reconnect: false });
try {
  const { primary } = await client.connect();
  console.log(`connected to ${address} as ${primary ? 'primary' : 'backup'}`);

  const { pushed, cookie } = await client.setPipeline({ p4info, deviceConfig: Buffer.alloc(0) });
  console.log(pushed ? `pushed the pipeline (cookie ${cookie})` : 'the switch already runs this pipeline');

  const entries = [
    table('MyIngress.l2_exact', { 'hdr.ethernet.dst_addr': '00:00:00:00:01:01' }, action('MyIngress.forward', { port: 1 })),
    table('l2_exact', { 'hdr.ethernet.dst_addr': '00:00:00:00:01:02' }, action('forward', { port: 2 })),
    table('ipv4_lpm', { 'hdr.ipv4.dst_addr': '10.0.1.0/24' }, action('set_nhop', { dmac: '00:00:00:00:01:01', port: 1 })),
  ];
  await client.write(entries.map(insert));
  console.log(`inserted ${entries.length} entries`);

  for await (const entry of client.read(table('l2_exact'))) {
    console.log(`  ${entry.table}: ${JSON.stringify(entry.match)} -> ${entry.action.name} ${JSON.stringify(entry.action.params)}`);
  }

  try {
    // The switch refuses an entry that is there already, and says which update failed and why.
    await client.write([
      insert(table('l2_exact', { 'hdr.ethernet.dst_addr': '00:00:00:00:01:01' }, action('forward', { port: 1 }))),
    ]);
  } catch (err) {
    if (!(err instanceof P4WriteError)) throw err;
    console.log(`a duplicate entry is refused: ${err.message}`);
  }
  try {
    // Port is a 9-bit parameter: the client refuses 600 before anything is sent.
    await client.write([insert(table('l2_exact', { 'hdr.ethernet.dst_addr': '00:00:00:00:01:03' }, action('forward', { port: 600 })))]);
  } catch (err) {
    console.log(`a bad entry is refused before it is sent: ${err.code}: ${err.message}`);
  }

  await client.write(entries.map(del));
  let left = 0;
  for await (const _ of client.read(table('*'))) left++;
  console.log(`deleted them again; ${left} entries left`);
} finally {
  await client.close();
}
