/*
 * SwitchML aggregation: configuration, the codes of its counters, and the
 * metadata switchml.p4 carries through ingress and egress. The control
 * itself is in switchml_aggregation.p4; the contract in docs/p4-programs.md.
 *
 * Configuration (-DNAME=VALUE):
 *   SWITCHML_SLOTS     slots on the switch, shared by all jobs (4096)
 *   SWITCHML_MAX_JOBS  entries of the jobs table (64); workers and
 *                      result_rewrite hold SWITCHML_MAX_WORKERS per job
 */
#ifndef P4INA_SWITCHML_CONFIG_P4
#define P4INA_SWITCHML_CONFIG_P4

#ifndef SWITCHML_SLOTS
#define SWITCHML_SLOTS 4096
#endif
#ifndef SWITCHML_MAX_JOBS
#define SWITCHML_MAX_JOBS 64
#endif
#if SWITCHML_SLOTS < 1 || SWITCHML_SLOTS > 32768
#error "SWITCHML_SLOTS must be from 1 to 32768"
#endif
#if SWITCHML_MAX_JOBS < 1 || SWITCHML_MAX_JOBS > 65536
#error "SWITCHML_MAX_JOBS must be from 1 to 65536"
#endif

/* The workers of one job share a 32-bit seen bitmap. */
#define SWITCHML_MAX_WORKERS 32
#define SWITCHML_CELLS (2 * SWITCHML_SLOTS)

/* Indices of ingress.switchml.switchml_drops. */
const bit<8> SWITCHML_DROP_BAD_VERSION = 1;
const bit<8> SWITCHML_DROP_BAD_MESSAGE_TYPE = 2;
const bit<8> SWITCHML_DROP_BAD_ELEMENT_COUNT = 3;
const bit<8> SWITCHML_DROP_TRUNCATED = 4;
const bit<8> SWITCHML_DROP_BAD_LENGTH = 5;
const bit<8> SWITCHML_DROP_UNKNOWN_JOB = 6;
const bit<8> SWITCHML_DROP_SLOT_OUT_OF_RANGE = 7;
const bit<8> SWITCHML_DROP_SLOT_BEYOND_REGISTERS = 8;
const bit<8> SWITCHML_DROP_UNKNOWN_WORKER = 9;
const bit<8> SWITCHML_DROP_WRONG_SOURCE = 10;
const bit<8> SWITCHML_DROP_DUPLICATE = 11;
const bit<8> SWITCHML_DROP_STALE = 12;
#define SWITCHML_DROP_REASONS 16

/* Indices of ingress.switchml.switchml_outcomes: updates that were not dropped. */
const bit<32> SWITCHML_OUTCOME_AGGREGATED = 1;     /* added; the round is not complete yet */
const bit<32> SWITCHML_OUTCOME_RESULT = 2;         /* completed the round: RESULT multicast */
const bit<32> SWITCHML_OUTCOME_RETRANSMITTED = 3;  /* stored result sent back by unicast */
const bit<32> SWITCHML_OUTCOME_TAKEOVER = 4;       /* restarted a copy that was filling another round */
#define SWITCHML_OUTCOMES 8

/* IPv4 TTL of the packets the switch sends as their source. */
const bit<8> SWITCHML_RESULT_TTL = 64;

struct switchml_metadata_t {
    bit<8>  drop_reason;        /* 0, or a SWITCHML_DROP_* */
    bit<16> slot_base;          /* from jobs */
    bit<16> pool_size;
    bit<8>  worker_count;
    bit<16> mcast_group;
    bit<32> worker_bit;         /* from workers */
    bit<1>  check_source;
    bit<32> expected_source;    /* IPv4 source address */
    bit<16> expected_port;      /* UDP source port */
    bit<1>  recovery;           /* a RECOVERY_UPDATE */
    bit<32> cell;               /* register index of this slot copy */
    bit<32> value_base;         /* cell * SWITCHML_ELEMENTS: index of value 0 in `values` */
    bit<32> seen;               /* the copy's registers as this packet found them */
    bit<8>  remaining;
    bit<32> round_tsi;
    bit<8>  round_epoch;
    bit<8>  exponent_max;
    bit<8>  epoch_age;          /* round_epoch - the packet's epoch, mod 256 */
    bit<1>  same_round;         /* the packet's (tsi, epoch) is the copy's round */
    bit<1>  older;              /* the packet's round is older than the copy's */
    bit<1>  start_round;        /* this packet starts a new round in the copy */
    bit<1>  takeover;           /* ... abandoning the round the copy was filling */
    bit<1>  contributed;        /* this packet was added into the copy */
    bit<32> scratch;            /* one stored value on its way to or from the packet */
    bit<16> reply_port;
    bit<1>  send_result;        /* a RESULT multicast: egress addresses each copy */
}

#endif /* P4INA_SWITCHML_CONFIG_P4 */
