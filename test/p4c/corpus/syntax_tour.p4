/*
 * A tour of the P4-16 syntax the front end reads beyond the tutorial
 * shapes: header unions, header stacks, generic structs and externs,
 * serializable enums, value sets, tuples, functions, abstract methods,
 * constructor parameters, direct application, named and don't-care
 * arguments, every literal form and operator, and the preprocessor.
 */
#include <core.p4>
#define V1MODEL_VERSION 20200408
#include <v1model.p4>
#include "include/tour_types.p4"
#include "include/tour_types.p4"   // the include guard makes this a no-op

#ifndef TOUR_STACK_DEPTH
#define TOUR_STACK_DEPTH 4
#endif

#if TOUR_STACK_DEPTH > 8
#error "stack too deep"
#elif TOUR_STACK_DEPTH >= 2 && defined(V1MODEL_VERSION)
const bit<8> STACK_DEPTH = TOUR_STACK_DEPTH;
#else
#error "stack too shallow"
#endif

#define MAX(a, b) ((a) > (b) ? (a) : (b))

const int SHIFT = 2;
typedef bit<16> port_num_t;
type bit<32> flow_id_t;

enum bit<8> Proto {
    ICMP = 1,
    TCP = 6,
    UDP = 17
}

enum Direction { Inbound, Outbound }

error { BadVersion, TooManyLabels }

header mpls_t {
    bit<20> label;
    bit<3>  tc;
    bit<1>  bos;
    bit<8>  ttl;
}

header tcp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<32> seqNo;
    bit<32> ackNo;
    bit<4>  dataOffset;
    bit<12> flags;
    bit<16> window;
    bit<16> checksum;
    bit<16> urgentPtr;
}

header udp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<16> length_;
    bit<16> checksum;
}

header_union l4_t {
    tcp_t tcp;
    udp_t udp;
}

header options_t {
    bit<8>      kind;
    varbit<320> data;
}

struct pair_t<T> {
    T first;
    T second;
}

struct tour_headers_t {
    ethernet_t          ethernet;
    mpls_t[STACK_DEPTH] mpls;
    ipv4_t              ipv4;
    options_t           options;
    l4_t                l4;
}

struct tour_meta_t {
    pair_t<bit<16>>     ports;
    tuple<bit<8>, bool> flags;
    flow_id_t           flow;
    Direction           dir;
    Proto               l4proto;
    int<8>              delta;
    bit<4>              nibble;
    bit<(TOUR_STACK_DEPTH * 2)> wide;
}

/* Declared only: an extern the program declares has no implementation in
 * BMv2 or p4ina's switch, so instantiating or calling one is refused. */
extern Checksummer<W> {
    Checksummer(bit<32> seed);
    Checksummer();
    void add<T>(in T data);
    W get();
    abstract W finish(in W partial);
}

extern bit<16> fold16<T>(in T data);

bit<8> max8(in bit<8> a, in bit<8> b) {
    return a > b ? a : b;
}

action set_nibble(inout tour_meta_t meta, bit<4> value) {
    meta.nibble = value;
}

parser TourParser(packet_in pkt, out tour_headers_t hdr, inout tour_meta_t meta,
                  inout standard_metadata_t sm) {
    value_set<bit<16>>(4) tunnel_types;
    bit<8> depth = 0;
    const bit<8> MAX_DEPTH = STACK_DEPTH;

    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x8847: parse_mpls;
            0x0800 &&& 0xffff: parse_ipv4;
            0x0900 .. 0x09ff: reject;
            tunnel_types: parse_ipv4;
            default: accept;
        }
    }

    @name("mpls") state parse_mpls {
        pkt.extract(hdr.mpls.next);
        depth = depth + 1;
        verify(depth <= MAX_DEPTH, error.TooManyLabels);
        transition select(hdr.mpls.last.bos, hdr.mpls.lastIndex) {
            (0, _): parse_mpls;
            (1, 0 .. 2): parse_ipv4;
            (_, default): accept;
        }
    }

    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        verify(hdr.ipv4.version == 4, error.BadVersion);
        if (hdr.ipv4.ihl > 5) {
            pkt.extract(hdr.options, (bit<32>)(hdr.ipv4.ihl - 5) * 32 - 8);
        }
        transition select(hdr.ipv4.protocol) {
            6: parse_tcp;
            17: parse_udp;
            default: accept;
        }
    }

    state parse_tcp {
        pkt.extract(hdr.l4.tcp);
        transition accept;
    }

    state parse_udp {
        pkt.extract<udp_t>(hdr.l4.udp);
        meta.ports = { first = hdr.l4.udp.srcPort, second = hdr.l4.udp.dstPort };
        transition accept;
    }
}

control TourVerify(inout tour_headers_t hdr, inout tour_meta_t meta) {
    apply {
        verify_checksum_with_payload(hdr.l4.udp.isValid(),
            { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, 8w0, hdr.ipv4.protocol, hdr.l4.udp.length_,
              hdr.l4.udp.srcPort, hdr.l4.udp.dstPort, hdr.l4.udp.length_ },
            hdr.l4.udp.checksum, HashAlgorithm.csum16);
    }
}

control Stamp(inout tour_meta_t m) {
    apply {
        m.nibble = 4w1;
    }
}

control Floor(inout tour_headers_t hdr)(bit<8> ttl_floor) {
    apply {
        if (hdr.ipv4.ttl < ttl_floor) {
            hdr.ipv4.ttl = ttl_floor;
        }
    }
}

control TourIngress(inout tour_headers_t hdr, inout tour_meta_t meta,
                    inout standard_metadata_t sm) {
    Floor(8w2) floor;
    register<bit<32>, bit<8>>(256) hits;
    counter<bit<8>>(16, CounterType.packets) per_proto;
    action_selector(HashAlgorithm.crc16, 32w128, 32w10) ecmp_selector;
    bit<32> scratch;

    action nop() { }

    action set_port(port_num_t port) {
        sm.egress_spec = (bit<9>)port;
    }

    @atomic action count_hit() {
        bit<32> value;
        hits.read(value, hdr.ipv4.protocol);
        hits.write(hdr.ipv4.protocol, value |+| 1);
        per_proto.count(hdr.ipv4.protocol);
    }

    table ecmp {
        key = {
            hdr.ipv4.dstAddr : lpm;
            hdr.ipv4.srcAddr : selector;
            hdr.ipv4.protocol: selector;
        }
        actions = {
            @tableonly set_port;
            nop;
        }
        implementation = ecmp_selector;
        size = 1024;
    }

    table classify {
        key = {
            hdr.ipv4.protocol: exact @name("proto");
            meta.l4proto     : exact;
        }
        actions = {
            count_hit;
            set_nibble(meta);
            @defaultonly .NoAction;
        }
        entries = {
            (6, Proto.TCP): count_hit();
            const (17, Proto.UDP): set_nibble(meta, 4w3);
        }
        const default_action = NoAction();
    }

    apply {
        floor.apply(hdr);
        Stamp.apply(meta);
        meta.delta = -8s3;
        meta.delta = (int<8>)hdr.ipv4.ttl |-| 8s10;
        scratch = hdr.ipv4.srcAddr[31:16] ++ hdr.ipv4.dstAddr[15:0];
        scratch = scratch << SHIFT >> 1;
        scratch = (scratch & 0xffff_0000) | (bit<32>)hdr.ipv4.totalLen;
        meta.nibble = scratch[3:0] ^ 4w0b1010;
        meta.flow = (flow_id_t)scratch;
        meta.flags = { 8w0o17, hdr.ipv4.isValid() && !hdr.l4.tcp.isValid() };
        meta.wide = MAX(8w3, 8w4);
        if (hdr.mpls[0].isValid() && hdr.mpls.size > 1) {
            hdr.mpls.pop_front(1);
        } else if (hdr.l4.tcp.isValid()) {
            meta.dir = Direction.Inbound;
        } else {
            meta.dir = Direction.Outbound;
        }
        meta.l4proto = (Proto)hdr.ipv4.protocol;
        meta.nibble = meta.dir == Direction.Inbound ? 4w1 : (meta.l4proto == Proto.TCP ? 4w2 : 4w3);
        switch (hdr.ipv4.protocol) {
            6: {
                classify.apply();
            }
            17:
            1: {
                meta.nibble = 4w2;
            }
            default: { }
        }
        if (ecmp.apply().hit) {
            meta.ports.first = max8(a = hdr.ipv4.ttl, b = 8w64) ++ 8w0;
        }
        log_msg("ttl=\"{}\"", { hdr.ipv4.ttl });
        random(meta.ports.second, 16w0, 16w1000);
        bit<16> folded = hdr.ipv4.srcAddr[31:16] ^ hdr.ipv4.dstAddr[15:0];
        {
            const bit<8> LOCAL = 3;
            meta.delta = meta.delta + (int<8>)LOCAL;
        }
        @atomic {
            hits.write(0, 32w0);
        }
        meta.ports.second = meta.nibble == 0 ? folded : -folded;
        resubmit_preserving_field_list(0);
        sm.mcast_grp = (bit<16>)(meta.ports.first |+| 16w1);
        exit;
    }
}

control TourEgress(inout tour_headers_t hdr, inout tour_meta_t meta,
                   inout standard_metadata_t sm) {
    apply {
        recirculate_preserving_field_list(1);
        truncate(64);
        assert(sm.egress_port != 511);
        assume(true);
    }
}

control TourCompute(inout tour_headers_t hdr, inout tour_meta_t meta) {
    apply {
        update_checksum_with_payload(hdr.l4.udp.isValid(),
            { hdr.ipv4.srcAddr, hdr.ipv4.dstAddr, 8w0, hdr.ipv4.protocol, hdr.l4.udp.length_,
              hdr.l4.udp.srcPort, hdr.l4.udp.dstPort, hdr.l4.udp.length_ },
            hdr.l4.udp.checksum, HashAlgorithm.csum16);
    }
}

control TourDeparser(packet_out pkt, in tour_headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.mpls);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.options);
        pkt.emit(hdr.l4);
    }
}

V1Switch<tour_headers_t, tour_meta_t>(
    p = TourParser(), vr = TourVerify(), ig = TourIngress(),
    eg = TourEgress(), ck = TourCompute(), dep = TourDeparser()) main;
