//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"
#include "dot_arm64.h"

// Q8_0 · Q8_0 dot products, whole rows per call, one body for both:
//
//	func DotQ8_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ8_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb blocks. Both
// follow dotQ8_0Generic in package kernels, whose float order is the package
// doc's contract: block b has its eight exact int32 lane sums
// A[l] = Σ_{i in lane l} w_i·x_i (lane l = i/4), then
//
//	dd ← f16(dw)·f16(dx) ;  acc_s[l] ← acc_s[l] + dd·float32(A[l])   (s = b mod 4)
//
// with a separate FMUL and FADD (never FMLA), and the row's result is
// hsum((acc_0 + acc_1) + (acc_2 + acc_3)). Lanes 0..3 of an accumulator set
// live in one register, lanes 4..7 in the next.
//
// What differs: the lane sums, LANES_SDOT (ASIMD and FEAT_DotProd) or
// LANES8_NEON (ASIMD only; exact for every int8 pair, −128·−128
// included), dot_arm64.h.

// Vector registers.
#define WQA V0 // weight quants, values 0..15
#define wqa 0
#define WQB V1 // values 16..31
#define wqb 1
#define XQA V2 // activation quants, values 0..15
#define xqa 2
#define XQB V3 // values 16..31
#define xqb 3
#define dd 4 // dd (lane 0)
#define dx 5 // f16(dx) (lane 0)
#define S0 V6 // the block's lane sums A[0..3]
#define s0 6
#define S1 V7 // A[4..7]
#define s1 7
#define T V8 // LANES8_NEON's temporary
#define t 8
#define A0LO V16 // acc_0 lanes 0..3, then lanes 4..7, acc_1, ...
#define a0lo 16
#define A0HI V17
#define a0hi 17
#define A1LO V18
#define a1lo 18
#define A1HI V19
#define a1hi 19
#define A2LO V20
#define a2lo 20
#define A2HI V21
#define a2hi 21
#define A3LO V22
#define a3lo 22
#define A3HI V23
#define a3hi 23
#define res a0lo

#define Q8_ZERO \
	VEOR A0LO.B16, A0LO.B16, A0LO.B16 \
	VEOR A0HI.B16, A0HI.B16, A0HI.B16 \
	VEOR A1LO.B16, A1LO.B16, A1LO.B16 \
	VEOR A1HI.B16, A1HI.B16, A1HI.B16 \
	VEOR A2LO.B16, A2LO.B16, A2LO.B16 \
	VEOR A2HI.B16, A2HI.B16, A2HI.B16 \
	VEOR A3LO.B16, A3LO.B16, A3LO.B16 \
	VEOR A3HI.B16, A3HI.B16, A3HI.B16

// Q8_SET: one block into the accumulator set (lo, hi).
#define Q8_SET(LANES, lo, hi) \
	F16S(blockQ8_0_d, W, dd) \
	F16S(blockQ8_0_d, XP, dx) \
	ADD $blockQ8_0_qs, W, R9 \
	ADD $blockQ8_0_qs, XP, R10 \
	VLD1 (R9), [WQA.B16, WQB.B16] \
	VLD1 (R10), [XQA.B16, XQB.B16] \
	FMULS F(dx), F(dd), F(dd) /* dd = f16(dw)·f16(dx) */ \
	ADD $blockQ8_0__size, W \
	ADD $blockQ8_0__size, XP \
	LANES(xqa, wqa, s0, S0) \
	LANES(xqb, wqb, s1, S1) \
	SCVTF4S(s0, s0) \
	SCVTF4S(s1, s1) \
	FMUL4SE(dd, 0, s0, s0) \
	FMUL4SE(dd, 0, s1, s1) \
	FADD4S(s0, lo, lo) \
	FADD4S(s1, hi, hi)

// Q8_BLOCK: blocks b ≡ 0, 1, 2, 3 (mod 4), leaving for the reduction as
// soon as the row has no more.
#define Q8_BLOCK(LANES) \
	Q8_SET(LANES, a0lo, a0hi) \
	SUBS $1, N \
	BEQ rows_reduce \
	Q8_SET(LANES, a1lo, a1hi) \
	SUBS $1, N \
	BEQ rows_reduce \
	Q8_SET(LANES, a2lo, a2hi) \
	SUBS $1, N \
	BEQ rows_reduce \
	Q8_SET(LANES, a3lo, a3hi)

// lane-wise (acc_0 + acc_1) + (acc_2 + acc_3), then hsum
#define Q8_REDUCE \
	FADD4S(a1lo, a0lo, a0lo) \
	FADD4S(a3lo, a2lo, a2lo) \
	FADD4S(a2lo, a0lo, a0lo) \
	FADD4S(a1hi, a0hi, a0hi) \
	FADD4S(a3hi, a2hi, a2hi) \
	FADD4S(a2hi, a0hi, a0hi) \
	HSUM8(a0lo, A0LO, a0hi, A0HI)

// func DotQ8_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ8_0SDOT(SB), NOSPLIT, $0-40
	DOT_ROWS(NONE, Q8_ZERO, Q8_BLOCK(LANES_SDOT), Q8_REDUCE)

// func DotQ8_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ8_0NEON(SB), NOSPLIT, $0-40
	DOT_ROWS(NONE, Q8_ZERO, Q8_BLOCK(LANES8_NEON), Q8_REDUCE)
