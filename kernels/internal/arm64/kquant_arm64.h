// What the K-quant dots and dequantizers share: the 6-bit scales and mins
// of Q4_K and Q5_K, Q5_K's fifth bit, and Q6_K's quants. Each macro uses
// the register roles its comment names, which every including file
// defines (dot_arm64.h describes the convention).

// KSCALES decodes the 12 scale bytes at off(base) (layout: quant.KScaleMin)
// into int32 lanes: SCLO sc0..3, SCHI sc4..7, MLO m0..3, MHI m4..7.
// R9..R15 are clobbered.
#define KSCALES(off, base) \
	MOVWU off(base), R9 /* u0: sc0..3 | hi bits of sc4..7 */ \
	MOVWU off+4(base), R10 /* u1: m0..3 | hi bits of m4..7 */ \
	MOVWU off+8(base), R11 /* u2: lo nibbles of sc4..7 | of m4..7 */ \
	ANDW $0x3f3f3f3f, R9, R12 /* sc0..3 */ \
	LSRW $6, R9, R14 \
	ANDW $0x03030303, R14, R14 \
	ANDW $0x0f0f0f0f, R11, R13 \
	ORRW R14<<4, R13, R13 /* sc4..7 */ \
	ORR R13<<32, R12, R12 /* sc0..7, a byte each */ \
	ANDW $0x3f3f3f3f, R10, R13 /* m0..3 */ \
	LSRW $6, R10, R14 \
	ANDW $0x03030303, R14, R14 \
	LSRW $4, R11, R15 \
	ANDW $0x0f0f0f0f, R15, R15 \
	ORRW R14<<4, R15, R15 /* m4..7 */ \
	ORR R15<<32, R13, R13 /* m0..7 */ \
	VMOV R12, SCLO.D[0] \
	VMOV R13, MLO.D[0] \
	VUXTL SCLO.B8, SCLO.H8 \
	VUXTL MLO.B8, MLO.H8 \
	VUXTL2 SCLO.H8, SCHI.S4 \
	VUXTL SCLO.H4, SCLO.S4 \
	VUXTL2 MLO.H8, MHI.S4 \
	VUXTL MLO.H4, MLO.S4

// Q5_K's fifth bit, for a 64-value chunk c whose low nibbles (sub-block
// 2c) are in WLA (values 0..15), WLB (16..31) and high nibbles (sub-block
// 2c+1) in WA, WB. Q5K_QH loads qh[0..15] into QHA and qh[16..31] into QHB
// (R9 is clobbered); Q5K_BITS, once per chunk in order, sets bit 4 of each
// quant where bit 2c (low nibbles) or 2c+1 (high) of its qh byte is set,
// and shifts QHA, QHB right by 2 for the next chunk. FIVE holds 0x10 in
// every byte; H0..H3 are temporaries. NONE stands for both in Q4_K.
#define Q5K_QH(off, base) \
	ADD $off, base, R9 \
	VLD1 (R9), [QHA.B16, QHB.B16]
#define Q5K_BITS \
	VSHL $4, QHA.B16, H0.B16 /* bit 2c to bit 4 */ \
	VSHL $4, QHB.B16, H1.B16 \
	VSHL $3, QHA.B16, H2.B16 /* bit 2c+1 to bit 4 */ \
	VSHL $3, QHB.B16, H3.B16 \
	VBIT FIVE.B16, H0.B16, WLA.B16 /* bit 4 of H where FIVE: WLA's is 0 */ \
	VBIT FIVE.B16, H1.B16, WLB.B16 \
	VBIT FIVE.B16, H2.B16, WA.B16 \
	VBIT FIVE.B16, H3.B16, WB.B16 \
	VUSHR $2, QHA.B16, QHA.B16 \
	VUSHR $2, QHB.B16, QHB.B16

// Q6_K's quants, for a 32-value group g of a 128-value half (ql of the
// half in four registers, qh in QH0, QH1): Q6K_Q sets QA (values 0..15)
// and QB (16..31) to q − 32 from the ql registers QLA, QLB through NIB
// and the high bits through QH, with HA, HB as temporaries. MASK holds
// 0x0F, M30 0x30 and OFF 32 in every byte.
#define Q6K_Q(NIB, QLA, QLB, QH) \
	NIB(QLA, QA) \
	NIB(QLB, QB) \
	QH(QH0, HA) \
	QH(QH1, HB) \
	VORR HA.B16, QA.B16, QA.B16 \
	VORR HB.B16, QB.B16, QB.B16 \
	VSUB OFF.B16, QA.B16, QA.B16 /* q − 32 */ \
	VSUB OFF.B16, QB.B16, QB.B16
// The four low bits: groups 0, 1 take the low nibbles of ql, 2, 3 the high.
#define NIB_LO(src, dst) VAND MASK.B16, src.B16, dst.B16
#define NIB_HI(src, dst) VUSHR $4, src.B16, dst.B16
// The two high bits (bits 2g, 2g+1 of qh) moved to bits 4, 5.
#define QH_SHL4(src, dst) VSHL $4, src.B16, dst.B16; VAND M30.B16, dst.B16, dst.B16
#define QH_SHL2(src, dst) VSHL $2, src.B16, dst.B16; VAND M30.B16, dst.B16, dst.B16
#define QH_AS_IS(src, dst) VAND M30.B16, src.B16, dst.B16
#define QH_SHR2(src, dst) VUSHR $2, src.B16, dst.B16; VAND M30.B16, dst.B16, dst.B16

// Q6K_SCALES sign-extends the 16 scales at off(base) to int32 in the
// registers numbered sc0..sc3 (four each), through SCB, SCH (R9 is
// clobbered).
#define Q6K_SCALES(off, base) \
	ADD $off, base, R9 \
	VLD1 (R9), [SCB.B16] \
	SXTL28H(scb, sch) \
	SXTL8H(scb, scb) \
	SXTL24S(scb, sc1) \
	SXTL4S(scb, sc0) \
	SXTL24S(sch, sc3) \
	SXTL4S(sch, sc2)
