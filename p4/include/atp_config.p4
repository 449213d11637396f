/*
 * ATP aggregation: configuration, the codes of its outcome counter, and the
 * metadata atp.p4 carries through ingress and egress. The control itself is
 * in atp_aggregation.p4; the rules in docs/atp.md; names and what the
 * controller writes in docs/p4-programs.md.
 *
 * Configuration (-DNAME=VALUE):
 *   ATP_AGGREGATORS         aggregators in the pool every job shares (4096);
 *                           1..65536, the reach of the 16-bit aggregatorIndex
 *   ATP_MAX_JOBS            entries of atp_jobs (64); ack_rewrite holds
 *                           ATP_MAX_RACK_WORKERS per job
 *   ATP_DEFAULT_RECLAIM_US  how long an untouched aggregator stays its
 *                           owner's until the controller says otherwise
 *                           (1 s, in microseconds)
 */
#ifndef P4INA_ATP_CONFIG_P4
#define P4INA_ATP_CONFIG_P4

#ifndef ATP_AGGREGATORS
#define ATP_AGGREGATORS 4096
#endif
#ifndef ATP_MAX_JOBS
#define ATP_MAX_JOBS 64
#endif
#ifndef ATP_DEFAULT_RECLAIM_US
#define ATP_DEFAULT_RECLAIM_US 1000000
#endif
#if ATP_AGGREGATORS < 1 || ATP_AGGREGATORS > 65536
#error "ATP_AGGREGATORS must be from 1 to 65536"
#endif
#if ATP_MAX_JOBS < 1 || ATP_MAX_JOBS > 65536
#error "ATP_MAX_JOBS must be from 1 to 65536"
#endif

/* A bitmap has 32 bits; the 5-bit fan-in counts at most 31 of them. */
#define ATP_MAX_RACK_WORKERS 32

/* Indices of ingress.atp.atp_outcomes: what became of each ATP packet of a
 * job this switch has an entry for (and, at 15, of the others). */
const bit<32> ATP_OUTCOME_AGGREGATED = 1;     /* added (or took a free aggregator); consumed */
const bit<32> ATP_OUTCOME_COMPLETED = 2;      /* reached the fan-in: the aggregate went on */
const bit<32> ATP_OUTCOME_DUPLICATE = 3;      /* its bit was in already: dropped */
const bit<32> ATP_OUTCOME_COLLISION = 4;      /* another tag owned the aggregator: went on, collision set */
const bit<32> ATP_OUTCOME_FLUSHED = 5;        /* a resend merged with its tag's aggregate, which it freed */
const bit<32> ATP_OUTCOME_RESEND_ALONE = 6;   /* a resend that found the aggregator free: went on unchanged */
const bit<32> ATP_OUTCOME_OVERFLOW = 7;       /* float32 values: went on unchanged */
const bit<32> ATP_OUTCOME_BAD_LENGTH = 8;     /* not ATP_VALUES values (or truncated): went on unchanged */
const bit<32> ATP_OUTCOME_MALFORMED = 9;      /* not one bit, fan-in 0, index past the pool, or past the fan-in: went on unchanged */
const bit<32> ATP_OUTCOME_RECLAIMED = 10;     /* took a leftover aggregator; also counted as 1 or 2 */
const bit<32> ATP_OUTCOME_ACK_FREED = 11;     /* an ACK freed its tag's aggregator */
const bit<32> ATP_OUTCOME_ACK_NOT_OWNER = 12; /* an ACK whose tag did not own the aggregator: nothing freed */
const bit<32> ATP_OUTCOME_ACK_MULTICAST = 13; /* an ACK multicast to the rack (level 0); also counted as 11 or 12 */
const bit<32> ATP_OUTCOME_OTHER_LEVEL = 14;   /* a contribution for the job's other level: went on unchanged */
const bit<32> ATP_OUTCOME_NO_JOB = 15;        /* no atp_jobs entry: forwarded as plain IPv4 */
#define ATP_OUTCOMES 16

/* Indices of egress.ecn_marks. */
const bit<32> ECN_MARK_ATP = 0;               /* the ATP ecn bit set */
const bit<32> ECN_MARK_IPV4_CE = 1;           /* an ECN-capable IPv4 packet marked CE */

const bit<2> IPV4_ECN_CE = 3;

struct atp_metadata_t {
    /* From atp_settings, for every packet. */
    bit<1>  ecn_marking;        /* mark when enq_qdepth >= ecn_threshold */
    bit<19> ecn_threshold;
    bit<48> reclaim_after;      /* microseconds; 0 = never */
    /* From atp_jobs. */
    bit<1>  has_job;
    bit<1>  level;              /* the level this switch aggregates at for the job */
    bit<16> generation;         /* the job's setup on this switch */
    bit<16> mcast_group;        /* level 0: the rack's workers */
    /* The packet, at its level. */
    bit<32> tag;                /* job_id ++ sequence_number */
    bit<32> index;              /* aggregator_index, as a register index */
    bit<32> value_base;         /* index * ATP_VALUES: value 0 in `values` */
    bit<32> contributor;        /* the packet's bitmap at its level: one bit */
    bit<8>  fan_in;
    bit<1>  marked;             /* ATP ecn, or IPv4 CE */
    /* The aggregator as this packet found it (then as it leaves it). */
    bit<32> owner;
    bit<16> owner_generation;
    bit<32> bitmap;
    bit<8>  count;
    bit<1>  ecn;
    bit<48> touched_at;
    bit<1>  free;               /* unowned, or a leftover this packet may take */
    bit<1>  mine;               /* owned by this packet's tag and generation */
    /* What this packet does to it. */
    bit<1>  take;               /* start it with this contribution */
    bit<1>  add;                /* add this contribution's values */
    bit<1>  load;               /* copy the stored sums into the packet */
    bit<1>  release;            /* free it */
    bit<1>  consume;            /* the packet stops here */
    bit<1>  reclaimed;          /* taken from a leftover owner */
    bit<32> outcome;            /* an ATP_OUTCOME_*, or 0 */
    bit<32> scratch;            /* one stored value on its way to or from the packet */
    /* Routing. */
    bit<1>  handled;            /* consumed or multicast: not for Forwarding */
    bit<1>  ack_multicast;      /* egress addresses each copy */
}

#endif /* P4INA_ATP_CONFIG_P4 */
