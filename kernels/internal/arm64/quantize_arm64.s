//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"

// Activation quantizers (ASIMD), bit-exact with the generic ones in package
// quant (QuantizeRowQ8_0, QuantizeRowQ8K), which are ggml's reference
// quantizers. The source must be finite (package kernels checks); for
// non-finite input the blocks are unspecified, but nothing outside dst and
// src is touched.

// Registers of QuantizeQ8_0NEON (dot_arm64.h describes the naming).
#define X0 V0 // the 32 values, then x·id, then the quants
#define x0 0
#define X1 V1
#define x1 1
#define X2 V2
#define x2 2
#define X3 V3
#define x3 3
#define X4 V4
#define x4 4
#define X5 V5
#define x5 5
#define X6 V6
#define x6 6
#define X7 V7
#define x7 7
#define a0 16 // |x|, then their maxima
#define a1 17
#define a2 18
#define a3 19
#define a4 20
#define a5 21
#define a6 22
#define a7 23
#define amax 16 // amax (scalar)
#define dq 17 // d
#define idq 18 // id
#define dh 19 // fp16(d)
#define k127 29 // 127.0
#define one 30 // 1.0
#define inf 31 // +Inf

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
	FMOVS R3, F(k127)
	FMOVS $1.0, F(one)
	MOVW $0x7f800000, R3 // +Inf
	FMOVS R3, F(inf)
	CBZ  R2, QuantizeQ8_0NEON_done
	PCALIGN $32
QuantizeQ8_0NEON_block:
	VLD1.P 64(R1), [X0.S4, X1.S4, X2.S4, X3.S4]
	VLD1.P 64(R1), [X4.S4, X5.S4, X6.S4, X7.S4]
	FABS4S(x0, a0)
	FABS4S(x1, a1)
	FABS4S(x2, a2)
	FABS4S(x3, a3)
	FABS4S(x4, a4)
	FABS4S(x5, a5)
	FABS4S(x6, a6)
	FABS4S(x7, a7)
	FMAX4S(a1, a0, a0)
	FMAX4S(a3, a2, a2)
	FMAX4S(a5, a4, a4)
	FMAX4S(a7, a6, a6)
	FMAX4S(a2, a0, a0)
	FMAX4S(a6, a4, a4)
	FMAX4S(a4, a0, a0)
	FMAXV4S(a0, amax) // amax
	FDIVS F(k127), F(amax), F(dq) // d = amax/127
	FDIVS F(dq), F(one), F(idq) // id = 1/d
	FCMPS F(inf), F(idq)
	BNE  QuantizeQ8_0NEON_scaled
	FMOVS ZR, F(idq) // d = 0, or 1/d overflowed
QuantizeQ8_0NEON_scaled:
	FCVTSH F(dq), F(dh)
	FMOVS F(dh), R3
	MOVH R3, blockQ8_0_d(R0)
	FMUL4SE(a2, 0, x0, x0)
	FMUL4SE(a2, 0, x1, x1)
	FMUL4SE(a2, 0, x2, x2)
	FMUL4SE(a2, 0, x3, x3)
	FMUL4SE(a2, 0, x4, x4)
	FMUL4SE(a2, 0, x5, x5)
	FMUL4SE(a2, 0, x6, x6)
	FMUL4SE(a2, 0, x7, x7)
	FCVTAS4S(x0, x0)
	FCVTAS4S(x1, x1)
	FCVTAS4S(x2, x2)
	FCVTAS4S(x3, x3)
	FCVTAS4S(x4, x4)
	FCVTAS4S(x5, x5)
	FCVTAS4S(x6, x6)
	FCVTAS4S(x7, x7)
	// narrow: |q| ≤ 127, so keeping the low bytes is exact
	VUZP1 X1.H8, X0.H8, X0.H8
	VUZP1 X3.H8, X2.H8, X2.H8
	VUZP1 X5.H8, X4.H8, X4.H8
	VUZP1 X7.H8, X6.H8, X6.H8
	VUZP1 X2.B16, X0.B16, X0.B16
	VUZP1 X6.B16, X4.B16, X1.B16
	ADD  $blockQ8_0_qs, R0, R3
	VST1 [X0.B16, X1.B16], (R3)
	ADD  $blockQ8_0__size, R0
	SUBS $1, R2
	BNE  QuantizeQ8_0NEON_block
QuantizeQ8_0NEON_done:
	RET

#undef X0
#undef x0
#undef X1
#undef x1
#undef X2
#undef x2
#undef X3
#undef x3
#undef a0
#undef a1
#undef a2
#undef a3
#undef amax
#undef one
#undef inf

// Registers of QuantizeQ8KNEON.
#define X0 V0 // 16 values, then x·iscale, then the quants
#define x0 0
#define X1 V1
#define x1 1
#define X2 V2
#define x2 2
#define X3 V3
#define x3 3
#define QS1 V4 // sums of quants
#define QS2 V5
#define A0 V16 // maxima of |x|
#define a0 16
#define A1 V17
#define a1 17
#define A2 V18
#define a2 18
#define A3 V19
#define a3 19
#define amax 16 // amax (scalar)
#define mx 0 // the first value of largest magnitude (scalar)
#define mxabs 1 // |mx|
#define dk 3 // d = 1/iscale
#define iabs 4 // |iscale|
#define iscale 20
#define km127 29 // −127.0
#define one 30 // 1.0
#define inf 31 // +Inf

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
	FMOVS R3, F(km127)
	FMOVS $1.0, F(one)
	MOVW $0x7f800000, R3 // +Inf
	FMOVS R3, F(inf)
	CBZ  R2, QuantizeQ8KNEON_done

QuantizeQ8KNEON_block:
	// amax over the 256 values
	VEOR A0.B16, A0.B16, A0.B16
	VEOR A1.B16, A1.B16, A1.B16
	VEOR A2.B16, A2.B16, A2.B16
	VEOR A3.B16, A3.B16, A3.B16
	MOVD R1, R9
	MOVD $16, R10
	PCALIGN $32
QuantizeQ8KNEON_amax:
	VLD1.P 64(R9), [X0.S4, X1.S4, X2.S4, X3.S4]
	FABS4S(x0, x0)
	FABS4S(x1, x1)
	FABS4S(x2, x2)
	FABS4S(x3, x3)
	FMAX4S(x0, a0, a0)
	FMAX4S(x1, a1, a1)
	FMAX4S(x2, a2, a2)
	FMAX4S(x3, a3, a3)
	SUBS $1, R10
	BNE  QuantizeQ8KNEON_amax
	FMAX4S(a1, a0, a0)
	FMAX4S(a3, a2, a2)
	FMAX4S(a2, a0, a0)
	FMAXV4S(a0, amax) // amax
	FCMPS $(0.0), F(amax)
	BEQ  QuantizeQ8KNEON_zero
	// max: the first value of largest magnitude
	MOVD R1, R9
QuantizeQ8KNEON_find:
	FMOVS.P 4(R9), F(mx)
	FABSS F(mx), F(mxabs)
	FCMPS F(amax), F(mxabs)
	BNE  QuantizeQ8KNEON_find
	FDIVS F(mx), F(km127), F(iscale) // iscale = −127/max
	FDIVS F(iscale), F(one), F(dk) // d = 1/iscale
	FMOVS F(dk), blockQ8K_d(R0)
	FABSS F(iscale), F(iabs)
	FCMPS F(inf), F(iabs)
	BNE  QuantizeQ8KNEON_scaled
	FMOVS ZR, F(iscale) // iscale overflowed
QuantizeQ8KNEON_scaled:
	ADD  $blockQ8K_qs, R0, R10
	ADD  $blockQ8K_bsums, R0, R11
	MOVD $16, R12
	PCALIGN $32
QuantizeQ8KNEON_quant:
	VLD1.P 64(R1), [X0.S4, X1.S4, X2.S4, X3.S4]
	FMUL4SE(iscale, 0, x0, x0)
	FMUL4SE(iscale, 0, x1, x1)
	FMUL4SE(iscale, 0, x2, x2)
	FMUL4SE(iscale, 0, x3, x3)
	FCVTNS4S(x0, x0)
	FCVTNS4S(x1, x1)
	FCVTNS4S(x2, x2)
	FCVTNS4S(x3, x3)
	VADD  X1.S4, X0.S4, QS1.S4
	VADD  X3.S4, X2.S4, QS2.S4
	VADD  QS2.S4, QS1.S4, QS1.S4
	VADDV QS1.S4, QS1 // the sum of these 16 quants
	VMOV  QS1.S[0], R13
	MOVH.P R13, 2(R11)
	VUZP1 X1.H8, X0.H8, X0.H8
	VUZP1 X3.H8, X2.H8, X2.H8
	VUZP1 X2.B16, X0.B16, X0.B16
	VST1.P [X0.B16], 16(R10)
	SUBS $1, R12
	BNE  QuantizeQ8KNEON_quant
	B    QuantizeQ8KNEON_next

QuantizeQ8KNEON_zero:
	MOVW ZR, blockQ8K_d(R0)
	VEOR X0.B16, X0.B16, X0.B16
	ADD  $blockQ8K_qs, R0, R10
	MOVD $16, R12
QuantizeQ8KNEON_zeroqs:
	VST1.P [X0.B16], 16(R10)
	SUBS $1, R12
	BNE  QuantizeQ8KNEON_zeroqs
	ADD  $blockQ8K_bsums, R0, R10
	VMOV X0.B16, X1.B16
	VST1 [X0.B16, X1.B16], (R10)
	ADD  $1024, R1 // past the 256 values

QuantizeQ8KNEON_next:
	ADD  $blockQ8K__size, R0
	SUBS $1, R2
	BNE  QuantizeQ8KNEON_block
QuantizeQ8KNEON_done:
	RET
