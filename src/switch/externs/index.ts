/** v1model extern algorithms that need no pipeline: field-list packing, hashes and checksums, meters. */
export { BitPacker, packFields } from './bit-packer.js';
export type { FieldValue } from './bit-packer.js';
export { CRC16_BMV2, CRC32_BMV2, CrcEngine } from './crc.js';
export type { CrcParameters } from './crc.js';
export { csum16, xor16 } from './checksum16.js';
export { HASH_ALGORITHMS, createHashFunction, hashInRange, hashInRangeBigInt, isHashAlgorithm } from './hash-algorithms.js';
export type { CustomCrcHash, HashAlgorithm, HashFunction, HashOptions } from './hash-algorithms.js';
export { METER_GREEN, METER_RED, METER_YELLOW, MeterArray, monotonicMicros } from './meter.js';
export type { MeterColor, MeterRates, MeterUnit, MicrosecondClock } from './meter.js';
