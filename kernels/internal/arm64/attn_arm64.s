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
