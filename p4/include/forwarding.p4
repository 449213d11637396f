/*
 * Forwarding both programs share: what a plain L2/L3 switch does.
 *
 *   SwitchAddress  the switch's own MAC and IPv4 address, set by the
 *                  controller as the default action of a keyless table.
 *   Forwarding     ingress: drop IPv4 with a bad header checksum; answer ARP
 *                  requests for the switch's own address; route IPv4 by
 *                  longest prefix (next-hop MAC rewrite, TTL decrement);
 *                  bridge everything else by destination MAC (exact), where
 *                  an entry may flood through a multicast group.
 *   PruneFlood     egress: a flooded copy never goes back out of the port
 *                  the packet came in on (v1model leaves that to the program).
 *
 * Control-plane contract (names, sizes, counters): docs/p4-programs.md.
 */
#ifndef P4INA_FORWARDING_P4
#define P4INA_FORWARDING_P4

#include <core.p4>
#include <v1model.p4>

#include "headers.p4"

#ifndef L2_TABLE_SIZE
#define L2_TABLE_SIZE 1024
#endif
#ifndef IPV4_ROUTES_SIZE
#define IPV4_ROUTES_SIZE 1024
#endif

/* Indices of ingress.forwarding.forwarding_drops. */
const bit<8> FORWARDING_DROP_BAD_IPV4_CHECKSUM = 1;
const bit<8> FORWARDING_DROP_TTL_EXPIRED = 2;
const bit<8> FORWARDING_DROP_L2_MISS = 3;
#define FORWARDING_DROP_REASONS 4

struct forwarding_metadata_t {
    bit<48> switch_mac;         /* from SwitchAddress */
    bit<32> switch_ip;
    bit<1>  has_address;        /* 0 until the controller sets the address */
    bit<1>  decided;            /* ARP answered or route found: skip L2 */
    bit<1>  flooding;           /* multicast by an L2 flood entry: prune in egress */
    bit<8>  drop_reason;        /* 0, or a FORWARDING_DROP_* */
}

control SwitchAddress(inout forwarding_metadata_t fwd) {
    action set_switch_address(bit<48> mac, bit<32> ip) {
        fwd.switch_mac = mac;
        fwd.switch_ip = ip;
        fwd.has_address = 1;
    }

    action no_switch_address() {
        fwd.switch_mac = 0;
        fwd.switch_ip = 0;
        fwd.has_address = 0;
    }

    /* No key: the controller sets the address by modifying the default entry. */
    table switch_address {
        actions = {
            set_switch_address;
            no_switch_address;
        }
        default_action = no_switch_address();
        size = 1;
    }

    apply {
        switch_address.apply();
    }
}

control Forwarding(inout headers_t hdr,
                   inout forwarding_metadata_t fwd,
                   inout standard_metadata_t standard_metadata) {
    counter(FORWARDING_DROP_REASONS, CounterType.packets) forwarding_drops;

    /* The TTL is checked and decremented in apply, where a TTL of 0 cannot wrap. */
    action route(bit<48> next_hop_mac, bit<9> port) {
        hdr.ethernet.src_addr = fwd.switch_mac;
        hdr.ethernet.dst_addr = next_hop_mac;
        standard_metadata.egress_spec = port;
    }

    /* A miss falls through to l2_forward. The default is const and the only
     * action of an entry is route, so a hit always has a port: a default
     * route is the entry 0.0.0.0/0 (the LPM field left out). */
    table ipv4_routes {
        key = {
            hdr.ipv4.dst_addr: lpm @name("dst_addr");
        }
        actions = {
            @tableonly route;
            @defaultonly NoAction;
        }
        const default_action = NoAction();
        size = IPV4_ROUTES_SIZE;
    }

    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    /* Every member of the group gets a copy except the ingress port (PruneFlood). */
    action flood(bit<16> group) {
        standard_metadata.mcast_grp = group;
        fwd.flooding = 1;
    }

    action l2_miss() {
        fwd.drop_reason = FORWARDING_DROP_L2_MISS;
    }

    table l2_forward {
        key = {
            hdr.ethernet.dst_addr: exact @name("dst_mac");
        }
        actions = {
            @tableonly forward;
            @tableonly flood;
            @defaultonly l2_miss;
        }
        const default_action = l2_miss();
        size = L2_TABLE_SIZE;
    }

    apply {
        fwd.decided = 0;
        fwd.flooding = 0;
        fwd.drop_reason = 0;
        if (hdr.ipv4.isValid() && standard_metadata.checksum_error == 1) {
            fwd.drop_reason = FORWARDING_DROP_BAD_IPV4_CHECKSUM;
        } else if (hdr.arp.isValid() && fwd.has_address == 1
                   && hdr.arp.oper == ARP_OPER_REQUEST
                   && hdr.arp.htype == ARP_HTYPE_ETHERNET && hdr.arp.ptype == ETHERTYPE_IPV4
                   && hdr.arp.hlen == 6 && hdr.arp.plen == 4
                   && hdr.arp.target_proto_addr == fwd.switch_ip) {
            /* Who has our address? We do: reply out of the port it came in on. */
            hdr.arp.oper = ARP_OPER_REPLY;
            hdr.arp.target_hw_addr = hdr.arp.sender_hw_addr;
            hdr.arp.target_proto_addr = hdr.arp.sender_proto_addr;
            hdr.arp.sender_hw_addr = fwd.switch_mac;
            hdr.arp.sender_proto_addr = fwd.switch_ip;
            hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
            hdr.ethernet.src_addr = fwd.switch_mac;
            standard_metadata.egress_spec = standard_metadata.ingress_port;
            fwd.decided = 1;
        } else if (hdr.ipv4.isValid() && hdr.ipv4.ihl == 5) {
            if (ipv4_routes.apply().hit) {
                fwd.decided = 1;
                if (hdr.ipv4.ttl <= 1) {
                    fwd.drop_reason = FORWARDING_DROP_TTL_EXPIRED;
                } else {
                    hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
                }
            }
        }
        /* One l2_forward.apply() for every path that gets here: BMv2 allows a
         * table to be applied at most once per pipeline. */
        if (fwd.decided == 0 && fwd.drop_reason == 0) {
            l2_forward.apply();
        }
        if (fwd.drop_reason != 0) {
            forwarding_drops.count((bit<32>)fwd.drop_reason);
            mark_to_drop(standard_metadata);
        }
    }
}

control PruneFlood(in forwarding_metadata_t fwd, inout standard_metadata_t standard_metadata) {
    apply {
        if (fwd.flooding == 1 && standard_metadata.egress_port == standard_metadata.ingress_port) {
            mark_to_drop(standard_metadata);
        }
    }
}

#endif /* P4INA_FORWARDING_P4 */
