/*
 * OmniReduce aggregation: configuration, the codes of its counters, and the
 * metadata omnireduce.p4 carries through ingress and egress. The controls
 * are in omnireduce_aggregation.p4 (checks, tables, counters) and
 * omnireduce_round.p4 (the slot's state); the contract in docs/p4-programs.md.
 *
 * Configuration (-DNAME=VALUE):
 *   OMNIREDUCE_SLOTS     slots on the switch, shared by all jobs (4096)
 *   OMNIREDUCE_MAX_JOBS  entries of omnireduce_jobs (64); omnireduce_workers
 *                        and reply_rewrite hold OMNIREDUCE_MAX_WORKERS per job
 */
#ifndef P4INA_OMNIREDUCE_CONFIG_P4
#define P4INA_OMNIREDUCE_CONFIG_P4

#ifndef OMNIREDUCE_SLOTS
#define OMNIREDUCE_SLOTS 4096
#endif
#ifndef OMNIREDUCE_MAX_JOBS
#define OMNIREDUCE_MAX_JOBS 64
#endif
#if OMNIREDUCE_SLOTS < 1 || OMNIREDUCE_SLOTS > 32768
#error "OMNIREDUCE_SLOTS must be from 1 to 32768"
#endif
#if OMNIREDUCE_MAX_JOBS < 1 || OMNIREDUCE_MAX_JOBS > 65536
#error "OMNIREDUCE_MAX_JOBS must be from 1 to 65536"
#endif

/* The workers of one job share a 32-bit seen bitmap. */
#define OMNIREDUCE_MAX_WORKERS 32
/* Two copies (sets) per slot. */
#define OMNIREDUCE_CELLS (2 * OMNIREDUCE_SLOTS)

/* Indices of ingress.omnireduce.omnireduce_drops. */
const bit<8> OMNIREDUCE_DROP_TRUNCATED = 1;
const bit<8> OMNIREDUCE_DROP_BAD_LENGTH = 2;
const bit<8> OMNIREDUCE_DROP_BAD_MESSAGE = 3;
const bit<8> OMNIREDUCE_DROP_UNKNOWN_WORKER = 4;
const bit<8> OMNIREDUCE_DROP_UNKNOWN_JOB = 5;
const bit<8> OMNIREDUCE_DROP_SLOT_OUT_OF_RANGE = 6;
const bit<8> OMNIREDUCE_DROP_SLOT_BEYOND_REGISTERS = 7;
const bit<8> OMNIREDUCE_DROP_DUPLICATE = 8;
const bit<8> OMNIREDUCE_DROP_STALE = 9;
#define OMNIREDUCE_DROP_REASONS 16

/* Indices of ingress.omnireduce.omnireduce_outcomes: messages not dropped. */
const bit<32> OMNIREDUCE_OUTCOME_ADDED = 1;     /* taken; the round is not complete yet */
const bit<32> OMNIREDUCE_OUTCOME_REPLIED = 2;   /* completed the round: reply multicast */
const bit<32> OMNIREDUCE_OUTCOME_RESENT = 3;    /* a complete round's stored reply, by unicast */
const bit<32> OMNIREDUCE_OUTCOME_TAKEOVER = 4;  /* started its round over a copy filling another one */
#define OMNIREDUCE_OUTCOMES 8

/* What a message does to its slot (omnireduce_round.p4). */
const bit<2> OMNIREDUCE_OP_NONE = 0;
const bit<2> OMNIREDUCE_OP_TAKE = 1;     /* joins the round its copy is filling */
const bit<2> OMNIREDUCE_OP_START = 2;    /* starts a round in its copy */
const bit<2> OMNIREDUCE_OP_RESEND = 3;   /* gets its complete round's reply back */

/* IPv4 TTL of the packets the switch sends as their source. */
const bit<8> OMNIREDUCE_REPLY_TTL = 64;
/* The int16 exponent -127: no block, and the least a reply carries. */
const bit<16> OMNIREDUCE_MIN_EXPONENT = 0xFF81;

struct omnireduce_metadata_t {
    bit<8>  drop_reason;        /* 0, or an OMNIREDUCE_DROP_* */
    bit<1>  has_values;         /* the message carries a block */
    bit<1>  priming;            /* value-less with next_tsi == tsi */
    /* From omnireduce_workers. */
    bit<16> job_id;
    bit<32> worker_bit;
    /* From omnireduce_jobs. */
    bit<16> slot_base;
    bit<16> first_slot;
    bit<16> slot_count;
    bit<8>  worker_count;
    bit<16> mcast_group;
    /* The slot and its two copies. */
    bit<16> job_slot;           /* slot - first_slot */
    bit<32> slot_index;         /* slot_base + job_slot: index of `newest` */
    bit<1>  newest;             /* the set of the slot's newest round */
    bit<32> cell_n;             /* register index of the newest round's copy */
    bit<32> cell_o;             /* ... and of the other copy */
    bit<32> n_seen;
    bit<8>  n_remaining;
    bit<32> n_tsi;
    bit<1>  n_priming;
    bit<32> n_min;
    bit<32> o_seen;
    bit<8>  o_remaining;
    bit<32> o_tsi;
    bit<1>  o_priming;
    bit<1>  same_as_n;          /* the message is of the newest copy's round */
    bit<1>  same_as_o;          /* ... of the other copy's */
    bit<1>  o_complete;
    /* What it does, to which copy. */
    bit<2>  op;
    bit<1>  takeover;
    bit<32> cell;
    bit<32> value_base;         /* cell * OMNIREDUCE_BLOCK: index of value 0 in `values` */
    bit<32> seen;               /* the copy's registers after this message */
    bit<8>  remaining;
    bit<1>  round_priming;
    bit<32> min_next;
    bit<16> next_exponent;
    bit<1>  complete;           /* this message completed the round */
    bit<32> scratch;
    bit<16> reply_port;
    bit<1>  send_reply;         /* a reply multicast: egress addresses each copy */
}

#endif /* P4INA_OMNIREDUCE_CONFIG_P4 */
