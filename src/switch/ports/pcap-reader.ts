/**
 * Reads classic pcap files (either byte order, micro- or nanosecond
 * timestamps), so tests can check what the recorder wrote. Refuses anything
 * malformed with PcapFormatError rather than returning half a file.
 */
import { readFile } from 'node:fs/promises';
import { P4inaError } from '../../errors/p4ina-error.js';
import {
  PCAP_GLOBAL_HEADER_BYTES,
  PCAP_MAGIC_MICROSECONDS,
  PCAP_MAGIC_NANOSECONDS,
  PCAP_RECORD_HEADER_BYTES,
} from './pcap-format.js';

export class PcapFormatError extends P4inaError {
  constructor(message: string) {
    super('PCAP_MALFORMED', message);
  }
}

export interface PcapRecord {
  readonly seconds: number;
  /** Microseconds within the second (nanosecond files are rounded down). */
  readonly microseconds: number;
  /** The frame's length on the wire (may exceed data.length when cut at snaplen). */
  readonly originalLength: number;
  readonly data: Buffer;
}

export interface PcapFile {
  readonly littleEndian: boolean;
  readonly nanosecond: boolean;
  readonly versionMajor: number;
  readonly versionMinor: number;
  readonly snaplen: number;
  readonly linkType: number;
  readonly records: PcapRecord[];
}

/** Parses a whole pcap file held in memory. */
export function parsePcap(bytes: Buffer): PcapFile {
  if (bytes.length < PCAP_GLOBAL_HEADER_BYTES) throw new PcapFormatError(`a pcap file needs a ${PCAP_GLOBAL_HEADER_BYTES}-byte header; this one has ${bytes.length} bytes`);
  const le = bytes.readUInt32LE(0);
  const be = bytes.readUInt32BE(0);
  let littleEndian: boolean;
  let nanosecond: boolean;
  if (le === PCAP_MAGIC_MICROSECONDS || le === PCAP_MAGIC_NANOSECONDS) {
    littleEndian = true;
    nanosecond = le === PCAP_MAGIC_NANOSECONDS;
  } else if (be === PCAP_MAGIC_MICROSECONDS || be === PCAP_MAGIC_NANOSECONDS) {
    littleEndian = false;
    nanosecond = be === PCAP_MAGIC_NANOSECONDS;
  } else {
    throw new PcapFormatError(`not a classic pcap file: magic 0x${be.toString(16).padStart(8, '0')} (pcapng is not read here)`);
  }
  const u16 = (at: number): number => (littleEndian ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
  const u32 = (at: number): number => (littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
  const snaplen = u32(16);
  const records: PcapRecord[] = [];
  let at = PCAP_GLOBAL_HEADER_BYTES;
  while (at < bytes.length) {
    if (at + PCAP_RECORD_HEADER_BYTES > bytes.length) throw new PcapFormatError(`record ${records.length} is cut off in its header at byte ${at}`);
    const captured = u32(at + 8);
    const end = at + PCAP_RECORD_HEADER_BYTES + captured;
    if (end > bytes.length) throw new PcapFormatError(`record ${records.length} says ${captured} bytes but the file ends first`);
    const fraction = u32(at + 4);
    records.push({
      seconds: u32(at),
      microseconds: nanosecond ? Math.floor(fraction / 1000) : fraction,
      originalLength: u32(at + 12),
      data: Buffer.from(bytes.subarray(at + PCAP_RECORD_HEADER_BYTES, end)),
    });
    at = end;
  }
  return { littleEndian, nanosecond, versionMajor: u16(4), versionMinor: u16(6), snaplen, linkType: u32(20), records };
}

export async function readPcapFile(path: string): Promise<PcapFile> {
  return parsePcap(await readFile(path));
}
