/*
 * SWITCHML_FOR_EACH_VALUE(OP) expands to OP(0) OP(1) ... OP(SWITCHML_ELEMENTS - 1).
 *
 * P4-16 has no loops, and a packet carries SWITCHML_ELEMENTS values (64 by
 * default, any count from 1 to 364 with -DSWITCHML_ELEMENTS=N). The parser
 * and the aggregation touch every value with one statement each, so the
 * statements are generated here by the preprocessor: OP is the name of a
 * one-argument macro, called with each index as a parenthesised sum of
 * integer literals, e.g. ((((0 + 256) + 64) + 32) + 3). Every front end folds
 * such a sum into a constant before anything else sees it (p4c's
 * ConstantFolding runs before type checking; p4ina's fold-constants pass
 * too), so the header-stack indices are compile-time constants, which is
 * what every P4 target accepts, and the register indices are
 * value_base + a constant, as with plain literals.
 *
 * SWITCHML_ELEMENTS is written in binary: SWITCHML_VALUES_<2^k>(OP, b) expands
 * to 2^k indices from b on, and SWITCHML_PART_<2^k> is that block when bit k
 * of SWITCHML_ELEMENTS is set (nothing otherwise), placed after the larger
 * blocks (SWITCHML_END_<2^k> is where it ends). So any count costs at most
 * nine blocks, with indices 0 .. SWITCHML_ELEMENTS - 1 in order, once each.
 * headers.p4 defines SWITCHML_ELEMENTS and rejects unsupported values.
 */
#ifndef P4INA_SWITCHML_VALUES_P4
#define P4INA_SWITCHML_VALUES_P4

#include "headers.p4"

#define SWITCHML_VALUES_1(OP, b) OP(b)
#define SWITCHML_VALUES_2(OP, b) SWITCHML_VALUES_1(OP, b) SWITCHML_VALUES_1(OP, ((b) + 1))
#define SWITCHML_VALUES_4(OP, b) SWITCHML_VALUES_2(OP, b) SWITCHML_VALUES_2(OP, ((b) + 2))
#define SWITCHML_VALUES_8(OP, b) SWITCHML_VALUES_4(OP, b) SWITCHML_VALUES_4(OP, ((b) + 4))
#define SWITCHML_VALUES_16(OP, b) SWITCHML_VALUES_8(OP, b) SWITCHML_VALUES_8(OP, ((b) + 8))
#define SWITCHML_VALUES_32(OP, b) SWITCHML_VALUES_16(OP, b) SWITCHML_VALUES_16(OP, ((b) + 16))
#define SWITCHML_VALUES_64(OP, b) SWITCHML_VALUES_32(OP, b) SWITCHML_VALUES_32(OP, ((b) + 32))
#define SWITCHML_VALUES_128(OP, b) SWITCHML_VALUES_64(OP, b) SWITCHML_VALUES_64(OP, ((b) + 64))
#define SWITCHML_VALUES_256(OP, b) SWITCHML_VALUES_128(OP, b) SWITCHML_VALUES_128(OP, ((b) + 128))

#if SWITCHML_ELEMENTS & 256
#define SWITCHML_PART_256(OP) SWITCHML_VALUES_256(OP, 0)
#define SWITCHML_END_256 (0 + 256)
#else
#define SWITCHML_PART_256(OP)
#define SWITCHML_END_256 0
#endif
#if SWITCHML_ELEMENTS & 128
#define SWITCHML_PART_128(OP) SWITCHML_VALUES_128(OP, SWITCHML_END_256)
#define SWITCHML_END_128 (SWITCHML_END_256 + 128)
#else
#define SWITCHML_PART_128(OP)
#define SWITCHML_END_128 SWITCHML_END_256
#endif
#if SWITCHML_ELEMENTS & 64
#define SWITCHML_PART_64(OP) SWITCHML_VALUES_64(OP, SWITCHML_END_128)
#define SWITCHML_END_64 (SWITCHML_END_128 + 64)
#else
#define SWITCHML_PART_64(OP)
#define SWITCHML_END_64 SWITCHML_END_128
#endif
#if SWITCHML_ELEMENTS & 32
#define SWITCHML_PART_32(OP) SWITCHML_VALUES_32(OP, SWITCHML_END_64)
#define SWITCHML_END_32 (SWITCHML_END_64 + 32)
#else
#define SWITCHML_PART_32(OP)
#define SWITCHML_END_32 SWITCHML_END_64
#endif
#if SWITCHML_ELEMENTS & 16
#define SWITCHML_PART_16(OP) SWITCHML_VALUES_16(OP, SWITCHML_END_32)
#define SWITCHML_END_16 (SWITCHML_END_32 + 16)
#else
#define SWITCHML_PART_16(OP)
#define SWITCHML_END_16 SWITCHML_END_32
#endif
#if SWITCHML_ELEMENTS & 8
#define SWITCHML_PART_8(OP) SWITCHML_VALUES_8(OP, SWITCHML_END_16)
#define SWITCHML_END_8 (SWITCHML_END_16 + 8)
#else
#define SWITCHML_PART_8(OP)
#define SWITCHML_END_8 SWITCHML_END_16
#endif
#if SWITCHML_ELEMENTS & 4
#define SWITCHML_PART_4(OP) SWITCHML_VALUES_4(OP, SWITCHML_END_8)
#define SWITCHML_END_4 (SWITCHML_END_8 + 4)
#else
#define SWITCHML_PART_4(OP)
#define SWITCHML_END_4 SWITCHML_END_8
#endif
#if SWITCHML_ELEMENTS & 2
#define SWITCHML_PART_2(OP) SWITCHML_VALUES_2(OP, SWITCHML_END_4)
#define SWITCHML_END_2 (SWITCHML_END_4 + 2)
#else
#define SWITCHML_PART_2(OP)
#define SWITCHML_END_2 SWITCHML_END_4
#endif
#if SWITCHML_ELEMENTS & 1
#define SWITCHML_PART_1(OP) SWITCHML_VALUES_1(OP, SWITCHML_END_2)
#define SWITCHML_END_1 (SWITCHML_END_2 + 1)
#else
#define SWITCHML_PART_1(OP)
#define SWITCHML_END_1 SWITCHML_END_2
#endif

#define SWITCHML_FOR_EACH_VALUE(OP) \
    SWITCHML_PART_256(OP) \
    SWITCHML_PART_128(OP) \
    SWITCHML_PART_64(OP) \
    SWITCHML_PART_32(OP) \
    SWITCHML_PART_16(OP) \
    SWITCHML_PART_8(OP) \
    SWITCHML_PART_4(OP) \
    SWITCHML_PART_2(OP) \
    SWITCHML_PART_1(OP)

#endif /* P4INA_SWITCHML_VALUES_P4 */
