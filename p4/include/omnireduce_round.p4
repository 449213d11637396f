/*
 * OmniReduceRound: what a checked OmniReduce message does to its slot
 * (docs/p4-programs.md §5, "What a message does"), once
 * OmniReduceAggregation (omnireduce_aggregation.p4) has found its job,
 * worker and slot: read the slot's two copies, decide, write, and turn the
 * packet into the reply when there is one. It sets omr.op, omr.complete,
 * omr.takeover or omr.drop_reason; OmniReduceAggregation addresses and counts.
 *
 * It plays the host aggregator's slot (src/agent/omnireduce/aggregator-slot.ts)
 * with two copies per slot. The copy `newest` names holds the slot's newest
 * round; the other copy the one before it:
 * - newest filling: that round is the current one; a message of it joins,
 *   one of the other copy's complete round gets that reply back;
 * - newest complete, its reply naming a next block: the next round (that
 *   block, the other set, no priming) starts in the other copy with its first
 *   message, whatever the copy holds: every worker has the reply the copy
 *   held, since each sent this round's predecessor only after it; a message
 *   of the newest round gets its reply back;
 * - newest complete with next_tsi none (the stream ended), or never used:
 *   the slot is idle; a priming message starts a priming round in its set's
 *   copy; a message of the newest round gets its reply back.
 * Anything else is stale. A round completes when every worker of the job has
 * sent one message of it (each sends exactly one per round), and the reply
 * carries the sum, the minimum of their next_tsi and the largest exponent of
 * those whose next_tsi is that minimum (at least -127), as the host's does.
 */
#ifndef P4INA_OMNIREDUCE_ROUND_P4
#define P4INA_OMNIREDUCE_ROUND_P4

#include "omnireduce_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "omnireduce_config.p4"
#include "omnireduce_values.p4"

/* Per value i. The registers hold the int32 sums as bit<32>: two's
 * complement addition gives the same bits. */
#define OMNIREDUCE_STORE_VALUE(i) \
    values.write(omr.value_base + i, hdr.omnireduce_values[i].value);
#define OMNIREDUCE_ZERO_VALUE(i) \
    values.write(omr.value_base + i, 32w0);
#define OMNIREDUCE_ADD_VALUE(i) \
    values.read(omr.scratch, omr.value_base + i); \
    omr.scratch = omr.scratch + hdr.omnireduce_values[i].value; \
    values.write(omr.value_base + i, omr.scratch); \
    hdr.omnireduce_values[i].value = omr.scratch;
/* A value-less message leaves with the block: its value headers become valid. */
#define OMNIREDUCE_LOAD_VALUE(i) \
    hdr.omnireduce_values[i].setValid(); \
    values.read(omr.scratch, omr.value_base + i); \
    hdr.omnireduce_values[i].value = omr.scratch;

control OmniReduceRound(inout headers_t hdr,
                        inout omnireduce_metadata_t omr,
                        inout standard_metadata_t standard_metadata) {
    /* Per slot: the set of its newest round. */
    register<bit<1>>(OMNIREDUCE_SLOTS) newest;
    /* Per copy (cell = 2 * slot + set). */
    register<bit<32>>(OMNIREDUCE_CELLS) seen;
    register<bit<8>>(OMNIREDUCE_CELLS) remaining;
    register<bit<32>>(OMNIREDUCE_CELLS) round_tsi;
    register<bit<1>>(OMNIREDUCE_CELLS) round_priming;
    register<bit<32>>(OMNIREDUCE_CELLS) min_next;
    register<bit<16>>(OMNIREDUCE_CELLS) next_exponent;
    register<bit<32>>(OMNIREDUCE_CELLS * OMNIREDUCE_BLOCK) values;

    apply {
        omr.op = OMNIREDUCE_OP_NONE;
        omr.takeover = 0;
        omr.complete = 0;

        /* 1. Read both copies of the slot. */
        omr.slot_index = (bit<32>)omr.slot_base + (bit<32>)omr.job_slot;
        newest.read(omr.newest, omr.slot_index);
        omr.cell_n = (omr.slot_index << 1) | (bit<32>)omr.newest;
        omr.cell_o = omr.cell_n ^ 1;
        seen.read(omr.n_seen, omr.cell_n);
        remaining.read(omr.n_remaining, omr.cell_n);
        round_tsi.read(omr.n_tsi, omr.cell_n);
        round_priming.read(omr.n_priming, omr.cell_n);
        min_next.read(omr.n_min, omr.cell_n);
        seen.read(omr.o_seen, omr.cell_o);
        remaining.read(omr.o_remaining, omr.cell_o);
        round_tsi.read(omr.o_tsi, omr.cell_o);
        round_priming.read(omr.o_priming, omr.cell_o);
        omr.same_as_n = 0;
        if (hdr.omnireduce.set == omr.newest && hdr.omnireduce.tsi == omr.n_tsi && omr.priming == omr.n_priming) {
            omr.same_as_n = 1;
        }
        omr.same_as_o = 0;
        if (hdr.omnireduce.set != omr.newest && hdr.omnireduce.tsi == omr.o_tsi && omr.priming == omr.o_priming) {
            omr.same_as_o = 1;
        }
        omr.o_complete = 0;
        if (omr.o_seen != 0 && omr.o_remaining == 0) {
            omr.o_complete = 1;
        }

        /* 2. Decide, as the header comment says. */
        omr.cell = (omr.slot_index << 1) | (bit<32>)hdr.omnireduce.set;
        if (omr.n_seen != 0 && omr.n_remaining != 0) {
            if (omr.same_as_n == 1) {
                omr.op = OMNIREDUCE_OP_TAKE;
            } else if (omr.same_as_o == 1 && omr.o_complete == 1) {
                omr.op = OMNIREDUCE_OP_RESEND;
            }
        } else if (omr.n_seen != 0 && omr.n_min != OMNIREDUCE_NEXT_NONE) {
            if (hdr.omnireduce.set != omr.newest && hdr.omnireduce.tsi == omr.n_min && omr.priming == 0) {
                omr.op = OMNIREDUCE_OP_START;
                if (omr.o_seen != 0 && omr.o_remaining != 0) {
                    /* Only a stray round can fill the copy of the previous one. */
                    omr.takeover = 1;
                }
            } else if (omr.same_as_n == 1) {
                omr.op = OMNIREDUCE_OP_RESEND;
            }
        } else if (omr.n_seen != 0) {
            if (omr.same_as_n == 1) {
                omr.op = OMNIREDUCE_OP_RESEND;
            } else if (omr.priming == 1) {
                omr.op = OMNIREDUCE_OP_START;
            }
        } else if (omr.priming == 1) {
            omr.op = OMNIREDUCE_OP_START;
        }
        if (omr.op == OMNIREDUCE_OP_NONE) {
            omr.drop_reason = OMNIREDUCE_DROP_STALE;
        }
        omr.value_base = omr.cell * OMNIREDUCE_BLOCK;
        omr.round_priming = omr.priming;

        /* 3. Write. The first message of a round writes, later ones add. */
        if (omr.op == OMNIREDUCE_OP_START) {
            omr.seen = omr.worker_bit;
            omr.remaining = omr.worker_count - 1;
            omr.min_next = hdr.omnireduce.next_tsi;
            omr.next_exponent = hdr.omnireduce_exponent.exponent;
            newest.write(omr.slot_index, hdr.omnireduce.set);
            seen.write(omr.cell, omr.seen);
            remaining.write(omr.cell, omr.remaining);
            round_tsi.write(omr.cell, hdr.omnireduce.tsi);
            round_priming.write(omr.cell, omr.priming);
            min_next.write(omr.cell, omr.min_next);
            next_exponent.write(omr.cell, omr.next_exponent);
            if (omr.has_values == 1) {
                OMNIREDUCE_FOR_EACH_VALUE(OMNIREDUCE_STORE_VALUE)
            } else if (omr.priming == 0) {
                OMNIREDUCE_FOR_EACH_VALUE(OMNIREDUCE_ZERO_VALUE)
            }
            if (omr.remaining == 0) {
                omr.complete = 1;
            }
        } else if (omr.op == OMNIREDUCE_OP_TAKE) {
            if ((omr.n_seen & omr.worker_bit) != 0) {
                /* Already taken; the round is not complete, so there is nothing to answer yet. */
                omr.drop_reason = OMNIREDUCE_DROP_DUPLICATE;
            } else {
                omr.seen = omr.n_seen | omr.worker_bit;
                omr.remaining = omr.n_remaining - 1;
                seen.write(omr.cell, omr.seen);
                remaining.write(omr.cell, omr.remaining);
                min_next.read(omr.min_next, omr.cell);
                next_exponent.read(omr.next_exponent, omr.cell);
                /* The running minimum, and the largest exponent at it (int16:
                 * flipping the sign bit orders them as unsigned values). */
                if (hdr.omnireduce.next_tsi < omr.min_next) {
                    omr.min_next = hdr.omnireduce.next_tsi;
                    omr.next_exponent = hdr.omnireduce_exponent.exponent;
                    min_next.write(omr.cell, omr.min_next);
                    next_exponent.write(omr.cell, omr.next_exponent);
                } else if (hdr.omnireduce.next_tsi == omr.min_next
                           && (hdr.omnireduce_exponent.exponent ^ 16w0x8000) > (omr.next_exponent ^ 16w0x8000)) {
                    omr.next_exponent = hdr.omnireduce_exponent.exponent;
                    next_exponent.write(omr.cell, omr.next_exponent);
                }
                if (omr.has_values == 1) {
                    OMNIREDUCE_FOR_EACH_VALUE(OMNIREDUCE_ADD_VALUE)
                }
                if (omr.remaining == 0) {
                    omr.complete = 1;
                }
            }
        } else if (omr.op == OMNIREDUCE_OP_RESEND) {
            min_next.read(omr.min_next, omr.cell);
            next_exponent.read(omr.next_exponent, omr.cell);
        }

        /* 4. The reply: the round's tsi and set (the message's), the minimum
         * next_tsi, its exponent, and the block unless it is a priming round. */
        if (omr.complete == 1 || omr.op == OMNIREDUCE_OP_RESEND) {
            hdr.omnireduce.next_tsi = omr.min_next;
            hdr.omnireduce_exponent.exponent = omr.next_exponent;
            if (omr.min_next == OMNIREDUCE_NEXT_NONE
                    || (omr.next_exponent ^ 16w0x8000) < (OMNIREDUCE_MIN_EXPONENT ^ 16w0x8000)) {
                hdr.omnireduce_exponent.exponent = OMNIREDUCE_MIN_EXPONENT;
            }
            if (omr.round_priming == 1) {
                hdr.udp.len = OMNIREDUCE_UDP_LENGTH_EMPTY;
            } else {
                hdr.udp.len = OMNIREDUCE_UDP_LENGTH_BLOCK;
                if (omr.has_values == 0 || omr.op == OMNIREDUCE_OP_RESEND) {
                    OMNIREDUCE_FOR_EACH_VALUE(OMNIREDUCE_LOAD_VALUE)
                }
            }
            hdr.ipv4.total_len = 20 + hdr.udp.len;
        }
    }
}

#endif /* P4INA_OMNIREDUCE_ROUND_P4 */
