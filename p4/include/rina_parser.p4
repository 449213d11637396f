/*
 * rina_tor.p4's parser and deparser.
 *
 *   Ethernet ─┬─ 0x0806 ─ ARP
 *             └─ 0x0800 ─ IPv4 ── (ihl 5, not a fragment, protocol 17) ── UDP
 *                   UDP ── (destination port 0xBF10..0xBF1F) ── Rina header
 *                   Rina ── (elem_count = RINA_ELEMENTS) ── values
 *
 * The Ethernet, ARP, IPv4 and UDP states are parser.p4's. Whatever is not
 * parsed stays in the payload, which the deparser writes back after the
 * valid headers, so a packet the program does not modify (an ACK, RING_DATA
 * for another host) leaves byte for byte as it came. A packet too short for
 * its header or values ends with parser error PacketTooShort, and v1model
 * still runs ingress.
 *
 * The including program declares `struct metadata_t` first.
 */
#ifndef P4INA_RINA_PARSER_P4
#define P4INA_RINA_PARSER_P4

#include "rina_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "rina_values.p4"

#define RINA_EXTRACT_VALUE(i) packet.extract(hdr.rina_values[i]);

parser RinaParser(packet_in packet,
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
            RINA_PORT_BASE &&& RINA_PORT_MASK: parse_rina;
            default: accept;
        }
    }

    state parse_rina {
        packet.extract(hdr.rina);
        /* An ACK has no values; other counts are the ToR's to drop. */
        transition select(hdr.rina.elem_count) {
            RINA_ELEMENTS: parse_rina_values;
            default: accept;
        }
    }

    state parse_rina_values {
        RINA_FOR_EACH_VALUE(RINA_EXTRACT_VALUE)
        transition accept;
    }
}

/* Valid headers in wire order; the unparsed rest of the packet follows. */
control RinaDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.arp);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.rina);
        packet.emit(hdr.rina_values);
    }
}

#endif /* P4INA_RINA_PARSER_P4 */
