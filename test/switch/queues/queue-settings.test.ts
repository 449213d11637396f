/** Queue settings from the command line (`--port-rate`, `--queue-depth`) and their typed errors. */
import { describe, expect, it } from 'vitest';
import { parseSwitchArgs } from '../../../src/cli/switch-command.js';
import { formatPortRate, parsePortRate } from '../../../src/switch/queues/port-rate.js';
import { parsePortRateArg, parseQueueDepthArg } from '../../../src/switch/queues/queue-setting.js';

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

describe('rates', () => {
  it('reads packets/s and bits/s with k, M, G prefixes (powers of 1000); a bare number is packets/s', () => {
    expect(parsePortRate('1000pps')).toEqual({ unit: 'pps', value: 1000 });
    expect(parsePortRate('2.5kpps')).toEqual({ unit: 'pps', value: 2500 });
    expect(parsePortRate('0.1kpps')).toEqual({ unit: 'pps', value: 100 });
    expect(parsePortRate('10Mbps')).toEqual({ unit: 'bps', value: 10_000_000 });
    expect(parsePortRate('10mbps')).toEqual({ unit: 'bps', value: 10_000_000 });
    expect(parsePortRate('1Gbps')).toEqual({ unit: 'bps', value: 1e9 });
    expect(parsePortRate('800kbps')).toEqual({ unit: 'bps', value: 800_000 });
    expect(parsePortRate('64bps')).toEqual({ unit: 'bps', value: 64 });
    expect(parsePortRate('250')).toEqual({ unit: 'pps', value: 250 });
    expect(parsePortRate('unlimited')).toBe('unlimited');
  });

  it('refuses what is not a rate, with a code', () => {
    for (const bad of ['', 'fast', '10Mb', '10 Mbps', '-5pps', '1e3pps', '10Tbps', 'pps']) expect(code(() => parsePortRate(bad))).toBe('QUEUE_RATE_SYNTAX');
    expect(code(() => parsePortRate('0pps'))).toBe('QUEUE_RATE_RANGE');
    expect(code(() => parsePortRate('0'))).toBe('QUEUE_RATE_RANGE');
    expect(code(() => parsePortRate('2000Gbps'))).toBe('QUEUE_RATE_RANGE');
  });

  it('prints rates back in the same syntax', () => {
    for (const text of ['1000pps', '2500pps', '10Mbps', '1Gbps', '800kbps', '64bps', '1.5pps']) {
      const rate = parsePortRate(text);
      expect(rate).not.toBe('unlimited');
      expect(parsePortRate(formatPortRate(rate === 'unlimited' ? undefined : rate))).toEqual(rate);
    }
    expect(formatPortRate({ unit: 'pps', value: 2500 })).toBe('2500pps');
    expect(formatPortRate({ unit: 'bps', value: 1e7 })).toBe('10Mbps');
  });
});

describe('RATE[@PORT] and N[@PORT]', () => {
  it('reads a setting for every port or for one', () => {
    expect(parsePortRateArg('10Mbps')).toEqual({ rate: { unit: 'bps', value: 1e7 } });
    expect(parsePortRateArg('1000pps@3')).toEqual({ port: 3, rate: { unit: 'pps', value: 1000 } });
    expect(parsePortRateArg('unlimited@510')).toEqual({ port: 510, rate: 'unlimited' });
    expect(parseQueueDepthArg('100')).toEqual({ depth: 100 });
    expect(parseQueueDepthArg('16@0')).toEqual({ port: 0, depth: 16 });
    expect(parseQueueDepthArg('65536')).toEqual({ depth: 65536 });
  });

  it('refuses bad ports and depths with a code', () => {
    expect(code(() => parsePortRateArg('10Mbps@511'))).toBe('QUEUE_PORT_RANGE');
    expect(code(() => parsePortRateArg('10Mbps@x'))).toBe('QUEUE_PORT_RANGE');
    expect(code(() => parsePortRateArg('10Mbps@'))).toBe('QUEUE_PORT_RANGE');
    expect(code(() => parseQueueDepthArg('0'))).toBe('QUEUE_DEPTH_RANGE');
    expect(code(() => parseQueueDepthArg('65537'))).toBe('QUEUE_DEPTH_RANGE');
    expect(code(() => parseQueueDepthArg('1.5'))).toBe('QUEUE_DEPTH_RANGE');
    expect(code(() => parseQueueDepthArg('ten@2'))).toBe('QUEUE_DEPTH_RANGE');
    expect(code(() => parseQueueDepthArg('10@999'))).toBe('QUEUE_PORT_RANGE');
  });
});

describe('p4ina switch --port-rate / --queue-depth', () => {
  it('collects the settings in order, repeatable, as --flag value or --flag=value', () => {
    const o = parseSwitchArgs(['--no-p4', '--port-rate', '10Mbps', '--port-rate=1000pps@2', '--queue-depth', '16@2', '--queue-depth=100']);
    expect(o.queues).toEqual([{ rate: { unit: 'bps', value: 1e7 } }, { port: 2, rate: { unit: 'pps', value: 1000 } }, { port: 2, depth: 16 }, { depth: 100 }]);
    expect(parseSwitchArgs(['--no-p4']).queues).toEqual([]);
  });

  it("accepts BMv2's target option --priority-queues N (and ignores it: one queue per port)", () => {
    expect(parseSwitchArgs(['--no-p4', '--', '--priority-queues', '8']).priorityQueues).toBe(8);
    expect(() => parseSwitchArgs(['--no-p4', '--priority-queues', '8'])).toThrow(/unknown option/);
  });

  it('turns a bad value into a usage error that names the flag and says what to write', () => {
    expect(() => parseSwitchArgs(['--no-p4', '--port-rate', '10Mb'])).toThrow(/--port-rate 10Mb: .*10Mbps/);
    expect(() => parseSwitchArgs(['--no-p4', '--queue-depth', '0@1'])).toThrow(/--queue-depth 0@1: .*from 1 to 65536/);
    expect(() => parseSwitchArgs(['--no-p4', '--port-rate'])).toThrow(/needs a value/);
    expect(code(() => parseSwitchArgs(['--no-p4', '--port-rate', 'x']))).toBe('CLI_USAGE');
  });
});
