/*
 * The headers rina_tor.p4 parses: those of headers.p4 (Ethernet II, ARP,
 * IPv4, UDP) and p4ina's 20-byte Rina header with its values
 * (docs/wire.md §7).
 *
 * v1model wants one headers struct for the whole program, and forwarding.p4
 * and checksums.p4 are written against the name `headers_t`. As in
 * atp_headers.p4, headers.p4's own struct (with SwitchML in it) is included
 * under another name and `headers_t` is declared again with Rina in it.
 * Include this file before anything that includes headers.p4.
 *
 * Configuration (override with -DNAME=VALUE):
 *   RINA_ELEMENTS  int32 values per Rina packet: 64 by default, a multiple
 *                  of 8 from 8 to 256. Every member of a job must send
 *                  exactly this many; the ToR drops other counts.
 */
#ifndef P4INA_RINA_HEADERS_P4
#define P4INA_RINA_HEADERS_P4

#ifdef P4INA_HEADERS_P4
#error "include rina_headers.p4 before headers.p4 (or anything that includes it)"
#endif

#define headers_t switchml_headers_t
#include "headers.p4"
#undef headers_t

#ifndef RINA_ELEMENTS
#define RINA_ELEMENTS 64
#endif

#if RINA_ELEMENTS < 8 || RINA_ELEMENTS > 256 || RINA_ELEMENTS % 8 != 0
#error "RINA_ELEMENTS must be a multiple of 8 from 8 to 256"
#endif

/* Rina listens on UDP destination ports 0xBF10..0xBF1F (docs/wire.md §3). */
const bit<16> RINA_PORT_BASE = 0xBF10;
const bit<16> RINA_PORT_MASK = 0xFFF0;

const bit<4> RINA_VERSION = 1;
const bit<4> RINA_MSG_CONTRIBUTION = 1;   /* rack worker -> its ToR */
const bit<4> RINA_MSG_RING_DATA = 2;      /* ring member -> the next one */
const bit<4> RINA_MSG_ACK = 3;            /* receiver of RING_DATA -> its sender */
const bit<8> RINA_PHASE_SCATTER_REDUCE = 1;
const bit<8> RINA_PHASE_ALL_GATHER = 2;
/* The int8 exponent -128: the packet's values are exponents, and a round
 * of such packets keeps their maximum instead of their sum (the exponent
 * pass, docs/rina.md). */
const bit<8> RINA_EXPONENT_PASS = 0x80;

/* Bytes of the Rina header, and of the whole UDP datagram the ToR takes. */
const bit<16> RINA_HEADER_BYTES = 20;
const bit<16> RINA_UDP_LENGTH = 8 + RINA_HEADER_BYTES + 4 * RINA_ELEMENTS;

/* docs/wire.md §7, 20 bytes. The 32-bit `chunk` of the wire format is the
 * operation's epoch (its top byte) and the chunk within the segment. */
header rina_h {
    bit<4>  version;
    bit<4>  msg_type;
    bit<8>  phase;
    bit<16> job_id;
    bit<16> sender_rank;        /* ring position of the sender */
    bit<8>  worker_id;          /* 0..31: the rack worker's bit; 0 = the agent */
    bit<8>  exponent;           /* int8 as bits; RINA_EXPONENT_PASS: values are maxed */
    bit<16> step;
    bit<16> segment;
    bit<8>  epoch;              /* chunk bits 31..24: one per pass, mod 256 */
    bit<24> chunk;              /* chunk bits 23..0 */
    bit<1>  set;                /* shadow copy of the slot */
    bit<15> slot;               /* slot within the job's range */
    bit<16> elem_count;
}

/* One value; a packet carries RINA_ELEMENTS of them in a header stack. */
header rina_value_h {
    int<32> value;
}

struct headers_t {
    ethernet_h ethernet;
    arp_h      arp;
    ipv4_h     ipv4;
    udp_h      udp;
    rina_h     rina;
    rina_value_h[RINA_ELEMENTS] rina_values;
}

#endif /* P4INA_RINA_HEADERS_P4 */
