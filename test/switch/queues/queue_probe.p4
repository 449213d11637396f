// Test program for the egress queues (test/switch/queues): ingress sends a
// probe frame to the port its header names (0xff: multicast group 1); egress
// copies the queueing metadata and timestamps into the header and marks it
// when enq_qdepth reaches MARK_DEPTH (the ECN rule of an INA program).
#include <core.p4>
#include <v1model.p4>

#define MARK_DEPTH 2

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header probe_t {
    bit<8>  out_port;       // set by the sender: the port to leave by, 0xff = multicast group 1
    bit<8>  seq;            // set by the sender
    bit<16> egress_port;    // the rest is written by egress
    bit<16> egress_rid;
    bit<32> enq_qdepth;
    bit<32> deq_qdepth;
    bit<32> enq_timestamp;
    bit<32> deq_timedelta;
    bit<48> ingress_ts;
    bit<48> egress_ts;
    bit<8>  mark;
    bit<8>  pad;
}

struct headers {
    ethernet_t ethernet;
    probe_t    probe;
}

struct metadata { }

parser ProbeParser(packet_in packet, out headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_probe;
            default: accept;
        }
    }
    state parse_probe {
        packet.extract(hdr.probe);
        transition accept;
    }
}

control ProbeVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control ProbeIngress(inout headers hdr, inout metadata meta,
                     inout standard_metadata_t standard_metadata) {
    apply {
        if (!hdr.probe.isValid()) {
            mark_to_drop(standard_metadata);
        } else if (hdr.probe.out_port == 0xff) {
            standard_metadata.mcast_grp = 1;
        } else {
            standard_metadata.egress_spec = (bit<9>) hdr.probe.out_port;
        }
    }
}

control ProbeEgress(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    apply {
        hdr.probe.egress_port = (bit<16>) standard_metadata.egress_port;
        hdr.probe.egress_rid = standard_metadata.egress_rid;
        hdr.probe.enq_qdepth = (bit<32>) standard_metadata.enq_qdepth;
        hdr.probe.deq_qdepth = (bit<32>) standard_metadata.deq_qdepth;
        hdr.probe.enq_timestamp = standard_metadata.enq_timestamp;
        hdr.probe.deq_timedelta = standard_metadata.deq_timedelta;
        hdr.probe.ingress_ts = standard_metadata.ingress_global_timestamp;
        hdr.probe.egress_ts = standard_metadata.egress_global_timestamp;
        if (standard_metadata.enq_qdepth >= MARK_DEPTH) {
            hdr.probe.mark = 1;
        }
    }
}

control ProbeCompute(inout headers hdr, inout metadata meta) {
    apply { }
}

control ProbeDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.probe);
    }
}

V1Switch(ProbeParser(), ProbeVerify(), ProbeIngress(), ProbeEgress(), ProbeCompute(), ProbeDeparser()) main;
