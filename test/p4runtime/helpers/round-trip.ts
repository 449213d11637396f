// Wire round trips for entity tests: encode → bytes → decode → encode again.
import { expect } from 'vitest';
import { decodeMessage, encodeMessage } from '../../../src/proto/codec.js';
import type * as p4r from '../../../src/proto/p4r.js';
import type { P4Schema } from '../../../src/p4info/index.js';
import { decodeEntity, type Entity, type EncodeIntent } from '../../../src/p4runtime/index.js';

/** The entity as a switch would send it back: encoded, serialised and parsed. */
export function throughWire(entity: Entity, schema: P4Schema, intent: EncodeIntent = 'read'): p4r.Entity__Output {
  return decodeMessage<p4r.Entity__Output>('p4.v1.Entity', encodeMessage('p4.v1.Entity', entity.encode(schema, intent)));
}

export function wireBytes(entity: Entity, schema: P4Schema, intent: EncodeIntent = 'read'): Buffer {
  return Buffer.from(encodeMessage('p4.v1.Entity', entity.encode(schema, intent)));
}

/**
 * Decodes what `entity` encodes to and checks that encoding the decoded entity
 * gives the same bytes (encode ∘ decode is the identity on messages) and that
 * decoding is stable; returns the decoded entity for exact assertions.
 */
export function roundTrip<E extends Entity>(entity: E, schema: P4Schema, intent: EncodeIntent = 'read'): E {
  const bytes = wireBytes(entity, schema, intent);
  const decoded = decodeEntity(decodeMessage<p4r.Entity__Output>('p4.v1.Entity', bytes), schema);
  expect(decoded.constructor).toBe(entity.constructor);
  expect(wireBytes(decoded, schema, intent).equals(bytes)).toBe(true);
  expect(decodeEntity(throughWire(decoded, schema, intent), schema)).toEqual(decoded);
  return decoded as E;
}

/** The code of the error `fn` throws (fails the test when it does not throw). */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code ?? `no code: ${String(err)}`;
  }
  throw new Error('expected an error');
}
