/*
 * rina_tor.p4: the ToR of a rack that takes part in Rina (ICNP'24) as one
 * ring member, for v1model, on a switch that also forwards ordinary traffic
 * (the forwarding of forward.p4).
 *
 * Per job the controller tells the ToR its rack's workers, its slot range,
 * the rack's multicast group, its place in the ring and its neighbours'
 * addresses. In scatter-reduce the ToR sums the rack workers' CONTRIBUTIONs
 * and the predecessor's RING_DATA (addressed to the rack's agent, its
 * lowest-ranked worker) in a slot copy, and the packet that completes the
 * round leaves as the rack's RING_DATA, multicast to the next ring member
 * and to the rack (the workers' acknowledgement); after the last round that
 * is the reduced segment, which starts the all-gather. All-gather data
 * for the agent is multicast to the rack. Shadow copies and seen bitmaps
 * answer retransmissions from the stored result and never add anything
 * twice. Everything else, including the Rina packets of jobs without an
 * entry here, ACKs, and RING_DATA for other hosts, is forwarded as forward.p4
 * forwards it.
 *
 * Rules and control-plane contract: docs/rina.md. Packet format:
 * docs/wire.md §7.
 *
 * Configuration (-DNAME=VALUE): RINA_ELEMENTS (rina_headers.p4); RINA_SLOTS,
 * RINA_MAX_JOBS (rina_config.p4).
 *
 * Build for BMv2:
 *   p4c-bm2-ss --p4v 16 -I p4/include --p4runtime-files build/rina_tor.p4info.txtpb \
 *       -o build/rina_tor.json p4/rina_tor.p4
 */
#include <core.p4>
/* Register and counter indices are bit<32>: v1model's 20180101 declarations,
 * the default of p4c and of p4ina, pinned here as in the other programs. */
#define V1MODEL_VERSION 20180101
#include <v1model.p4>

/* First: it declares headers_t with Rina in it (see the file). */
#include "include/rina_headers.p4"
#include "include/forwarding.p4"
#include "include/rina_aggregation.p4"

struct metadata_t {
    forwarding_metadata_t fwd;
    rina_metadata_t       rina;
}

#include "include/rina_parser.p4"
#include "include/checksums.p4"

control ingress(inout headers_t hdr,
                inout metadata_t meta,
                inout standard_metadata_t standard_metadata) {
    SwitchAddress() identity;
    RinaTor() rina;
    Forwarding() forwarding;

    apply {
        meta.fwd.flooding = 0;
        meta.rina.handled = 0;
        meta.rina.copies = RINA_COPIES_NONE;
        identity.apply(meta.fwd);
        /* A bad IPv4 checksum is Forwarding's to drop. */
        if (hdr.rina.isValid() && standard_metadata.checksum_error == 0) {
            rina.apply(hdr, meta.rina, meta.fwd, standard_metadata);
        }
        if (meta.rina.handled == 0) {
            forwarding.apply(hdr, meta.fwd, standard_metadata);
        }
    }
}

control egress(inout headers_t hdr,
               inout metadata_t meta,
               inout standard_metadata_t standard_metadata) {
    counter(1, CounterType.packets) rina_rewrite_misses;
    PruneFlood() prune_flood;

    /* Address one replica to a rack worker or the next ring member (or to
     * the next hop towards it). */
    action rina_rewrite_to(bit<48> dst_mac, bit<32> dst_ip, bit<16> dst_port) {
        hdr.ethernet.dst_addr = dst_mac;
        hdr.ipv4.dst_addr = dst_ip;
        hdr.udp.dst_port = dst_port;
    }

    /* A replica nobody told us how to address would reach the wrong host. */
    action no_rina_rewrite() {
        rina_rewrite_misses.count(0);
        mark_to_drop(standard_metadata);
    }

    table rina_rewrite {
        key = {
            hdr.rina.job_id: exact @name("job_id");
            standard_metadata.egress_rid: exact @name("egress_rid");
        }
        actions = {
            @tableonly rina_rewrite_to;
            @defaultonly no_rina_rewrite;
        }
        const default_action = no_rina_rewrite();
        size = RINA_MAX_JOBS * (RINA_MAX_RACK_WORKERS + 1);
    }

    apply {
        if (meta.rina.copies != RINA_COPIES_NONE) {
            if (meta.rina.copies == RINA_COPIES_AGENT_AND_NEXT
                    && standard_metadata.egress_rid != 0 && standard_metadata.egress_rid != RINA_NEXT_MEMBER_RID) {
                mark_to_drop(standard_metadata);
            } else if (meta.rina.copies == RINA_COPIES_RACK && standard_metadata.egress_rid == RINA_NEXT_MEMBER_RID) {
                mark_to_drop(standard_metadata);
            } else {
                rina_rewrite.apply();
            }
        }
        prune_flood.apply(meta.fwd, standard_metadata);
    }
}

V1Switch(RinaParser(),
         VerifyIpv4Checksum(),
         ingress(),
         egress(),
         ComputeIpv4Checksum(),
         RinaDeparser()) main;
