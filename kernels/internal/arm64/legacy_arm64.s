//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"
#include "dot_arm64.h"

// Q4_0 and Q5_0 · Q8_0 dot products, whole rows per call, one body for the
// four routines:
//
//	func DotQ4_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ4_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ5_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ5_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb 32-value
// blocks. They follow dotQ4_0Generic and dotQ5_0Generic in package
// kernels, which follow ggml's generic order: per block b, in order, the
// exact int32
//
//	s = Σ_{i<16} (lo_i − o)·x_i + (hi_i − o)·x_{i+16}
//
// (lo, hi the low and high nibbles of qs[i], Q5_0 adding bit i and bit
// i+16 of qh as their fifth bits; o = 8 for Q4_0, 16 for Q5_0), then one
// scalar float32 step, each operation rounded on its own:
//
//	Q4_0  sum ← sum + (float32(s)·f16(dw))·f16(dx)
//	Q5_0  sum ← sum + (f16(dw)·f16(dx))·float32(s)
//
// sum starting at +0. float32(s) is exact (|s| ≤ 2^16).
//
// What differs: the lane sums, LEG_SDOT (ASIMD and FEAT_DotProd) or
// LEG_NEON (ASIMD only: !!! smull/smlal into 16-bit lanes, each the sum of
// four products of at most 16·128, then saddlv); Q5_0's fifth bit; the
// offset o and the float step.

// Vector registers.
#define WQ V0 // qs (16 bytes)
#define WL V1 // q of values 0..15 (low nibbles)
#define wl 1
#define WH V2 // q of values 16..31 (high nibbles)
#define wh 2
#define XLO V3 // activation quants 0..15
#define xlo 3
#define XHI V4 // 16..31
#define xhi 4
#define SUMS V5 // lane sums, then s (lane 0)
#define sums 5
#define T V6 // LEG_NEON's temporary
#define t 6
#define QHV V7 // Q5_0: qh (lane 0)
#define QB0 V16 // Q5_0: qh bytes 0, 1 (values 0..15), then the fifth bits
#define QB1 V17 // qh bytes 2, 3 (values 16..31)
#define MASK V20 // 0x0F in every byte
#define OFF V21 // o in every byte
#define FIVE V22 // Q5_0: 0x10 in every byte
#define BITS V23 // Q5_0: 1, 2, 4, ..., 128, twice
#define IDXL V24 // Q5_0: byte indexes 0 ×8, 1 ×8
#define IDXH V25 // 2 ×8, 3 ×8
#define dw 26 // f16(dw) (lane 0)
#define dx 27 // f16(dx)
#define prod 28 // the block's term
#define sum 29 // sum
#define res sum

// The lane sums, then s in lane 0 of SUMS.
#define LEG_SDOT \
	VEOR SUMS.B16, SUMS.B16, SUMS.B16 \
	SDOT(xlo, wl, sums) \
	SDOT(xhi, wh, sums) \
	VADDV SUMS.S4, SUMS
#define LEG_NEON \
	SMULL(xlo, wl, sums) \
	SMLAL(xhi, wh, sums) \
	SMULL2(xlo, wl, t) \
	SMLAL2(xhi, wh, t) \
	VADD T.H8, SUMS.H8, SUMS.H8 \
	SADDLV(sums, sums)

#define Q4_0_SETUP \
	VMOVI $15, MASK.B16 \
	VMOVI $8, OFF.B16
#define Q5_0_SETUP \
	VMOVI $15, MASK.B16 \
	VMOVI $16, OFF.B16 \
	VMOVI $16, FIVE.B16 \
	MOVD $0x8040201008040201, R9 \
	VMOV R9, BITS.D[0] \
	VMOV R9, BITS.D[1] \
	VMOV ZR, IDXL.D[0] \
	MOVD $0x0101010101010101, R9 \
	VMOV R9, IDXL.D[1] \
	MOVD $0x0202020202020202, R9 \
	VMOV R9, IDXH.D[0] \
	MOVD $0x0303030303030303, R9 \
	VMOV R9, IDXH.D[1]

// Q5_0_BITS: bit 4 of value i's quant where bit i of qh is set (qh byte
// i/8, bit i mod 8: a table lookup spreads the bytes, cmtst tests the bits).
#define Q5_0_BITS \
	MOVWU blockQ5_0_qh(W), R9 \
	VMOV R9, QHV.S[0] \
	VTBL IDXL.B16, [QHV.B16], QB0.B16 \
	VTBL IDXH.B16, [QHV.B16], QB1.B16 \
	VCMTST BITS.B16, QB0.B16, QB0.B16 \
	VCMTST BITS.B16, QB1.B16, QB1.B16 \
	VBIT FIVE.B16, QB0.B16, WL.B16 /* bit 4 of QB0 where FIVE: WL's is 0 */ \
	VBIT FIVE.B16, QB1.B16, WH.B16

// The float steps: prod ← the block's term.
#define Q4_0_FLOAT \
	FMULS F(dw), F(sums), F(prod) /* float32(s)·f16(dw) */ \
	FMULS F(dx), F(prod), F(prod) /* ·f16(dx) */
#define Q5_0_FLOAT \
	FMULS F(dx), F(dw), F(prod) /* f16(dw)·f16(dx) */ \
	FMULS F(sums), F(prod), F(prod) /* ·float32(s) */

// LEG_BLOCK: one block; FIFTH is Q5_0_BITS or NONE, D, QS and SIZE the
// type's d and qs offsets and block size.
#define LEG_BLOCK(LANES, FIFTH, FLOAT, D, QS, SIZE) \
	F16S(D, W, dw) \
	F16S(blockQ8_0_d, XP, dx) \
	ADD $QS, W, R10 \
	ADD $blockQ8_0_qs, XP, R11 \
	VLD1 (R10), [WQ.B16] \
	VLD1 (R11), [XLO.B16, XHI.B16] \
	VAND MASK.B16, WQ.B16, WL.B16 \
	VUSHR $4, WQ.B16, WH.B16 \
	FIFTH \
	VSUB OFF.B16, WL.B16, WL.B16 \
	VSUB OFF.B16, WH.B16, WH.B16 \
	LANES \
	SCVTFS(sums, sums) \
	FLOAT \
	FADDS F(prod), F(sum), F(sum) \
	ADD $SIZE, W \
	ADD $blockQ8_0__size, XP

#define LEG_ZERO FMOVS ZR, F(sum)

// func DotQ4_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ4_0SDOT(SB), NOSPLIT, $0-40
	DOT_ROWS(Q4_0_SETUP, LEG_ZERO, LEG_BLOCK(LEG_SDOT, NONE, Q4_0_FLOAT, blockQ4_0_d, blockQ4_0_qs, blockQ4_0__size), NONE)

// func DotQ4_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ4_0NEON(SB), NOSPLIT, $0-40
	DOT_ROWS(Q4_0_SETUP, LEG_ZERO, LEG_BLOCK(LEG_NEON, NONE, Q4_0_FLOAT, blockQ4_0_d, blockQ4_0_qs, blockQ4_0__size), NONE)

// func DotQ5_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ5_0SDOT(SB), NOSPLIT, $0-40
	DOT_ROWS(Q5_0_SETUP, LEG_ZERO, LEG_BLOCK(LEG_SDOT, Q5_0_BITS, Q5_0_FLOAT, blockQ5_0_d, blockQ5_0_qs, blockQ5_0__size), NONE)

// func DotQ5_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ5_0NEON(SB), NOSPLIT, $0-40
	DOT_ROWS(Q5_0_SETUP, LEG_ZERO, LEG_BLOCK(LEG_NEON, Q5_0_BITS, Q5_0_FLOAT, blockQ5_0_d, blockQ5_0_qs, blockQ5_0__size), NONE)
