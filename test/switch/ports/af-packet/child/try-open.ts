/**
 * Tries to open an AF_PACKET port on argv[2] and prints `RESULT {code,
 * message}`: run unprivileged by the tests to see the permission error.
 */
import { AfPacketPort } from '../../../../../src/switch/ports/af-packet/af-packet-port.js';

let result: { code: string; message: string };
try {
  const port = AfPacketPort.open({ number: 1, iface: process.argv[2] ?? '' });
  await port.close();
  result = { code: 'opened', message: '' };
} catch (err) {
  result = { code: (err as { code?: string }).code ?? 'none', message: (err as Error).message };
}
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
