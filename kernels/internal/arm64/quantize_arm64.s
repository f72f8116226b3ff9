//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"

// Activation quantizers (ASIMD), bit-exact with the generic ones in package
// quant (QuantizeRowQ8_0, QuantizeRowQ8K), which are ggml's reference
// quantizers. The source must be finite (package kernels checks); for
// non-finite input the blocks are unspecified, but nothing outside dst and
// src is touched.

// func QuantizeQ8_0NEON(dst unsafe.Pointer, src *float32, nb int)
// Per block of 32: amax = max|x|, d = amax/127, id = 1/d (0 where d = 0
// or 1/d overflows: then every x·id is ±Inf or NaN, which the twin's
// roundInt8 maps to 0, as x·0 gives), D = fp16(d) (fcvt: ties to even),
// qs = fcvtas(x·id): roundf's ties away from zero, exact for |x·id| ≤ 127.
// Requires: ASIMD
TEXT ·QuantizeQ8_0NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD nb+16(FP), R2
	MOVW $0x42fe0000, R3 // 127.0
	FMOVS R3, F29
	FMOVS $1.0, F30
	MOVW $0x7f800000, R3 // +Inf
	FMOVS R3, F31
	CBZ  R2, QuantizeQ8_0NEON_done
	PCALIGN $32
QuantizeQ8_0NEON_block:
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	FABS4S(0, 16) // fabs v16.4s, v0.4s
	FABS4S(1, 17) // fabs v17.4s, v1.4s
	FABS4S(2, 18) // fabs v18.4s, v2.4s
	FABS4S(3, 19) // fabs v19.4s, v3.4s
	FABS4S(4, 20) // fabs v20.4s, v4.4s
	FABS4S(5, 21) // fabs v21.4s, v5.4s
	FABS4S(6, 22) // fabs v22.4s, v6.4s
	FABS4S(7, 23) // fabs v23.4s, v7.4s
	FMAX4S(17, 16, 16) // fmax v16.4s, v16.4s, v17.4s
	FMAX4S(19, 18, 18) // fmax v18.4s, v18.4s, v19.4s
	FMAX4S(21, 20, 20) // fmax v20.4s, v20.4s, v21.4s
	FMAX4S(23, 22, 22) // fmax v22.4s, v22.4s, v23.4s
	FMAX4S(18, 16, 16) // fmax v16.4s, v16.4s, v18.4s
	FMAX4S(22, 20, 20) // fmax v20.4s, v20.4s, v22.4s
	FMAX4S(20, 16, 16) // fmax v16.4s, v16.4s, v20.4s
	FMAXV4S(16, 16) // fmaxv s16, v16.4s // amax
	FDIVS F29, F16, F17 // d = amax/127
	FDIVS F17, F30, F18 // id = 1/d
	FCMPS F31, F18
	BNE  QuantizeQ8_0NEON_scaled
	FMOVS ZR, F18 // d = 0, or 1/d overflowed
QuantizeQ8_0NEON_scaled:
	FCVTSH F17, F19
	FMOVS F19, R3
	MOVH R3, blockQ8_0_d(R0)
	FMUL4SE(18, 0, 0, 0) // fmul v0.4s, v0.4s, v18.s[0]
	FMUL4SE(18, 0, 1, 1) // fmul v1.4s, v1.4s, v18.s[0]
	FMUL4SE(18, 0, 2, 2) // fmul v2.4s, v2.4s, v18.s[0]
	FMUL4SE(18, 0, 3, 3) // fmul v3.4s, v3.4s, v18.s[0]
	FMUL4SE(18, 0, 4, 4) // fmul v4.4s, v4.4s, v18.s[0]
	FMUL4SE(18, 0, 5, 5) // fmul v5.4s, v5.4s, v18.s[0]
	FMUL4SE(18, 0, 6, 6) // fmul v6.4s, v6.4s, v18.s[0]
	FMUL4SE(18, 0, 7, 7) // fmul v7.4s, v7.4s, v18.s[0]
	FCVTAS4S(0, 0) // fcvtas v0.4s, v0.4s
	FCVTAS4S(1, 1) // fcvtas v1.4s, v1.4s
	FCVTAS4S(2, 2) // fcvtas v2.4s, v2.4s
	FCVTAS4S(3, 3) // fcvtas v3.4s, v3.4s
	FCVTAS4S(4, 4) // fcvtas v4.4s, v4.4s
	FCVTAS4S(5, 5) // fcvtas v5.4s, v5.4s
	FCVTAS4S(6, 6) // fcvtas v6.4s, v6.4s
	FCVTAS4S(7, 7) // fcvtas v7.4s, v7.4s
	// narrow: |q| ≤ 127, so keeping the low bytes is exact
	VUZP1 V1.H8, V0.H8, V0.H8
	VUZP1 V3.H8, V2.H8, V2.H8
	VUZP1 V5.H8, V4.H8, V4.H8
	VUZP1 V7.H8, V6.H8, V6.H8
	VUZP1 V2.B16, V0.B16, V0.B16
	VUZP1 V6.B16, V4.B16, V1.B16
	ADD  $blockQ8_0_qs, R0, R3
	VST1 [V0.B16, V1.B16], (R3)
	ADD  $blockQ8_0__size, R0
	SUBS $1, R2
	BNE  QuantizeQ8_0NEON_block
QuantizeQ8_0NEON_done:
	RET

// func QuantizeQ8KNEON(dst unsafe.Pointer, src *float32, nb int)
// Per block of 256: amax = max|x|; an all-zero block is written as zero
// bytes. Otherwise max is the first x with |x| = amax, iscale = −127/max,
// qs = fcvtns(x·iscale) (nearest_int: ties to even; |q| ≤ 127, so the
// twin's min(127, ·) never bites), bsums the int16 sums of 16 quants, and
// d = 1/iscale. Where iscale overflows (a subnormal max) the twin's
// nearest_int of ±Inf and NaN makes every quant 0, as iscale = 0 does here.
// Requires: ASIMD
TEXT ·QuantizeQ8KNEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), R0
	MOVD src+8(FP), R1
	MOVD nb+16(FP), R2
	MOVW $0xc2fe0000, R3 // −127.0
	FMOVS R3, F29
	FMOVS $1.0, F30
	MOVW $0x7f800000, R3 // +Inf
	FMOVS R3, F31
	CBZ  R2, QuantizeQ8KNEON_done

QuantizeQ8KNEON_block:
	// amax over the 256 values
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	MOVD R1, R9
	MOVD $16, R10
	PCALIGN $32
QuantizeQ8KNEON_amax:
	VLD1.P 64(R9), [V0.S4, V1.S4, V2.S4, V3.S4]
	FABS4S(0, 0) // fabs v0.4s, v0.4s
	FABS4S(1, 1) // fabs v1.4s, v1.4s
	FABS4S(2, 2) // fabs v2.4s, v2.4s
	FABS4S(3, 3) // fabs v3.4s, v3.4s
	FMAX4S(0, 16, 16) // fmax v16.4s, v16.4s, v0.4s
	FMAX4S(1, 17, 17) // fmax v17.4s, v17.4s, v1.4s
	FMAX4S(2, 18, 18) // fmax v18.4s, v18.4s, v2.4s
	FMAX4S(3, 19, 19) // fmax v19.4s, v19.4s, v3.4s
	SUBS $1, R10
	BNE  QuantizeQ8KNEON_amax
	FMAX4S(17, 16, 16) // fmax v16.4s, v16.4s, v17.4s
	FMAX4S(19, 18, 18) // fmax v18.4s, v18.4s, v19.4s
	FMAX4S(18, 16, 16) // fmax v16.4s, v16.4s, v18.4s
	FMAXV4S(16, 16) // fmaxv s16, v16.4s // amax
	FCMPS $(0.0), F16
	BEQ  QuantizeQ8KNEON_zero
	// max: the first value of largest magnitude
	MOVD R1, R9
QuantizeQ8KNEON_find:
	FMOVS.P 4(R9), F0
	FABSS F0, F1
	FCMPS F16, F1
	BNE  QuantizeQ8KNEON_find
	FDIVS F0, F29, F20 // iscale = −127/max
	FDIVS F20, F30, F3 // d = 1/iscale
	FMOVS F3, blockQ8K_d(R0)
	FABSS F20, F4
	FCMPS F31, F4
	BNE  QuantizeQ8KNEON_scaled
	FMOVS ZR, F20 // iscale overflowed
QuantizeQ8KNEON_scaled:
	ADD  $blockQ8K_qs, R0, R10
	ADD  $blockQ8K_bsums, R0, R11
	MOVD $16, R12
	PCALIGN $32
QuantizeQ8KNEON_quant:
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]
	FMUL4SE(20, 0, 0, 0) // fmul v0.4s, v0.4s, v20.s[0]
	FMUL4SE(20, 0, 1, 1) // fmul v1.4s, v1.4s, v20.s[0]
	FMUL4SE(20, 0, 2, 2) // fmul v2.4s, v2.4s, v20.s[0]
	FMUL4SE(20, 0, 3, 3) // fmul v3.4s, v3.4s, v20.s[0]
	FCVTNS4S(0, 0) // fcvtns v0.4s, v0.4s
	FCVTNS4S(1, 1) // fcvtns v1.4s, v1.4s
	FCVTNS4S(2, 2) // fcvtns v2.4s, v2.4s
	FCVTNS4S(3, 3) // fcvtns v3.4s, v3.4s
	VADD  V1.S4, V0.S4, V4.S4
	VADD  V3.S4, V2.S4, V5.S4
	VADD  V5.S4, V4.S4, V4.S4
	VADDV V4.S4, V4 // the sum of these 16 quants
	VMOV  V4.S[0], R13
	MOVH.P R13, 2(R11)
	VUZP1 V1.H8, V0.H8, V0.H8
	VUZP1 V3.H8, V2.H8, V2.H8
	VUZP1 V2.B16, V0.B16, V0.B16
	VST1.P [V0.B16], 16(R10)
	SUBS $1, R12
	BNE  QuantizeQ8KNEON_quant
	B    QuantizeQ8KNEON_next

QuantizeQ8KNEON_zero:
	MOVW ZR, blockQ8K_d(R0)
	VEOR V0.B16, V0.B16, V0.B16
	ADD  $blockQ8K_qs, R0, R10
	MOVD $16, R12
QuantizeQ8KNEON_zeroqs:
	VST1.P [V0.B16], 16(R10)
	SUBS $1, R12
	BNE  QuantizeQ8KNEON_zeroqs
	ADD  $blockQ8K_bsums, R0, R10
	VMOV V0.B16, V1.B16
	VST1 [V0.B16, V1.B16], (R10)
	ADD  $1024, R1 // past the 256 values

QuantizeQ8KNEON_next:
	ADD  $blockQ8K__size, R0
	SUBS $1, R2
	BNE  QuantizeQ8KNEON_block
QuantizeQ8KNEON_done:
	RET
