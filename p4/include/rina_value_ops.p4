/*
 * What RinaRound does to each of a packet's RINA_ELEMENTS values, one
 * statement per value (RINA_FOR_EACH_VALUE(OP), rina_values.p4): write it to
 * the slot copy, add it to or keep the maximum with the copy's, load the
 * copy's into the packet, and the same with the copy's stash. The macros name
 * RinaRound's registers `values` and `stash_values` and its metadata `rina`.
 */
#ifndef P4INA_RINA_VALUE_OPS_P4
#define P4INA_RINA_VALUE_OPS_P4

/* Per value i. Registers hold the int32 values as bit<32>: two's complement
 * addition gives the same bits; the signed maximum compares with the sign
 * bit flipped. */
#define RINA_STORE_VALUE(i) \
    values.write(rina.value_base + i, (bit<32>)hdr.rina_values[i].value);
#define RINA_ADD_VALUE(i) \
    values.read(rina.scratch, rina.value_base + i); \
    rina.scratch = rina.scratch + (bit<32>)hdr.rina_values[i].value; \
    values.write(rina.value_base + i, rina.scratch); \
    hdr.rina_values[i].value = (int<32>)rina.scratch;
#define RINA_MAX_VALUE(i) \
    values.read(rina.scratch, rina.value_base + i); \
    if ((rina.scratch ^ 32w0x80000000) > ((bit<32>)hdr.rina_values[i].value ^ 32w0x80000000)) { \
        hdr.rina_values[i].value = (int<32>)rina.scratch; \
    } else { \
        values.write(rina.value_base + i, (bit<32>)hdr.rina_values[i].value); \
    }
#define RINA_STASH_VALUE(i) \
    stash_values.write(rina.value_base + i, (bit<32>)hdr.rina_values[i].value);
#define RINA_ADD_STASHED(i) \
    stash_values.read(rina.scratch, rina.value_base + i); \
    hdr.rina_values[i].value = (int<32>)((bit<32>)hdr.rina_values[i].value + rina.scratch);
#define RINA_MAX_STASHED(i) \
    stash_values.read(rina.scratch, rina.value_base + i); \
    if ((rina.scratch ^ 32w0x80000000) > ((bit<32>)hdr.rina_values[i].value ^ 32w0x80000000)) { \
        hdr.rina_values[i].value = (int<32>)rina.scratch; \
    }
#define RINA_LOAD_VALUE(i) \
    values.read(rina.scratch, rina.value_base + i); \
    hdr.rina_values[i].value = (int<32>)rina.scratch;

#endif /* P4INA_RINA_VALUE_OPS_P4 */
