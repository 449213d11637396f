/**
 * Queue settings as the command line gives them: `--port-rate RATE[@PORT]`
 * and `--queue-depth N[@PORT]`, without @PORT for every port. Applied all-
 * port settings first, then per-port ones, so a per-port value wins
 * whatever the order on the command line.
 */
import { MAX_PORT_NUMBER } from '../ports/port-number.js';
import { checkPortRate, parsePortRate, type PortRate } from './port-rate.js';
import { QUEUE_ERROR_CODES, QueueError } from './queue-error.js';

/** BMv2's default capacity of an egress queue, in packets. */
export const DEFAULT_QUEUE_DEPTH = 64;

/** The largest capacity we accept: each queued packet holds its frame and its metadata. */
export const MAX_QUEUE_DEPTH = 65_536;

/** One setting: for one port, or for every port when `port` is absent. */
export interface QueueSetting {
  readonly port?: number;
  readonly rate?: PortRate | 'unlimited';
  readonly depth?: number;
}

/** Throws QueueError (QUEUE_DEPTH_RANGE) unless `depth` is an integer in 1..MAX_QUEUE_DEPTH. */
export function checkQueueDepth(depth: number): number {
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_QUEUE_DEPTH) {
    throw new QueueError(QUEUE_ERROR_CODES.depthRange, `a queue depth is a number of packets from 1 to ${MAX_QUEUE_DEPTH}, not ${String(depth)}`);
  }
  return depth;
}

/** Throws QueueError (QUEUE_PORT_RANGE) unless `port` is an attachable port number. */
export function checkQueuePort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > MAX_PORT_NUMBER) {
    throw new QueueError(QUEUE_ERROR_CODES.portRange, `a queue belongs to a port 0..${MAX_PORT_NUMBER}, not ${String(port)} (511 is the drop port, which has no queue)`);
  }
  return port;
}

/** Checks every setting (port, rate, depth); throws QueueError for the first bad one. */
export function checkQueueSettings(settings: readonly QueueSetting[]): void {
  for (const s of settings) {
    if (s.port !== undefined) checkQueuePort(s.port);
    if (s.rate !== undefined && s.rate !== 'unlimited') checkPortRate(s.rate);
    if (s.depth !== undefined) checkQueueDepth(s.depth);
  }
}

function splitPort(text: string): { value: string; port?: number } {
  const at = text.lastIndexOf('@');
  if (at < 0) return { value: text };
  const portText = text.slice(at + 1);
  if (!/^\d{1,4}$/.test(portText)) throw new QueueError(QUEUE_ERROR_CODES.portRange, `"${text}": after @ comes a port number 0..${MAX_PORT_NUMBER}, not "${portText}"`);
  return { value: text.slice(0, at), port: checkQueuePort(Number(portText)) };
}

/** `10Mbps`, `1000pps@3`, `unlimited@2`: a rate for every port or for one. Throws QueueError. */
export function parsePortRateArg(text: string): QueueSetting {
  const { value, port } = splitPort(text);
  const rate = parsePortRate(value);
  return port === undefined ? { rate } : { port, rate };
}

/** `100`, `16@3`: a capacity in packets for every port or for one. Throws QueueError. */
export function parseQueueDepthArg(text: string): QueueSetting {
  const { value, port } = splitPort(text);
  if (!/^\d{1,9}$/.test(value)) throw new QueueError(QUEUE_ERROR_CODES.depthRange, `"${text}": a queue depth is a number of packets from 1 to ${MAX_QUEUE_DEPTH}`);
  const depth = checkQueueDepth(Number(value));
  return port === undefined ? { depth } : { port, depth };
}
