/*
 * AtpAggregation: the ingress half of atp.p4, for the ATP packets of a job
 * this switch has an atp_jobs entry for. The rules are docs/atp.md's; the
 * names, the outcome codes and what the controller writes are in
 * docs/p4-programs.md.
 *
 * The pool of aggregators is shared by every job, first come, first served.
 * Per aggregator:
 *   owner             owner tag (job_id << 16 | sequence_number), 0 = free
 *   owner_generation  the generation of the owner's job entry at the time
 *   bitmap, count     contributors so far, and how many
 *   ecn               any contribution marked
 *   touched_at        ingress timestamp of the last contribution
 *   values            ATP_VALUES sums, at index * ATP_VALUES + i
 *
 * Taking an aggregator writes every field, so nothing needs clearing
 * between owners. A leftover counts as free: an owner untouched for the
 * reclaim time of atp_settings, or an earlier generation of the packet's own
 * job (a stray packet, a job that ended, an earlier run). Taking one over is
 * always exact: whatever it held was never acknowledged, so its contributors
 * resend, and a resend that finds the aggregator someone else's goes to the
 * PS on its own.
 */
#ifndef P4INA_ATP_AGGREGATION_P4
#define P4INA_ATP_AGGREGATION_P4

#include "atp_headers.p4"
#include <core.p4>
#include <v1model.p4>

#include "forwarding.p4"
#include "atp_config.p4"
#include "atp_values.p4"

/* Per value i. Registers hold the int32 sums as bit<32>: two's complement
 * addition gives the same bits. */
#define ATP_STORE_VALUE(i) \
    values.write(atp.value_base + i, (bit<32>)hdr.atp_values[i].value);
#define ATP_ADD_VALUE(i) \
    values.read(atp.scratch, atp.value_base + i); \
    atp.scratch = atp.scratch + (bit<32>)hdr.atp_values[i].value; \
    values.write(atp.value_base + i, atp.scratch); \
    hdr.atp_values[i].value = (int<32>)atp.scratch;
#define ATP_LOAD_VALUE(i) \
    values.read(atp.scratch, atp.value_base + i); \
    hdr.atp_values[i].value = (int<32>)atp.scratch;

control AtpAggregation(inout headers_t hdr,
                       inout atp_metadata_t atp,
                       in forwarding_metadata_t fwd,
                       inout standard_metadata_t standard_metadata) {
    register<bit<32>>(ATP_AGGREGATORS) owner;
    register<bit<16>>(ATP_AGGREGATORS) owner_generation;
    register<bit<32>>(ATP_AGGREGATORS) bitmap;
    register<bit<8>>(ATP_AGGREGATORS) count;
    register<bit<1>>(ATP_AGGREGATORS) ecn;
    register<bit<48>>(ATP_AGGREGATORS) touched_at;
    register<bit<32>>(ATP_AGGREGATORS * ATP_VALUES) values;
    counter(ATP_OUTCOMES, CounterType.packets) atp_outcomes;

    /* This switch is the job's level 0 (a ToR of its workers); ACKs are
     * multicast to mcast_group, the job's workers in the rack. */
    action aggregate_at_level0(bit<16> generation, bit<16> mcast_group) {
        atp.has_job = 1;
        atp.level = 0;
        atp.generation = generation;
        atp.mcast_group = mcast_group;
    }

    /* This switch is the job's level 1, on the way to the PS. */
    action aggregate_at_level1(bit<16> generation) {
        atp.has_job = 1;
        atp.level = 1;
        atp.generation = generation;
        atp.mcast_group = 0;
    }

    action no_job() {
        atp.has_job = 0;
    }

    table atp_jobs {
        key = {
            hdr.atp.job_id: exact @name("job_id");
        }
        actions = {
            @tableonly aggregate_at_level0;
            @tableonly aggregate_at_level1;
            @defaultonly no_job;
        }
        const default_action = no_job();
        size = ATP_MAX_JOBS;
    }

    apply {
        atp.outcome = 0;
        atp.handled = 0;
        atp.ack_multicast = 0;
        atp.free = 0;
        atp.mine = 0;
        atp.take = 0;
        atp.add = 0;
        atp.load = 0;
        atp.release = 0;
        atp.consume = 0;
        atp.reclaimed = 0;
        atp_jobs.apply();
        atp.tag = ((bit<32>)hdr.atp.job_id << 16) | (bit<32>)hdr.atp.sequence_number;
        atp.index = (bit<32>)hdr.atp.aggregator_index;
        atp.value_base = atp.index * ATP_VALUES;

        if (atp.has_job == 0) {
            atp.outcome = ATP_OUTCOME_NO_JOB;
        } else if (hdr.atp.is_ack == 1) {
            /* The PS's result frees the sequence's aggregator, and only that. */
            atp.outcome = ATP_OUTCOME_ACK_NOT_OWNER;
            if (atp.index < ATP_AGGREGATORS) {
                owner.read(atp.owner, atp.index);
                owner_generation.read(atp.owner_generation, atp.index);
                if (atp.owner == atp.tag && atp.owner_generation == atp.generation) {
                    atp.release = 1;
                    atp.outcome = ATP_OUTCOME_ACK_FREED;
                }
            }
            if (atp.level == 0 && atp.mcast_group != 0) {
                /* Addressed to one worker of the rack: every worker gets it. */
                standard_metadata.mcast_grp = atp.mcast_group;
                if (fwd.has_address == 1) {
                    hdr.ethernet.src_addr = fwd.switch_mac;
                }
                hdr.udp.checksum = 0;
                atp.ack_multicast = 1;
                atp.handled = 1;
            }
        } else if (hdr.atp.edge_switch_identifier != atp.level) {
            atp.outcome = ATP_OUTCOME_OTHER_LEVEL;
        } else {
            if (atp.level == 0) {
                atp.contributor = hdr.atp.bitmap0;
                atp.fan_in = (bit<8>)hdr.atp.fan_in_degree0;
            } else {
                atp.contributor = hdr.atp.bitmap1;
                atp.fan_in = (bit<8>)hdr.atp.fan_in_degree1;
            }
            atp.marked = hdr.atp.ecn;
            if (hdr.ipv4.ecn == IPV4_ECN_CE) {
                atp.marked = 1;
            }

            if (hdr.atp.overflow == 1) {
                atp.outcome = ATP_OUTCOME_OVERFLOW;
            } else if (hdr.udp.len != ATP_UDP_LENGTH || standard_metadata.parser_error != error.NoError) {
                atp.outcome = ATP_OUTCOME_BAD_LENGTH;
            } else if (atp.contributor == 0 || (atp.contributor & (atp.contributor - 1)) != 0
                       || atp.fan_in == 0 || atp.index >= ATP_AGGREGATORS) {
                /* A bitmap of one bit is what makes duplicates detectable. */
                atp.outcome = ATP_OUTCOME_MALFORMED;
            } else {
                owner.read(atp.owner, atp.index);
                owner_generation.read(atp.owner_generation, atp.index);
                touched_at.read(atp.touched_at, atp.index);
                if (atp.owner == 0) {
                    atp.free = 1;
                } else if (atp.reclaim_after != 0
                           && standard_metadata.ingress_global_timestamp - atp.touched_at >= atp.reclaim_after) {
                    atp.free = 1;
                    atp.reclaimed = 1;
                } else if ((atp.owner >> 16) == (bit<32>)hdr.atp.job_id && atp.owner_generation != atp.generation) {
                    atp.free = 1;
                    atp.reclaimed = 1;
                } else if (atp.owner == atp.tag) {
                    atp.mine = 1;
                }

                if (atp.free == 1) {
                    if (hdr.atp.resend == 1) {
                        /* Whatever this worker's tag had here is gone: go alone. */
                        atp.outcome = ATP_OUTCOME_RESEND_ALONE;
                        atp.reclaimed = 0;
                    } else {
                        atp.take = 1;
                        atp.bitmap = atp.contributor;
                        atp.count = 1;
                        atp.ecn = atp.marked;
                    }
                } else if (atp.mine == 1) {
                    bitmap.read(atp.bitmap, atp.index);
                    count.read(atp.count, atp.index);
                    ecn.read(atp.ecn, atp.index);
                    if (hdr.atp.resend == 1) {
                        /* Flush: the partial aggregate leaves in this packet. */
                        if ((atp.bitmap & atp.contributor) == 0) {
                            atp.add = 1;
                        } else {
                            atp.load = 1;
                        }
                        atp.bitmap = atp.bitmap | atp.contributor;
                        atp.ecn = atp.ecn | atp.marked;
                        atp.release = 1;
                        atp.outcome = ATP_OUTCOME_FLUSHED;
                    } else if ((atp.bitmap & atp.contributor) != 0) {
                        atp.consume = 1;
                        atp.outcome = ATP_OUTCOME_DUPLICATE;
                    } else if (atp.count >= atp.fan_in) {
                        /* More contributors than the fan-in: the sum is out already. */
                        atp.outcome = ATP_OUTCOME_MALFORMED;
                    } else {
                        atp.add = 1;
                        atp.bitmap = atp.bitmap | atp.contributor;
                        atp.count = atp.count + 1;
                        atp.ecn = atp.ecn | atp.marked;
                        bitmap.write(atp.index, atp.bitmap);
                        count.write(atp.index, atp.count);
                        ecn.write(atp.index, atp.ecn);
                        touched_at.write(atp.index, standard_metadata.ingress_global_timestamp);
                    }
                } else {
                    /* Another tag's: the PS aggregates this one in software. */
                    hdr.atp.collision = 1;
                    hdr.udp.checksum = 0;
                    atp.outcome = ATP_OUTCOME_COLLISION;
                }
            }
        }

        if (atp.take == 1) {
            owner.write(atp.index, atp.tag);
            owner_generation.write(atp.index, atp.generation);
            bitmap.write(atp.index, atp.bitmap);
            count.write(atp.index, atp.count);
            ecn.write(atp.index, atp.ecn);
            touched_at.write(atp.index, standard_metadata.ingress_global_timestamp);
            ATP_FOR_EACH_VALUE(ATP_STORE_VALUE)
        }
        if (atp.add == 1) {
            ATP_FOR_EACH_VALUE(ATP_ADD_VALUE)
        }
        if (atp.load == 1) {
            ATP_FOR_EACH_VALUE(ATP_LOAD_VALUE)
        }
        if (atp.release == 1) {
            owner.write(atp.index, 0);
            owner_generation.write(atp.index, 0);
            bitmap.write(atp.index, 0);
            count.write(atp.index, 0);
            ecn.write(atp.index, 0);
        }

        /* A contribution that was added leaves only as the whole sum. The
         * aggregator keeps it until the ACK or a resend frees it. */
        if (atp.take == 1 || (atp.add == 1 && atp.release == 0)) {
            if (atp.count >= atp.fan_in) {
                atp.outcome = ATP_OUTCOME_COMPLETED;
                if (atp.level == 0) {
                    /* Now the rack's contribution, for level 1 or the PS. */
                    hdr.atp.edge_switch_identifier = 1;
                }
            } else {
                atp.consume = 1;
                atp.outcome = ATP_OUTCOME_AGGREGATED;
            }
        }
        if (atp.outcome == ATP_OUTCOME_COMPLETED || atp.outcome == ATP_OUTCOME_FLUSHED) {
            if (atp.level == 0) {
                hdr.atp.bitmap0 = atp.bitmap;
            } else {
                hdr.atp.bitmap1 = atp.bitmap;
            }
            hdr.atp.ecn = atp.ecn;
            hdr.udp.checksum = 0;
        }

        if (atp.consume == 1) {
            mark_to_drop(standard_metadata);
            atp.handled = 1;
        }
        atp_outcomes.count(atp.outcome);
        if (atp.reclaimed == 1 && atp.take == 1) {
            atp_outcomes.count(ATP_OUTCOME_RECLAIMED);
        }
        if (atp.ack_multicast == 1) {
            atp_outcomes.count(ATP_OUTCOME_ACK_MULTICAST);
        }
    }
}

#endif /* P4INA_ATP_AGGREGATION_P4 */
