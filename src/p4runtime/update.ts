/**
 * Write updates: `insert(entity)`, `modify(entity)`, `del(entity)` (also
 * exported as `remove`). Plain data; `encodeUpdate` checks the entity against
 * the write rules of its update type before anything is sent.
 */
import type * as p4r from '../proto/p4r.js';
import type { P4Schema } from '../p4info/index.js';
import type { Entity } from './entities/decode-entity.js';
import type { EncodeIntent } from './entities/entity.js';
import { inContext } from './entities/entity-error.js';

export type UpdateType = 'INSERT' | 'MODIFY' | 'DELETE';

export interface Update<E extends Entity = Entity> {
  readonly type: UpdateType;
  readonly entity: E;
}

export const insert = <E extends Entity>(entity: E): Update<E> => ({ type: 'INSERT', entity });
export const modify = <E extends Entity>(entity: E): Update<E> => ({ type: 'MODIFY', entity });
export const del = <E extends Entity>(entity: E): Update<E> => ({ type: 'DELETE', entity });
export const remove = del;

const INTENT: Record<UpdateType, EncodeIntent> = { INSERT: 'insert', MODIFY: 'modify', DELETE: 'delete' };

/** A short description for messages: "INSERT table entry ingress.l2". */
export function describeUpdate(update: Update): string {
  return `${update.type} ${update.entity.describe()}`;
}

/** The Update message; errors name the update ("update #3 (INSERT table entry ingress.l2): …"). */
export function encodeUpdate(update: Update, schema: P4Schema, index?: number): p4r.Update {
  const label = index === undefined ? describeUpdate(update) : `update #${index} (${describeUpdate(update)})`;
  return inContext(label, () => ({ type: update.type, entity: update.entity.encode(schema, INTENT[update.type]) }));
}
