//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"
#include "dot_arm64.h"
#include "kquant_arm64.h"

// Q6_K · Q8_K dot products, whole rows per call, one body for both:
//
//	func DotQ6KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ6KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb super-blocks.
// Both follow dotQ6KGeneric in package kernels, whose float order is the
// package doc's contract. Per super-block, with signed group scales sc_g
// (16 values a group) and q = (low 4 bits | high 2 bits << 4) − 32:
//
//	A[l]  = Σ_g sc_g · Σ_{i in group g, lane l} q_i·y_i          (exact int32)
//	dd ← f16(d)·D ;  acc[l] ← acc[l] + dd·float32(A[l])
//
// with a separate FMUL and FADD, and the row's result is hsum(acc). In each
// 32-value group, values 0..15 (scale sc_2k of the half) feed lanes 0..3,
// values 16..31 (sc_2k+1) lanes 4..7.
//
// What differs: the lane sums, LANES_SDOT (ASIMD and FEAT_DotProd) or
// LANES_NEON (ASIMD only), dot_arm64.h.

#define WQ R7 // ql cursor within the block
#define XQ R8 // activation quant cursor within the block
#define WH R10 // qh cursor within the block

// Vector registers.
#define QL0 V0 // ql of a half (64 bytes)
#define QL1 V1
#define QL2 V2
#define QL3 V3
#define QH0 V4 // qh of a half (32 bytes)
#define QH1 V5
#define XA V6 // activation quants of a 32-value group
#define xa 6
#define XB V7
#define xb 7
#define QA V8 // q of the group, values 0..15
#define qa 8
#define QB V9 // values 16..31
#define qb 9
#define S0 V10 // lane sums of (XA, QA), (XB, QB)
#define s0 10
#define S1 V11
#define s1 11
#define HA V10 // the high bits, before the lane sums
#define HB V11
#define ALO V12 // A[0..3]
#define alo 12
#define AHI V13 // A[4..7]
#define ahi 13
#define T V14 // LANES_NEON's temporary
#define t 14
#define ACCLO V16 // acc[0..3]
#define acclo 16
#define ACCHI V17 // acc[4..7]
#define acchi 17
#define MASK V20 // 0x0F in every byte
#define SCB V21 // the 16 scales, bytes, then halfwords 0..7
#define scb 21
#define SCH V22 // halfwords 8..15
#define sch 22
#define M30 V23 // 0x30 in every byte: the two high bits, in place
#define OFF V24 // 32 in every byte: the offset of q
#define dd 25 // dd (lane 0)
#define d8 26 // D (lane 0)
#define sc0 28 // sc0..3 (int32), then sc4..7, sc8..11, sc12..15
#define sc1 29
#define sc2 30
#define sc3 31
#define res acclo

#define Q6K_SETUP \
	VMOVI $15, MASK.B16 \
	VMOVI $48, M30.B16 \
	VMOVI $32, OFF.B16

#define Q6K_ZERO \
	VEOR ACCLO.B16, ACCLO.B16, ACCLO.B16 \
	VEOR ACCHI.B16, ACCHI.B16, ACCHI.B16

// Q6K_GROUP: 32 values, q from ql registers QLA, QLB through NIB and qh
// through QH (Q6K_Q, kquant_arm64.h); A ← A + sc_2k·(lanes of values 0..15) + sc_2k+1·(16..31),
// the scales being lanes i, j of sc.
#define Q6K_GROUP(LANES, NIB, QLA, QLB, QH, sc, i, j) \
	VLD1.P 32(XQ), [XA.B16, XB.B16] \
	Q6K_Q(NIB, QLA, QLB, QH) \
	LANES(xa, qa, s0, S0) \
	LANES(xb, qb, s1, S1) \
	MLA4SE(sc, i, s0, alo) \
	MLA4SE(sc, j, s1, ahi)

// Q6K_HALF: 128 values, the scales of its groups in scx (groups 0, 1) and
// scy (groups 2, 3).
#define Q6K_HALF(LANES, scx, scy) \
	VLD1.P 64(WQ), [QL0.B16, QL1.B16, QL2.B16, QL3.B16] \
	VLD1.P 32(WH), [QH0.B16, QH1.B16] \
	Q6K_GROUP(LANES, NIB_LO, QL0, QL1, QH_SHL4, scx, 0, 1) \
	Q6K_GROUP(LANES, NIB_LO, QL2, QL3, QH_SHL2, scx, 2, 3) \
	Q6K_GROUP(LANES, NIB_HI, QL0, QL1, QH_AS_IS, scy, 0, 1) \
	Q6K_GROUP(LANES, NIB_HI, QL2, QL3, QH_SHR2, scy, 2, 3)

#define Q6K_BLOCK(LANES) \
	Q6K_SCALES(blockQ6K_scales, W) \
	F16S(blockQ6K_d, W, dd) /* dd = f16(d)·D */ \
	FMOVS blockQ8K_d(XP), F(d8) \
	FMULS F(d8), F(dd), F(dd) \
	ADD $blockQ6K_ql, W, WQ \
	ADD $blockQ6K_qh, W, WH \
	ADD $blockQ8K_qs, XP, XQ \
	VEOR ALO.B16, ALO.B16, ALO.B16 \
	VEOR AHI.B16, AHI.B16, AHI.B16 \
	Q6K_HALF(LANES, sc0, sc1) \
	Q6K_HALF(LANES, sc2, sc3) \
	ACC_A(dd) \
	ADD $blockQ6K__size, W \
	ADD $blockQ8K__size, XP

#define Q6K_REDUCE HSUM8(acclo, ACCLO, acchi, ACCHI)

// func DotQ6KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ6KSDOT(SB), NOSPLIT, $0-40
	DOT_ROWS(Q6K_SETUP, Q6K_ZERO, Q6K_BLOCK(LANES_SDOT), Q6K_REDUCE)

// func DotQ6KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ6KNEON(SB), NOSPLIT, $0-40
	DOT_ROWS(Q6K_SETUP, Q6K_ZERO, Q6K_BLOCK(LANES_NEON), Q6K_REDUCE)
