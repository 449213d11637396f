import { afterEach, describe, expect, test, vi } from 'vitest';
import { run } from '../../src/cli/demo-command.js';
import { commands } from '../../src/cli/commands.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function captureStreams(): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  return { out: () => out, err: () => err };
}

describe('p4ina demo (the command)', () => {
  test('is registered with agent', async () => {
    expect(Object.keys(commands)).toEqual(expect.arrayContaining(['agent', 'demo']));
    expect(typeof (await commands.demo!.load()).run).toBe('function');
    expect(typeof (await commands.agent!.load()).run).toBe('function');
  });

  test('--help: 0, the usage on stdout', async () => {
    const io = captureStreams();
    expect(await run(['--help'])).toBe(0);
    expect(io.out()).toMatch(/^usage: p4ina demo \[options\]/);
    expect(io.out()).toContain('--keep-going');
  });

  test('a bad option: 2, the reason and the usage on stderr, nothing started', async () => {
    const io = captureStreams();
    expect(await run(['--workers', '0'])).toBe(2);
    expect(io.err()).toMatch(/^p4ina demo: --workers must be an integer in 1\.\.32, got "0"\n\nusage: p4ina demo/);
    expect(io.out()).toBe('');
  });
});
