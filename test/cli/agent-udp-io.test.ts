import { describe, expect, test } from 'vitest';
import { takeUdpIoArg } from '../../src/cli/agent-udp-io.js';
import { runAgent } from '../../src/cli/agent-command.js';

describe('p4ina agent --udp-io', () => {
  test('is taken out of the argv in both spellings; the last one given wins', () => {
    expect(takeUdpIoArg(['--local', 'x', '--udp-io', 'dgram', '--json'])).toEqual({ argv: ['--local', 'x', '--json'], udpIo: 'dgram' });
    expect(takeUdpIoArg(['--udp-io=batched', '--udp-io', 'dgram'])).toEqual({ argv: [], udpIo: 'dgram' });
    expect(takeUdpIoArg(['--json'])).toEqual({ argv: ['--json'], udpIo: undefined });
  });

  test('a bad or missing value says what it takes', () => {
    expect(takeUdpIoArg(['--udp-io', 'fast'])).toEqual({ error: '--udp-io takes batched or dgram, not "fast"' });
    expect(takeUdpIoArg(['--udp-io'])).toEqual({ error: '--udp-io needs a value: batched or dgram' });
  });

  test('runAgent refuses a bad value with status 2 before the agent starts', async () => {
    const err: string[] = [];
    const status = await runAgent(['switchml', '--udp-io', 'fast'], { out: () => {}, err: (line: string) => err.push(line) });
    expect(status).toBe(2);
    expect(err).toEqual(['p4ina agent switchml: --udp-io takes batched or dgram, not "fast"']);
  });
});
