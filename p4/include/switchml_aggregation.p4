/*
 * SwitchMLAggregation: the ingress half of switchml.p4, for a SwitchML
 * packet addressed to this switch. Formats: docs/wire.md §4. Contract and
 * the per-packet cases: docs/p4-programs.md.
 *
 * State per slot copy ("cell" = 2 * (job's slot_base + slot) + set):
 *   seen          workers that contributed to the copy's current round
 *   remaining     contributions still missing; 0 = complete (or never used)
 *   round_tsi,    the (tsi, epoch) of the copy's current round: every worker
 *   round_epoch   sends the same tsi into a slot copy in a round
 *   exponent_max  the largest exponent of the round (int8, stored as bits)
 *   values        SWITCHML_ELEMENTS sums, at cell * SWITCHML_ELEMENTS + i
 *
 * The first contribution of a round writes instead of adding, so a slot copy
 * never needs a reset between rounds: BMv2 cannot write registers over
 * P4Runtime, and nothing here depends on it. A round starts when a copy is
 * complete (remaining == 0) and an update arrives that is neither a
 * retransmission of that complete round nor older than it (an earlier tsi
 * of the same epoch, or an epoch 1..127 behind: workers count epochs up by
 * one per operation). A late packet therefore cannot open a round that the
 * real one would then find occupied.
 *
 * A copy filling a round nobody will finish (a stray or forged update, an
 * aborted operation) is taken over, so that it cannot block the job:
 * - by an update of a newer round: workers send a slot's next round only
 *   after its previous result, so a real newer round never meets a real
 *   older one still filling;
 * - by a RECOVERY_UPDATE of any other round: a worker sends its update so
 *   after several retransmissions without an answer (for a one-worker job,
 *   also a complete copy of an older round).
 * Taking over discards the partial sums; the contributors of a real round
 * retransmit, so results stay exact (docs/p4-programs.md §3, "Recovery").
 *
 * Configuration (SWITCHML_SLOTS, SWITCHML_MAX_JOBS), counter codes and the
 * metadata: switchml_config.p4.
 */
#ifndef P4INA_SWITCHML_AGGREGATION_P4
#define P4INA_SWITCHML_AGGREGATION_P4

#include <core.p4>
#include <v1model.p4>

#include "headers.p4"
#include "forwarding.p4"
#include "switchml_config.p4"
#include "switchml_values.p4"

/* Per value i. The registers hold the int32 sums as bit<32>: two's
 * complement addition gives the same bits, and unsigned registers are what
 * every v1model target and P4Runtime client handles. */
#define SWITCHML_STORE_VALUE(i) \
    values.write(sml.value_base + i, (bit<32>)hdr.switchml_values[i].value);
#define SWITCHML_ADD_VALUE(i) \
    values.read(sml.scratch, sml.value_base + i); \
    sml.scratch = sml.scratch + (bit<32>)hdr.switchml_values[i].value; \
    values.write(sml.value_base + i, sml.scratch); \
    hdr.switchml_values[i].value = (int<32>)sml.scratch;
#define SWITCHML_LOAD_VALUE(i) \
    values.read(sml.scratch, sml.value_base + i); \
    hdr.switchml_values[i].value = (int<32>)sml.scratch;

control SwitchMLAggregation(inout headers_t hdr,
                            inout switchml_metadata_t sml,
                            in forwarding_metadata_t fwd,
                            inout standard_metadata_t standard_metadata) {
    register<bit<32>>(SWITCHML_CELLS) seen;
    register<bit<8>>(SWITCHML_CELLS) remaining;
    register<bit<32>>(SWITCHML_CELLS) round_tsi;
    register<bit<8>>(SWITCHML_CELLS) round_epoch;
    register<bit<8>>(SWITCHML_CELLS) exponent_max;
    register<bit<32>>(SWITCHML_CELLS * SWITCHML_ELEMENTS) values;
    counter(SWITCHML_DROP_REASONS, CounterType.packets) switchml_drops;
    counter(SWITCHML_OUTCOMES, CounterType.packets) switchml_outcomes;

    /* slot_base + pool_size <= SWITCHML_SLOTS, worker_count 1..32. */
    action set_job(bit<16> slot_base, bit<16> pool_size, bit<8> worker_count, bit<16> mcast_group) {
        sml.slot_base = slot_base;
        sml.pool_size = pool_size;
        sml.worker_count = worker_count;
        sml.mcast_group = mcast_group;
    }

    action unknown_job() {
        sml.drop_reason = SWITCHML_DROP_UNKNOWN_JOB;
    }

    table jobs {
        key = {
            hdr.switchml.job_id: exact @name("job_id");
        }
        actions = {
            @tableonly set_job;
            @defaultonly unknown_job;
        }
        const default_action = unknown_job();
        size = SWITCHML_MAX_JOBS;
    }

    /* bitmap_bit: one bit, distinct per worker of the job (1 << worker_id). */
    action accept_worker(bit<32> bitmap_bit) {
        sml.worker_bit = bitmap_bit;
        sml.check_source = 0;
    }

    /* As accept_worker, and the update must come from IPv4 source src_addr
     * and UDP source port src_port: the worker's own address. */
    action accept_worker_from(bit<32> bitmap_bit, bit<32> src_addr, bit<16> src_port) {
        sml.worker_bit = bitmap_bit;
        sml.check_source = 1;
        sml.expected_source = src_addr;
        sml.expected_port = src_port;
    }

    action unknown_worker() {
        sml.drop_reason = SWITCHML_DROP_UNKNOWN_WORKER;
    }

    table workers {
        key = {
            hdr.switchml.job_id: exact @name("job_id");
            hdr.switchml.worker_id: exact @name("worker_id");
        }
        actions = {
            @tableonly accept_worker;
            @tableonly accept_worker_from;
            @defaultonly unknown_worker;
        }
        const default_action = unknown_worker();
        size = SWITCHML_MAX_JOBS * SWITCHML_MAX_WORKERS;
    }

    apply {
        sml.drop_reason = 0;
        sml.contributed = 0;
        sml.send_result = 0;
        sml.recovery = 0;
        sml.start_round = 0;
        sml.takeover = 0;
        if (hdr.switchml.msg_type == SWITCHML_MSG_RECOVERY_UPDATE) {
            sml.recovery = 1;
        }

        /* 1. Is this an update we can add, for a job and worker we know? */
        if (hdr.switchml.version != SWITCHML_VERSION) {
            sml.drop_reason = SWITCHML_DROP_BAD_VERSION;
        } else if (hdr.switchml.msg_type != SWITCHML_MSG_UPDATE && sml.recovery == 0) {
            sml.drop_reason = SWITCHML_DROP_BAD_MESSAGE_TYPE;
        } else if (hdr.switchml.elem_count != SWITCHML_ELEMENTS) {
            sml.drop_reason = SWITCHML_DROP_BAD_ELEMENT_COUNT;
        } else if (standard_metadata.parser_error != error.NoError) {
            sml.drop_reason = SWITCHML_DROP_TRUNCATED;
        } else if (hdr.udp.len != SWITCHML_UDP_LENGTH) {
            sml.drop_reason = SWITCHML_DROP_BAD_LENGTH;
        } else {
            jobs.apply();
            if (sml.drop_reason == 0) {
                /* The pool check keeps jobs out of each other's slots; the
                 * register check keeps a bad job entry inside the arrays. */
                if ((bit<16>)hdr.switchml.pool_slot >= sml.pool_size) {
                    sml.drop_reason = SWITCHML_DROP_SLOT_OUT_OF_RANGE;
                } else if ((bit<32>)sml.slot_base + (bit<32>)hdr.switchml.pool_slot >= SWITCHML_SLOTS) {
                    sml.drop_reason = SWITCHML_DROP_SLOT_BEYOND_REGISTERS;
                } else {
                    workers.apply();
                    if (sml.drop_reason == 0 && sml.check_source == 1
                            && (hdr.ipv4.src_addr != sml.expected_source
                                || hdr.udp.src_port != sml.expected_port)) {
                        sml.drop_reason = SWITCHML_DROP_WRONG_SOURCE;
                    }
                }
            }
        }

        /* 2. Where does it fall in the slot copy's round? */
        if (sml.drop_reason == 0) {
            sml.cell = (((bit<32>)sml.slot_base + (bit<32>)hdr.switchml.pool_slot) << 1)
                       | (bit<32>)hdr.switchml.pool_set;
            sml.value_base = sml.cell * SWITCHML_ELEMENTS;
            seen.read(sml.seen, sml.cell);
            remaining.read(sml.remaining, sml.cell);
            round_tsi.read(sml.round_tsi, sml.cell);
            round_epoch.read(sml.round_epoch, sml.cell);
            sml.epoch_age = sml.round_epoch - hdr.switchml.epoch;
            sml.same_round = 0;
            if (hdr.switchml.tsi == sml.round_tsi && sml.epoch_age == 0) {
                sml.same_round = 1;
            }
            /* Epochs go up by one per operation (mod 256): 1..127 behind is older. */
            sml.older = 0;
            if ((sml.epoch_age != 0 && sml.epoch_age < 128)
                    || (sml.epoch_age == 0 && hdr.switchml.tsi < sml.round_tsi)) {
                sml.older = 1;
            }

            if (sml.remaining == 0) {
                if (sml.same_round == 1 && (sml.seen & sml.worker_bit) != 0) {
                    /* The round is complete and this worker is in it: its
                     * result was lost. Send the stored one back. */
                    exponent_max.read(sml.exponent_max, sml.cell);
                    hdr.switchml.exponent = (int<8>)sml.exponent_max;
                    SWITCHML_FOR_EACH_VALUE(SWITCHML_LOAD_VALUE)
                    hdr.switchml.msg_type = SWITCHML_MSG_RETRANSMITTED_RESULT;
                    hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
                    hdr.ethernet.src_addr = fwd.switch_mac;
                    hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
                    hdr.ipv4.src_addr = fwd.switch_ip;
                    hdr.ipv4.ttl = SWITCHML_RESULT_TTL;
                    sml.reply_port = hdr.udp.src_port;
                    hdr.udp.src_port = hdr.udp.dst_port;
                    hdr.udp.dst_port = sml.reply_port;
                    hdr.udp.checksum = 0;
                    standard_metadata.egress_spec = standard_metadata.ingress_port;
                    switchml_outcomes.count(SWITCHML_OUTCOME_RETRANSMITTED);
                } else if (sml.seen != 0 && sml.older == 1) {
                    if (sml.recovery == 1 && sml.worker_count == 1) {
                        /* The job's only worker cannot be waiting for this
                         * complete round's result: a stray one. */
                        sml.start_round = 1;
                        sml.takeover = 1;
                    } else {
                        /* A late packet of an earlier round: starting a round
                         * with it would block the copy (seen == 0: never used). */
                        sml.drop_reason = SWITCHML_DROP_STALE;
                    }
                } else {
                    sml.start_round = 1;
                }
            } else if (sml.same_round == 0) {
                if (sml.older == 0 || sml.recovery == 1) {
                    /* The copy is filling a round that cannot be real, or that
                     * was abandoned: start this packet's round over it. */
                    sml.start_round = 1;
                    sml.takeover = 1;
                } else {
                    /* A late packet of an earlier round. */
                    sml.drop_reason = SWITCHML_DROP_STALE;
                }
            } else if ((sml.seen & sml.worker_bit) != 0) {
                /* Already counted; the round is not complete, so there is
                 * nothing to answer yet. */
                sml.drop_reason = SWITCHML_DROP_DUPLICATE;
            } else {
                /* A later contribution adds, and keeps the largest exponent.
                 * Flipping the sign bit orders int8 values as unsigned ones. */
                sml.remaining = sml.remaining - 1;
                seen.write(sml.cell, sml.seen | sml.worker_bit);
                remaining.write(sml.cell, sml.remaining);
                exponent_max.read(sml.exponent_max, sml.cell);
                if ((sml.exponent_max ^ 8w0x80) > ((bit<8>)hdr.switchml.exponent ^ 8w0x80)) {
                    hdr.switchml.exponent = (int<8>)sml.exponent_max;
                } else {
                    exponent_max.write(sml.cell, (bit<8>)hdr.switchml.exponent);
                }
                SWITCHML_FOR_EACH_VALUE(SWITCHML_ADD_VALUE)
                sml.contributed = 1;
            }

            if (sml.start_round == 1) {
                /* The first contribution of a new round writes. */
                sml.remaining = sml.worker_count - 1;
                seen.write(sml.cell, sml.worker_bit);
                remaining.write(sml.cell, sml.remaining);
                round_tsi.write(sml.cell, hdr.switchml.tsi);
                round_epoch.write(sml.cell, hdr.switchml.epoch);
                exponent_max.write(sml.cell, (bit<8>)hdr.switchml.exponent);
                SWITCHML_FOR_EACH_VALUE(SWITCHML_STORE_VALUE)
                sml.contributed = 1;
                if (sml.takeover == 1) {
                    switchml_outcomes.count(SWITCHML_OUTCOME_TAKEOVER);
                }
            }
        }

        /* 3. The last contribution leaves as the RESULT; the others stop here. */
        if (sml.contributed == 1) {
            if (sml.remaining == 0) {
                hdr.switchml.msg_type = SWITCHML_MSG_RESULT;
                hdr.ethernet.src_addr = fwd.switch_mac;
                hdr.ipv4.src_addr = fwd.switch_ip;
                hdr.ipv4.ttl = SWITCHML_RESULT_TTL;
                hdr.udp.src_port = hdr.udp.dst_port;
                hdr.udp.checksum = 0;
                standard_metadata.mcast_grp = sml.mcast_group;
                sml.send_result = 1;
                switchml_outcomes.count(SWITCHML_OUTCOME_RESULT);
            } else {
                switchml_outcomes.count(SWITCHML_OUTCOME_AGGREGATED);
                mark_to_drop(standard_metadata);
            }
        }
        if (sml.drop_reason != 0) {
            switchml_drops.count((bit<32>)sml.drop_reason);
            mark_to_drop(standard_metadata);
        }
    }
}

#endif /* P4INA_SWITCHML_AGGREGATION_P4 */
