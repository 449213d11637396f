import { describe, expect, test } from 'vitest';
import { DEFAULT_DEMO_OPTIONS, DEMO_USAGE, demoRacks, parseDemoArgs, parseTensorSize } from '../../src/demo/demo-options.js';
import { DemoError } from '../../src/demo/demo-error.js';

function codeOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (err) {
    return err instanceof DemoError ? err.code : `not a DemoError: ${String(err)}`;
  }
  return undefined;
}

describe('parseDemoArgs', () => {
  test('no options: the defaults (4 workers, 16 MiB, no loss, seed 1)', () => {
    expect(parseDemoArgs([])).toEqual(DEFAULT_DEMO_OPTIONS);
    expect(DEFAULT_DEMO_OPTIONS).toMatchObject({ algorithms: ['switchml', 'ring'], workers: 4, tensorBytes: 16 * 1024 * 1024, loss: 0, seed: 1, json: false, keepGoing: false });
    // 256 values (1 KiB) per packet; SwitchML's own 64 with --elements 64.
    expect(DEFAULT_DEMO_OPTIONS.switchMlElements).toBe(256);
  });

  test('every option', () => {
    expect(parseDemoArgs(['--algorithm', 'switchml,atp,ring', '--workers', '8', '--tensor', '1MiB', '--loss', '0.05', '--seed', 'abc', '--pool', '16', '--elements', '128', '--timeout', '90', '--json', '--keep-going'])).toEqual({
      algorithms: ['switchml', 'atp', 'ring'],
      workers: 8,
      tensorBytes: 1024 * 1024,
      loss: 0.05,
      seed: 'abc',
      poolSize: 16,
      switchMlElements: 128,
      runTimeoutMs: 90_000,
      json: true,
      keepGoing: true,
    });
  });

  test('a numeric seed is a number, as the workers read it', () => {
    expect(parseDemoArgs(['--seed', '42'])?.seed).toBe(42);
    expect(parseDemoArgs(['--seed=-3'])?.seed).toBe(-3);
  });

  test('--sparsity, --pattern and --sparse-block make every algorithm\'s tensors block-sparse', () => {
    expect(parseDemoArgs(['--sparsity', '0.9'])?.sparsity).toEqual({ sparsity: 0.9, pattern: 'random', blockElements: 256 });
    expect(parseDemoArgs(['--sparsity', '0.5', '--pattern', 'per-worker', '--sparse-block', '64'])?.sparsity).toEqual({ sparsity: 0.5, pattern: 'per-worker', blockElements: 64 });
    expect(parseDemoArgs([])?.sparsity).toBeUndefined();
    expect(() => parseDemoArgs(['--sparsity', '1.1'])).toThrow(expect.objectContaining({ code: 'DEMO_BAD_OPTION', message: expect.stringMatching(/--sparsity/) }));
  });

  test('--help gives undefined', () => {
    expect(parseDemoArgs(['--help'])).toBeUndefined();
    expect(parseDemoArgs(['-h'])).toBeUndefined();
  });

  test.each([
    [['--workers', '0']],
    [['--workers', '33']],
    [['--workers', 'four']],
    [['--tensor', '3']],
    [['--tensor', '16QiB']],
    [['--loss', '0.9']],
    [['--loss', '-0.1']],
    [['--loss', 'lots']],
    [['--seed', '  ']],
    [['--pool', '0']],
    [['--timeout', '0']],
    [['--bogus']],
    [['positional']],
    [['--workers']],
    [['--algorithm', 'rina']],
    [['--algorithm', '']],
    [['--algorithm', 'atp,,ring']],
    [['--algorithm', 'ring,atp,ring']],
    [['--algorithm']],
    [['--algorithm', 'atp', '--workers', '32']],
    [['--algorithm', 'atp', '--pool', '4097']],
    [['--racks', '0,0,1,1']],
    [['--algorithm', 'hierarchical', '--racks', '0,0,1']],
    [['--algorithm', 'hierarchical', '--racks', '0,,1,1']],
  ])('%j is DEMO_BAD_OPTION', (argv) => {
    expect(codeOf(() => parseDemoArgs(argv))).toBe('DEMO_BAD_OPTION');
  });
});

describe('--algorithm', () => {
  test('a list runs in the order given; names are case-blind and may have spaces around them', () => {
    expect(parseDemoArgs(['--algorithm', 'switchml,atp,ps,ring'])?.algorithms).toEqual(['switchml', 'atp', 'ps', 'ring']);
    expect(parseDemoArgs(['--algorithm', ' ATP , ps'])?.algorithms).toEqual(['atp', 'ps']);
    expect(parseDemoArgs(['--algorithm=ring'])?.algorithms).toEqual(['ring']);
  });

  test('the errors say what is wrong', () => {
    expect(() => parseDemoArgs(['--algorithm', 'atp,rina'])).toThrow(/"rina" is not one/);
    expect(() => parseDemoArgs(['--algorithm', 'atp,atp'])).toThrow(/atp twice/);
    expect(() => parseDemoArgs(['--algorithm', 'atp', '--workers', '32'])).toThrow(/at most 31 with atp/);
    // 32 workers are fine without ATP (SwitchML's limit).
    expect(parseDemoArgs(['--algorithm', 'switchml,ps', '--workers', '32'])?.workers).toBe(32);
    expect(() => parseDemoArgs(['--algorithm', 'switchml,atp', '--pool', '5000'])).toThrow(/at most 4096 with atp/);
    expect(parseDemoArgs(['--algorithm', 'switchml', '--pool', '5000'])?.poolSize).toBe(5000);
  });
});

describe('--elements, SwitchML\'s values per packet', () => {
  test('any count from 1 to 364, the most whose packet fits a 1500-byte MTU', () => {
    expect(parseDemoArgs(['--elements', '128'])?.switchMlElements).toBe(128);
    expect(parseDemoArgs(['--elements=1'])?.switchMlElements).toBe(1);
    expect(parseDemoArgs(['--algorithm', 'switchml', '--elements', '364'])?.switchMlElements).toBe(364);
    expect(parseDemoArgs(['--algorithm', 'ring'])?.switchMlElements).toBe(256);
  });

  test('the errors say what is wrong', () => {
    for (const n of ['0', '365', '64.5', 'many', '']) {
      expect(() => parseDemoArgs(['--elements', n])).toThrow(expect.objectContaining({ code: 'DEMO_BAD_OPTION', message: `--elements must be an integer in 1..364, got "${n}"` }));
    }
    expect(() => parseDemoArgs(['--algorithm', 'atp,ring', '--elements', '256'])).toThrow(/--elements applies to switchml only/);
  });

  test('--help documents it', () => {
    expect(DEMO_USAGE).toMatch(/--elements E +int32 values per SwitchML packet \(1\.\.364; default 256; 64 is SwitchML's own\)/);
    expect(DEMO_USAGE).toContain('-DSWITCHML_ELEMENTS=E');
  });
});

describe('parseTensorSize', () => {
  test.each([
    ['16MiB', 16 * 1024 * 1024],
    ['64 KiB', 64 * 1024],
    ['64kib', 64 * 1024],
    ['1MB', 1_000_000],
    ['4096', 4096],
    ['4096B', 4096],
    ['1.5MiB', 1.5 * 1024 * 1024],
    ['1GiB', 1024 ** 3],
  ])('%s is %d bytes', (text, bytes) => {
    expect(parseTensorSize(text)).toBe(bytes);
  });

  test('sizes that are not whole float32 tensors or too large are refused with a message saying why', () => {
    expect(() => parseTensorSize('1001')).toThrow(/multiple of 4/);
    expect(() => parseTensorSize('2GiB')).toThrow(/4 to 1GiB/);
    expect(() => parseTensorSize('0')).toThrow(/4 to 1GiB/);
    expect(() => parseTensorSize('1.1')).toThrow(/whole number/);
  });
});

describe('--racks, for hierarchical AllReduce', () => {
  test('default: pairs of hosts, the last rack a single host when the count is odd', () => {
    const options = parseDemoArgs(['--algorithm', 'hierarchical,ring', '--workers', '5']);
    expect(options?.algorithms).toEqual(['hierarchical', 'ring']);
    expect(options?.racks).toBeUndefined();
    expect(demoRacks(options!)).toEqual(['0', '0', '1', '1', '2']);
  });

  test('a list gives each worker its rack, in rank order', () => {
    const options = parseDemoArgs(['--algorithm', 'hierarchical', '--workers', '4', '--racks', ' a,b, a,b']);
    expect(options?.racks).toEqual(['a', 'b', 'a', 'b']);
    expect(demoRacks(options!)).toEqual(['a', 'b', 'a', 'b']);
  });

  test('the errors say what is wrong', () => {
    expect(() => parseDemoArgs(['--algorithm', 'ring', '--racks', '0,0,1,1'])).toThrow(/--racks applies to hierarchical AllReduce only/);
    expect(() => parseDemoArgs(['--algorithm', 'hierarchical', '--racks', '0,0'])).toThrow(/--racks lists 2 rack\(s\) but there are 4 workers/);
    expect(() => parseDemoArgs(['--algorithm', 'hierarchical', '--racks', '0,0,,1'])).toThrow(/--racks entry 2 is empty/);
  });
});
