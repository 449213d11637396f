/*
 * omnireduce.p4: the OmniReduce aggregator (block-sparse AllReduce) in a
 * v1model switch, for several jobs at once, on a switch that also forwards
 * ordinary traffic (the forwarding of forward.p4). No published OmniReduce
 * runs its aggregator in a switch; this one plays p4ina's host aggregator
 * (src/agent/omnireduce) so that the same, unmodified workers can use a
 * switch instead.
 *
 * An OmniReduce message addressed to the switch's own IPv4 address, from a
 * worker the controller listed (by IPv4 source and UDP source port), is
 * aggregated in its slot's round: per slot two copies (sets), each with the
 * round's tsi, whether it primes, a seen bitmap, a countdown, the running
 * minimum next_tsi, the largest exponent at that minimum and the block's
 * int32 sums. The message that completes a round leaves as the reply (sum,
 * minimum next_tsi, exponent; no values for a priming round), multicast to
 * the job's workers and addressed per worker in egress by egress_rid. A
 * message of a complete round gets its stored reply back by unicast; a
 * duplicate of a round still filling, or a message of no round the slot can
 * be in, is dropped and counted. Every other packet, OmniReduce messages for
 * host aggregators included, is forwarded as forward.p4 forwards it.
 *
 * Rules and control-plane contract: docs/p4-programs.md §5. Packet format:
 * docs/wire.md §6. The protocol: docs/omnireduce.md.
 *
 * Configuration (-DNAME=VALUE): OMNIREDUCE_BLOCK (omnireduce_headers.p4);
 * OMNIREDUCE_SLOTS, OMNIREDUCE_MAX_JOBS (omnireduce_config.p4).
 *
 * Build for BMv2:
 *   p4c-bm2-ss --p4v 16 -I p4/include --p4runtime-files build/omnireduce.p4info.txtpb \
 *       -o build/omnireduce.json p4/omnireduce.p4
 */
#include <core.p4>
/* Register and counter indices are bit<32>: v1model's 20180101 declarations,
 * the default of p4c and of p4ina, pinned here as in the other programs. */
#define V1MODEL_VERSION 20180101
#include <v1model.p4>

/* First: it declares headers_t with OmniReduce in it (see the file). */
#include "include/omnireduce_headers.p4"
#include "include/forwarding.p4"
#include "include/omnireduce_aggregation.p4"

struct metadata_t {
    forwarding_metadata_t fwd;
    omnireduce_metadata_t omr;
}

#include "include/omnireduce_parser.p4"
#include "include/checksums.p4"

control ingress(inout headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    SwitchAddress() identity;
    OmniReduceAggregation() omnireduce;
    Forwarding() forwarding;

    apply {
        meta.fwd.flooding = 0;
        meta.omr.send_reply = 0;
        identity.apply(meta.fwd);
        /* Aggregate only what is addressed to this switch: messages for a
         * host aggregator (or with a bad IPv4 checksum) are forwarded. */
        if (hdr.omnireduce.isValid() && meta.fwd.has_address == 1
                && hdr.ipv4.dst_addr == meta.fwd.switch_ip
                && standard_metadata.checksum_error == 0) {
            omnireduce.apply(hdr, meta.omr, meta.fwd, standard_metadata);
        } else {
            forwarding.apply(hdr, meta.fwd, standard_metadata);
        }
    }
}

control egress(inout headers_t hdr,
               inout metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    counter(1, CounterType.packets) reply_rewrite_misses;
    PruneFlood() prune_flood;

    /* Address one copy of a reply to one worker (or to the next hop towards it). */
    action rewrite_reply(bit<48> dst_mac, bit<32> dst_ip, bit<16> dst_port) {
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.dst_addr = dst_ip;
        hdr.udp.dst_port = dst_port;
    }

    /* A replica nobody told us how to address would reach the wrong host. */
    action no_reply_rewrite() {
        reply_rewrite_misses.count(0);
        mark_to_drop(standard_metadata);
    }

    table reply_rewrite {
        key = {
            meta.omr.job_id: exact @name("job_id");
            standard_metadata.egress_rid: exact @name("egress_rid");
        }
        actions = {
            @tableonly rewrite_reply;
            @defaultonly no_reply_rewrite;
        }
        const default_action = no_reply_rewrite();
        size = OMNIREDUCE_MAX_JOBS * OMNIREDUCE_MAX_WORKERS;
    }

    apply {
        if (meta.omr.send_reply == 1) {
            reply_rewrite.apply();
        }
        prune_flood.apply(meta.fwd, standard_metadata);
    }
}

V1Switch(OmniReduceParser(),
         VerifyIpv4Checksum(),
         ingress(),
         egress(),
         ComputeIpv4Checksum(),
         OmniReduceDeparser()) main;
