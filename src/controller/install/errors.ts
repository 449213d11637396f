/**
 * Errors of the installer: what went wrong while programming switches, with
 * a stable code and a message that says what to do. Failures of the switch
 * itself (a refused Write, an unreachable server) are kept as the `cause`.
 */
import { P4inaError } from '../../errors/p4ina-error.js';

/** Stable codes; never reworded. */
export const InstallErrorCode = {
  /** The switch has no `program`, or one the installer cannot use. */
  INSTALL_NO_PROGRAM: 'INSTALL_NO_PROGRAM',
  /** The switch's P4 program did not compile, or its P4Info/config files could not be read. */
  INSTALL_PROGRAM_FAILED: 'INSTALL_PROGRAM_FAILED',
  /** Another controller (a higher election id) is primary for the switch. */
  INSTALL_NOT_PRIMARY: 'INSTALL_NOT_PRIMARY',
  /** The switch could not be reached or refused the connection. */
  INSTALL_CONNECT_FAILED: 'INSTALL_CONNECT_FAILED',
  /** A Write failed; what this operation had written was rolled back. */
  INSTALL_WRITE_FAILED: 'INSTALL_WRITE_FAILED',
  /** The switch holds a job with this id whose entries differ from the spec. */
  INSTALL_JOB_CONFLICT: 'INSTALL_JOB_CONFLICT',
  /** The job is not installed (teardown of an unknown job). */
  INSTALL_UNKNOWN_JOB: 'INSTALL_UNKNOWN_JOB',
  /** The job's plan aggregates on no switch, so there is nothing to install. */
  INSTALL_NOTHING_TO_INSTALL: 'INSTALL_NOTHING_TO_INSTALL',
  /** The job's cells were used before and this target cannot clear registers over P4Runtime. */
  INSTALL_DIRTY_CELLS: 'INSTALL_DIRTY_CELLS',
  /** A switch the plan names is not one the installer has a session with. */
  INSTALL_UNKNOWN_SWITCH: 'INSTALL_UNKNOWN_SWITCH',
  /** The switch's pipeline lacks a table, action or register the installer needs. */
  INSTALL_PIPELINE_MISMATCH: 'INSTALL_PIPELINE_MISMATCH',
  /** A worker's IPv4 address and UDP port are another job's worker on the switch (omnireduce.p4 tells workers apart by them alone). */
  INSTALL_WORKER_TAKEN: 'INSTALL_WORKER_TAKEN',
} as const;

export type InstallErrorCode = (typeof InstallErrorCode)[keyof typeof InstallErrorCode];

export class InstallError extends P4inaError<InstallErrorCode> {
  constructor(
    code: InstallErrorCode,
    message: string,
    /** The switch concerned, when there is one. */
    readonly switchName?: string,
    options?: { cause?: unknown },
  ) {
    super(code, switchName === undefined ? message : `${switchName}: ${message}`, options);
  }
}
