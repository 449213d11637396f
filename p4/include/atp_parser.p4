/*
 * atp.p4's parser and deparser.
 *
 *   Ethernet ─┬─ 0x0806 ─ ARP
 *             └─ 0x0800 ─ IPv4 ── (ihl 5, not a fragment, protocol 17) ── UDP
 *                   UDP ── (destination port 0xBF00..0xBF0F) ── ATP header
 *                   ATP ── (UDP length 8 + 16 + 4 × ATP_VALUES) ── values
 *
 * The Ethernet, ARP, IPv4 and UDP states are parser.p4's; only the INA
 * protocol after UDP differs. Whatever is not parsed stays in the payload,
 * which the deparser writes back after the valid headers, so a packet the
 * program does not modify leaves byte for byte as it came. An ATP packet of
 * another length keeps its values in the payload (the aggregation passes it
 * on); one too short for its header or values ends with parser error
 * PacketTooShort, and v1model still runs ingress.
 *
 * The including program declares `struct metadata_t` first.
 */
#ifndef P4INA_ATP_PARSER_P4
#define P4INA_ATP_PARSER_P4

#include "atp_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "atp_values.p4"

#define ATP_EXTRACT_VALUE(i) packet.extract(hdr.atp_values[i]);

parser AtpParser(packet_in packet,
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
            ATP_PORT_BASE &&& ATP_PORT_MASK: parse_atp;
            default: accept;
        }
    }

    state parse_atp {
        packet.extract(hdr.atp);
        /* The header does not carry the value count: the UDP length does. */
        transition select(hdr.udp.len) {
            ATP_UDP_LENGTH: parse_atp_values;
            default: accept;
        }
    }

    state parse_atp_values {
        ATP_FOR_EACH_VALUE(ATP_EXTRACT_VALUE)
        transition accept;
    }
}

/* Valid headers in wire order; the unparsed rest of the packet follows. */
control AtpDeparser(packet_out packet, in headers_t hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.arp);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.atp);
        packet.emit(hdr.atp_values);
    }
}

#endif /* P4INA_ATP_PARSER_P4 */
