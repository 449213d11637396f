/**
 * The classic libpcap file format, as Wireshark and tcpdump read it: a
 * 24-byte global header (magic, version 2.4, zone, accuracy, snap length,
 * link type), then per packet a 16-byte record header (seconds,
 * microseconds, captured length, original length) and the captured bytes.
 * The magic number's byte order gives the byte order of every other field.
 */
export const PCAP_MAGIC_MICROSECONDS = 0xa1b2c3d4;
export const PCAP_MAGIC_NANOSECONDS = 0xa1b23c4d;
export const PCAP_VERSION_MAJOR = 2;
export const PCAP_VERSION_MINOR = 4;
export const PCAP_GLOBAL_HEADER_BYTES = 24;
export const PCAP_RECORD_HEADER_BYTES = 16;
/** LINKTYPE_ETHERNET: every record is an Ethernet frame. */
export const LINKTYPE_ETHERNET = 1;
/** tcpdump's default snap length: no frame we carry is cut. */
export const DEFAULT_SNAPLEN = 262_144;

/** Writes the global header (little-endian, microsecond timestamps) at `offset`. */
export function writeGlobalHeader(buffer: Buffer, offset: number, snaplen: number): void {
  buffer.writeUInt32LE(PCAP_MAGIC_MICROSECONDS, offset);
  buffer.writeUInt16LE(PCAP_VERSION_MAJOR, offset + 4);
  buffer.writeUInt16LE(PCAP_VERSION_MINOR, offset + 6);
  buffer.writeInt32LE(0, offset + 8); // thiszone: timestamps are UTC
  buffer.writeUInt32LE(0, offset + 12); // sigfigs: always 0 in practice
  buffer.writeUInt32LE(snaplen, offset + 16);
  buffer.writeUInt32LE(LINKTYPE_ETHERNET, offset + 20);
}
