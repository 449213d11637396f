/*
 * forward.p4: a plain ("legacy") switch for p4ina's testbeds, without
 * in-network aggregation. It bridges by destination MAC (flooding through a
 * multicast group where the controller says so), routes IPv4 by longest
 * prefix with a next-hop MAC rewrite and TTL decrement, answers ARP for its
 * own address, and keeps the IPv4 header checksum right. INA packets (UDP to
 * the SwitchML ports and others) are forwarded like any other packet.
 *
 * Control-plane contract: docs/p4-programs.md. Build for BMv2:
 *   p4c-bm2-ss --p4v 16 -I p4/include --p4runtime-files build/forward.p4info.txtpb \
 *       -o build/forward.json p4/forward.p4
 */
#include <core.p4>
/* Register and counter indices are bit<32>: v1model's 20180101 declarations,
 * the default of p4c and of p4ina, pinned here so that the programs keep working. */
#define V1MODEL_VERSION 20180101
#include <v1model.p4>

#include "include/headers.p4"
#include "include/forwarding.p4"

struct metadata_t {
    forwarding_metadata_t fwd;
}

#include "include/parser.p4"
#include "include/checksums.p4"

control ingress(inout headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    SwitchAddress() identity;
    Forwarding() forwarding;

    apply {
        identity.apply(meta.fwd);
        forwarding.apply(hdr, meta.fwd, standard_metadata);
    }
}

control egress(inout headers_t hdr,
               inout metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    PruneFlood() prune_flood;

    apply {
        prune_flood.apply(meta.fwd, standard_metadata);
    }
}

V1Switch(InaParser(),
         VerifyIpv4Checksum(),
         ingress(),
         egress(),
         ComputeIpv4Checksum(),
         InaDeparser()) main;
