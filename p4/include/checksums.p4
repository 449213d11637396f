/*
 * The IPv4 header checksum (RFC 791: the ones' complement of the ones'
 * complement sum of the header's 16-bit words, v1model's csum16), checked
 * on arrival and written on departure.
 *
 * Only a plain 20-byte header (ihl 5) is covered. With options the checksum
 * covers bytes this program does not parse, so such a header is neither
 * verified nor rewritten; the forwarding never changes one (it bridges it
 * unchanged), so the checksum it came with stays right.
 *
 * verify_checksum only sets standard_metadata.checksum_error; the forwarding
 * control drops on it. The including program declares `struct metadata_t`
 * first.
 */
#ifndef P4INA_CHECKSUMS_P4
#define P4INA_CHECKSUMS_P4

#include <core.p4>
#include <v1model.p4>

#include "headers.p4"

control VerifyIpv4Checksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == 5,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

control ComputeIpv4Checksum(inout headers_t hdr, inout metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == 5,
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
    }
}

#endif /* P4INA_CHECKSUMS_P4 */
