/**
 * Why one update or read request was refused. Validation code throws these
 * (only on the failure path, so the success path pays nothing) and the
 * device state turns them into per-update statuses. Every check runs before
 * any store is touched, so a thrown EntityError never leaves partial state.
 */
import { P4inaError } from '../../errors/p4ina-error.js';
import { Code, codeName, status, type Status } from './status.js';

export class EntityError extends P4inaError {
  /** The gRPC code and message to report for the update. */
  readonly status: Status;

  constructor(grpcCode: number, message: string) {
    // The stable p4ina code mirrors the gRPC code: P4RT_NOT_FOUND, P4RT_INVALID_ARGUMENT, …
    super(`P4RT_${codeName(grpcCode)}`, message);
    this.status = status(grpcCode, message);
  }
}

export const invalidArgument = (message: string): EntityError => new EntityError(Code.INVALID_ARGUMENT, message);
export const notFound = (message: string): EntityError => new EntityError(Code.NOT_FOUND, message);
export const alreadyExists = (message: string): EntityError => new EntityError(Code.ALREADY_EXISTS, message);
export const permissionDenied = (message: string): EntityError => new EntityError(Code.PERMISSION_DENIED, message);
export const resourceExhausted = (message: string): EntityError => new EntityError(Code.RESOURCE_EXHAUSTED, message);
export const failedPrecondition = (message: string): EntityError => new EntityError(Code.FAILED_PRECONDITION, message);
export const outOfRange = (message: string): EntityError => new EntityError(Code.OUT_OF_RANGE, message);
export const unimplemented = (message: string): EntityError => new EntityError(Code.UNIMPLEMENTED, message);
