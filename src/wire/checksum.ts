/**
 * The Internet checksum (RFC 1071) that IPv4 puts on its header and UDP on its
 * pseudo-header, header and payload: the ones'-complement of the
 * ones'-complement sum of 16-bit big-endian words, an odd last byte padded
 * with zero.
 */

/**
 * Adds the 16-bit words of `length` bytes from `offset` to `initial` without
 * folding. The result stays below 2^32 for anything up to a 64 KiB datagram,
 * so callers may chain partial sums and fold once at the end.
 */
export function onesComplementSum(buf: Uint8Array, offset: number, length: number, initial = 0): number {
  let sum = initial;
  const end = offset + length;
  let i = offset;
  for (; i + 1 < end; i += 2) sum += (buf[i]! << 8) | buf[i + 1]!;
  if (i < end) sum += buf[i]! << 8;
  return sum;
}

/** Folds the carries of a partial sum back into 16 bits. */
export function foldSum(sum: number): number {
  // Each round divides the carry by 2^16, so a sum below 2^53 needs at most
  // four rounds; a sum below 2^32 (every sum the codecs make) needs two.
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return sum;
}

/** The checksum to write: the complement of the folded sum. */
export function internetChecksum(buf: Uint8Array, offset: number, length: number, initial = 0): number {
  return ~foldSum(onesComplementSum(buf, offset, length, initial)) & 0xffff;
}

/** The sum of the IPv4 pseudo-header that UDP's checksum covers (RFC 768). */
export function pseudoHeaderSum(srcIp: number, dstIp: number, protocol: number, length: number): number {
  return (srcIp >>> 16) + (srcIp & 0xffff) + (dstIp >>> 16) + (dstIp & 0xffff) + protocol + length;
}
