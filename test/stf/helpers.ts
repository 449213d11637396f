/**
 * Helpers of the STF tests: where the STF files are, running one, and an
 * IPv4 header checksum written here from RFC 1071 (independent of the
 * switch's csum16), to check the checksums written in the files' packets.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStf, type StfOptions, type StfResult } from '../../src/stf/index.js';

export const STF_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(STF_DIR, '..', '..');
export const CORPUS = path.join(ROOT, 'test', 'p4c', 'corpus');

/** Runs test/stf/NAME.stf against `program` (a path from the repository root). */
export function runFile(name: string, program: string, options: Partial<StfOptions> = {}): StfResult {
  return runStf({ program: path.join(ROOT, program), stf: path.join(STF_DIR, `${name}.stf`), includeDirs: [path.join(CORPUS, 'include')], ...options });
}

/** Runs STF text against `program`. */
export function runText(stfText: string, program: string, options: Partial<StfOptions> = {}): StfResult {
  return runStf({ program: path.join(ROOT, program), stf: 'inline.stf', stfText, ...options });
}

/** The one's-complement sum of 16-bit words (RFC 1071), folded. */
export function onesComplementSum(bytes: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i]! << 8) | (bytes[i + 1] ?? 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

/** The IPv4 header checksum to write into a 20-byte header whose checksum field is ignored. */
export function ipv4Checksum(header: Uint8Array): number {
  const h = Buffer.from(header.subarray(0, 20));
  h.writeUInt16BE(0, 10);
  return ~onesComplementSum(h) & 0xffff;
}

/**
 * Every packet/expect line of an STF file whose data is an Ethernet frame
 * with an IPv4 header (EtherType 0x0800, IHL 5) written without `*`: the
 * line number and whether the header's checksum is right. Lines whose
 * comment says "wrong on purpose" are left out.
 */
export function ipv4ChecksumsIn(file: string): { line: number; ok: boolean }[] {
  const out: { line: number; ok: boolean }[] = [];
  readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
    if (text.includes('wrong on purpose')) return;
    const m = /^(packet|expect)\s+\d+\s+(.*)$/.exec(text.replace(/#.*/, '').trim());
    if (!m) return;
    const hex = m[2]!.replace(/[\s$]/g, '');
    if (hex.slice(24, 28) !== '0800' || hex.slice(28, 29) !== '4' || hex.slice(29, 30) !== '5') return;
    const header = hex.slice(28, 68);
    if (header.includes('*') || header.length < 40) return;
    const bytes = Buffer.from(header, 'hex');
    out.push({ line: i + 1, ok: ipv4Checksum(bytes) === bytes.readUInt16BE(10) });
  });
  return out;
}
