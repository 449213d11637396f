// MAC learning: unknown sources are reported with a digest; packets to
// and from the controller carry @controller_header metadata.
#include <core.p4>
#include <v1model.p4>

#define CPU_PORT 255

@controller_header("packet_in")
header packet_in_header_t {
    bit<9> ingress_port;
    bit<7> _pad;
}

@controller_header("packet_out")
header packet_out_header_t {
    bit<9> egress_port;
    bit<7> _pad;
}

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

struct headers {
    packet_out_header_t packet_out;
    packet_in_header_t  packet_in;
    ethernet_t          ethernet;
}

struct mac_learn_digest_t {
    bit<48> srcAddr;
    bit<9>  ingress_port;
}

struct metadata { }

parser LearnParser(packet_in packet, out headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        transition select(standard_metadata.ingress_port) {
            CPU_PORT: parse_packet_out;
            default: parse_ethernet;
        }
    }

    state parse_packet_out {
        packet.extract(hdr.packet_out);
        transition parse_ethernet;
    }

    state parse_ethernet {
        packet.extract(hdr.ethernet);
        transition accept;
    }
}

control LearnVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control LearnIngress(inout headers hdr, inout metadata meta,
                     inout standard_metadata_t standard_metadata) {
    action learn() {
        digest<mac_learn_digest_t>(1, { hdr.ethernet.srcAddr, standard_metadata.ingress_port });
    }

    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
    }

    action to_cpu() {
        standard_metadata.egress_spec = CPU_PORT;
    }

    @name("smac") table source_mac {
        key = {
            hdr.ethernet.srcAddr: exact @name("src");
        }
        actions = {
            learn;
            NoAction;
        }
        default_action = learn();
        support_timeout = true;
    }

    @id(0x02000101) table destination_mac {
        key = {
            hdr.ethernet.dstAddr: exact;
        }
        actions = {
            forward;
            to_cpu;
        }
        default_action = to_cpu();
    }

    apply {
        if (hdr.packet_out.isValid()) {
            standard_metadata.egress_spec = hdr.packet_out.egress_port;
            hdr.packet_out.setInvalid();
            exit;
        }
        source_mac.apply();
        if (destination_mac.apply().miss) {
            to_cpu();
        }
    }
}

control LearnEgress(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        if (standard_metadata.egress_port == CPU_PORT) {
            hdr.packet_in.setValid();
            hdr.packet_in.ingress_port = standard_metadata.ingress_port;
        }
    }
}

control LearnCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control LearnDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.packet_in);
        packet.emit(hdr.ethernet);
    }
}

V1Switch(LearnParser(), LearnVerify(), LearnIngress(), LearnEgress(), LearnCompute(), LearnDeparser()) main;
