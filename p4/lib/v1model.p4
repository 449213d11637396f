/*
 * p4ina's declaration of the v1model architecture, the architecture of BMv2's
 * simple_switch and of our emulator: `#include <v1model.p4>`. Written for
 * p4ina from the v1model documentation (BMv2's simple_switch.md and the
 * architecture's published declarations); names, signatures and annotations
 * match the reference compiler's file so that programs and their P4Info are
 * the same under both.
 *
 * Define V1MODEL_VERSION before the include to pick a revision:
 *   20180101 (the default): counter, meter and register indices are bit<32>;
 *   20200408: they take the index type as a type parameter, and PortId_t exists.
 */
#ifndef _V1_MODEL_P4_
#define _V1_MODEL_P4_

#include <core.p4>

#ifndef V1MODEL_VERSION
#define V1MODEL_VERSION 20180101
#endif

/* Match kinds v1model adds to exact, ternary and lpm. */
match_kind {
    range,     /* low <= key <= high */
    optional,  /* either exact or a wildcard */
    selector   /* a key that feeds an action selector's hash */
}

/* Programs may test this to know which revision of the architecture they got. */
const bit<32> __v1model_version = V1MODEL_VERSION;

#if V1MODEL_VERSION >= 20200408
typedef bit<9> PortId_t;
#define P4INA_PORT_T PortId_t
#else
#define P4INA_PORT_T bit<9>
#endif

/* Per-packet intrinsic metadata. The @alias names are the fields' names
 * inside BMv2 (its queueing_metadata and intrinsic_metadata headers). */
@metadata @name("standard_metadata")
struct standard_metadata_t {
    P4INA_PORT_T ingress_port;   /* the port the packet came in on */
    P4INA_PORT_T egress_spec;    /* set in ingress: the output port (511 drops) */
    P4INA_PORT_T egress_port;    /* in egress: the port this copy leaves by */
    bit<32> instance_type;       /* normal, clone, resubmit, recirculate, replica... */
    bit<32> packet_length;       /* in bytes */
    @alias("queueing_metadata.enq_timestamp")
    bit<32> enq_timestamp;       /* when the packet entered the queue, in microseconds */
    @alias("queueing_metadata.enq_qdepth")
    bit<19> enq_qdepth;          /* queue depth then, in packets */
    @alias("queueing_metadata.deq_timedelta")
    bit<32> deq_timedelta;       /* time spent in the queue, in microseconds */
    @alias("queueing_metadata.deq_qdepth")
    bit<19> deq_qdepth;          /* queue depth when it left, in packets */
    @alias("intrinsic_metadata.ingress_global_timestamp")
    bit<48> ingress_global_timestamp;  /* when ingress started, in microseconds */
    @alias("intrinsic_metadata.egress_global_timestamp")
    bit<48> egress_global_timestamp;   /* when egress started, in microseconds */
    @alias("intrinsic_metadata.mcast_grp")
    bit<16> mcast_grp;           /* set in ingress: multicast group, 0 for none */
    @alias("intrinsic_metadata.egress_rid")
    bit<16> egress_rid;          /* in egress: the replica's instance number */
    bit<1>  checksum_error;      /* 1 when verify_checksum found a bad checksum */
    error   parser_error;        /* the error the parser stopped with, or NoError */
    @alias("intrinsic_metadata.priority")
    bit<3>  priority;            /* queue priority */
}

#undef P4INA_PORT_T

enum CounterType {
    packets,
    bytes,
    packets_and_bytes
}

enum MeterType {
    packets,
    bytes
}

/* Meter colours as execute_meter and read report them. */
#define V1MODEL_METER_COLOR_GREEN  0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED    2

#if V1MODEL_VERSION >= 20200408

/* An array of `size` counters; count(i) adds the packet to counter i. */
extern counter<I> {
    counter(bit<32> size, CounterType type);
    void count(in I index);
}

#else

/* An array of `size` counters; count(i) adds the packet to counter i. */
extern counter {
    counter(bit<32> size, CounterType type);
    void count(in bit<32> index);
}

#endif

/* One counter per entry of the table that names it in `counters = ...`;
 * the matched entry's counter counts whether or not count() is called. */
extern direct_counter {
    direct_counter(CounterType type);
    void count();
}

#if V1MODEL_VERSION >= 20200408

/* An array of `size` two-rate three-colour meters. */
extern meter<I> {
    meter(bit<32> size, MeterType type);
    /* Run meter `index` on this packet and write its colour to `result`. */
    void execute_meter<T>(in I index, out T result);
}

#else

/* An array of `size` two-rate three-colour meters. */
extern meter {
    meter(bit<32> size, MeterType type);
    /* Run meter `index` on this packet and write its colour to `result`. */
    void execute_meter<T>(in bit<32> index, out T result);
}

#endif

/* One meter per entry of the table that names it in `meters = ...`. */
extern direct_meter<T> {
    direct_meter(MeterType type);
    /* In an action of that table: the colour of the matched entry's meter. */
    void read(out T result);
}

#if V1MODEL_VERSION >= 20200408

/* An array of `size` values of type T that keep their value between packets. */
extern register<T, I> {
    register(bit<32> size);
    @noSideEffects
    void read(out T result, in I index);
    void write(in I index, in T value);
}

#else

/* An array of `size` values of type T that keep their value between packets. */
extern register<T> {
    register(bit<32> size);
    @noSideEffects
    void read(out T result, in bit<32> index);
    void write(in bit<32> index, in T value);
}

#endif

/* A table implementation whose entries point at shared action members. */
extern action_profile {
    action_profile(bit<32> size);
}

/* Write a random value between lo and hi (both included) to result. */
extern void random<T>(out T result, in T lo, in T hi);

/* Send `data` to the control plane; a named struct type names the digest in P4Info. */
extern void digest<T>(in bit<32> receiver, in T data);

enum HashAlgorithm {
    crc32,
    crc32_custom,
    crc16,
    crc16_custom,
    random,
    identity,
    csum16,
    xor16
}

/* The old form: it cannot say which metadata to change. */
@deprecated("Please use mark_to_drop(standard_metadata) instead.")
extern void mark_to_drop();

/* Drop the packet at the end of this pipeline: egress_spec becomes the drop
 * port and mcast_grp 0. Later assignments to those fields undo it. */
@pure
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/* result = base + (hash of data) % max, or base when max is 0. */
@pure
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo, in T base, in D data, in M max);

/* An action profile whose member is chosen by a hash of the selector keys. */
extern action_selector {
    action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

/* Which pipeline a clone starts from: ingress-to-egress or egress-to-egress. */
enum CloneType {
    I2E,
    E2E
}

@deprecated("Please use verify_checksum/update_checksum instead.")
extern Checksum16 {
    Checksum16();
    bit<16> get<D>(in D data);
}

/* In VerifyChecksum: when condition holds and the checksum of `data` is not
 * `checksum`, set standard_metadata.checksum_error. */
extern void verify_checksum<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

/* In ComputeChecksum: when condition holds, write the checksum of `data` to `checksum`. */
@pure
extern void update_checksum<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/* As verify_checksum, with the unparsed payload appended to `data`. */
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

/* As update_checksum, with the unparsed payload appended to `data`. */
@noSideEffects
extern void update_checksum_with_payload<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/* Send a copy of the packet to clone session `session`. */
extern void clone(in CloneType type, in bit<32> session);

@deprecated("Please use 'resubmit_preserving_field_list' instead")
extern void resubmit<T>(in T data);

/* At the end of ingress, send the original packet through the parser again,
 * keeping the user metadata fields tagged @field_list(index). */
extern void resubmit_preserving_field_list(bit<8> index);

@deprecated("Please use 'recirculate_preserving_field_list' instead")
extern void recirculate<T>(in T data);

/* At the end of egress, send the deparsed packet through the parser again,
 * keeping the user metadata fields tagged @field_list(index). */
extern void recirculate_preserving_field_list(bit<8> index);

@deprecated("Please use 'clone_preserving_field_list' instead")
extern void clone3<T>(in CloneType type, in bit<32> session, in T data);

/* clone, keeping the user metadata fields tagged @field_list(index) in the copy. */
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> index);

/* Send at most `length` bytes of the packet out. */
extern void truncate(in bit<32> length);

/* Checks for testing and verification tools; BMv2 stops on a failed assert. */
extern void assert(in bool check);
extern void assume(in bool check);

/* Write a message to the target's log; `{}` in msg is replaced by the fields of data. */
extern void log_msg(string msg);
extern void log_msg<T>(string msg, in T data);

/* The six programmable blocks of the pipeline, in the order packets go
 * through them. H is the program's headers struct, M its metadata struct. */
parser Parser<H, M>(packet_in b,
                    out H parsedHdr,
                    inout M meta,
                    inout standard_metadata_t standard_metadata);

/* May only call verify_checksum and verify_checksum_with_payload. */
control VerifyChecksum<H, M>(inout H hdr,
                             inout M meta);

@pipeline
control Ingress<H, M>(inout H hdr,
                      inout M meta,
                      inout standard_metadata_t standard_metadata);

@pipeline
control Egress<H, M>(inout H hdr,
                     inout M meta,
                     inout standard_metadata_t standard_metadata);

/* May only call update_checksum and update_checksum_with_payload. */
control ComputeChecksum<H, M>(inout H hdr,
                              inout M meta);

/* May only emit headers. */
@deparser
control Deparser<H>(packet_out b, in H hdr);

package V1Switch<H, M>(Parser<H, M> p,
                       VerifyChecksum<H, M> vr,
                       Ingress<H, M> ig,
                       Egress<H, M> eg,
                       ComputeChecksum<H, M> ck,
                       Deparser<H> dep);

#endif /* _V1_MODEL_P4_ */
