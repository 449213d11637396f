// A table with the kinds of key the STF runner fills besides exact and lpm:
// ternary, range, optional, and an isValid() key. The matched entry's class goes into the Ethernet source MAC's last byte.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dstAddr; bit<48> srcAddr; bit<16> etherType; }
header tag_t { bit<8> kind; bit<16> value; }
struct headers { ethernet_t ethernet; tag_t tag; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x9000: parse_tag; default: accept; }
    }
    state parse_tag { pkt.extract(hdr.tag); transition accept; }
}
control NoVerify(inout headers hdr, inout metadata meta) { apply { } }
control ClassIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action classify(bit<8> cls, bit<9> port) {
        hdr.ethernet.srcAddr[7:0] = cls;
        sm.egress_spec = port;
    }
    action drop() { mark_to_drop(sm); }
    table classifier {
        key = {
            hdr.ethernet.dstAddr : ternary;
            hdr.tag.value        : range;
            hdr.tag.kind         : optional;
            hdr.tag.isValid()    : exact;
        }
        actions = { classify; drop; }
        default_action = drop();
    }
    apply { classifier.apply(); }
}
control NoEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control NoCompute(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.tag); } }
V1Switch(P(), NoVerify(), ClassIngress(), NoEgress(), NoCompute(), D()) main;
