import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { ControllerError, parseTopology, type Topology } from '../../src/controller/index.js';

export const fixturePath = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** The JSON of a fixture, as a fresh object a test may change. */
export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(fixturePath(name), 'utf8')) as Record<string, unknown>;
}

export function fixture(name: string): Topology {
  return parseTopology(fixtureJson(name), { sourcePath: name });
}

/** Runs `fn`, expects a ControllerError, returns its problems as [code, path] pairs. */
export function problemsOf(fn: () => unknown): [string, string][] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ControllerError);
    return (error as ControllerError).problems.map((p) => [p.code, p.path]);
  }
  throw new Error('expected a ControllerError');
}

/** Runs `fn`, expects a ControllerError, returns it. */
export function errorOf(fn: () => unknown): ControllerError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ControllerError);
    return error as ControllerError;
  }
  throw new Error('expected a ControllerError');
}
