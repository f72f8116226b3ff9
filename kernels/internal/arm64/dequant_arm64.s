//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"
#include "kquant_arm64.h"

// Dequantizers (ASIMD), bit-exact with their Go twins in package quant
// (DequantizeRowQ4K, ...Q5K, ...Q6K, ...Q8_0, themselves bit-exact with
// ggml): the same float32 operations in the same order, each rounded on its
// own (fmul then fsub, never fused):
//
//	Q4_K, Q5_K  y = (d·sc_j)·q − dmin·m_j
//	Q6_K        y = (d·sc_g)·q
//	Q8_0        y = q·d
//
// All take (dst *float32, src unsafe.Pointer, nb int): nb blocks from src,
// nb·256 (nb·32 for Q8_0) values to dst. They check nothing. Q4_K and Q5_K
// share one body; Q5_K adds the fifth bit (kquant_arm64.h).

#define DST R0 // output cursor
#define SRC R1 // the current block
#define N R2 // blocks left
#define Q R7 // quant cursor within the block
#define QHP R10 // Q6_K: qh cursor within the block

// Vector registers. Every routine: 16 outputs at a time in O0..O3, widened
// through U0, U1.
#define U0 V12
#define u0 12
#define U1 V13
#define u1 13
#define O0 V8
#define o0 8
#define O1 V9
#define o1 9
#define O2 V10
#define o2 10
#define O3 V11
#define o3 11
// Q8_0
#define QA8 V0 // quants 0..15
#define qa8 0
#define QB8 V1 // quants 16..31
#define qb8 1
#define d0 24 // f16(d) (lane 0)
// Q4_K, Q5_K
#define WA V0 // quants of a 64-value chunk, bytes 0..15: then high nibbles
#define WB V1 // bytes 16..31: then high nibbles
#define WLA V2 // low nibbles of WA, WB
#define WLB V3
#define H0 V4 // Q5_K: the fifth bits
#define H1 V5
#define H2 V6
#define H3 V7
#define MIN V16 // dmin·m_j in every lane
#define min 16
#define MLO V14 // m0..3 (int32), then dmin·m0..3
#define mlo 14
#define MHI V15 // m4..7, then dmin·m4..7
#define mhi 15
#define MASK V20 // 0x0F in every byte
#define FIVE V23 // 0x10 in every byte
#define dk 24 // f16(d) (lane 0)
#define dmk 25 // f16(dmin) (lane 0)
#define QHA V27 // Q5_K: qh[0..15] >> 2c
#define QHB V28 // qh[16..31] >> 2c
#define SCLO V30 // sc0..3 (int32), then d·sc0..3
#define sclo 30
#define SCHI V31 // sc4..7, then d·sc4..7
#define schi 31
// Q6_K (MASK as above)
#define QL0 V0 // ql of a half (64 bytes)
#define QL1 V1
#define QL2 V2
#define QL3 V3
#define QH0 V4 // qh of a half (32 bytes)
#define QH1 V5
#define QA V6 // q of a 32-value group, values 0..15
#define qa 6
#define QB V7 // values 16..31
#define qb 7
#define HA V14 // the high bits
#define HB V15
#define SCB V21 // the 16 scales, bytes, then halfwords 0..7
#define scb 21
#define SCH V22 // halfwords 8..15
#define sch 22
#define M30 V23 // 0x30 in every byte
#define OFF V24 // 32 in every byte
#define d6 25 // f16(d) (lane 0)
#define sc0 28 // d·sc0..3, then d·sc4..7, d·sc8..11, d·sc12..15
#define sc1 29
#define sc2 30
#define sc3 31

// DEQUANT is the body of every dequantizer: SETUP once, BLOCK per block.
#define DEQUANT(SETUP, BLOCK, SIZE) \
	MOVD dst+0(FP), DST \
	MOVD src+8(FP), SRC \
	MOVD nb+16(FP), N \
	SETUP \
	CBZ N, dq_done \
	PCALIGN $32 \
dq_block: \
	BLOCK \
	ADD $SIZE, SRC \
	SUBS $1, N \
	BNE dq_block \
dq_done: \
	RET

// Widening 16 quants to int32 in O0..O3: signed (register number) or
// unsigned (register name).
#define SXTL16(src) \
	SXTL8H(src, u0) \
	SXTL28H(src, u1) \
	SXTL24S(u0, o1) \
	SXTL4S(u0, o0) \
	SXTL24S(u1, o3) \
	SXTL4S(u1, o2)
#define UXTL16(SRC) \
	VUXTL SRC.B8, U0.H8 \
	VUXTL2 SRC.B16, U1.H8 \
	VUXTL2 U0.H8, O1.S4 \
	VUXTL U0.H4, O0.S4 \
	VUXTL2 U1.H8, O3.S4 \
	VUXTL U1.H4, O2.S4

// DQ16 writes 16 values: the quants WIDEN gives, as float32, times lane i
// of sc, then THEN (DQ_MIN or NONE).
#define DQ16(WIDEN, sc, i, THEN) \
	WIDEN \
	SCVTF4S(o0, o0) \
	SCVTF4S(o1, o1) \
	SCVTF4S(o2, o2) \
	SCVTF4S(o3, o3) \
	FMUL4SE(sc, i, o0, o0) \
	FMUL4SE(sc, i, o1, o1) \
	FMUL4SE(sc, i, o2, o2) \
	FMUL4SE(sc, i, o3, o3) \
	THEN \
	VST1.P [O0.S4, O1.S4, O2.S4, O3.S4], 64(DST)
#define DQ_MIN \
	FSUB4S(min, o0, o0) \
	FSUB4S(min, o1, o1) \
	FSUB4S(min, o2, o2) \
	FSUB4S(min, o3, o3)
#define NONE

#define Q8_BLOCK \
	MOVHU blockQ8_0_d(SRC), R3 \
	FMOVS R3, F(d0) \
	FCVTHS F(d0), F(d0) \
	ADD $blockQ8_0_qs, SRC, Q \
	VLD1 (Q), [QA8.B16, QB8.B16] \
	DQ16(SXTL16(qa8), d0, 0, NONE) \
	DQ16(SXTL16(qb8), d0, 0, NONE)

// K45_CHUNK: sub-blocks 2c (low nibbles: scale lane i of sc, min lane i of
// ml) and 2c+1 (high: lanes j).
#define K45_CHUNK(BITS, sc, ML, i, j) \
	VLD1.P 32(Q), [WA.B16, WB.B16] \
	VAND MASK.B16, WA.B16, WLA.B16 \
	VAND MASK.B16, WB.B16, WLB.B16 \
	VUSHR $4, WA.B16, WA.B16 \
	VUSHR $4, WB.B16, WB.B16 \
	BITS \
	VDUP ML.S[i], MIN.S4 \
	DQ16(UXTL16(WLA), sc, i, DQ_MIN) \
	DQ16(UXTL16(WLB), sc, i, DQ_MIN) \
	VDUP ML.S[j], MIN.S4 \
	DQ16(UXTL16(WA), sc, j, DQ_MIN) \
	DQ16(UXTL16(WB), sc, j, DQ_MIN)

// K45_BLOCK: one super-block; QH and BITS are Q5K_QH and Q5K_BITS, or
// NONE, and QS the type's qs offset (d, dmin and scales sit where Q4_K's
// do in both).
#define K45_BLOCK(QH, BITS, QS) \
	KSCALES(blockQ4K_scales, SRC) \
	MOVHU blockQ4K_d(SRC), R9 \
	MOVHU blockQ4K_dmin(SRC), R10 \
	FMOVS R9, F(dk) \
	FMOVS R10, F(dmk) \
	FCVTHS F(dk), F(dk) \
	FCVTHS F(dmk), F(dmk) \
	SCVTF4S(sclo, sclo) /* d·sc and dmin·m (the small integers convert exactly) */ \
	SCVTF4S(schi, schi) \
	SCVTF4S(mlo, mlo) \
	SCVTF4S(mhi, mhi) \
	FMUL4SE(dk, 0, sclo, sclo) \
	FMUL4SE(dk, 0, schi, schi) \
	FMUL4SE(dmk, 0, mlo, mlo) \
	FMUL4SE(dmk, 0, mhi, mhi) \
	ADD $QS, SRC, Q \
	QH \
	K45_CHUNK(BITS, sclo, MLO, 0, 1) \
	K45_CHUNK(BITS, sclo, MLO, 2, 3) \
	K45_CHUNK(BITS, schi, MHI, 0, 1) \
	K45_CHUNK(BITS, schi, MHI, 2, 3)

#define K45_SETUP \
	VMOVI $15, MASK.B16 \
	VMOVI $16, FIVE.B16

// Q6K_GROUP: 32 values (Q6K_Q, kquant_arm64.h), scales lanes i, j of sc.
#define Q6K_GROUP(NIB, QLA, QLB, QH, sc, i, j) \
	Q6K_Q(NIB, QLA, QLB, QH) \
	DQ16(SXTL16(qa), sc, i, NONE) \
	DQ16(SXTL16(qb), sc, j, NONE)

#define Q6K_HALF(scx, scy) \
	VLD1.P 64(Q), [QL0.B16, QL1.B16, QL2.B16, QL3.B16] \
	VLD1.P 32(QHP), [QH0.B16, QH1.B16] \
	Q6K_GROUP(NIB_LO, QL0, QL1, QH_SHL4, scx, 0, 1) \
	Q6K_GROUP(NIB_LO, QL2, QL3, QH_SHL2, scx, 2, 3) \
	Q6K_GROUP(NIB_HI, QL0, QL1, QH_AS_IS, scy, 0, 1) \
	Q6K_GROUP(NIB_HI, QL2, QL3, QH_SHR2, scy, 2, 3)

#define Q6K_BLOCK \
	MOVHU blockQ6K_d(SRC), R3 \
	FMOVS R3, F(d6) \
	FCVTHS F(d6), F(d6) \
	Q6K_SCALES(blockQ6K_scales, SRC) \
	SCVTF4S(sc0, sc0) /* d·sc */ \
	SCVTF4S(sc1, sc1) \
	SCVTF4S(sc2, sc2) \
	SCVTF4S(sc3, sc3) \
	FMUL4SE(d6, 0, sc0, sc0) \
	FMUL4SE(d6, 0, sc1, sc1) \
	FMUL4SE(d6, 0, sc2, sc2) \
	FMUL4SE(d6, 0, sc3, sc3) \
	ADD $blockQ6K_ql, SRC, Q \
	ADD $blockQ6K_qh, SRC, QHP \
	Q6K_HALF(sc0, sc1) \
	Q6K_HALF(sc2, sc3)

#define Q6K_SETUP \
	VMOVI $15, MASK.B16 \
	VMOVI $48, M30.B16 \
	VMOVI $32, OFF.B16

// func DequantQ8_0NEON(dst *float32, src unsafe.Pointer, nb int)
// Requires: ASIMD
TEXT ·DequantQ8_0NEON(SB), NOSPLIT, $0-24
	DEQUANT(NONE, Q8_BLOCK, blockQ8_0__size)

// func DequantQ4KNEON(dst *float32, src unsafe.Pointer, nb int)
// Requires: ASIMD
TEXT ·DequantQ4KNEON(SB), NOSPLIT, $0-24
	DEQUANT(K45_SETUP, K45_BLOCK(NONE, NONE, blockQ4K_qs), blockQ4K__size)

// func DequantQ5KNEON(dst *float32, src unsafe.Pointer, nb int)
// Requires: ASIMD
TEXT ·DequantQ5KNEON(SB), NOSPLIT, $0-24
	DEQUANT(K45_SETUP, K45_BLOCK(Q5K_QH(blockQ5K_qh, SRC), Q5K_BITS, blockQ5K_qs), blockQ5K__size)

// func DequantQ6KNEON(dst *float32, src unsafe.Pointer, nb int)
// Requires: ASIMD
TEXT ·DequantQ6KNEON(SB), NOSPLIT, $0-24
	DEQUANT(Q6K_SETUP, Q6K_BLOCK, blockQ6K__size)
