/**
 * The outcome of one P4Runtime operation as the device state reports it: a
 * gRPC status code (the numbers of grpc-js's `status` enum and of
 * google.rpc.Code) and a message for the client. The runtime server turns
 * these into RPC statuses and per-update `p4.v1.Error`s.
 */

export interface Status {
  /** A gRPC status code; 0 is OK. */
  code: number;
  message: string;
}

/** gRPC canonical status codes by name (google/rpc/code.proto). */
export const Code = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

export type CodeName = keyof typeof Code;

const NAMES = new Map<number, CodeName>(Object.entries(Code).map(([name, code]) => [code, name as CodeName]));

/** The name of a status code ("NOT_FOUND"), or "CODE_<n>" for a number gRPC does not define. */
export function codeName(code: number): string {
  return NAMES.get(code) ?? `CODE_${code}`;
}

/** The one shared OK status; frozen so that no caller can change it for everyone. */
export const OK: Status = Object.freeze({ code: Code.OK, message: '' });

export function status(code: number, message: string): Status {
  return { code, message };
}

export function isOk(s: Status): boolean {
  return s.code === Code.OK;
}
