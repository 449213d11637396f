/*
 * RinaTor: the ingress half of rina_tor.p4, for the Rina packets of a job
 * this ToR has a rina_jobs entry for. Rules and names: docs/rina.md; the
 * packet format: docs/wire.md §7.
 *
 * The rack is one ring member. Its round k (k = 0 .. ring members - 1) for
 * chunk c sums every rack worker's CONTRIBUTION of (step k, chunk c) and,
 * for k >= 1, the predecessor's RING_DATA of (step k - 1, chunk c), which is
 * addressed to the agent (worker 0). The packet that completes the round
 * leaves as the member's RING_DATA (scatter-reduce step k, or all-gather
 * step 0 after round `last_step`), multicast to the next member and to the
 * rack, whose workers take it as their acknowledgement. All-gather data for
 * the agent is multicast to the rack.
 *
 * State per slot copy (cell = 2 * (slot_base + slot) + set), as in
 * switchml_aggregation.p4: the rack workers' seen bitmap, a flag for the
 * predecessor's data, a countdown, the round's tag (epoch, round, chunk,
 * segment, sum or max) and RINA_ELEMENTS values. Rounds of one copy come in
 * order of (epoch mod 256, chunk, round), so a late packet of an earlier
 * round is told from a new one; the first contribution of a round writes,
 * later ones add (or keep the maximum). A retransmission for a complete
 * round is answered from the copy; one for a round still filling is dropped.
 *
 * Configuration (RINA_SLOTS, RINA_MAX_JOBS), counter codes and metadata:
 * rina_config.p4.
 */
#ifndef P4INA_RINA_AGGREGATION_P4
#define P4INA_RINA_AGGREGATION_P4

#include "rina_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "forwarding.p4"
#include "rina_config.p4"
#include "rina_values.p4"
#include "rina_round.p4"

control RinaTor(inout headers_t hdr,
                inout rina_metadata_t rina,
                in forwarding_metadata_t fwd,
                inout standard_metadata_t standard_metadata) {
    RinaRound() round;
    counter(RINA_DROP_REASONS, CounterType.packets) rina_drops;
    counter(RINA_OUTCOMES, CounterType.packets) rina_outcomes;

    /* One ring member: this ToR's rack. See docs/rina.md for each parameter. */
    action set_rina_job(bit<16> slot_base, bit<16> pool_size, bit<32> rack_mask, bit<8> rack_workers,
                        bit<16> mcast_group, bit<16> rank, bit<16> last_step,
                        bit<32> agent_ip, bit<16> agent_port, bit<32> pred_ip, bit<16> pred_port) {
        rina.has_job = 1;
        rina.slot_base = slot_base;
        rina.pool_size = pool_size;
        rina.rack_mask = rack_mask;
        rina.rack_workers = rack_workers;
        rina.mcast_group = mcast_group;
        rina.rank = rank;
        rina.last_step = last_step;
        rina.agent_ip = agent_ip;
        rina.agent_port = agent_port;
        rina.pred_ip = pred_ip;
        rina.pred_port = pred_port;
    }

    action no_rina_job() {
        rina.has_job = 0;
    }

    table rina_jobs {
        key = {
            hdr.rina.job_id: exact @name("job_id");
        }
        actions = {
            @tableonly set_rina_job;
            @defaultonly no_rina_job;
        }
        const default_action = no_rina_job();
        size = RINA_MAX_JOBS;
    }

    /* bitmap_bit: 1 << worker_id. The CONTRIBUTION must come from the
     * worker's own IPv4 address and UDP port. */
    action rack_worker(bit<32> bitmap_bit, bit<32> src_addr, bit<16> src_port) {
        rina.worker_bit = bitmap_bit;
        rina.expected_source = src_addr;
        rina.expected_port = src_port;
    }

    action unknown_rack_worker() {
        rina.drop_reason = RINA_DROP_UNKNOWN_WORKER;
    }

    table rina_workers {
        key = {
            hdr.rina.job_id: exact @name("job_id");
            hdr.rina.worker_id: exact @name("worker_id");
        }
        actions = {
            @tableonly rack_worker;
            @defaultonly unknown_rack_worker;
        }
        const default_action = unknown_rack_worker();
        size = RINA_MAX_JOBS * RINA_MAX_RACK_WORKERS;
    }

    apply {
        rina.drop_reason = 0;
        rina.outcome = 0;
        rina.handled = 0;
        rina.copies = RINA_COPIES_NONE;
        rina.mine = 0;
        rina.from_pred = 0;
        rina.takeover = 0;
        rina_jobs.apply();

        /* 1. Is it the ToR's: a CONTRIBUTION, or anything but an ACK for the agent? */
        if (rina.has_job == 0) {
            rina.outcome = RINA_OUTCOME_NO_JOB;
        } else if (hdr.rina.msg_type == RINA_MSG_CONTRIBUTION) {
            rina.mine = 1;
        } else if (hdr.ipv4.dst_addr == rina.agent_ip && hdr.udp.dst_port == rina.agent_port
                   && hdr.rina.msg_type != RINA_MSG_ACK) {
            rina.mine = 1;
            rina.from_pred = 1;
        } else {
            rina.outcome = RINA_OUTCOME_PASSING;
        }

        /* 2. Can it be added (or passed to the rack)? The first failure counts. */
        if (rina.mine == 1) {
            if (hdr.rina.version != RINA_VERSION) {
                rina.drop_reason = RINA_DROP_BAD_VERSION;
            } else if (rina.from_pred == 1 && hdr.rina.msg_type != RINA_MSG_RING_DATA) {
                rina.drop_reason = RINA_DROP_BAD_MESSAGE_TYPE;
            } else if (hdr.rina.phase != RINA_PHASE_SCATTER_REDUCE
                       && (hdr.rina.phase != RINA_PHASE_ALL_GATHER || rina.from_pred == 0)) {
                rina.drop_reason = RINA_DROP_BAD_PHASE;
            } else if (hdr.rina.elem_count != RINA_ELEMENTS) {
                rina.drop_reason = RINA_DROP_BAD_ELEMENT_COUNT;
            } else if (standard_metadata.parser_error != error.NoError) {
                rina.drop_reason = RINA_DROP_TRUNCATED;
            } else if (hdr.udp.len != RINA_UDP_LENGTH) {
                rina.drop_reason = RINA_DROP_BAD_LENGTH;
            } else if (rina.from_pred == 1) {
                if (hdr.ipv4.src_addr != rina.pred_ip || hdr.udp.src_port != rina.pred_port) {
                    rina.drop_reason = RINA_DROP_WRONG_SOURCE;
                }
            } else {
                rina_workers.apply();
                if (rina.drop_reason == 0
                        && (hdr.ipv4.src_addr != rina.expected_source || hdr.udp.src_port != rina.expected_port)) {
                    rina.drop_reason = RINA_DROP_WRONG_SOURCE;
                }
            }
        }

        if (rina.mine == 1 && rina.drop_reason == 0) {
            if (hdr.rina.phase == RINA_PHASE_ALL_GATHER) {
                /* The reduced segment passing round the ring: every rack worker
                 * gets it; the agent passes it on and acknowledges it. */
                rina.outcome = RINA_OUTCOME_RACK_MULTICAST;
                rina.copies = RINA_COPIES_RACK;
                standard_metadata.mcast_grp = rina.mcast_group;
                rina.handled = 1;
            } else {
                /* 3. Scatter-reduce: the slot copy's round decides. */
                round.apply(hdr, rina, fwd, standard_metadata);
            }
        }

        if (rina.drop_reason != 0) {
            rina_drops.count((bit<32>)rina.drop_reason);
            mark_to_drop(standard_metadata);
            rina.handled = 1;
        } else {
            rina_outcomes.count(rina.outcome);
        }
        if (rina.takeover == 1) {
            rina_outcomes.count(RINA_OUTCOME_TAKEOVER);
        }
        if (rina.handled == 1 && fwd.has_address == 1) {
            hdr.ethernet.src_addr = fwd.switch_mac;
        }
        if (rina.copies != RINA_COPIES_NONE) {
            hdr.udp.checksum = 0;
        }
    }
}

#endif /* P4INA_RINA_AGGREGATION_P4 */
