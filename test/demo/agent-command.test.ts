import { createServer } from 'node:net';
import { describe, expect, test } from 'vitest';
import { AGENT_KINDS, runAgent } from '../../src/cli/agent-command.js';

function capture(): { io: { out: (l: string) => void; err: (l: string) => void }; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l) => out.push(l), err: (l) => err.push(l) }, out, err };
}

async function freeTcpPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('p4ina agent', () => {
  test('the ten kinds', () => {
    expect(Object.keys(AGENT_KINDS)).toEqual(['switchml', 'atp-worker', 'atp-ps', 'ring', 'ps-server', 'ps-worker', 'hierarchical-worker', 'rina-worker', 'omnireduce-worker', 'omnireduce-aggregator']);
  });

  test('--help: 0 and the kinds on stdout; nothing: 2 and the usage on stderr', async () => {
    const help = capture();
    expect(await runAgent(['--help'], help.io)).toBe(0);
    expect(help.out.join('\n')).toMatch(/switchml[\s\S]*atp-worker[\s\S]*atp-ps[\s\S]*ring[\s\S]*ps-server[\s\S]*ps-worker[\s\S]*hierarchical-worker[\s\S]*omnireduce-worker[\s\S]*omnireduce-aggregator/);
    const none = capture();
    expect(await runAgent([], none.io)).toBe(2);
    expect(none.err.join('\n')).toContain('usage: p4ina agent');
  });

  test('an unknown kind is 2, naming the kinds', async () => {
    const c = capture();
    expect(await runAgent(['switchm'], c.io)).toBe(2);
    expect(c.err[0]).toBe('p4ina agent: unknown kind "switchm"; choose one of switchml, atp-worker, atp-ps, ring, ps-server, ps-worker, hierarchical-worker, rina-worker, omnireduce-worker, omnireduce-aggregator');
    expect(await runAgent(['toString'], capture().io)).toBe(2);
  });

  test.each([['switchml'], ['ring'], ['ps-server'], ['ps-worker'], ['hierarchical-worker'], ['omnireduce-worker'], ['omnireduce-aggregator']])('%s --help is 0 with that kind’s usage', async (kind) => {
    const c = capture();
    expect(await runAgent([kind, '--help'], c.io)).toBe(0);
    expect(c.out.join('\n')).toMatch(/^usage: /);
  });

  test('bad options of a kind are 2 with the typed error', async () => {
    const sml = capture();
    expect(await runAgent(['switchml', '--transport', 'carrier-pigeon'], sml.io)).toBe(2);
    expect(sml.err[0]).toMatch(/^error SWITCHML_BAD_CONFIG: /);
    const ring = capture();
    expect(await runAgent(['ring', '--rank', '0', '--world', '2'], ring.io)).toBe(2);
    expect(ring.err[0]).toBe('error BASELINE_BAD_CONFIG: --peers is required');
  });

  test('ring with one rank runs and prints its JSON report (exit 0)', async () => {
    const port = await freeTcpPort();
    const c = capture();
    expect(await runAgent(['ring', '--rank', '0', '--world', '1', '--peers', `127.0.0.1:${port}`, '--length', '100', '--json', '--check'], c.io)).toBe(0);
    const report = JSON.parse(c.out.at(-1)!) as { algorithm: string; length: number; check: { boundViolations: number } };
    expect(report).toMatchObject({ algorithm: 'ring', length: 100, check: { boundViolations: 0 } });
  });

  test('ps-server and ps-worker take their role from the kind (a --role given anyway is ignored)', async () => {
    const server = capture();
    let announce: (address: string) => void = () => {};
    const listening = new Promise<string>((resolve) => (announce = resolve));
    const serverIo = {
      out: (line: string) => {
        server.out.push(line);
        const m = /listening on (\S+)/.exec(line);
        if (m) announce(m[1]!);
      },
      err: server.io.err,
    };
    const serverDone = runAgent(['ps-server', '--role', 'worker', '--world', '1', '--listen', '127.0.0.1:0', '--rounds', '1'], serverIo);
    const address = await listening;
    const worker = capture();
    expect(await runAgent(['ps-worker', '--rank', '0', '--world', '1', '--server', address, '--length', '64', '--json', '--check'], worker.io)).toBe(0);
    expect(await serverDone).toBe(0);
    expect(JSON.parse(worker.out.at(-1)!)).toMatchObject({ algorithm: 'parameter-server', length: 64, check: { boundViolations: 0 } });
    expect(server.out.at(-1)).toBe('parameter server done after 1 round(s)');
  });
});
