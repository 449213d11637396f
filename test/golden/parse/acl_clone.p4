#include <core.p4>
#include <v1model.p4>

const bit<32> MIRROR_SESSION = 5;

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<4> version;
    bit<4> ihl;
    bit<8> diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3> flags;
    bit<13> fragOffset;
    bit<8> ttl;
    bit<8> protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

header l4_ports_t {
    bit<16> srcPort;
    bit<16> dstPort;
}

struct headers {
    ethernet_t ethernet;
    ipv4_t ipv4;
    l4_ports_t ports;
}

struct metadata {
    @field_list(1) bit<8> acl_rule;
    @field_list(1, 2) bit<9> original_port;
    bit<1> denied;
}

parser AclParser(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol, hdr.ipv4.fragOffset) {
            (6, 0): parse_ports;
            (17, 0): parse_ports;
            (_, _): accept;
        }
    }
    state parse_ports {
        pkt.extract(hdr.ports);
        transition accept;
    }
}

control NoVerify(inout headers hdr, inout metadata meta) {
    apply {
    }
}

control AclIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    action allow(bit<8> rule) {
        meta.acl_rule = rule;
    }
    action deny(bit<8> rule) {
        meta.acl_rule = rule;
        meta.denied = 1;
        meta.original_port = standard_metadata.ingress_port;
        clone_preserving_field_list(CloneType.I2E, MIRROR_SESSION, 1);
        mark_to_drop(standard_metadata);
    }
    table acl {
        key = {
            hdr.ipv4.srcAddr: ternary;
            hdr.ipv4.dstAddr: ternary;
            hdr.ipv4.protocol: optional;
            hdr.ports.dstPort: range;
        }
        actions = {
            allow;
            deny;
        }
        const default_action = allow(0);
        entries = {
            priority = 100: (0xa000000 &&& 0xff000000, _, 6, 22 .. 22): deny(1);
            priority = 90: (_, 0xa000001, 17, 0 .. 1023): deny(2);
            priority = 50: (0xa000002, _, _, _): allow(3);
            priority = (10 * 2): (_, _, _, 8000 .. 8080): allow(4);
        }
    }
    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }
    table l2 {
        key = {
            hdr.ethernet.dstAddr: exact;
        }
        actions = {
            forward;
            @defaultonly NoAction;
        }
        default_action = NoAction();
        size = 256;
    }
    apply {
        if (hdr.ipv4.isValid()) {
            acl.apply();
        }
        if (meta.denied == 0) {
            l2.apply();
        }
    }
}

control AclEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.instance_type == 1) {
            hdr.ethernet.etherType = 0x88b5;
        }
    }
}

control NoCompute(inout headers hdr, inout metadata meta) {
    apply {
    }
}

control AclDeparser(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr);
    }
}

V1Switch(AclParser(), NoVerify(), AclIngress(), AclEgress(), NoCompute(), AclDeparser()) main;
