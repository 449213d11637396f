/*
 * Rina's ToR: configuration, the codes of its counters, and the metadata
 * rina_tor.p4 carries through ingress and egress. The control is in
 * rina_aggregation.p4; the contract (names, rules, what the controller
 * writes) in docs/rina.md.
 *
 * Configuration (-DNAME=VALUE):
 *   RINA_SLOTS     slots on the switch, shared by all jobs (4096); 1..32768
 *   RINA_MAX_JOBS  entries of rina_jobs (64); rina_workers and rina_rewrite
 *                  hold RINA_MAX_RACK_WORKERS (+1) per job
 */
#ifndef P4INA_RINA_CONFIG_P4
#define P4INA_RINA_CONFIG_P4

#ifndef RINA_SLOTS
#define RINA_SLOTS 4096
#endif
#ifndef RINA_MAX_JOBS
#define RINA_MAX_JOBS 64
#endif
#if RINA_SLOTS < 1 || RINA_SLOTS > 32768
#error "RINA_SLOTS must be from 1 to 32768"
#endif
#if RINA_MAX_JOBS < 1 || RINA_MAX_JOBS > 65536
#error "RINA_MAX_JOBS must be from 1 to 65536"
#endif

/* A rack's workers share a 32-bit seen bitmap. */
#define RINA_MAX_RACK_WORKERS 32
#define RINA_CELLS (2 * RINA_SLOTS)
/* The egress_rid of the next ring member's replica in a job's group (rack
 * workers' replicas are their worker ids, 0..31). */
const bit<16> RINA_NEXT_MEMBER_RID = 32;

/* Indices of ingress.rina.rina_drops. */
const bit<8> RINA_DROP_BAD_VERSION = 1;
const bit<8> RINA_DROP_BAD_MESSAGE_TYPE = 2;
const bit<8> RINA_DROP_BAD_PHASE = 3;
const bit<8> RINA_DROP_BAD_ELEMENT_COUNT = 4;
const bit<8> RINA_DROP_TRUNCATED = 5;
const bit<8> RINA_DROP_BAD_LENGTH = 6;
const bit<8> RINA_DROP_SLOT_OUT_OF_RANGE = 7;
const bit<8> RINA_DROP_SLOT_BEYOND_REGISTERS = 8;
const bit<8> RINA_DROP_BAD_STEP = 9;
const bit<8> RINA_DROP_UNKNOWN_WORKER = 10;
const bit<8> RINA_DROP_WRONG_SOURCE = 11;
const bit<8> RINA_DROP_DUPLICATE = 12;
const bit<8> RINA_DROP_STALE = 13;
const bit<8> RINA_DROP_EARLY = 14;          /* predecessor data for a round not opened yet, the stash taken */
#define RINA_DROP_REASONS 16

/* Indices of ingress.rina.rina_outcomes: what became of the packets not dropped. */
const bit<32> RINA_OUTCOME_AGGREGATED = 1;    /* added into its round, not complete yet; consumed */
const bit<32> RINA_OUTCOME_EMITTED = 2;       /* completed its round: RING_DATA to the next member and the rack */
const bit<32> RINA_OUTCOME_ANSWERED = 3;      /* a rack worker's retransmission: the stored result back to it */
const bit<32> RINA_OUTCOME_REEMITTED = 4;     /* the agent's retransmission: the stored result to the next member and the agent */
const bit<32> RINA_OUTCOME_TO_AGENT = 5;      /* the predecessor's data for a round already complete: on to the agent, which ACKs it */
const bit<32> RINA_OUTCOME_RACK_MULTICAST = 6; /* all-gather data for the agent: multicast to the rack */
const bit<32> RINA_OUTCOME_TAKEOVER = 7;      /* started its round over a copy filling another one; also counted as 1 or 2 */
const bit<32> RINA_OUTCOME_NO_JOB = 8;        /* no rina_jobs entry: forwarded */
const bit<32> RINA_OUTCOME_PASSING = 9;       /* an ACK, or RING_DATA for another host: forwarded */
const bit<32> RINA_OUTCOME_STASHED = 10;      /* the predecessor's data for a round not opened yet: kept in the copy's stash */
#define RINA_OUTCOMES 16

/* What egress does with the replicas of a multicast (meta.rina.copies). */
const bit<2> RINA_COPIES_NONE = 0;            /* not a Rina multicast */
const bit<2> RINA_COPIES_ALL = 1;             /* every replica: the rack and the next member */
const bit<2> RINA_COPIES_AGENT_AND_NEXT = 2;  /* the agent's (rid 0) and the next member's */
const bit<2> RINA_COPIES_RACK = 3;            /* the rack's, not the next member's */

/* IPv4 TTL of the packets the ToR sends as the agent. */
const bit<8> RINA_EMIT_TTL = 64;

struct rina_metadata_t {
    bit<8>  drop_reason;        /* 0, or a RINA_DROP_* */
    bit<32> outcome;            /* 0, or a RINA_OUTCOME_* */
    bit<1>  handled;            /* consumed, dropped or sent here: not for Forwarding */
    bit<2>  copies;             /* a RINA_COPIES_*: egress addresses each replica */
    /* From rina_jobs. */
    bit<1>  has_job;
    bit<16> slot_base;
    bit<16> pool_size;
    bit<32> rack_mask;          /* every rack worker's bit */
    bit<8>  rack_workers;       /* how many bits rack_mask has */
    bit<16> mcast_group;
    bit<16> rank;               /* the rack's position in the ring */
    bit<16> last_step;          /* ring members - 1: the round that ends the scatter-reduce */
    bit<32> agent_ip;
    bit<16> agent_port;
    bit<32> pred_ip;            /* the previous ring member's address */
    bit<16> pred_port;
    /* From rina_workers. */
    bit<32> worker_bit;
    bit<32> expected_source;
    bit<16> expected_port;
    /* The packet. */
    bit<1>  mine;               /* a CONTRIBUTION, or data for the agent: the ToR's */
    bit<1>  from_pred;          /* RING_DATA from the previous member (else a CONTRIBUTION) */
    bit<1>  max_mode;           /* exponent pass: keep the maximum */
    bit<16> round_of_packet;    /* the ToR round it belongs to (step, +1 for the predecessor's data) */
    /* The slot copy. */
    bit<32> cell;
    bit<32> value_base;
    bit<32> seen;
    bit<1>  pred_seen;
    bit<8>  remaining;
    bit<8>  round_epoch;
    bit<16> round_step;
    bit<32> round_chunk;
    bit<16> round_segment;
    bit<1>  round_max;
    bit<8>  epoch_age;          /* round_epoch - the packet's epoch, mod 256 */
    bit<1>  same_round;
    bit<1>  older;
    bit<1>  used;
    bit<1>  has_me;
    bit<1>  released;           /* the predecessor may open its round here */
    bit<32> other_seen;         /* the slot's other copy */
    bit<8>  other_epoch;
    bit<16> other_step;
    bit<32> other_chunk;
    bit<1>  stash_full;         /* the copy's stash as this packet found it */
    bit<8>  stash_epoch;
    bit<16> stash_step;
    bit<32> stash_chunk;
    bit<8>  stash_age;          /* round_epoch - stash_epoch, mod 256 */
    bit<1>  stash_same;         /* the stash holds this packet's round */
    bit<1>  stash_free;         /* empty, or holding a round the copy has passed */
    bit<1>  stash;              /* this predecessor packet goes into the stash */
    bit<1>  unstash;            /* the stash joins the round this packet opens */
    /* What the packet does. */
    bit<1>  start_round;
    bit<1>  takeover;
    bit<1>  join;
    bit<1>  answer;             /* the stored result goes out in this packet */
    bit<1>  to_agent;           /* forwarded to the agent as it came */
    bit<1>  reply_to_worker;    /* the stored result goes back to one rack worker */
    bit<32> scratch;
    bit<48> reply_mac;
    bit<32> reply_ip;
    bit<16> reply_port;
}

#endif /* P4INA_RINA_CONFIG_P4 */
