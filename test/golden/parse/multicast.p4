#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_t;
typedef bit<9> port_t;

header ethernet_t {
    mac_t dstAddr;
    mac_t srcAddr;
    bit<16> etherType;
}

struct headers {
    ethernet_t ethernet;
}

struct metadata {
    bit<16> flood_group;
}

parser McParser(packet_in packet, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}

control McVerify(inout headers hdr, inout metadata meta) {
    apply {
    }
}

control McIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    action unicast(port_t port) {
        standard_metadata.egress_spec = port;
    }
    action flood(bit<16> group) {
        standard_metadata.mcast_grp = group;
    }
    action drop() {
        mark_to_drop(standard_metadata);
    }
    table mac_table {
        key = {
            hdr.ethernet.dstAddr: exact;
        }
        actions = {
            unicast;
            flood;
            drop;
        }
        default_action = flood(1);
        size = 4096;
    }
    apply {
        switch (mac_table.apply().action_run) {
            unicast: {
                meta.flood_group = 0;
            }
            flood:
            drop: {
                meta.flood_group = standard_metadata.mcast_grp;
            }
        }
    }
}

control McEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.egress_port == standard_metadata.ingress_port && standard_metadata.egress_rid != 0) {
            mark_to_drop(standard_metadata);
        }
    }
}

control McCompute(inout headers hdr, inout metadata meta) {
    apply {
    }
}

control McDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
    }
}

V1Switch(McParser(), McVerify(), McIngress(), McEgress(), McCompute(), McDeparser()) main;
