/*
 * The headers p4ina's switches parse: Ethernet II, ARP (Ethernet/IPv4),
 * IPv4 without options, UDP, and p4ina's SwitchML v1 header with its values.
 * Byte layouts and field meanings: docs/wire.md. Every field is big-endian on
 * the wire, which is how a P4 header lays out its fields.
 *
 * Configuration (override with -DNAME=VALUE):
 *   SWITCHML_ELEMENTS  int32 values per SwitchML packet: 64 by default
 *                      (SwitchML's own), any count from 1 to 364: the most
 *                      whose IPv4 packet fits a 1500-byte MTU (20 IPv4 + 8 UDP +
 *                      14 SwitchML + 4 × 364 = 1498 bytes). Agents must use
 *                      the same count; the switch drops packets that carry
 *                      another. The controller reads it from the P4Info
 *                      (size of `values` / size of `seen`).
 */
#ifndef P4INA_HEADERS_P4
#define P4INA_HEADERS_P4

#ifndef SWITCHML_ELEMENTS
#define SWITCHML_ELEMENTS 64
#endif

#if SWITCHML_ELEMENTS < 1 || SWITCHML_ELEMENTS > 364
#error "SWITCHML_ELEMENTS must be from 1 to 364 (a frame of 364 values fills a 1500-byte MTU)"
#endif

const bit<16> ETHERTYPE_IPV4 = 0x0800;
const bit<16> ETHERTYPE_ARP  = 0x0806;
const bit<8>  IP_PROTOCOL_UDP = 17;

const bit<16> ARP_HTYPE_ETHERNET = 1;
const bit<16> ARP_OPER_REQUEST = 1;
const bit<16> ARP_OPER_REPLY   = 2;

/* SwitchML listens on UDP destination ports 0xBEE0..0xBEEF: the ports whose
 * top twelve bits are 0xBEE (docs/wire.md §3). */
const bit<16> SWITCHML_PORT_BASE = 0xBEE0;
const bit<16> SWITCHML_PORT_MASK = 0xFFF0;

const bit<4> SWITCHML_VERSION = 1;
const bit<4> SWITCHML_MSG_UPDATE = 1;                /* worker -> switch */
const bit<4> SWITCHML_MSG_RESULT = 2;                /* switch -> the job's workers, multicast */
const bit<4> SWITCHML_MSG_RETRANSMITTED_RESULT = 3;  /* switch -> one worker, unicast */
/* An UPDATE a worker has retransmitted several times without an answer: it
 * may take over a slot copy that is filling another round (docs/wire.md §4). */
const bit<4> SWITCHML_MSG_RECOVERY_UPDATE = 4;       /* worker -> switch */

/* Bytes of the SwitchML header without its values, and of a whole UDP
 * datagram (UDP header, SwitchML header, values) the switch accepts. */
const bit<16> SWITCHML_HEADER_BYTES = 14;
const bit<16> SWITCHML_UDP_LENGTH = 8 + SWITCHML_HEADER_BYTES + 4 * SWITCHML_ELEMENTS;

header ethernet_h {
    bit<48> dst_addr;
    bit<48> src_addr;
    bit<16> ether_type;
}

/* RFC 826 for Ethernet hardware and IPv4 protocol addresses: 28 bytes. */
header arp_h {
    bit<16> htype;              /* 1 = Ethernet */
    bit<16> ptype;              /* 0x0800 = IPv4 */
    bit<8>  hlen;               /* 6 */
    bit<8>  plen;               /* 4 */
    bit<16> oper;               /* 1 = request, 2 = reply */
    bit<48> sender_hw_addr;
    bit<32> sender_proto_addr;
    bit<48> target_hw_addr;
    bit<32> target_proto_addr;
}

/* The 20-byte fixed part. The parser goes past it only when ihl == 5. */
header ipv4_h {
    bit<4>  version;
    bit<4>  ihl;
    bit<6>  dscp;
    bit<2>  ecn;
    bit<16> total_len;
    bit<16> identification;
    bit<3>  flags;              /* reserved, DF, MF */
    bit<13> frag_offset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdr_checksum;
    bit<32> src_addr;
    bit<32> dst_addr;
}

header udp_h {
    bit<16> src_port;
    bit<16> dst_port;
    bit<16> len;                /* header + payload, in bytes */
    bit<16> checksum;           /* 0 = none; the switch writes 0 on what it emits */
}

/* p4ina's SwitchML header, version 1 (docs/wire.md §4), 14 bytes. */
header switchml_h {
    bit<4>  version;
    bit<4>  msg_type;
    bit<8>  worker_id;          /* 0..31: the worker's bit in the seen bitmap */
    bit<16> job_id;
    bit<32> tsi;                /* sequence number in the operation, echoed */
    bit<1>  pool_set;           /* shadow copy of the slot */
    bit<15> pool_slot;          /* slot within the job's pool */
    bit<16> elem_count;         /* values that follow */
    int<8>  exponent;           /* the switch keeps the maximum per slot copy */
    bit<8>  epoch;              /* per operation, echoed */
}

/* One value. A packet carries SWITCHML_ELEMENTS of them in a header stack,
 * so that code can name value i as hdr.switchml_values[i]. */
header switchml_value_h {
    int<32> value;
}

struct headers_t {
    ethernet_h ethernet;
    arp_h      arp;
    ipv4_h     ipv4;
    udp_h      udp;
    switchml_h switchml;
    switchml_value_h[SWITCHML_ELEMENTS] switchml_values;
}

#endif /* P4INA_HEADERS_P4 */
