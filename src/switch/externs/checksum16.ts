/**
 * The 16-bit sums BMv2 offers as hash algorithms:
 * - csum16: the Internet checksum (RFC 1071) — the ones' complement of the
 *   ones' complement sum of big-endian 16-bit words, an odd last byte padded
 *   with a zero byte. BMv2's cksum16 sums 64-bit host words and byte-swaps at
 *   the end, which gives the same value; over an IPv4 header whose checksum
 *   field is zero it yields the header checksum.
 * - xor16: the XOR of big-endian 16-bit words, an odd last byte padded the same way.
 */

/** RFC 1071 checksum of data[0, length). */
export function csum16(data: Uint8Array, length: number = data.length): number {
  let sum = 0;
  const even = length & ~1;
  // Fold the carries in before the sum outgrows 31 bits, so the bit
  // operations below stay exact on any input length.
  for (let i = 0; i < even; i += 2) {
    sum += (data[i]! << 8) | data[i + 1]!;
    if (sum > 0x7fffffff) sum = (sum & 0xffff) + (sum >>> 16);
  }
  if (length & 1) sum += data[length - 1]! << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return ~sum & 0xffff;
}

/** XOR of the big-endian 16-bit words of data[0, length). */
export function xor16(data: Uint8Array, length: number = data.length): number {
  let x = 0;
  const even = length & ~1;
  for (let i = 0; i < even; i += 2) x ^= (data[i]! << 8) | data[i + 1]!;
  if (length & 1) x ^= data[length - 1]! << 8;
  return x;
}
