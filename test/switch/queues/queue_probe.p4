// Test program for the egress queues (test/switch/queues): ingress sends a
// probe frame to the port its header names (0xff: multicast group 1); egress
// copies the queueing metadata and timestamps into the header and marks it
// when enq_qdepth reaches MARK_DEPTH (the ECN rule of an INA program). A
// probe naming a clone session is cloned at ingress (I2E) or egress (E2E).
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
    bit<8>  i2e_session;    // set by the sender: clone at ingress to this session (0: none)
    bit<8>  e2e_session;    // set by the sender: clone at egress to this session (0: none)
    bit<8>  instance_type;
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
        if (hdr.probe.isValid() && hdr.probe.i2e_session != 0) {
            clone(CloneType.I2E, (bit<32>) hdr.probe.i2e_session);
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
        hdr.probe.instance_type = (bit<8>) standard_metadata.instance_type;
        if (standard_metadata.enq_qdepth >= MARK_DEPTH) {
            hdr.probe.mark = 1;
        }
        if (hdr.probe.e2e_session != 0 && standard_metadata.instance_type == 0) {
            clone(CloneType.E2E, (bit<32>) hdr.probe.e2e_session);
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
