/*
 * RINA_FOR_EACH_VALUE(OP) expands to OP(0) OP(1) ... OP(RINA_ELEMENTS - 1).
 *
 * P4-16 has no loops: the parser and the aggregation touch each value with
 * a statement of its own, generated here by the preprocessor with a literal
 * index (constant header-stack indices are what every P4 target accepts).
 * Indices come in groups of eight; group g is present when RINA_ELEMENTS >
 * 8 * g. rina_headers.p4 defines RINA_ELEMENTS and rejects unsupported values.
 */
#ifndef P4INA_RINA_VALUES_P4
#define P4INA_RINA_VALUES_P4

#include "rina_headers.p4"

#if RINA_ELEMENTS > 0
#define RINA_GROUP_0(OP) OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
#else
#define RINA_GROUP_0(OP)
#endif
#if RINA_ELEMENTS > 8
#define RINA_GROUP_1(OP) OP(8) OP(9) OP(10) OP(11) OP(12) OP(13) OP(14) OP(15)
#else
#define RINA_GROUP_1(OP)
#endif
#if RINA_ELEMENTS > 16
#define RINA_GROUP_2(OP) OP(16) OP(17) OP(18) OP(19) OP(20) OP(21) OP(22) OP(23)
#else
#define RINA_GROUP_2(OP)
#endif
#if RINA_ELEMENTS > 24
#define RINA_GROUP_3(OP) OP(24) OP(25) OP(26) OP(27) OP(28) OP(29) OP(30) OP(31)
#else
#define RINA_GROUP_3(OP)
#endif
#if RINA_ELEMENTS > 32
#define RINA_GROUP_4(OP) OP(32) OP(33) OP(34) OP(35) OP(36) OP(37) OP(38) OP(39)
#else
#define RINA_GROUP_4(OP)
#endif
#if RINA_ELEMENTS > 40
#define RINA_GROUP_5(OP) OP(40) OP(41) OP(42) OP(43) OP(44) OP(45) OP(46) OP(47)
#else
#define RINA_GROUP_5(OP)
#endif
#if RINA_ELEMENTS > 48
#define RINA_GROUP_6(OP) OP(48) OP(49) OP(50) OP(51) OP(52) OP(53) OP(54) OP(55)
#else
#define RINA_GROUP_6(OP)
#endif
#if RINA_ELEMENTS > 56
#define RINA_GROUP_7(OP) OP(56) OP(57) OP(58) OP(59) OP(60) OP(61) OP(62) OP(63)
#else
#define RINA_GROUP_7(OP)
#endif
#if RINA_ELEMENTS > 64
#define RINA_GROUP_8(OP) OP(64) OP(65) OP(66) OP(67) OP(68) OP(69) OP(70) OP(71)
#else
#define RINA_GROUP_8(OP)
#endif
#if RINA_ELEMENTS > 72
#define RINA_GROUP_9(OP) OP(72) OP(73) OP(74) OP(75) OP(76) OP(77) OP(78) OP(79)
#else
#define RINA_GROUP_9(OP)
#endif
#if RINA_ELEMENTS > 80
#define RINA_GROUP_10(OP) OP(80) OP(81) OP(82) OP(83) OP(84) OP(85) OP(86) OP(87)
#else
#define RINA_GROUP_10(OP)
#endif
#if RINA_ELEMENTS > 88
#define RINA_GROUP_11(OP) OP(88) OP(89) OP(90) OP(91) OP(92) OP(93) OP(94) OP(95)
#else
#define RINA_GROUP_11(OP)
#endif
#if RINA_ELEMENTS > 96
#define RINA_GROUP_12(OP) OP(96) OP(97) OP(98) OP(99) OP(100) OP(101) OP(102) OP(103)
#else
#define RINA_GROUP_12(OP)
#endif
#if RINA_ELEMENTS > 104
#define RINA_GROUP_13(OP) OP(104) OP(105) OP(106) OP(107) OP(108) OP(109) OP(110) OP(111)
#else
#define RINA_GROUP_13(OP)
#endif
#if RINA_ELEMENTS > 112
#define RINA_GROUP_14(OP) OP(112) OP(113) OP(114) OP(115) OP(116) OP(117) OP(118) OP(119)
#else
#define RINA_GROUP_14(OP)
#endif
#if RINA_ELEMENTS > 120
#define RINA_GROUP_15(OP) OP(120) OP(121) OP(122) OP(123) OP(124) OP(125) OP(126) OP(127)
#else
#define RINA_GROUP_15(OP)
#endif
#if RINA_ELEMENTS > 128
#define RINA_GROUP_16(OP) OP(128) OP(129) OP(130) OP(131) OP(132) OP(133) OP(134) OP(135)
#else
#define RINA_GROUP_16(OP)
#endif
#if RINA_ELEMENTS > 136
#define RINA_GROUP_17(OP) OP(136) OP(137) OP(138) OP(139) OP(140) OP(141) OP(142) OP(143)
#else
#define RINA_GROUP_17(OP)
#endif
#if RINA_ELEMENTS > 144
#define RINA_GROUP_18(OP) OP(144) OP(145) OP(146) OP(147) OP(148) OP(149) OP(150) OP(151)
#else
#define RINA_GROUP_18(OP)
#endif
#if RINA_ELEMENTS > 152
#define RINA_GROUP_19(OP) OP(152) OP(153) OP(154) OP(155) OP(156) OP(157) OP(158) OP(159)
#else
#define RINA_GROUP_19(OP)
#endif
#if RINA_ELEMENTS > 160
#define RINA_GROUP_20(OP) OP(160) OP(161) OP(162) OP(163) OP(164) OP(165) OP(166) OP(167)
#else
#define RINA_GROUP_20(OP)
#endif
#if RINA_ELEMENTS > 168
#define RINA_GROUP_21(OP) OP(168) OP(169) OP(170) OP(171) OP(172) OP(173) OP(174) OP(175)
#else
#define RINA_GROUP_21(OP)
#endif
#if RINA_ELEMENTS > 176
#define RINA_GROUP_22(OP) OP(176) OP(177) OP(178) OP(179) OP(180) OP(181) OP(182) OP(183)
#else
#define RINA_GROUP_22(OP)
#endif
#if RINA_ELEMENTS > 184
#define RINA_GROUP_23(OP) OP(184) OP(185) OP(186) OP(187) OP(188) OP(189) OP(190) OP(191)
#else
#define RINA_GROUP_23(OP)
#endif
#if RINA_ELEMENTS > 192
#define RINA_GROUP_24(OP) OP(192) OP(193) OP(194) OP(195) OP(196) OP(197) OP(198) OP(199)
#else
#define RINA_GROUP_24(OP)
#endif
#if RINA_ELEMENTS > 200
#define RINA_GROUP_25(OP) OP(200) OP(201) OP(202) OP(203) OP(204) OP(205) OP(206) OP(207)
#else
#define RINA_GROUP_25(OP)
#endif
#if RINA_ELEMENTS > 208
#define RINA_GROUP_26(OP) OP(208) OP(209) OP(210) OP(211) OP(212) OP(213) OP(214) OP(215)
#else
#define RINA_GROUP_26(OP)
#endif
#if RINA_ELEMENTS > 216
#define RINA_GROUP_27(OP) OP(216) OP(217) OP(218) OP(219) OP(220) OP(221) OP(222) OP(223)
#else
#define RINA_GROUP_27(OP)
#endif
#if RINA_ELEMENTS > 224
#define RINA_GROUP_28(OP) OP(224) OP(225) OP(226) OP(227) OP(228) OP(229) OP(230) OP(231)
#else
#define RINA_GROUP_28(OP)
#endif
#if RINA_ELEMENTS > 232
#define RINA_GROUP_29(OP) OP(232) OP(233) OP(234) OP(235) OP(236) OP(237) OP(238) OP(239)
#else
#define RINA_GROUP_29(OP)
#endif
#if RINA_ELEMENTS > 240
#define RINA_GROUP_30(OP) OP(240) OP(241) OP(242) OP(243) OP(244) OP(245) OP(246) OP(247)
#else
#define RINA_GROUP_30(OP)
#endif
#if RINA_ELEMENTS > 248
#define RINA_GROUP_31(OP) OP(248) OP(249) OP(250) OP(251) OP(252) OP(253) OP(254) OP(255)
#else
#define RINA_GROUP_31(OP)
#endif

#define RINA_FOR_EACH_VALUE(OP) \
    RINA_GROUP_0(OP) \
    RINA_GROUP_1(OP) \
    RINA_GROUP_2(OP) \
    RINA_GROUP_3(OP) \
    RINA_GROUP_4(OP) \
    RINA_GROUP_5(OP) \
    RINA_GROUP_6(OP) \
    RINA_GROUP_7(OP) \
    RINA_GROUP_8(OP) \
    RINA_GROUP_9(OP) \
    RINA_GROUP_10(OP) \
    RINA_GROUP_11(OP) \
    RINA_GROUP_12(OP) \
    RINA_GROUP_13(OP) \
    RINA_GROUP_14(OP) \
    RINA_GROUP_15(OP) \
    RINA_GROUP_16(OP) \
    RINA_GROUP_17(OP) \
    RINA_GROUP_18(OP) \
    RINA_GROUP_19(OP) \
    RINA_GROUP_20(OP) \
    RINA_GROUP_21(OP) \
    RINA_GROUP_22(OP) \
    RINA_GROUP_23(OP) \
    RINA_GROUP_24(OP) \
    RINA_GROUP_25(OP) \
    RINA_GROUP_26(OP) \
    RINA_GROUP_27(OP) \
    RINA_GROUP_28(OP) \
    RINA_GROUP_29(OP) \
    RINA_GROUP_30(OP) \
    RINA_GROUP_31(OP)

#endif /* P4INA_RINA_VALUES_P4 */
