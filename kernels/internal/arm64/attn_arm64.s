//go:build !purego

#include "textflag.h"
#include "asimd_arm64.h"

// Attention kernels of package sdpa for ASIMD (the neon and dotprod
// variants share them). Each mirrors a generic kernel in package kernels
// (attn.go) and returns its bits: every lane computes one value in the
// twin's order, with separate multiplies and adds (fmul, fadd; never
// fmla), and a NaN result may carry another NaN's payload.
//
//	ExactScoresNEON    exactScoresGeneric    lane r is query row r
//	ExactWeightedNEON  exactWeightedGeneric  lane c is output column c; a
//	                                         zero weight skips the key
//	ExactDivNEON       exactDivGeneric       IEEE division
//	WidenF16NEON       widenF16Generic       exact (fcvtl), a signalling
//	                                         NaN kept signalling
//
// Requires: ASIMD

// func ExactScoresNEON(st, qt *float32, rs int, k *float32, ldk, hd, n int)
// Four keys at a time (then one), per four-row lane group: four
// accumulators over d; the keys' values are loaded four d at a time and
// applied by element (fmul by v.s[i]). rs and hd are multiples of 4.
// R0 st row, R1 qt, R2 rs·4, R3 k row, R4 ldk·4, R5 hd/4, R6 keys left,
// R7 lane group offset, R8 qt walk, R9-R12 key walks, R13 d-blocks left.
TEXT ·ExactScoresNEON(SB), NOSPLIT, $0-56
	MOVD st+0(FP), R0
	MOVD qt+8(FP), R1
	MOVD rs+16(FP), R2
	LSL  $2, R2
	MOVD k+24(FP), R3
	MOVD ldk+32(FP), R4
	LSL  $2, R4
	MOVD hd+40(FP), R5
	LSR  $2, R5
	MOVD n+48(FP), R6

ExactScoresNEON_keys4:
	CMP  $4, R6
	BLT  ExactScoresNEON_keys1
	MOVD ZR, R7

ExactScoresNEON_group4:
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	ADD  R1, R7, R8
	MOVD R3, R9
	ADD  R4, R9, R10
	ADD  R4, R10, R11
	ADD  R4, R11, R12
	MOVD R5, R13

ExactScoresNEON_d4:
	VLD1.P 16(R9), [V4.S4]
	VLD1.P 16(R10), [V5.S4]
	VLD1.P 16(R11), [V6.S4]
	VLD1.P 16(R12), [V7.S4]
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 0, 8, 9) // fmul v9.4s, v8.4s, v4.s[0]
	FMUL4SE(5, 0, 8, 10) // fmul v10.4s, v8.4s, v5.s[0]
	FMUL4SE(6, 0, 8, 11) // fmul v11.4s, v8.4s, v6.s[0]
	FMUL4SE(7, 0, 8, 12) // fmul v12.4s, v8.4s, v7.s[0]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	FADD4S(10, 1, 1) // fadd v1.4s, v1.4s, v10.4s
	FADD4S(11, 2, 2) // fadd v2.4s, v2.4s, v11.4s
	FADD4S(12, 3, 3) // fadd v3.4s, v3.4s, v12.4s
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 1, 8, 9) // fmul v9.4s, v8.4s, v4.s[1]
	FMUL4SE(5, 1, 8, 10) // fmul v10.4s, v8.4s, v5.s[1]
	FMUL4SE(6, 1, 8, 11) // fmul v11.4s, v8.4s, v6.s[1]
	FMUL4SE(7, 1, 8, 12) // fmul v12.4s, v8.4s, v7.s[1]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	FADD4S(10, 1, 1) // fadd v1.4s, v1.4s, v10.4s
	FADD4S(11, 2, 2) // fadd v2.4s, v2.4s, v11.4s
	FADD4S(12, 3, 3) // fadd v3.4s, v3.4s, v12.4s
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 2, 8, 9) // fmul v9.4s, v8.4s, v4.s[2]
	FMUL4SE(5, 2, 8, 10) // fmul v10.4s, v8.4s, v5.s[2]
	FMUL4SE(6, 2, 8, 11) // fmul v11.4s, v8.4s, v6.s[2]
	FMUL4SE(7, 2, 8, 12) // fmul v12.4s, v8.4s, v7.s[2]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	FADD4S(10, 1, 1) // fadd v1.4s, v1.4s, v10.4s
	FADD4S(11, 2, 2) // fadd v2.4s, v2.4s, v11.4s
	FADD4S(12, 3, 3) // fadd v3.4s, v3.4s, v12.4s
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 3, 8, 9) // fmul v9.4s, v8.4s, v4.s[3]
	FMUL4SE(5, 3, 8, 10) // fmul v10.4s, v8.4s, v5.s[3]
	FMUL4SE(6, 3, 8, 11) // fmul v11.4s, v8.4s, v6.s[3]
	FMUL4SE(7, 3, 8, 12) // fmul v12.4s, v8.4s, v7.s[3]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	FADD4S(10, 1, 1) // fadd v1.4s, v1.4s, v10.4s
	FADD4S(11, 2, 2) // fadd v2.4s, v2.4s, v11.4s
	FADD4S(12, 3, 3) // fadd v3.4s, v3.4s, v12.4s
	SUBS $1, R13, R13
	BNE  ExactScoresNEON_d4

	ADD  R0, R7, R8
	VST1 [V0.S4], (R8)
	ADD  R2, R8, R8
	VST1 [V1.S4], (R8)
	ADD  R2, R8, R8
	VST1 [V2.S4], (R8)
	ADD  R2, R8, R8
	VST1 [V3.S4], (R8)
	ADD  $16, R7, R7
	CMP  R2, R7
	BLT  ExactScoresNEON_group4

	ADD  R4<<2, R3, R3
	ADD  R2<<2, R0, R0
	SUB  $4, R6, R6
	B    ExactScoresNEON_keys4

ExactScoresNEON_keys1:
	CBZ  R6, ExactScoresNEON_done
	MOVD ZR, R7

ExactScoresNEON_group1:
	VEOR V0.B16, V0.B16, V0.B16
	ADD  R1, R7, R8
	MOVD R3, R9
	MOVD R5, R13

ExactScoresNEON_d1:
	VLD1.P 16(R9), [V4.S4]
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 0, 8, 9) // fmul v9.4s, v8.4s, v4.s[0]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 1, 8, 9) // fmul v9.4s, v8.4s, v4.s[1]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 2, 8, 9) // fmul v9.4s, v8.4s, v4.s[2]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	VLD1 (R8), [V8.S4]
	ADD  R2, R8, R8
	FMUL4SE(4, 3, 8, 9) // fmul v9.4s, v8.4s, v4.s[3]
	FADD4S(9, 0, 0) // fadd v0.4s, v0.4s, v9.4s
	SUBS $1, R13, R13
	BNE  ExactScoresNEON_d1

	ADD  R0, R7, R8
	VST1 [V0.S4], (R8)
	ADD  $16, R7, R7
	CMP  R2, R7
	BLT  ExactScoresNEON_group1

	ADD  R4, R3, R3
	ADD  R2, R0, R0
	SUB  $1, R6, R6
	B    ExactScoresNEON_keys1

ExactScoresNEON_done:
	RET

// func ExactWeightedNEON(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n int)
// Row by row, sixteen columns at a time: four accumulators over the keys;
// a key whose weight is 0 is skipped (fcmp and a branch), the others add
// w·v[j, c] with separate fmul and fadd. hd is a multiple of 16.
// R0 o row, R1 rows left, R2 hd·4, R3 pt row, R4 rs·4, R5 v, R6 ldv·4,
// R7 n, R8 column offset, R9 o chunk, R10 pt walk, R11 v walk, R12 keys.
TEXT ·ExactWeightedNEON(SB), NOSPLIT, $0-64
	MOVD o+0(FP), R0
	MOVD rows+8(FP), R1
	MOVD hd+16(FP), R2
	LSL  $2, R2
	MOVD pt+24(FP), R3
	MOVD rs+32(FP), R4
	LSL  $2, R4
	MOVD v+40(FP), R5
	MOVD ldv+48(FP), R6
	LSL  $2, R6
	MOVD n+56(FP), R7

ExactWeightedNEON_row:
	MOVD ZR, R8

ExactWeightedNEON_chunk:
	ADD  R0, R8, R9
	VLD1 (R9), [V0.S4, V1.S4, V2.S4, V3.S4]
	MOVD R3, R10
	ADD  R5, R8, R11
	MOVD R7, R12

ExactWeightedNEON_key:
	FMOVS (R10), F16
	ADD   R4, R10, R10
	FCMPS $(0.0), F16
	BEQ   ExactWeightedNEON_skip // weight 0: the key adds nothing
	VLD1  (R11), [V4.S4, V5.S4, V6.S4, V7.S4]
	FMUL4SE(16, 0, 4, 8) // fmul v8.4s, v4.4s, v16.s[0]
	FMUL4SE(16, 0, 5, 9) // fmul v9.4s, v5.4s, v16.s[0]
	FMUL4SE(16, 0, 6, 10) // fmul v10.4s, v6.4s, v16.s[0]
	FMUL4SE(16, 0, 7, 11) // fmul v11.4s, v7.4s, v16.s[0]
	FADD4S(8, 0, 0) // fadd v0.4s, v0.4s, v8.4s
	FADD4S(9, 1, 1) // fadd v1.4s, v1.4s, v9.4s
	FADD4S(10, 2, 2) // fadd v2.4s, v2.4s, v10.4s
	FADD4S(11, 3, 3) // fadd v3.4s, v3.4s, v11.4s

ExactWeightedNEON_skip:
	ADD  R6, R11, R11
	SUBS $1, R12, R12
	BNE  ExactWeightedNEON_key

	VST1 [V0.S4, V1.S4, V2.S4, V3.S4], (R9)
	ADD  $64, R8, R8
	CMP  R2, R8
	BLT  ExactWeightedNEON_chunk

	ADD  R2, R0, R0
	ADD  $4, R3, R3
	SUBS $1, R1, R1
	BNE  ExactWeightedNEON_row
	RET

// func ExactDivNEON(x, d *float32, n, period int)
// x[i] /= d[i mod period], four lanes at a time; period is a multiple of
// 4. R0 x, R1 d, R2 elements left, R3 period·4, R4 offset in the period.
TEXT ·ExactDivNEON(SB), NOSPLIT, $0-32
	MOVD x+0(FP), R0
	MOVD d+8(FP), R1
	MOVD n+16(FP), R2
	MOVD period+24(FP), R3
	LSL  $2, R3
	CBZ  R2, ExactDivNEON_done

ExactDivNEON_row:
	MOVD ZR, R4

ExactDivNEON_loop:
	ADD  R0, R4, R5
	ADD  R1, R4, R6
	VLD1 (R5), [V0.S4]
	VLD1 (R6), [V1.S4]
	FDIV4S(1, 0, 0) // fdiv v0.4s, v0.4s, v1.4s
	VST1 [V0.S4], (R5)
	ADD  $16, R4, R4
	SUB  $4, R2, R2
	CMP  R3, R4
	BLT  ExactDivNEON_loop

	ADD  R3, R0, R0
	CBNZ R2, ExactDivNEON_row

ExactDivNEON_done:
	RET

// func WidenF16NEON(dst *float32, src *uint16, n int)
// Eight values a step: fcvtl and fcvtl2 widen exactly, but quiet a
// signalling NaN (they set bit 22); the table quant.F16Table keeps it
// signalling, so where |h| is in (0x7c00, 0x7e00) bit 22 is flipped back.
// n is a multiple of 8. R0 dst, R1 src, R2 steps left; V26 0x7fff, V27
// 0x7c00, V28 0x7e00 (16-bit lanes), V29 the float32 quiet bit.
TEXT ·WidenF16NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD n+16(FP), R2
	LSR  $3, R2
	CBZ  R2, WidenF16NEON_done
	MOVD $0x7fff, R3
	VDUP R3, V26.H8
	MOVD $0x7c00, R3
	VDUP R3, V27.H8
	MOVD $0x7e00, R3
	VDUP R3, V28.H8
	MOVD $0x00400000, R3
	VDUP R3, V29.S4

WidenF16NEON_loop:
	VLD1.P 16(R1), [V0.H8]
	FCVTL4S(0, 1)                   // lanes 0-3
	FCVTL24S(0, 2)                  // lanes 4-7
	VAND   V26.B16, V0.B16, V3.B16  // |h|
	CMGT8H(27, 3, 4)                // |h| > 0x7c00: NaN
	CMGT8H(3, 28, 5)                // |h| < 0x7e00: signalling
	VAND   V5.B16, V4.B16, V4.B16
	SXTL4S(4, 5)                    // the masks as 32-bit lanes
	SXTL24S(4, 6)
	VAND   V29.B16, V5.B16, V5.B16
	VAND   V29.B16, V6.B16, V6.B16
	VEOR   V5.B16, V1.B16, V1.B16   // clear the quiet bit fcvtl set
	VEOR   V6.B16, V2.B16, V2.B16
	VST1.P [V1.S4, V2.S4], 32(R0)
	SUB    $1, R2
	CBNZ   R2, WidenF16NEON_loop

WidenF16NEON_done:
	RET

// ---------------------------------------------------------------------------
// Exact's exponential (kernels.Exp) on four float32 lanes: Exp's steps in
// two float64 lanes per register, each separately rounded (fmul, fadd,
// fsub; never fmla), then one rounding to float32 (fcvtn). The special
// cases come from clamping x to [−104.5, 89] first: below −104 the float64
// result is under half the smallest subnormal and rounds to +0, from
// 88.72283935546875 on it rounds to +Inf, as Exp's cases give; a NaN stays
// a NaN (its payload may differ: see the file comment).
//
// attnExpTab: the float64 constants, loaded into V16-V31 as
//	V16 log2e, ln2Hi   V17 ln2Lo, 1/3!   V18 1/5!, 1/7!   V19 1/9!, 1/11!
//	V20 1/13!, 0       (by element)
//	V21 0.5  V22 1  V23 1/2!  V24 1/4!  V25 1/6!  V26 1/8!  V27 1/10!
//	V28 1/12!  V29 1023 (int64)   (both lanes)
//	V30 −104.5, V31 89 (float32, four lanes)
DATA attnExpTab<>+0(SB)/8, $0x3ff71547652b82fe   // log2e
DATA attnExpTab<>+8(SB)/8, $0x3fe62e42fee00000   // ln2Hi
DATA attnExpTab<>+16(SB)/8, $0x3dea39ef35793c76  // ln2Lo
DATA attnExpTab<>+24(SB)/8, $0x3fc5555555555555  // 1/3!
DATA attnExpTab<>+32(SB)/8, $0x3f81111111111111  // 1/5!
DATA attnExpTab<>+40(SB)/8, $0x3f2a01a01a01a01a  // 1/7!
DATA attnExpTab<>+48(SB)/8, $0x3ec71de3a556c734  // 1/9!
DATA attnExpTab<>+56(SB)/8, $0x3e5ae64567f544e4  // 1/11!
DATA attnExpTab<>+64(SB)/8, $0x3de6124613a86d09  // 1/13!
DATA attnExpTab<>+72(SB)/8, $0
DATA attnExpTab<>+80(SB)/8, $0x3fe0000000000000  // 0.5
DATA attnExpTab<>+88(SB)/8, $0x3fe0000000000000
DATA attnExpTab<>+96(SB)/8, $0x3ff0000000000000  // 1
DATA attnExpTab<>+104(SB)/8, $0x3ff0000000000000
DATA attnExpTab<>+112(SB)/8, $0x3fe0000000000000 // 1/2!
DATA attnExpTab<>+120(SB)/8, $0x3fe0000000000000
DATA attnExpTab<>+128(SB)/8, $0x3fa5555555555555 // 1/4!
DATA attnExpTab<>+136(SB)/8, $0x3fa5555555555555
DATA attnExpTab<>+144(SB)/8, $0x3f56c16c16c16c17 // 1/6!
DATA attnExpTab<>+152(SB)/8, $0x3f56c16c16c16c17
DATA attnExpTab<>+160(SB)/8, $0x3efa01a01a01a01a // 1/8!
DATA attnExpTab<>+168(SB)/8, $0x3efa01a01a01a01a
DATA attnExpTab<>+176(SB)/8, $0x3e927e4fb7789f5c // 1/10!
DATA attnExpTab<>+184(SB)/8, $0x3e927e4fb7789f5c
DATA attnExpTab<>+192(SB)/8, $0x3e21eed8eff8d898 // 1/12!
DATA attnExpTab<>+200(SB)/8, $0x3e21eed8eff8d898
DATA attnExpTab<>+208(SB)/8, $1023
DATA attnExpTab<>+216(SB)/8, $1023
DATA attnExpTab<>+224(SB)/8, $0xc2d10000c2d10000 // −104.5
DATA attnExpTab<>+232(SB)/8, $0xc2d10000c2d10000
DATA attnExpTab<>+240(SB)/8, $0x42b2000042b20000 // 89
DATA attnExpTab<>+248(SB)/8, $0x42b2000042b20000
GLOBL attnExpTab<>(SB), RODATA|NOPTR, $256

// EXPCONST loads attnExpTab into V16-V31 (R7 scratch).
#define EXPCONST \
	MOVD   $attnExpTab<>(SB), R7 \
	VLD1.P 64(R7), [V16.D2, V17.D2, V18.D2, V19.D2] \
	VLD1.P 64(R7), [V20.D2, V21.D2, V22.D2, V23.D2] \
	VLD1.P 64(R7), [V24.D2, V25.D2, V26.D2, V27.D2] \
	VLD1   (R7), [V28.D2, V29.D2, V30.D2, V31.D2]

// EXPD sets the two float64 lanes of V{h} to p·2^n of Exp (everything but
// the special cases and the final rounding), in Exp's order: n =
// floor(x·log2e + 0.5), r = (x − n·ln2Hi) − n·ln2Lo, the degree-13
// polynomial in Estrin's pairs, 2^n from n's bits. V3-V11 are scratch (V3
// n, V4 r, V5 r², V6 r⁴, V7 r⁸, V8-V11 the partial sums a, b, c).
#define EXPD(h) \
	FMUL2DE(16, 0, h, 3)  /* x·log2e */ \
	FADD2D(21, 3, 3)      /* + 0.5 */ \
	FRINTM2D(3, 3)        /* n */ \
	FMUL2DE(16, 1, 3, 4)  /* n·ln2Hi */ \
	FSUB2D(4, h, 4)       /* x − n·ln2Hi */ \
	FMUL2DE(17, 0, 3, 8)  /* n·ln2Lo */ \
	FSUB2D(8, 4, 4)       /* r */ \
	FMUL2D(4, 4, 5)       /* r² */ \
	FMUL2D(5, 5, 6)       /* r⁴ */ \
	FMUL2D(6, 6, 7)       /* r⁸ */ \
	FADD2D(4, 22, 8)      /* a0 = 1 + r */ \
	FMUL2DE(17, 1, 4, 9)  \
	FADD2D(23, 9, 9)      /* a1 = c3·r + c2 */ \
	FMUL2D(5, 9, 9)       \
	FADD2D(8, 9, 8)       /* b0 = a1·r² + a0 */ \
	FMUL2DE(18, 0, 4, 9)  \
	FADD2D(24, 9, 9)      /* a2 = c5·r + c4 */ \
	FMUL2DE(18, 1, 4, 10) \
	FADD2D(25, 10, 10)    /* a3 = c7·r + c6 */ \
	FMUL2D(5, 10, 10)     \
	FADD2D(9, 10, 9)      /* b1 = a3·r² + a2 */ \
	FMUL2DE(19, 0, 4, 10) \
	FADD2D(26, 10, 10)    /* a4 = c9·r + c8 */ \
	FMUL2DE(19, 1, 4, 11) \
	FADD2D(27, 11, 11)    /* a5 = c11·r + c10 */ \
	FMUL2D(5, 11, 11)     \
	FADD2D(10, 11, 10)    /* b2 = a5·r² + a4 */ \
	FMUL2DE(20, 0, 4, 11) \
	FADD2D(28, 11, 11)    /* a6 = c13·r + c12 */ \
	FMUL2D(6, 9, 9)       \
	FADD2D(8, 9, 8)       /* c0 = b1·r⁴ + b0 */ \
	FMUL2D(6, 11, 11)     \
	FADD2D(10, 11, 11)    /* c1 = a6·r⁴ + b2 */ \
	FMUL2D(7, 11, 11)     \
	FADD2D(8, 11, 8)      /* p = c1·r⁸ + c0 */ \
	FCVTZS2D(3, 3)        /* n, exact */ \
	VADD   V29.D2, V3.D2, V3.D2 \
	VSHL   $52, V3.D2, V3.D2 /* 2^n */ \
	FMUL2D(3, 8, h)       /* p·2^n, exact */

// EXP4 sets V0 to Exp of its four float32 lanes (V1-V11 scratch, the
// constants in V16-V31).
#define EXP4 \
	FMAX4S(30, 0, 0) \
	FMIN4S(31, 0, 0) \
	FCVTL2D(0, 1)    \
	FCVTL22D(0, 2)   \
	EXPD(1)          \
	EXPD(2)          \
	FCVTN2S(1, 0)    \
	FCVTN24S(2, 0)

// func ExactExpNEON(dst, x, m *float32, n, period int)
// dst[i] = Exp(x[i] − m[i mod period]) for i < n, n a multiple of period,
// period a multiple of 4. R0 dst, R1 x, R2 m, R3 elements left, R4
// period·4, R5 offset in the period, R6 m[offset].
TEXT ·ExactExpNEON(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), R0
	MOVD x+8(FP), R1
	MOVD m+16(FP), R2
	MOVD n+24(FP), R3
	MOVD period+32(FP), R4
	LSL  $2, R4
	CBZ  R3, ExactExpNEON_done
	EXPCONST
	MOVD ZR, R5

ExactExpNEON_loop:
	VLD1.P 16(R1), [V0.S4]
	ADD    R2, R5, R6
	VLD1   (R6), [V12.S4]
	FSUB4S(12, 0, 0)                // x − m
	EXP4
	VST1.P [V0.S4], 16(R0)
	ADD    $16, R5
	CMP    R4, R5
	CSEL   EQ, ZR, R5, R5           // wrap at the period
	SUBS   $4, R3
	BNE    ExactExpNEON_loop

ExactExpNEON_done:
	RET

// func SwiGLUNEON(dst, gate, up *float32, n int)
// dst[i] = SiLU(gate[i])·up[i] for i < n, n a multiple of 4: e = Exp(−g)
// (EXP4), g / (1 + e), then the product, each rounded to float32, and the
// canonical NaN for a NaN result (dst may be gate or up). R0 dst, R1 gate,
// R2 up, R3 elements left; V12 g, V13 up, V14 1.0, V15 the canonical NaN.
TEXT ·SwiGLUNEON(SB), NOSPLIT, $0-32
	MOVD dst+0(FP), R0
	MOVD gate+8(FP), R1
	MOVD up+16(FP), R2
	MOVD n+24(FP), R3
	CBZ  R3, SwiGLUNEON_done
	EXPCONST
	MOVW $0x3f800000, R8
	VDUP R8, V14.S4
	MOVW $0x7fc00000, R8
	VDUP R8, V15.S4

SwiGLUNEON_loop:
	VLD1.P 16(R1), [V12.S4]
	VLD1.P 16(R2), [V13.S4]
	FNEG4S(12, 0)                   // −g
	EXP4
	FADD4S(14, 0, 0)                // 1 + e
	FDIV4S(0, 12, 0)                // g / (1 + e)
	FMUL4S(13, 0, 0)                // · up
	FCMEQ4S(0, 0, 1)                // not NaN
	VBIF   V1.B16, V15.B16, V0.B16  // NaN: the canonical NaN
	VST1.P [V0.S4], 16(R0)
	SUBS   $4, R3
	BNE    SwiGLUNEON_loop

SwiGLUNEON_done:
	RET

// func ExactSoftmaxNEON(st *float32, rs int, lim *int32, scale float32, n int)
// Per group of four lanes (rows), three passes over the n keys, as
// ExactSoftmaxAVX512: scaled scores, −Inf from lim[r] on, their max
// (strict >, so a NaN never becomes it) and whether every one is −Inf;
// e = Exp(s − max) and the sum in key order; e / sum, or 0 past lim[r]
// and in rows without a key. rs is a multiple of 4, n ≥ 1.
// R0 st, R1 rs·4, R2 lim, R3 n, R4 group offset, R5 walks st down the
// keys, R6 keys left, R8 scale's bits, R9 −Inf's bits, R10 1.
// V12 dead rows (every score −Inf), V13 max, V14 sum; passes 1 and 3:
// V16 scale, V17 −Inf, V18 int32 1, V19 lim[r], V20 j, V21-V22 scratch.
TEXT ·ExactSoftmaxNEON(SB), NOSPLIT, $0-40
	MOVD  st+0(FP), R0
	MOVD  rs+8(FP), R1
	LSL   $2, R1
	MOVD  lim+16(FP), R2
	MOVWU scale+24(FP), R8
	MOVD  n+32(FP), R3
	CBZ   R3, ExactSoftmaxNEON_done
	MOVW  $0xff800000, R9
	MOVD  $1, R10
	MOVD  ZR, R4

ExactSoftmaxNEON_group:
	VDUP  R8, V16.S4
	VDUP  R9, V17.S4
	VDUP  R10, V18.S4
	ADD   R2, R4, R5
	VLD1  (R5), [V19.S4]
	VEOR  V20.B16, V20.B16, V20.B16
	VMOV  V17.B16, V13.B16           // max = −Inf
	FCMEQ4S(17, 17, 12)              // dead = all ones
	ADD   R0, R4, R5
	MOVD  R3, R6

ExactSoftmaxNEON_scores:
	VLD1  (R5), [V0.S4]
	FMUL4S(16, 0, 0)                 // s·scale
	CMGT4S(20, 19, 21)               // j < lim[r]
	VBIF  V21.B16, V17.B16, V0.B16   // else −Inf
	VST1  [V0.S4], (R5)
	FCMGT4S(13, 0, 22)               // s > max
	VBIT  V22.B16, V0.B16, V13.B16
	FCMEQ4S(17, 0, 22)               // s == −Inf (not for a NaN)
	VAND  V22.B16, V12.B16, V12.B16
	VADD  V18.S4, V20.S4, V20.S4
	ADD   R1, R5
	SUBS  $1, R6
	BNE   ExactSoftmaxNEON_scores

	VEOR  V21.B16, V21.B16, V21.B16
	VBIT  V12.B16, V21.B16, V13.B16  // rows without a key: max 0, to stay finite
	VEOR  V14.B16, V14.B16, V14.B16
	EXPCONST
	ADD   R0, R4, R5
	MOVD  R3, R6

ExactSoftmaxNEON_exp:
	VLD1  (R5), [V0.S4]
	FSUB4S(13, 0, 0)                 // s − max
	EXP4
	VST1  [V0.S4], (R5)
	FADD4S(0, 14, 14)                // sum += e, in key order
	ADD   R1, R5
	SUBS  $1, R6
	BNE   ExactSoftmaxNEON_exp

	VDUP  R10, V18.S4
	ADD   R2, R4, R5
	VLD1  (R5), [V19.S4]
	VEOR  V20.B16, V20.B16, V20.B16
	VEOR  V22.B16, V22.B16, V22.B16
	ADD   R0, R4, R5
	MOVD  R3, R6

ExactSoftmaxNEON_div:
	VLD1  (R5), [V0.S4]
	FDIV4S(14, 0, 0)                 // e / sum
	CMGT4S(20, 19, 21)               // j < lim[r]
	VAND  V21.B16, V0.B16, V0.B16    // else 0
	VBIT  V12.B16, V22.B16, V0.B16   // 0 in rows without a key
	VST1  [V0.S4], (R5)
	VADD  V18.S4, V20.S4, V20.S4
	ADD   R1, R5
	SUBS  $1, R6
	BNE   ExactSoftmaxNEON_div

	ADD   $16, R4
	CMP   R1, R4
	BLT   ExactSoftmaxNEON_group

ExactSoftmaxNEON_done:
	RET

// func ExactScoresRowNEON(s, q *float32, k *float32, ldk, hd, n int)
// One query, lanes = keys: four key rows at a time, d in blocks of four. A
// block (four keys × four d) is transposed in registers (trn1/trn2 on
// 32-bit, then 64-bit lanes) so that V8+c holds k[j..j+3, d+c]; then
// acc += q[d+c]·that for c = 0..3 in order, separately rounded: each lane
// is the twin's sequential sum. n and hd are multiples of 4 and ≥ 4.
// R0 s, R1 q, R2 key row j, R3 ldk·4, R4 hd/4, R5 keys left, R6-R9 the
// four rows along d, R10 q along d, R11 d-blocks left.
TEXT ·ExactScoresRowNEON(SB), NOSPLIT, $0-48
	MOVD s+0(FP), R0
	MOVD q+8(FP), R1
	MOVD k+16(FP), R2
	MOVD ldk+24(FP), R3
	LSL  $2, R3
	MOVD hd+32(FP), R4
	LSR  $2, R4
	MOVD n+40(FP), R5

ExactScoresRowNEON_keys:
	VEOR   V13.B16, V13.B16, V13.B16
	MOVD   R2, R6
	ADD    R3, R6, R7
	ADD    R3, R7, R8
	ADD    R3, R8, R9
	MOVD   R1, R10
	MOVD   R4, R11

ExactScoresRowNEON_d:
	VLD1.P 16(R6), [V0.S4]           // key j:   a0 a1 a2 a3
	VLD1.P 16(R7), [V1.S4]           // key j+1: b0 ..
	VLD1.P 16(R8), [V2.S4]           // key j+2: c0 ..
	VLD1.P 16(R9), [V3.S4]           // key j+3: d0 ..
	VLD1.P 16(R10), [V12.S4]         // q[d..d+3]
	VTRN1  V1.S4, V0.S4, V4.S4       // a0 b0 a2 b2
	VTRN2  V1.S4, V0.S4, V5.S4       // a1 b1 a3 b3
	VTRN1  V3.S4, V2.S4, V6.S4       // c0 d0 c2 d2
	VTRN2  V3.S4, V2.S4, V7.S4       // c1 d1 c3 d3
	VTRN1  V6.D2, V4.D2, V8.D2       // a0 b0 c0 d0
	VTRN1  V7.D2, V5.D2, V9.D2       // a1 b1 c1 d1
	VTRN2  V6.D2, V4.D2, V10.D2      // a2 b2 c2 d2
	VTRN2  V7.D2, V5.D2, V11.D2      // a3 b3 c3 d3
	FMUL4SE(12, 0, 8, 14)
	FADD4S(14, 13, 13)               // acc += q[d]·k[·, d]
	FMUL4SE(12, 1, 9, 14)
	FADD4S(14, 13, 13)
	FMUL4SE(12, 2, 10, 14)
	FADD4S(14, 13, 13)
	FMUL4SE(12, 3, 11, 14)
	FADD4S(14, 13, 13)
	SUBS   $1, R11
	BNE    ExactScoresRowNEON_d

	VST1.P [V13.S4], 16(R0)
	ADD    R3<<2, R2, R2             // the next four keys
	SUBS   $4, R5
	BNE    ExactScoresRowNEON_keys
	RET
