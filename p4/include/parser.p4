/*
 * The parser and deparser both programs share.
 *
 *   Ethernet ─┬─ 0x0806 ─ ARP
 *             └─ 0x0800 ─ IPv4 ── (ihl 5, not a fragment, protocol 17) ── UDP
 *                   UDP ── (destination port 0xBEE0..0xBEEF) ── SwitchML header
 *                   SwitchML ── (version 1, elem_count SWITCHML_ELEMENTS) ── values
 *
 * Anything else stops the parser and stays in the payload, which the
 * deparser writes back unchanged after the valid headers. So a packet this
 * program does not understand (IPv4 with options, a fragment, a SwitchML
 * header of another version or size) still leaves byte for byte as it came.
 *
 * A SwitchML packet too short for its values ends with parser error
 * PacketTooShort; v1model still runs ingress (with the headers extracted so
 * far valid), and the aggregation drops it.
 *
 * The including program declares `struct metadata_t` first: v1model wants
 * every block to take the same metadata type.
 */
#ifndef P4INA_PARSER_P4
#define P4INA_PARSER_P4

#include <core.p4>
#include <v1model.p4>

#include "headers.p4"
#include "switchml_values.p4"

#define SWITCHML_EXTRACT_VALUE(i) packet.extract(hdr.switchml_values[i]);

parser InaParser(packet_in packet,
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
        /* Only a whole datagram with a plain 20-byte header has its UDP header
         * next: flags & 1 is MF, and a later fragment has an offset. */
        transition select(hdr.ipv4.ihl, hdr.ipv4.flags, hdr.ipv4.frag_offset, hdr.ipv4.protocol) {
            (4w5, 3w0 &&& 3w1, 13w0, IP_PROTOCOL_UDP): parse_udp;
            default: accept;
        }
    }

    state parse_udp {
        packet.extract(hdr.udp);
        /* A mask, not a range: the same sixteen ports, and every p4c
         * version's BMv2 back end accepts masks in select. */
        transition select(hdr.udp.dst_port) {
            SWITCHML_PORT_BASE &&& SWITCHML_PORT_MASK: parse_switchml;
            default: accept;
        }
    }

    state parse_switchml {
        packet.extract(hdr.switchml);
        /* Extract values only from a header this program can aggregate; the
         * aggregation drops the others by version or count, not as truncated. */
        transition select(hdr.switchml.version, hdr.switchml.elem_count) {
            (SWITCHML_VERSION, SWITCHML_ELEMENTS): parse_switchml_values;
            default: accept;
        }
    }

    state parse_switchml_values {
        SWITCHML_FOR_EACH_VALUE(SWITCHML_EXTRACT_VALUE)
        transition accept;
    }
}

/* Valid headers in wire order; the unparsed rest of the packet follows. */
control InaDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.arp);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.switchml);
        packet.emit(hdr.switchml_values);
    }
}

#endif /* P4INA_PARSER_P4 */
