/*
 * The headers atp.p4 parses: those of headers.p4 (Ethernet II, ARP, IPv4,
 * UDP) and ATP's 16-byte header with its values (docs/wire.md §5).
 *
 * v1model wants one headers struct for the whole program, and forwarding.p4
 * and checksums.p4 are written against the name `headers_t`. headers.p4's own
 * struct carries SwitchML, so it is included here under another name and
 * `headers_t` is declared again with ATP in it. headers.p4 itself stays as it
 * is, so forward.p4 and switchml.p4 do not change. Include this file before
 * anything that includes headers.p4.
 *
 * Configuration (override with -DNAME=VALUE):
 *   ATP_VALUES  int32 values per ATP packet: 64 by default, a multiple of 8
 *               from 8 to 256. Workers and the PS must use the same count;
 *               the switch passes packets with another count on unaggregated.
 */
#ifndef P4INA_ATP_HEADERS_P4
#define P4INA_ATP_HEADERS_P4

#ifdef P4INA_HEADERS_P4
#error "include atp_headers.p4 before headers.p4 (or anything that includes it)"
#endif

#define headers_t switchml_headers_t
#include "headers.p4"
#undef headers_t

#ifndef ATP_VALUES
#define ATP_VALUES 64
#endif

#if ATP_VALUES < 8 || ATP_VALUES > 256 || ATP_VALUES % 8 != 0
#error "ATP_VALUES must be a multiple of 8 from 8 to 256"
#endif

/* ATP listens on UDP destination ports 0xBF00..0xBF0F (docs/wire.md §3). */
const bit<16> ATP_PORT_BASE = 0xBF00;
const bit<16> ATP_PORT_MASK = 0xFFF0;

/* Bytes of the ATP header, and of the whole UDP datagram (UDP header, ATP
 * header, values) whose values the switch can add. */
const bit<16> ATP_HEADER_BYTES = 16;
const bit<16> ATP_UDP_LENGTH = 8 + ATP_HEADER_BYTES + 4 * ATP_VALUES;

/* ATP as the NSDI'21 paper draws it (docs/wire.md §5), 16 bytes. */
header atp_h {
    bit<32> bitmap0;            /* contributors at level 0 (a worker's ToR) */
    bit<32> bitmap1;            /* contributors at level 1 */
    bit<5>  fan_in_degree0;     /* contributions a level-0 aggregator waits for */
    bit<5>  fan_in_degree1;
    bit<1>  overflow;           /* float32 values for the PS: never added */
    bit<1>  resend;             /* a retransmission: flush the aggregator */
    bit<1>  collision;          /* the aggregator belonged to another tag */
    bit<1>  ecn;                /* congestion seen on the way */
    bit<1>  edge_switch_identifier;  /* the level that aggregates this packet */
    bit<1>  is_ack;             /* the PS's result on its way to the workers */
    bit<16> aggregator_index;
    bit<16> job_id;             /* job_id ++ sequence_number is the owner tag */
    bit<16> sequence_number;
}

/* One value; a packet carries ATP_VALUES of them in a header stack. */
header atp_value_h {
    int<32> value;
}

struct headers_t {
    ethernet_h ethernet;
    arp_h      arp;
    ipv4_h     ipv4;
    udp_h      udp;
    atp_h      atp;
    atp_value_h[ATP_VALUES] atp_values;
}

#endif /* P4INA_ATP_HEADERS_P4 */
