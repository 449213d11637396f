/*
 * RinaRound: what a scatter-reduce packet of a known job, worker or
 * predecessor does to its slot copy (docs/rina.md, "What a scatter-reduce
 * packet does"). RinaTor (rina_aggregation.p4) has checked the packet; this
 * control reads the copy, decides, writes, and turns the packet into what
 * leaves: the member's RING_DATA, a stored result, or nothing. It sets rina.outcome or rina.drop_reason; RinaTor
 * counts them.
 *
 * A copy's round is told by its tag (epoch, round, chunk, segment, sum or
 * max). "Older" orders rounds by epoch (1..127 behind, mod 256), then round,
 * then chunk: the order in which every sender of the rack visits a copy.
 * Rack workers open a round in a complete copy only after they have the
 * result of the slot's previous round, so they never destroy a result
 * another worker still needs. The predecessor cannot know where the rack
 * is, so its data never opens a round: it joins the round once a rack
 * worker has opened it, and is dropped as early before that (its sender
 * retransmits).
 */
#ifndef P4INA_RINA_ROUND_P4
#define P4INA_RINA_ROUND_P4

#include "rina_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "forwarding.p4"
#include "rina_config.p4"
#include "rina_values.p4"

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
#define RINA_LOAD_VALUE(i) \
    values.read(rina.scratch, rina.value_base + i); \
    hdr.rina_values[i].value = (int<32>)rina.scratch;

control RinaRound(inout headers_t hdr,
                  inout rina_metadata_t rina,
                  in forwarding_metadata_t fwd,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(RINA_CELLS) seen;
    register<bit<1>>(RINA_CELLS) pred_seen;
    register<bit<8>>(RINA_CELLS) remaining;
    register<bit<8>>(RINA_CELLS) round_epoch;
    register<bit<16>>(RINA_CELLS) round_step;
    register<bit<32>>(RINA_CELLS) round_chunk;
    register<bit<16>>(RINA_CELLS) round_segment;
    register<bit<1>>(RINA_CELLS) round_max;
    register<bit<32>>(RINA_CELLS * RINA_ELEMENTS) values;

    apply {
        rina.start_round = 0;
        rina.takeover = 0;
        rina.join = 0;
        rina.answer = 0;
        rina.to_agent = 0;
        rina.max_mode = 0;
        if (hdr.rina.exponent == RINA_EXPONENT_PASS) {
            rina.max_mode = 1;
        }
        rina.round_of_packet = hdr.rina.step;
        if (rina.from_pred == 1) {
            rina.round_of_packet = hdr.rina.step + 1;
        }

        /* The slot must be the job's, and the round one the ring has. */
        if ((bit<16>)hdr.rina.slot >= rina.pool_size) {
            rina.drop_reason = RINA_DROP_SLOT_OUT_OF_RANGE;
        } else if ((bit<32>)rina.slot_base + (bit<32>)hdr.rina.slot >= RINA_SLOTS) {
            rina.drop_reason = RINA_DROP_SLOT_BEYOND_REGISTERS;
        } else if (rina.round_of_packet > rina.last_step || (rina.from_pred == 1 && hdr.rina.step == 16w0xFFFF)) {
            rina.drop_reason = RINA_DROP_BAD_STEP;
        }

        if (rina.drop_reason == 0) {
            rina.cell = (((bit<32>)rina.slot_base + (bit<32>)hdr.rina.slot) << 1) | (bit<32>)hdr.rina.set;
            rina.value_base = rina.cell * RINA_ELEMENTS;
            seen.read(rina.seen, rina.cell);
            pred_seen.read(rina.pred_seen, rina.cell);
            remaining.read(rina.remaining, rina.cell);
            round_epoch.read(rina.round_epoch, rina.cell);
            round_step.read(rina.round_step, rina.cell);
            round_chunk.read(rina.round_chunk, rina.cell);
            round_segment.read(rina.round_segment, rina.cell);
            round_max.read(rina.round_max, rina.cell);
            rina.epoch_age = rina.round_epoch - hdr.rina.epoch;
            rina.same_round = 0;
            if (rina.epoch_age == 0 && rina.round_of_packet == rina.round_step
                    && (bit<32>)hdr.rina.chunk == rina.round_chunk
                    && hdr.rina.segment == rina.round_segment && rina.max_mode == rina.round_max) {
                rina.same_round = 1;
            }
            rina.older = 0;
            if ((rina.epoch_age != 0 && rina.epoch_age < 128)
                    || (rina.epoch_age == 0 && (rina.round_of_packet < rina.round_step
                        || (rina.round_of_packet == rina.round_step && (bit<32>)hdr.rina.chunk < rina.round_chunk)))) {
                rina.older = 1;
            }
            rina.used = 0;
            if (rina.seen != 0 || rina.pred_seen == 1) {
                rina.used = 1;
            }
            rina.has_me = rina.pred_seen;
            if (rina.from_pred == 0) {
                rina.has_me = 0;
                if ((rina.seen & rina.worker_bit) != 0) {
                    rina.has_me = 1;
                }
            }
            if (rina.remaining == 0) {
                if (rina.same_round == 1 && rina.has_me == 1) {
                    rina.answer = 1;
                } else if (rina.used == 1 && (rina.older == 1 || rina.same_round == 1)) {
                    rina.drop_reason = RINA_DROP_STALE;
                } else if (rina.from_pred == 0) {
                    rina.start_round = 1;
                } else {
                    rina.drop_reason = RINA_DROP_EARLY;
                }
            } else if (rina.same_round == 1) {
                if (rina.has_me == 1) {
                    rina.drop_reason = RINA_DROP_DUPLICATE;
                } else {
                    rina.join = 1;
                }
            } else if (rina.older == 1) {
                rina.drop_reason = RINA_DROP_STALE;
            } else if (rina.from_pred == 0) {
                /* Filling a round that cannot be real any more: start over it. */
                rina.start_round = 1;
                rina.takeover = 1;
            } else {
                rina.drop_reason = RINA_DROP_EARLY;
            }
            /* The predecessor's data for a round long complete was consumed:
             * the agent acknowledges what reaches it. */
            if (rina.from_pred == 1 && (rina.answer == 1 || rina.drop_reason == RINA_DROP_STALE)) {
                rina.answer = 0;
                rina.drop_reason = 0;
                rina.to_agent = 1;
                rina.outcome = RINA_OUTCOME_TO_AGENT;
            }

            if (rina.start_round == 1) {
                /* Every rack worker, and from round 1 on the predecessor; this
                 * packet is one of them. */
                rina.remaining = rina.rack_workers;
                if (rina.round_of_packet == 0) {
                    rina.remaining = rina.remaining - 1;
                }
                rina.seen = 0;
                if (rina.from_pred == 0) {
                    rina.seen = rina.worker_bit;
                }
                seen.write(rina.cell, rina.seen);
                pred_seen.write(rina.cell, rina.from_pred);
                remaining.write(rina.cell, rina.remaining);
                round_epoch.write(rina.cell, hdr.rina.epoch);
                round_step.write(rina.cell, rina.round_of_packet);
                round_chunk.write(rina.cell, (bit<32>)hdr.rina.chunk);
                round_segment.write(rina.cell, hdr.rina.segment);
                round_max.write(rina.cell, rina.max_mode);
                RINA_FOR_EACH_VALUE(RINA_STORE_VALUE)
            }
            if (rina.join == 1) {
                rina.remaining = rina.remaining - 1;
                remaining.write(rina.cell, rina.remaining);
                if (rina.from_pred == 1) {
                    pred_seen.write(rina.cell, 1);
                } else {
                    seen.write(rina.cell, rina.seen | rina.worker_bit);
                }
                if (rina.max_mode == 1) {
                    RINA_FOR_EACH_VALUE(RINA_MAX_VALUE)
                } else {
                    RINA_FOR_EACH_VALUE(RINA_ADD_VALUE)
                }
            }
            if (rina.answer == 1) {
                RINA_FOR_EACH_VALUE(RINA_LOAD_VALUE)
            }
        }

        /* What leaves. A complete round's result is the member's RING_DATA,
         * sent as the agent: scatter-reduce step k, or after the last round
         * the reduced segment as all-gather step 0. */
        if ((rina.start_round == 1 || rina.join == 1) && rina.remaining != 0) {
            rina.outcome = RINA_OUTCOME_AGGREGATED;
            mark_to_drop(standard_metadata);
            rina.handled = 1;
        } else if (rina.start_round == 1 || rina.join == 1 || rina.answer == 1) {
            /* The agent (worker 0) retransmits when the next member's ACK is
             * missing; any other rack worker when its own copy is. */
            rina.reply_to_worker = 0;
            if (rina.answer == 1 && hdr.rina.worker_id != 0) {
                rina.reply_to_worker = 1;
            }
            rina.reply_mac = hdr.ethernet.src_addr;
            rina.reply_ip = hdr.ipv4.src_addr;
            rina.reply_port = hdr.udp.src_port;
            hdr.rina.msg_type = RINA_MSG_RING_DATA;
            hdr.rina.sender_rank = rina.rank;
            hdr.rina.worker_id = 0;
            if (rina.round_of_packet == rina.last_step) {
                hdr.rina.phase = RINA_PHASE_ALL_GATHER;
                hdr.rina.step = 0;
            } else {
                hdr.rina.phase = RINA_PHASE_SCATTER_REDUCE;
                hdr.rina.step = rina.round_of_packet;
            }
            hdr.ipv4.src_addr = rina.agent_ip;
            hdr.ipv4.ttl = RINA_EMIT_TTL;
            hdr.udp.src_port = rina.agent_port;
            hdr.udp.checksum = 0;
            rina.handled = 1;
            if (rina.reply_to_worker == 1) {
                /* A rack worker lost the result: back to it alone. */
                hdr.ethernet.dst_addr = rina.reply_mac;
                hdr.ipv4.dst_addr = rina.reply_ip;
                hdr.udp.dst_port = rina.reply_port;
                standard_metadata.egress_spec = standard_metadata.ingress_port;
                rina.outcome = RINA_OUTCOME_ANSWERED;
            } else if (rina.answer == 1) {
                /* The agent got no ACK from the next member: send it again. */
                standard_metadata.mcast_grp = rina.mcast_group;
                rina.copies = RINA_COPIES_AGENT_AND_NEXT;
                rina.outcome = RINA_OUTCOME_REEMITTED;
            } else {
                standard_metadata.mcast_grp = rina.mcast_group;
                rina.copies = RINA_COPIES_ALL;
                rina.outcome = RINA_OUTCOME_EMITTED;
            }
        }
    }
}

#endif /* P4INA_RINA_ROUND_P4 */
