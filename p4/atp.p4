/*
 * atp.p4: ATP-style in-network aggregation (NSDI'21) for v1model, on a
 * switch that also forwards ordinary traffic (the forwarding of forward.p4).
 *
 * Every job shares one pool of aggregators, first come, first served. An
 * ATP packet (UDP to 0xBF00..0xBF0F) of a job the controller gave this
 * switch a level for, and whose edgeSwitchIdentifier is that level, is
 * aggregated on its way to the parameter server (PS): a free aggregator or
 * one of the same (job, sequence) takes it (a bit already in is a duplicate),
 * the sum goes on when the count reaches the packet's fan-in, an aggregator
 * of another tag passes the packet on with `collision` set, a `resend`
 * flushes the partial sum to the PS in the packet and frees the aggregator,
 * and the PS's ACK frees it (and, at level 0, is multicast to the rack's
 * workers, addressed per worker in egress). Egress marks ECN when the queue
 * is at or over the threshold the controller writes. Everything else,
 * including ATP packets of jobs without an entry here, is forwarded as
 * forward.p4 forwards it.
 *
 * Rules: docs/atp.md. Packet format: docs/wire.md §5. Control-plane
 * contract: docs/p4-programs.md.
 *
 * Configuration (-DNAME=VALUE): ATP_VALUES (atp_headers.p4); ATP_AGGREGATORS,
 * ATP_MAX_JOBS, ATP_DEFAULT_RECLAIM_US (atp_config.p4).
 *
 * Build for BMv2:
 *   p4c-bm2-ss --p4v 16 -I p4/include --p4runtime-files build/atp.p4info.txtpb \
 *       -o build/atp.json p4/atp.p4
 */
#include <core.p4>
/* Register and counter indices are bit<32>: v1model's 20180101 declarations,
 * the default of p4c and of p4ina, pinned here as in the other programs. */
#define V1MODEL_VERSION 20180101
#include <v1model.p4>

/* First: it declares headers_t with ATP in it (see the file). */
#include "include/atp_headers.p4"
#include "include/forwarding.p4"
#include "include/atp_aggregation.p4"

struct metadata_t {
    forwarding_metadata_t fwd;
    atp_metadata_t        atp;
}

#include "include/atp_parser.p4"
#include "include/checksums.p4"

control ingress(inout headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    SwitchAddress() identity;
    AtpAggregation() atp;
    Forwarding() forwarding;

    /* ecn_threshold: packets queued (enq_qdepth) at which egress marks; a
     * value past any queue's capacity never marks. reclaim_after_us: an
     * aggregator untouched this long is free for anyone; 0 = never. */
    action set_atp_settings(bit<19> ecn_threshold, bit<48> reclaim_after_us) {
        meta.atp.ecn_marking = 1;
        meta.atp.ecn_threshold = ecn_threshold;
        meta.atp.reclaim_after = reclaim_after_us;
    }

    action default_atp_settings() {
        meta.atp.ecn_marking = 0;
        meta.atp.ecn_threshold = 0;
        meta.atp.reclaim_after = ATP_DEFAULT_RECLAIM_US;
    }

    /* No key: the controller modifies the default entry, as for switch_address. */
    table atp_settings {
        actions = {
            set_atp_settings;
            default_atp_settings;
        }
        default_action = default_atp_settings();
        size = 1;
    }

    apply {
        meta.fwd.flooding = 0;
        meta.atp.handled = 0;
        meta.atp.ack_multicast = 0;
        identity.apply(meta.fwd);
        atp_settings.apply();
        /* A bad IPv4 checksum is Forwarding's to drop. */
        if (hdr.atp.isValid() && standard_metadata.checksum_error == 0) {
            atp.apply(hdr, meta.atp, meta.fwd, standard_metadata);
        }
        if (meta.atp.handled == 0) {
            forwarding.apply(hdr, meta.fwd, standard_metadata);
        }
    }
}

control egress(inout headers_t hdr,
               inout metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    counter(1, CounterType.packets) ack_rewrite_misses;
    counter(2, CounterType.packets) ecn_marks;
    PruneFlood() prune_flood;

    /* Address one copy of an ACK to one worker of the rack (or to the next
     * hop towards it). */
    action rewrite_ack(bit<48> dst_mac, bit<32> dst_ip, bit<16> dst_port) {
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.dst_addr = dst_ip;
        hdr.udp.dst_port = dst_port;
    }

    /* A replica nobody told us how to address would reach the wrong host. */
    action no_ack_rewrite() {
        ack_rewrite_misses.count(0);
        mark_to_drop(standard_metadata);
    }

    table ack_rewrite {
        key = {
            hdr.atp.job_id: exact @name("job_id");
            standard_metadata.egress_rid: exact @name("egress_rid");
        }
        actions = {
            @tableonly rewrite_ack;
            @defaultonly no_ack_rewrite;
        }
        const default_action = no_ack_rewrite();
        size = ATP_MAX_JOBS * ATP_MAX_RACK_WORKERS;
    }

    apply {
        if (meta.atp.ack_multicast == 1) {
            ack_rewrite.apply();
        }
        prune_flood.apply(meta.fwd, standard_metadata);
        /* Congestion: the queue this packet waited in was at or over the
         * threshold. ATP packets carry it in their ecn bit (the UDP checksum
         * no longer covers the header, so it goes to 0); any ECN-capable
         * IPv4 packet gets CE, for receivers on the kernel's sockets. */
        if (meta.atp.ecn_marking == 1 && standard_metadata.enq_qdepth >= meta.atp.ecn_threshold) {
            if (hdr.atp.isValid()) {
                hdr.atp.ecn = 1;
                hdr.udp.checksum = 0;
                ecn_marks.count(ECN_MARK_ATP);
            }
            if (hdr.ipv4.isValid() && hdr.ipv4.ihl == 5
                    && (hdr.ipv4.ecn == 1 || hdr.ipv4.ecn == 2)) {
                hdr.ipv4.ecn = IPV4_ECN_CE;
                ecn_marks.count(ECN_MARK_IPV4_CE);
            }
        }
    }
}

V1Switch(AtpParser(),
         VerifyIpv4Checksum(),
         ingress(),
         egress(),
         ComputeIpv4Checksum(),
         AtpDeparser()) main;
