/** The P4Runtime client library: entities by name, the client, its errors. */
export * from './entities/index.js';
export * from './async-queue.js';
export * from './backoff.js';
export * from './channel.js';
export * from './client.js';
export * from './client-options.js';
export * from './cookie.js';
export * from './digest-list.js';
export * from './election-id.js';
export * from './errors.js';
export * from './packet-io.js';
export * from './pipeline.js';
export type { Arbitration } from './stream-channel.js';
export type { IdleTimeoutNotification } from './stream-inbox.js';
export * from './update.js';
export * from './write-batch.js';
