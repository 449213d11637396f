/*
 * RinaRound: what a scatter-reduce packet does to its slot copy (docs/rina.md,
 * "What a scatter-reduce packet does"), once RinaTor (rina_aggregation.p4)
 * has checked it: read the copy, decide, write, and turn the packet into what
 * leaves (the member's RING_DATA, a stored result, or nothing). It sets
 * rina.outcome or rina.drop_reason; RinaTor counts them.
 *
 * A copy's rounds are ordered by epoch (1..127 behind, mod 256), chunk and
 * round: the order in which the rack visits the copy. Rack workers open a
 * round only after the result of the slot's previous round, so no result a
 * worker still needs is overwritten. The predecessor cannot know where the
 * rack is: its data joins a round a rack worker opened, opens round k itself
 * only once the other copy shows every rack worker past round k − 1
 * (`released`), and otherwise waits in the copy's stash (one round), or is
 * dropped as early.
 */
#ifndef P4INA_RINA_ROUND_P4
#define P4INA_RINA_ROUND_P4

#include "rina_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "forwarding.p4"
#include "rina_config.p4"
#include "rina_values.p4"
#include "rina_value_ops.p4"

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
    /* The predecessor's data for a round the rack has not opened yet, one per copy. */
    register<bit<1>>(RINA_CELLS) stash_full;
    register<bit<8>>(RINA_CELLS) stash_epoch;
    register<bit<16>>(RINA_CELLS) stash_step;
    register<bit<32>>(RINA_CELLS) stash_chunk;
    register<bit<32>>(RINA_CELLS * RINA_ELEMENTS) stash_values;

    apply {
        rina.start_round = 0;
        rina.takeover = 0;
        rina.join = 0;
        rina.answer = 0;
        rina.to_agent = 0;
        rina.stash = 0;
        rina.unstash = 0;
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
                    || (rina.epoch_age == 0 && ((bit<32>)hdr.rina.chunk < rina.round_chunk
                        || ((bit<32>)hdr.rina.chunk == rina.round_chunk && rina.round_of_packet < rina.round_step)))) {
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
            /* The predecessor may open round k once every rack worker has sent
             * round k − 1 of the chunk (the other copy shows it; docs/rina.md). */
            rina.released = 0;
            if (rina.from_pred == 1) {
                seen.read(rina.other_seen, rina.cell ^ 1);
                round_epoch.read(rina.other_epoch, rina.cell ^ 1);
                round_step.read(rina.other_step, rina.cell ^ 1);
                round_chunk.read(rina.other_chunk, rina.cell ^ 1);
                if ((rina.other_seen & rina.rack_mask) == rina.rack_mask && rina.other_epoch == hdr.rina.epoch
                        && rina.other_step == rina.round_of_packet - 1 && rina.other_chunk == (bit<32>)hdr.rina.chunk) {
                    rina.released = 1;
                }
            }

            /* The copy's stash: the predecessor's data kept for a round to come. */
            stash_full.read(rina.stash_full, rina.cell);
            stash_epoch.read(rina.stash_epoch, rina.cell);
            stash_step.read(rina.stash_step, rina.cell);
            stash_chunk.read(rina.stash_chunk, rina.cell);
            rina.stash_same = 0;
            if (rina.stash_full == 1 && rina.stash_epoch == hdr.rina.epoch && rina.stash_step == rina.round_of_packet
                    && rina.stash_chunk == (bit<32>)hdr.rina.chunk) {
                rina.stash_same = 1;
            }
            /* Free: empty, or left from a round the copy has passed (the stash's round is older). */
            rina.stash_age = rina.round_epoch - rina.stash_epoch;
            rina.stash_free = 0;
            if (rina.stash_full == 0 || (rina.stash_age != 0 && rina.stash_age < 128)
                    || (rina.stash_age == 0 && (rina.stash_chunk < rina.round_chunk
                        || (rina.stash_chunk == rina.round_chunk && rina.stash_step <= rina.round_step)))) {
                rina.stash_free = 1;
            }

            if (rina.remaining == 0) {
                if (rina.same_round == 1 && rina.has_me == 1) {
                    rina.answer = 1;
                } else if (rina.used == 1 && (rina.older == 1 || rina.same_round == 1)) {
                    rina.drop_reason = RINA_DROP_STALE;
                } else if (rina.from_pred == 0 || rina.released == 1) {
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
            } else if (rina.from_pred == 0 || rina.released == 1) {
                /* Filling a round that cannot be real any more: start over it. */
                rina.start_round = 1;
                rina.takeover = 1;
            } else {
                rina.drop_reason = RINA_DROP_EARLY;
            }
            /* Early data waits in the stash for the rack to open its round. */
            if (rina.drop_reason == RINA_DROP_EARLY) {
                if (rina.stash_same == 1) {
                    rina.drop_reason = RINA_DROP_DUPLICATE;
                } else if (rina.stash_free == 1) {
                    rina.drop_reason = 0;
                    rina.stash = 1;
                }
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
                if (rina.from_pred == 0 && rina.stash_same == 1 && rina.round_of_packet != 0) {
                    /* The predecessor's data came first and waited: it joins now. */
                    rina.unstash = 1;
                    rina.remaining = rina.remaining - 1;
                    if (rina.max_mode == 1) {
                        RINA_FOR_EACH_VALUE(RINA_MAX_STASHED)
                    } else {
                        RINA_FOR_EACH_VALUE(RINA_ADD_STASHED)
                    }
                }
                /* A stash of this round or an earlier one is done with: empty it,
                 * so that it can never meet a round of the same tag again. */
                rina.stash_age = hdr.rina.epoch - rina.stash_epoch;
                if (rina.stash_full == 1 && ((rina.stash_age != 0 && rina.stash_age < 128)
                        || (rina.stash_age == 0 && (rina.stash_chunk < (bit<32>)hdr.rina.chunk
                            || (rina.stash_chunk == (bit<32>)hdr.rina.chunk && rina.stash_step <= rina.round_of_packet))))) {
                    stash_full.write(rina.cell, 0);
                }
                rina.seen = 0;
                if (rina.from_pred == 0) {
                    rina.seen = rina.worker_bit;
                }
                seen.write(rina.cell, rina.seen);
                pred_seen.write(rina.cell, rina.from_pred | rina.unstash);
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
            if (rina.stash == 1) {
                stash_full.write(rina.cell, 1);
                stash_epoch.write(rina.cell, hdr.rina.epoch);
                stash_step.write(rina.cell, rina.round_of_packet);
                stash_chunk.write(rina.cell, (bit<32>)hdr.rina.chunk);
                RINA_FOR_EACH_VALUE(RINA_STASH_VALUE)
                rina.outcome = RINA_OUTCOME_STASHED;
                mark_to_drop(standard_metadata);
                rina.handled = 1;
            }
        }

        /* A complete round leaves as the member's RING_DATA, from the agent:
         * scatter-reduce step k, or the reduced segment as all-gather step 0. */
        if ((rina.start_round == 1 || rina.join == 1) && rina.remaining != 0) {
            rina.outcome = RINA_OUTCOME_AGGREGATED;
            mark_to_drop(standard_metadata);
            rina.handled = 1;
        } else if (rina.start_round == 1 || rina.join == 1 || rina.answer == 1) {
            /* A retransmission from the agent (worker 0) goes again to the next
             * member and the agent; from another worker, back to it alone. */
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
            /* The next member's round k + 1 of the chunk uses the slot's other copy. */
            hdr.rina.set = hdr.rina.set ^ 1;
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
                hdr.ethernet.dst_addr = rina.reply_mac;
                hdr.ipv4.dst_addr = rina.reply_ip;
                hdr.udp.dst_port = rina.reply_port;
                standard_metadata.egress_spec = standard_metadata.ingress_port;
                rina.outcome = RINA_OUTCOME_ANSWERED;
            } else if (rina.answer == 1) {
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
