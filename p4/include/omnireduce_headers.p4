/*
 * The headers omnireduce.p4 parses: those of headers.p4 (Ethernet II, ARP,
 * IPv4, UDP) and OmniReduce's message as its DPDK code lays it out
 * (docs/wire.md §6): a 10-byte header, a block of int32 values (none in a
 * value-less message), then an int16 exponent.
 *
 * v1model wants one headers struct for the whole program, and forwarding.p4
 * and checksums.p4 are written against the name `headers_t`. As in
 * atp_headers.p4, headers.p4's own struct (with SwitchML in it) is included
 * under another name and `headers_t` is declared again with OmniReduce in it.
 * Include this file before anything that includes headers.p4.
 *
 * Configuration (override with -DNAME=VALUE):
 *   OMNIREDUCE_BLOCK  int32 values per block: 64 by default, a multiple of 8
 *                     from 8 to 128. Workers must use this block size; the
 *                     switch drops messages of any other length. 128 is the
 *                     most BMv2 allows: a value-less message that completes a
 *                     round leaves as the reply with the whole block, 4 ×
 *                     OMNIREDUCE_BLOCK bytes longer than it came, and
 *                     simple_switch gives a packet 512 bytes to grow.
 */
#ifndef P4INA_OMNIREDUCE_HEADERS_P4
#define P4INA_OMNIREDUCE_HEADERS_P4

#ifdef P4INA_HEADERS_P4
#error "include omnireduce_headers.p4 before headers.p4 (or anything that includes it)"
#endif

#define headers_t switchml_headers_t
#include "headers.p4"
#undef headers_t

#ifndef OMNIREDUCE_BLOCK
#define OMNIREDUCE_BLOCK 64
#endif

#if OMNIREDUCE_BLOCK < 8 || OMNIREDUCE_BLOCK > 128 || OMNIREDUCE_BLOCK % 8 != 0
#error "OMNIREDUCE_BLOCK must be a multiple of 8 from 8 to 128"
#endif

/* OmniReduce listens on UDP destination ports 0xBEF0..0xBEFF (docs/wire.md §3). */
const bit<16> OMNIREDUCE_PORT_BASE = 0xBEF0;
const bit<16> OMNIREDUCE_PORT_MASK = 0xFFF0;

/* UDP lengths (UDP header, OmniReduce header, values, exponent) of the two
 * messages there are: value-less, and with a whole block. */
const bit<16> OMNIREDUCE_FRAMING_BYTES = 12;
const bit<16> OMNIREDUCE_UDP_LENGTH_EMPTY = 8 + OMNIREDUCE_FRAMING_BYTES;
const bit<16> OMNIREDUCE_UDP_LENGTH_BLOCK = 8 + OMNIREDUCE_FRAMING_BYTES + 4 * OMNIREDUCE_BLOCK;

/* next_tsi of a worker that holds no further block: the stream's end. */
const bit<32> OMNIREDUCE_NEXT_NONE = 0xFFFFFFFF;

/* docs/wire.md §6, 10 bytes. */
header omnireduce_h {
    bit<32> tsi;                /* the block's element offset in the tensor */
    bit<1>  set;                /* shadow copy of the slot */
    bit<15> slot;               /* the aggregator slot: a stream of blocks */
    bit<32> next_tsi;           /* the sender's next block; in a reply, the minimum */
}

/* One value; a message with values carries OMNIREDUCE_BLOCK of them. */
header omnireduce_value_h {
    bit<32> value;              /* int32 as its two's complement bits */
}

/* After the values. From a worker, the exponent of its next block; in a
 * reply, the maximum of those whose next block is the reply's next_tsi. */
header omnireduce_exponent_h {
    bit<16> exponent;           /* int16 as its two's complement bits */
}

struct headers_t {
    ethernet_h ethernet;
    arp_h      arp;
    ipv4_h     ipv4;
    udp_h      udp;
    omnireduce_h omnireduce;
    omnireduce_value_h[OMNIREDUCE_BLOCK] omnireduce_values;
    omnireduce_exponent_h omnireduce_exponent;
}

#endif /* P4INA_OMNIREDUCE_HEADERS_P4 */
