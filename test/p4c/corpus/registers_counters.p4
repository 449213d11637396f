// Stateful externs: registers, counters, meters (direct and indexed),
// hashing and random numbers.
#include <core.p4>
#include <v1model.p4>

#define FLOW_SLOTS 1024

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct headers {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata {
    bit<32> flow_index;
    bit<32> packets_seen;
    bit<2>  color;
    bit<16> sample;
}

parser StatsParser(packet_in packet, out headers hdr, inout metadata meta,
                   inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x800: parse_ipv4;
            default: accept;
        }
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        verify(hdr.ipv4.ihl >= 5, error.HeaderTooShort);
        transition accept;
    }
}

control StatsVerify(inout headers hdr, inout metadata meta) {
    apply { }
}

control StatsIngress(inout headers hdr, inout metadata meta,
                     inout standard_metadata_t standard_metadata) {
    register<bit<32>>(FLOW_SLOTS) flow_packets;
    register<bit<48>>(FLOW_SLOTS) flow_last_seen;
    counter(FLOW_SLOTS, CounterType.packets_and_bytes) flow_counter;
    meter(32w64, MeterType.bytes) port_meter;
    direct_counter(CounterType.packets) forward_counter;
    direct_meter<bit<2>>(MeterType.packets) forward_meter;

    action forward(bit<9> port) {
        standard_metadata.egress_spec = port;
        forward_meter.read(meta.color);
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table forwarding {
        key = {
            hdr.ipv4.dstAddr: lpm;
        }
        actions = {
            forward;
            drop;
        }
        default_action = drop;
        counters = forward_counter;
        meters = forward_meter;
        size = 512;
    }

    apply {
        if (!hdr.ipv4.isValid()) {
            return;
        }
        hash(meta.flow_index, HashAlgorithm.crc32, 32w0,
             { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, hdr.ipv4.protocol },
             32w1024);
        flow_packets.read(meta.packets_seen, meta.flow_index);
        flow_packets.write(meta.flow_index, meta.packets_seen + 1);
        flow_last_seen.write(meta.flow_index, standard_metadata.ingress_global_timestamp);
        flow_counter.count(meta.flow_index);
        port_meter.execute_meter((bit<32>)standard_metadata.ingress_port, meta.color);
        random(meta.sample, 0, 0xffff);
        if (meta.color == V1MODEL_METER_COLOR_RED) {
            drop();
            exit;
        }
        forwarding.apply();
    }
}

control StatsEgress(inout headers hdr, inout metadata meta,
                    inout standard_metadata_t standard_metadata) {
    apply { }
}

control StatsCompute(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control StatsDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
    }
}

V1Switch(StatsParser(), StatsVerify(), StatsIngress(), StatsEgress(), StatsCompute(), StatsDeparser()) main;
