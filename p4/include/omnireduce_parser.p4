/*
 * omnireduce.p4's parser and deparser.
 *
 *   Ethernet ─┬─ 0x0806 ─ ARP
 *             └─ 0x0800 ─ IPv4 ── (ihl 5, not a fragment, protocol 17) ── UDP
 *                   UDP ── (destination port 0xBEF0..0xBEFF) ── OmniReduce header
 *                   OmniReduce ─┬─ (UDP length 8 + 12) ── exponent
 *                               └─ (UDP length 8 + 12 + 4 × OMNIREDUCE_BLOCK) ── values ── exponent
 *
 * The Ethernet, ARP, IPv4 and UDP states are parser.p4's. The header does not
 * carry the value count: the UDP length does, and a message of any other
 * length keeps its bytes in the payload (the aggregation drops it). Whatever
 * is not parsed stays in the payload, which the deparser writes back after
 * the valid headers, so a packet the program does not modify (an OmniReduce
 * message for a host aggregator, say) leaves byte for byte as it came. A
 * message too short for its UDP length ends with parser error PacketTooShort,
 * and v1model still runs ingress.
 *
 * The including program declares `struct metadata_t` first.
 */
#ifndef P4INA_OMNIREDUCE_PARSER_P4
#define P4INA_OMNIREDUCE_PARSER_P4

#include "omnireduce_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "omnireduce_values.p4"

#define OMNIREDUCE_EXTRACT_VALUE(i) packet.extract(hdr.omnireduce_values[i]);

parser OmniReduceParser(packet_in packet,
                        out headers_t hdr,
                        inout metadata_t meta,
                        inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            ETHERTYPE_ARP: parse_arp;
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }

    state parse_arp {
        packet.extract(hdr.arp);
        transition accept;
    }

    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        /* flags & 1 is MF; a later fragment has an offset. */
        transition select(hdr.ipv4.ihl, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (4w5, 3w0 &&& 3w1, 13w0, IP_PROTOCOL_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        /* A mask, not a range: every p4c version's BMv2 back end takes masks. */
        transition select(hdr.udp.dst_port) {
            OMNIREDUCE_PORT_BASE &&& OMNIREDUCE_PORT_MASK: parse_omnireduce;
            default: accept;
        }
    }

    state parse_omnireduce {
        packet.extract(hdr.omnireduce);
        transition select(hdr.udp.len) {
            OMNIREDUCE_UDP_LENGTH_EMPTY: parse_omnireduce_exponent;
            OMNIREDUCE_UDP_LENGTH_BLOCK: parse_omnireduce_values;
            default: accept;
        }
    }

    state parse_omnireduce_values {
        OMNIREDUCE_FOR_EACH_VALUE(OMNIREDUCE_EXTRACT_VALUE)
        transition parse_omnireduce_exponent;
    }

    state parse_omnireduce_exponent {
        packet.extract(hdr.omnireduce_exponent);
        transition accept;
    }
}

/* Valid headers in wire order (the exponent after the values, if any); the
 * unparsed rest of the packet follows. */
control OmniReduceDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.arp);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.omnireduce);
        packet.emit(hdr.omnireduce_values);
        packet.emit(hdr.omnireduce_exponent);
    }
}

#endif /* P4INA_OMNIREDUCE_PARSER_P4 */
