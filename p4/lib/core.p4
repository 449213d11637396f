/*
 * p4ina's P4-16 core library: the declarations every P4-16 program gets from
 * `#include <core.p4>`. Written for p4ina from the P4-16 language
 * specification ("P4 core library"); the names, signatures and annotations
 * match the reference compiler's library so that programs and their P4Info
 * are the same under both.
 */
#ifndef _CORE_P4_
#define _CORE_P4_

/* The errors the language itself can raise. Programs may add more with
 * their own `error { ... }` declarations; all of them share one namespace. */
error {
    NoError,               /* nothing went wrong */
    PacketTooShort,        /* extract or lookahead ran past the end of the packet */
    NoMatch,               /* no case of a select expression matched */
    StackOutOfBounds,      /* a header stack index (or .next) was out of range */
    HeaderTooShort,        /* a varbit extract asked for more bits than the field holds */
    ParserTimeout,         /* the parser ran longer than the target allows */
    ParserInvalidArgument  /* a parser operation got an argument the target cannot handle */
}

/* The packet as the parser sees it: a cursor over the received bits. */
extern packet_in {
    /* Copy the next bits into a fixed-size header, mark it valid and move the cursor. */
    void extract<T>(out T hdr);
    /* As above for a header with one varbit field; the second argument says how
     * many bits that field takes in this packet. */
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    /* Read the next bits as a T without moving the cursor. */
    T lookahead<T>();
    /* Move the cursor forward without copying anything. */
    void advance(in bit<32> sizeInBits);
    /* The packet length in bytes (not every target knows it). */
    bit<32> length();
}

/* The packet as the deparser builds it. */
extern packet_out {
    /* Append a header (if valid), or every valid header of a struct, stack or union. */
    void emit<T>(in T hdr);
}

/* In a parser: when `check` is false, stop parsing with error `toSignal`. */
extern void verify(in bool check, in error toSignal);

/* The action that does nothing: the usual default action of a table. Declared
 * as p4c 1.2.4.8's core.p4 declares it; its annotation shows up in P4Info. */
@noWarn("unused")
action NoAction() {}

/* The match kinds of the core language; architectures add their own. */
match_kind {
    exact,    /* the key must equal the entry's value */
    ternary,  /* the key must equal the value on the bits set in the entry's mask */
    lpm       /* longest prefix match: a ternary match whose mask is a prefix */
}

/* Evaluated at compile time: when `check` is false, compilation stops with
 * `message`. It returns true, so it can initialise a constant:
 *     const bool ok = static_assert(V1MODEL_VERSION >= 20180101, "too old"); */
extern bool static_assert(bool check, string message);
/* The same with a default message. */
extern bool static_assert(bool check);

#endif /* _CORE_P4_ */
