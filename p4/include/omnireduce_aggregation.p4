/*
 * OmniReduceAggregation: the ingress half of omnireduce.p4, for an
 * OmniReduce message addressed to this switch. Formats: docs/wire.md §6.
 * Contract and the per-message cases: docs/p4-programs.md §5.
 *
 * The OmniReduce header names no job and no worker (it stays the DPDK
 * code's), so the switch tells them by the sender, as the host aggregator
 * does: omnireduce_workers maps (IPv4 source, UDP source port) to the job
 * and the worker's bit, and a message from anyone else is dropped before it
 * touches a register. omnireduce_jobs gives the job's slot range, its worker
 * count and its multicast group. The slot's round (omnireduce_round.p4)
 * decides; a completed round leaves as the reply, multicast to the job's
 * workers (addressed per worker in egress), and a message of a complete round
 * gets the stored reply back by unicast.
 *
 * Configuration (OMNIREDUCE_SLOTS, OMNIREDUCE_MAX_JOBS), counter codes and
 * the metadata: omnireduce_config.p4.
 */
#ifndef P4INA_OMNIREDUCE_AGGREGATION_P4
#define P4INA_OMNIREDUCE_AGGREGATION_P4

#include "omnireduce_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "forwarding.p4"
#include "omnireduce_config.p4"
#include "omnireduce_round.p4"

control OmniReduceAggregation(inout headers_t hdr,
                              inout omnireduce_metadata_t omr,
                              in forwarding_metadata_t fwd,
                              inout standard_metadata_t standard_metadata) {
    OmniReduceRound() round;
    counter(OMNIREDUCE_DROP_REASONS, CounterType.packets) omnireduce_drops;
    counter(OMNIREDUCE_OUTCOMES, CounterType.packets) omnireduce_outcomes;

    /* bitmap_bit: one bit, distinct per worker of the job (1 << rank). */
    action accept_worker(bit<16> job_id, bit<32> bitmap_bit) {
        omr.job_id = job_id;
        omr.worker_bit = bitmap_bit;
    }

    action unknown_worker() {
        omr.drop_reason = OMNIREDUCE_DROP_UNKNOWN_WORKER;
    }

    table omnireduce_workers {
        key = {
            hdr.ipv4.src_addr: exact @name("src_addr");
            hdr.udp.src_port: exact @name("src_port");
        }
        actions = {
            @tableonly accept_worker;
            @defaultonly unknown_worker;
        }
        const default_action = unknown_worker();
        size = OMNIREDUCE_MAX_JOBS * OMNIREDUCE_MAX_WORKERS;
    }

    /* The job's wire slots first_slot .. first_slot + slot_count - 1 are the
     * switch's slots slot_base ..; slot_base + slot_count <= OMNIREDUCE_SLOTS,
     * worker_count 1..32. */
    action set_job(bit<16> slot_base, bit<16> first_slot, bit<16> slot_count,
                   bit<8> worker_count, bit<16> mcast_group) {
        omr.slot_base = slot_base;
        omr.first_slot = first_slot;
        omr.slot_count = slot_count;
        omr.worker_count = worker_count;
        omr.mcast_group = mcast_group;
    }

    action unknown_job() {
        omr.drop_reason = OMNIREDUCE_DROP_UNKNOWN_JOB;
    }

    table omnireduce_jobs {
        key = {
            omr.job_id: exact @name("job_id");
        }
        actions = {
            @tableonly set_job;
            @defaultonly unknown_job;
        }
        const default_action = unknown_job();
        size = OMNIREDUCE_MAX_JOBS;
    }

    apply {
        omr.drop_reason = 0;
        omr.has_values = 0;
        omr.priming = 0;
        omr.op = OMNIREDUCE_OP_NONE;
        omr.complete = 0;
        omr.takeover = 0;
        omr.send_reply = 0;

        /* 1. A worker message (the host aggregator's messageKind): with a
         * block, next_tsi > tsi; without, next_tsi == tsi (priming) or > tsi. */
        if (standard_metadata.parser_error != error.NoError) {
            omr.drop_reason = OMNIREDUCE_DROP_TRUNCATED;
        } else if (!hdr.omnireduce_exponent.isValid()) {
            omr.drop_reason = OMNIREDUCE_DROP_BAD_LENGTH;
        } else {
            if (hdr.udp.len == OMNIREDUCE_UDP_LENGTH_BLOCK) {
                omr.has_values = 1;
            }
            if (omr.has_values == 0 && hdr.omnireduce.next_tsi == hdr.omnireduce.tsi) {
                omr.priming = 1;
            } else if (hdr.omnireduce.next_tsi <= hdr.omnireduce.tsi) {
                omr.drop_reason = OMNIREDUCE_DROP_BAD_MESSAGE;
            }
        }

        /* 2. From a worker of a job here, for one of the job's slots? */
        if (omr.drop_reason == 0) {
            omnireduce_workers.apply();
            if (omr.drop_reason == 0) {
                omnireduce_jobs.apply();
            }
            if (omr.drop_reason == 0) {
                if ((bit<16>)hdr.omnireduce.slot < omr.first_slot) {
                    omr.drop_reason = OMNIREDUCE_DROP_SLOT_OUT_OF_RANGE;
                } else {
                    omr.job_slot = (bit<16>)hdr.omnireduce.slot - omr.first_slot;
                    if (omr.job_slot >= omr.slot_count) {
                        omr.drop_reason = OMNIREDUCE_DROP_SLOT_OUT_OF_RANGE;
                    } else if ((bit<32>)omr.slot_base + (bit<32>)omr.job_slot >= OMNIREDUCE_SLOTS) {
                        omr.drop_reason = OMNIREDUCE_DROP_SLOT_BEYOND_REGISTERS;
                    }
                }
            }
        }

        /* 3. The slot's round decides. */
        if (omr.drop_reason == 0) {
            round.apply(hdr, omr, standard_metadata);
        }

        /* 4. Address what leaves; count. */
        if (omr.drop_reason != 0) {
            omnireduce_drops.count((bit<32>)omr.drop_reason);
            mark_to_drop(standard_metadata);
        } else if (omr.complete == 1) {
            /* The reply to every worker of the job; egress addresses each copy. */
            hdr.ethernet.src_addr = fwd.switch_mac;
            hdr.ipv4.src_addr = fwd.switch_ip;
            hdr.ipv4.ttl = OMNIREDUCE_REPLY_TTL;
            hdr.udp.src_port = hdr.udp.dst_port;
            hdr.udp.checksum = 0;
            standard_metadata.mcast_grp = omr.mcast_group;
            omr.send_reply = 1;
            omnireduce_outcomes.count(OMNIREDUCE_OUTCOME_REPLIED);
        } else if (omr.op == OMNIREDUCE_OP_RESEND) {
            /* Its round is complete and its reply was lost: back to the sender. */
            hdr.ethernet.dst_addr = hdr.ethernet.src_addr;
            hdr.ethernet.src_addr = fwd.switch_mac;
            hdr.ipv4.dst_addr = hdr.ipv4.src_addr;
            hdr.ipv4.src_addr = fwd.switch_ip;
            hdr.ipv4.ttl = OMNIREDUCE_REPLY_TTL;
            omr.reply_port = hdr.udp.src_port;
            hdr.udp.src_port = hdr.udp.dst_port;
            hdr.udp.dst_port = omr.reply_port;
            hdr.udp.checksum = 0;
            standard_metadata.egress_spec = standard_metadata.ingress_port;
            omnireduce_outcomes.count(OMNIREDUCE_OUTCOME_RESENT);
        } else {
            omnireduce_outcomes.count(OMNIREDUCE_OUTCOME_ADDED);
            mark_to_drop(standard_metadata);
        }
        if (omr.takeover == 1) {
            omnireduce_outcomes.count(OMNIREDUCE_OUTCOME_TAKEOVER);
        }
    }
}

#endif /* P4INA_OMNIREDUCE_AGGREGATION_P4 */
