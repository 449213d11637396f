import { describe, expect, test } from 'vitest';
import { DEFAULT_DEMO_OPTIONS, parseDemoArgs, parseTensorSize } from '../../src/demo/demo-options.js';
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
    expect(DEFAULT_DEMO_OPTIONS).toMatchObject({ workers: 4, tensorBytes: 16 * 1024 * 1024, loss: 0, seed: 1, json: false, keepGoing: false });
  });

  test('every option', () => {
    expect(parseDemoArgs(['--workers', '8', '--tensor', '1MiB', '--loss', '0.05', '--seed', 'abc', '--pool', '16', '--timeout', '90', '--json', '--keep-going'])).toEqual({
      workers: 8,
      tensorBytes: 1024 * 1024,
      loss: 0.05,
      seed: 'abc',
      poolSize: 16,
      runTimeoutMs: 90_000,
      json: true,
      keepGoing: true,
    });
  });

  test('a numeric seed is a number, as the workers read it', () => {
    expect(parseDemoArgs(['--seed', '42'])?.seed).toBe(42);
    expect(parseDemoArgs(['--seed=-3'])?.seed).toBe(-3);
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
  ])('%j is DEMO_BAD_OPTION', (argv) => {
    expect(codeOf(() => parseDemoArgs(argv))).toBe('DEMO_BAD_OPTION');
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
