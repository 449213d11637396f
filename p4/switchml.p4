/*
 * switchml.p4: SwitchML-style in-network aggregation for v1model, for
 * several jobs at once, on a switch that also forwards ordinary traffic
 * (the forwarding of forward.p4).
 *
 * A SwitchML UPDATE addressed to the switch's own IPv4 address is
 * aggregated: the job's slot pool holds two copies (sets) of every slot,
 * each with a seen bitmap, a countdown of missing contributions, the maximum
 * exponent and SWITCHML_ELEMENTS int32 sums. The first contribution of a
 * round writes, later ones add, the last one leaves as a RESULT multicast to
 * the job's workers (rewritten per worker in egress by egress_rid). A
 * worker's retransmission for a copy already complete is answered with the
 * stored result (RETRANSMITTED_RESULT, back out of the ingress port); one
 * for a copy still filling is dropped. A copy filling a round nobody will
 * finish (a stray update) is taken over by a newer round or by a worker's
 * RECOVERY_UPDATE, and the workers table checks each update's source
 * address and UDP port. Every other packet
 * is forwarded as forward.p4 forwards it. Packet formats: docs/wire.md §4.
 * Control-plane contract and the exact packet behaviour: docs/p4-programs.md.
 *
 * Configuration (-DNAME=VALUE): SWITCHML_ELEMENTS (headers.p4),
 *   SWITCHML_SLOTS     slots on the switch, shared by all jobs (4096)
 *   SWITCHML_MAX_JOBS  entries of the jobs table (64)
 *
 * Build for BMv2:
 *   p4c-bm2-ss --p4v 16 -I p4/include --p4runtime-files build/switchml.p4info.txtpb \
 *       -o build/switchml.json p4/switchml.p4
 */
#include <core.p4>
/* Register and counter indices are bit<32>: v1model's 20180101 declarations,
 * the default of p4c and of p4ina, pinned here so that the programs keep working. */
#define V1MODEL_VERSION 20180101
#include <v1model.p4>

#include "include/headers.p4"
#include "include/forwarding.p4"
#include "include/switchml_aggregation.p4"

struct metadata_t {
    forwarding_metadata_t fwd;
    switchml_metadata_t   sml;
}

#include "include/parser.p4"
#include "include/checksums.p4"

control ingress(inout headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    SwitchAddress() identity;
    SwitchMLAggregation() switchml;
    Forwarding() forwarding;

    apply {
        meta.fwd.flooding = 0;
        meta.sml.send_result = 0;
        identity.apply(meta.fwd);
        /* Aggregate only what is addressed to this switch: INA packets for
         * another switch (or with a bad IPv4 checksum) are forwarded. */
        if (hdr.switchml.isValid() && meta.fwd.has_address == 1
                && hdr.ipv4.dst_addr == meta.fwd.switch_ip
                && standard_metadata.checksum_error == 0) {
            switchml.apply(hdr, meta.sml, meta.fwd, standard_metadata);
        } else {
            forwarding.apply(hdr, meta.fwd, standard_metadata);
        }
    }
}

control egress(inout headers_t hdr,
               inout metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    counter(1, CounterType.packets) result_rewrite_misses;
    PruneFlood() prune_flood;

    /* Address one copy of a RESULT to one worker (or to the next hop towards it). */
    action rewrite_result(bit<48> dst_mac, bit<32> dst_ip, bit<16> dst_port) {
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.dst_addr = dst_ip;
        hdr.udp.dst_port = dst_port;
    }

    /* A replica nobody told us how to address would reach the wrong host. */
    action no_rewrite() {
        result_rewrite_misses.count(0);
        mark_to_drop(standard_metadata);
    }

    table result_rewrite {
        key = {
            hdr.switchml.job_id: exact @name("job_id");
            standard_metadata.egress_rid: exact @name("egress_rid");
        }
        actions = {
            @tableonly rewrite_result;
            @defaultonly no_rewrite;
        }
        const default_action = no_rewrite();
        size = SWITCHML_MAX_JOBS * SWITCHML_MAX_WORKERS;
    }

    apply {
        if (meta.sml.send_result == 1) {
            result_rewrite.apply();
        }
        prune_flood.apply(meta.fwd, standard_metadata);
    }
}

V1Switch(InaParser(),
         VerifyIpv4Checksum(),
         ingress(),
         egress(),
         ComputeIpv4Checksum(),
         InaDeparser()) main;
