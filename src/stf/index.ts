/**
 * STF packet tests (the format of p4c's testdata/p4_16_samples/*.stf) run
 * against p4ina's switch in process: `runStf({ program, stf })`, then
 * `formatStfReport(result)` or `formatStfJson(result)`.
 */
export { runStf, type StfFailure, type StfFailureKind, type StfOptions, type StfReading, type StfResult, type StfStatus } from './stf-runner.js';
export { formatStfJson, formatStfReport, stfExitCode } from './stf-report.js';
export { parseStf, parseExpectPattern, STF_KEYWORDS, type ParsedStf } from './stf-parser.js';
export type { StfCommand, ExpectPattern } from './stf-commands.js';
export { comparePacket, describeMismatch, type Mismatch } from './stf-compare.js';
export { STF_ERROR_CODES, StfError, type StfDiagnostic, type StfErrorCode } from './stf-error.js';
