//go:build !purego

// ExpSum: dst[i] = exp(x[i] − sub) and the sum of those values, for AVX2 and
// AVX-512. Mirrors kernels.expSumGeneric: every dst[i] has the bits of
// Exp32(x[i]−sub); !!! the sum is reassociated (vector accumulators).
//
// The exp follows Exp32 step by step with separate multiplies and adds (no
// FMA): clamp, n = floor(x·log2e + 0.5), r = (x − n·ln2Hi) − n·ln2Lo, the
// degree-5 Horner polynomial, p·r² + r + 1, scaling by 2^n. Exp32 computes
// floor(t + 0.5) in float64; in float32 the add can round up to the next
// integer (t = 0.5 − 2^-25), so AVX2 adds the 0.5 as a comparison on the
// exact fraction t − floor(t), and AVX-512 adds it rounding down (RD_SAE),
// both of which give the float64 result. Exp32 scales by 2^n with one
// rounding (ldexp32 splits n so that the first multiply is exact); AVX2 does
// the same with n = (n>>1) + (n − n>>1), AVX-512 with VSCALEFPS, which
// rounds once too. So the values match Exp32 bit for bit.
//
// !!! Hand-written, not generated (simdgen writes the other float32
// kernels): the two forms round differently on purpose, step by step, so
// they are two bodies rather than one with the width as a parameter.
//
// Tails: AVX2 runs the last len%8 elements through the vector code from a
// stack buffer; AVX-512 uses a lane mask.
//
// Requires: AVX2, FMA3 (ExpSumAVX2); AVX512F (ExpSumAVX512).

#include "textflag.h"

// f32Tab: one 32-byte row (eight copies) per constant, for ymm memory
// operands; the AVX-512 code reads a row's first four bytes with .BCST.
#define F32ROW(off, q) DATA ·f32Tab<>+off(SB)/8, $q; DATA ·f32Tab<>+off+8(SB)/8, $q; DATA ·f32Tab<>+off+16(SB)/8, $q; DATA ·f32Tab<>+off+24(SB)/8, $q

F32ROW(0, 0x3fb8aa3b3fb8aa3b)   // log2e      1.442695
F32ROW(32, 0x3f0000003f000000)  // 0.5
F32ROW(64, 0x3f8000003f800000)  // 1.0
F32ROW(96, 0x3f3180003f318000)  // ln2Hi      0.693359375
F32ROW(128, 0xb95e8083b95e8083) // ln2Lo     -2.1219444e-4
F32ROW(160, 0x3950696739506967) // c0         1.9875691e-4
F32ROW(192, 0x3ab743ce3ab743ce) // c1         1.3981999e-3
F32ROW(224, 0x3c0889083c088908) // c2         8.333452e-3
F32ROW(256, 0x3d2aa9c13d2aa9c1) // c3         4.1665796e-2
F32ROW(288, 0x3e2aaaaa3e2aaaaa) // c4         0.16666666
F32ROW(320, 0x3f0000003f000000) // c5         0.5 (5.0000001201e-1 rounded)
F32ROW(352, 0x42b1721842b17218) // expMaxArg  88.72283935546875
F32ROW(384, 0xc2cff1b5c2cff1b5) // expMinArg -103.97208404541015625
F32ROW(416, 0x7f8000007f800000) // +Inf
F32ROW(448, 0xff800000ff800000) // -Inf
F32ROW(480, 0x0000007f0000007f) // 127 (int32 exponent bias)
F32ROW(512, 0xffffffffffffffff) // lane mask: 8 lanes on …
F32ROW(544, 0x0000000000000000) // … then 8 off (tail masks at 512+4·(8−k))
GLOBL ·f32Tab<>(SB), RODATA|NOPTR, $576

#define LOG2E ·f32Tab<>+0(SB)
#define HALF ·f32Tab<>+32(SB)
#define ONE ·f32Tab<>+64(SB)
#define LN2HI ·f32Tab<>+96(SB)
#define LN2LO ·f32Tab<>+128(SB)
#define C0 ·f32Tab<>+160(SB)
#define C1 ·f32Tab<>+192(SB)
#define C2 ·f32Tab<>+224(SB)
#define C3 ·f32Tab<>+256(SB)
#define C4 ·f32Tab<>+288(SB)
#define C5 ·f32Tab<>+320(SB)
#define MAXARG ·f32Tab<>+352(SB)
#define MINARG ·f32Tab<>+384(SB)
#define POSINF ·f32Tab<>+416(SB)
#define NEGINF ·f32Tab<>+448(SB)
#define BIAS ·f32Tab<>+480(SB)

// Registers shared by the routines below.
#define A_PTR SI // x
#define B_PTR DI // dst
#define N CX     // elements left
#define TMP AX

// ---------------------------------------------------------------------------
// ExpSum. EXP8 sets P = Exp32(V) lane by lane for 8 lanes; R, N and T are
// scratch. V is left unchanged.
#define EXP8(V, R, P, N, T) \
	VMAXPS    MINARG, V, R  /* R = max(v, minArg); a NaN v gives minArg */ ; \
	VMINPS    MAXARG, R, R  /* clamped, so n stays in −150..128 */ ; \
	VMULPS    LOG2E, R, P   /* t = v·log2e */ ; \
	VROUNDPS  $1, P, N      /* floor(t) */ ; \
	VSUBPS    N, P, P       /* t − floor(t), exact */ ; \
	VCMPPS    $0x0d, HALF, P, P /* ≥ 0.5 (GE_OS) */ ; \
	VANDPS    ONE, P, P ; \
	VADDPS    P, N, N       /* n = floor(t + 0.5) */ ; \
	VMULPS    LN2HI, N, T   /* exact */ ; \
	VSUBPS    T, R, R       /* r = v − n·ln2Hi */ ; \
	VMULPS    LN2LO, N, T ; \
	VSUBPS    T, R, R       /* r −= n·ln2Lo */ ; \
	VMULPS    C0, R, P ; \
	VADDPS    C1, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C2, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C3, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C4, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C5, P, P      /* P(r), Horner */ ; \
	VMULPS    R, R, T ; \
	VMULPS    T, P, P       /* P(r)·r² */ ; \
	VADDPS    R, P, P ; \
	VADDPS    ONE, P, P     /* e^r */ ; \
	VCVTPS2DQ N, N          /* n, exact */ ; \
	VPSRAD    $1, N, T      /* a = n>>1 */ ; \
	VPSUBD    T, N, N       /* b = n − a; both in −75..64 */ ; \
	VPADDD    BIAS, T, T ; \
	VPSLLD    $23, T, T     /* 2^a */ ; \
	VPADDD    BIAS, N, N ; \
	VPSLLD    $23, N, N     /* 2^b */ ; \
	VMULPS    T, P, P       /* exact: a normal result */ ; \
	VMULPS    N, P, P       /* the one rounding of p·2^n */ ; \
	VCMPPS    $0x1e, MAXARG, V, T /* v > maxArg (GT_OQ) */ ; \
	VBLENDVPS T, POSINF, P, P ; \
	VCMPPS    $0x11, MINARG, V, T /* v < minArg (LT_OQ) */ ; \
	VANDNPS   P, T, P ; \
	VCMPPS    $0x03, V, V, T /* NaN */ ; \
	VBLENDVPS T, V, P, P

#define ES_SUB Y15
#define ES_ACC0 Y14
#define ES_ACC1 Y13

// func ExpSumAVX2(dst, x []float32, sub float32) float32
TEXT ·ExpSumAVX2(SB), NOSPLIT, $32-60
	MOVQ         dst_base+0(FP), B_PTR
	MOVQ         x_base+24(FP), A_PTR
	MOVQ         x_len+32(FP), N
	VBROADCASTSS sub+48(FP), ES_SUB
	VXORPS       ES_ACC0, ES_ACC0, ES_ACC0
	VXORPS       ES_ACC1, ES_ACC1, ES_ACC1
	CMPQ         N, $16
	JB           expsumavx2_by8

	PCALIGN $32

expsumavx2_loop16:
	VMOVUPS (A_PTR), Y0
	VMOVUPS 32(A_PTR), Y6
	VSUBPS  ES_SUB, Y0, Y0
	VSUBPS  ES_SUB, Y6, Y6
	EXP8(Y0, Y1, Y2, Y3, Y4)
	EXP8(Y6, Y7, Y8, Y9, Y10)
	VMOVUPS Y2, (B_PTR)
	VMOVUPS Y8, 32(B_PTR)
	VADDPS  Y2, ES_ACC0, ES_ACC0
	VADDPS  Y8, ES_ACC1, ES_ACC1
	ADDQ    $64, A_PTR
	ADDQ    $64, B_PTR
	SUBQ    $16, N
	CMPQ    N, $16
	JAE     expsumavx2_loop16

expsumavx2_by8:
	CMPQ    N, $8
	JB      expsumavx2_tail
	VMOVUPS (A_PTR), Y0
	VSUBPS  ES_SUB, Y0, Y0
	EXP8(Y0, Y1, Y2, Y3, Y4)
	VMOVUPS Y2, (B_PTR)
	VADDPS  Y2, ES_ACC0, ES_ACC0
	ADDQ    $32, A_PTR
	ADDQ    $32, B_PTR
	SUBQ    $8, N

expsumavx2_tail:
	// The last N < 8 values go through the same vector code from a
	// zeroed stack buffer; the lanes past N are masked out of the sum and
	// not copied back.
	TESTQ   N, N
	JZ      expsumavx2_reduce
	VXORPS  Y0, Y0, Y0
	VMOVUPS Y0, 0(SP)
	XORQ    TMP, TMP

expsumavx2_tailin:
	MOVL    (A_PTR)(TMP*4), DX
	MOVL    DX, 0(SP)(TMP*4)
	INCQ    TMP
	CMPQ    TMP, N
	JB      expsumavx2_tailin
	VMOVUPS 0(SP), Y0
	VSUBPS  ES_SUB, Y0, Y0
	EXP8(Y0, Y1, Y2, Y3, Y4)
	LEAQ    ·f32Tab<>+544(SB), DX
	MOVQ    N, TMP
	SHLQ    $2, TMP
	SUBQ    TMP, DX             // the mask row shifted so that lanes < N are on
	VANDPS  (DX), Y2, Y2
	VADDPS  Y2, ES_ACC0, ES_ACC0
	VMOVUPS Y2, 0(SP)
	XORQ    TMP, TMP

expsumavx2_tailout:
	MOVL 0(SP)(TMP*4), DX
	MOVL DX, (B_PTR)(TMP*4)
	INCQ TMP
	CMPQ TMP, N
	JB   expsumavx2_tailout

expsumavx2_reduce:
	VADDPS       ES_ACC1, ES_ACC0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VMOVSS       X0, ret+56(FP)
	VZEROUPPER
	RET

// EXP16 is EXP8 for 16 lanes (R, N, T scratch); ZHALF must hold 0.5 in
// every lane, and K2 is scratch. n = floor(t + 0.5) comes from an add rounded down, which never
// crosses an integer; VSCALEFPS scales with one rounding.
#define EXP16(V, R, P, N, T, ZHALF) \
	VMAXPS.BCST     MINARG, V, R ; \
	VMINPS.BCST     MAXARG, R, R ; \
	VMULPS.BCST     LOG2E, R, P   /* t */ ; \
	VADDPS.RD_SAE   ZHALF, P, P   /* t + 0.5, rounded down */ ; \
	VRNDSCALEPS     $1, P, N      /* n = floor(t + 0.5) */ ; \
	VMULPS.BCST     LN2HI, N, P ; \
	VSUBPS          P, R, R ; \
	VMULPS.BCST     LN2LO, N, P ; \
	VSUBPS          P, R, R       /* r */ ; \
	VBROADCASTSS    C0, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C1, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C2, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C3, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C4, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C5, P, P ; \
	VMULPS          R, R, T ; \
	VMULPS          T, P, P       /* P(r)·r² */ ; \
	VADDPS          R, P, P ; \
	VADDPS.BCST     ONE, P, P ; \
	VSCALEFPS       N, P, P       /* p·2^n, one rounding */ ; \
	VCMPPS.BCST     $0x1e, MAXARG, V, K2 ; \
	VBROADCASTSS    POSINF, K2, P ; \
	VCMPPS.BCST     $0x11, MINARG, V, K2 ; \
	VPXORD          P, P, K2, P ; \
	VCMPPS          $0x03, V, V, K2 ; \
	VMOVAPS         V, K2, P

#define ES5_SUB Z15
#define ES5_HALF Z14
#define ES5_ACC0 Z13
#define ES5_ACC1 Z12

// func ExpSumAVX512(dst, x []float32, sub float32) float32
TEXT ·ExpSumAVX512(SB), NOSPLIT, $0-60
	MOVQ         dst_base+0(FP), B_PTR
	MOVQ         x_base+24(FP), A_PTR
	MOVQ         x_len+32(FP), N
	VBROADCASTSS sub+48(FP), ES5_SUB
	VBROADCASTSS HALF, ES5_HALF
	VPXORD       ES5_ACC0, ES5_ACC0, ES5_ACC0
	VPXORD       ES5_ACC1, ES5_ACC1, ES5_ACC1
	CMPQ         N, $32
	JB           expsumavx512_by16

	PCALIGN $32

expsumavx512_loop32:
	VMOVUPS (A_PTR), Z0
	VMOVUPS 64(A_PTR), Z4
	VSUBPS  ES5_SUB, Z0, Z0
	VSUBPS  ES5_SUB, Z4, Z4
	EXP16(Z0, Z1, Z2, Z3, Z8, ES5_HALF)
	EXP16(Z4, Z5, Z6, Z7, Z9, ES5_HALF)
	VMOVUPS Z2, (B_PTR)
	VMOVUPS Z6, 64(B_PTR)
	VADDPS  Z2, ES5_ACC0, ES5_ACC0
	VADDPS  Z6, ES5_ACC1, ES5_ACC1
	ADDQ    $128, A_PTR
	ADDQ    $128, B_PTR
	SUBQ    $32, N
	CMPQ    N, $32
	JAE     expsumavx512_loop32

expsumavx512_by16:
	CMPQ    N, $16
	JB      expsumavx512_tail
	VMOVUPS (A_PTR), Z0
	VSUBPS  ES5_SUB, Z0, Z0
	EXP16(Z0, Z1, Z2, Z3, Z8, ES5_HALF)
	VMOVUPS Z2, (B_PTR)
	VADDPS  Z2, ES5_ACC0, ES5_ACC0
	ADDQ    $64, A_PTR
	ADDQ    $64, B_PTR
	SUBQ    $16, N

expsumavx512_tail:
	TESTQ     N, N
	JZ        expsumavx512_reduce
	MOVL      $1, TMP
	SHLL      CX, TMP
	DECL      TMP
	KMOVW     TMP, K1
	VMOVUPS.Z (A_PTR), K1, Z0
	VSUBPS    ES5_SUB, Z0, Z0
	EXP16(Z0, Z1, Z2, Z3, Z8, ES5_HALF)
	VMOVUPS   Z2, K1, (B_PTR)
	VADDPS    Z2, ES5_ACC1, K1, ES5_ACC1

expsumavx512_reduce:
	VADDPS        ES5_ACC1, ES5_ACC0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS        X1, X0, X0
	VMOVHLPS      X0, X0, X1
	VADDPS        X1, X0, X0
	VMOVSHDUP     X0, X1
	VADDSS        X1, X0, X0
	VMOVSS        X0, ret+56(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func SoftmaxColsAVX512(st *float32, rs int, lim *int32, scale float32, n int)
//
// ExactSoftmaxAVX512 (attn_amd64.s) with Exp32 (EXP16 above) for the
// exponential: per group of 16 lanes (rows), three passes over the n keys:
// scaled scores, −Inf from lim[r] on, their max (VMAXPS with the new score
// first, as the twin's strict >) and whether any is not −Inf; e =
// Exp32(s − max) and the sum in key order; e / sum, or 0 past lim[r] and
// in rows without a key. Twin: softmaxColsGeneric.
#define SC_ST DI
#define SC_RS4 R8 // rs·4
#define SC_LIM SI
#define SC_N R9
#define SC_G R10  // lane group byte offset
#define SC_P R11  // walks st down the keys
#define SC_J R12  // keys left
#define SC_HALF Z20
#define SC_ZERO Z21
#define SC_SCALE Z24
#define SC_NEGINF Z25
#define SC_SUM Z26
#define SC_ONEI Z27 // int32 1
#define SC_JV Z28   // int32 j
#define SC_MAX Z29
#define SC_LIMV Z30 // int32 lim[r]
// K5: rows with a key that is not −Inf (live).

TEXT ·SoftmaxColsAVX512(SB), NOSPLIT, $0-40
	MOVQ         st+0(FP), SC_ST
	MOVQ         rs+8(FP), SC_RS4
	SHLQ         $2, SC_RS4
	MOVQ         lim+16(FP), SC_LIM
	VBROADCASTSS scale+24(FP), SC_SCALE
	MOVQ         n+32(FP), SC_N
	TESTQ        SC_N, SC_N
	JZ           softmaxcols_done
	VBROADCASTSS HALF, SC_HALF
	VBROADCASTSS NEGINF, SC_NEGINF
	VPXORD       SC_ZERO, SC_ZERO, SC_ZERO
	MOVL         $1, AX
	VPBROADCASTD AX, SC_ONEI
	XORQ         SC_G, SC_G

softmaxcols_group:
	VMOVDQU32 (SC_LIM)(SC_G*1), SC_LIMV
	VPXORD    SC_JV, SC_JV, SC_JV
	VMOVAPS   SC_NEGINF, SC_MAX
	KXORW     K5, K5, K5
	LEAQ      (SC_ST)(SC_G*1), SC_P
	MOVQ      SC_N, SC_J

softmaxcols_scores:
	VMOVUPS   (SC_P), Z0
	VMULPS    SC_SCALE, Z0, Z0           // s·scale
	VPCMPGTD  SC_JV, SC_LIMV, K1         // j < lim[r]
	VBLENDMPS Z0, SC_NEGINF, K1, Z0      // else −Inf
	VMOVUPS   Z0, (SC_P)
	VMAXPS    SC_MAX, Z0, SC_MAX         // s > max ? s : max
	VCMPPS    $4, SC_NEGINF, Z0, K6      // s != −Inf (NaN too)
	KORW      K6, K5, K5
	VPADDD    SC_ONEI, SC_JV, SC_JV
	ADDQ      SC_RS4, SC_P
	DECQ      SC_J
	JNZ       softmaxcols_scores

	VBLENDMPS SC_MAX, SC_ZERO, K5, SC_MAX // rows without a key: 0, to stay finite
	VPXORD    SC_SUM, SC_SUM, SC_SUM
	LEAQ      (SC_ST)(SC_G*1), SC_P
	MOVQ      SC_N, SC_J

	PCALIGN $32

softmaxcols_exp:
	VMOVUPS (SC_P), Z0
	VSUBPS  SC_MAX, Z0, Z0               // s − max
	EXP16(Z0, Z1, Z2, Z3, Z4, SC_HALF)
	VMOVUPS Z2, (SC_P)
	VADDPS  Z2, SC_SUM, SC_SUM           // sum += e, in key order
	ADDQ    SC_RS4, SC_P
	DECQ    SC_J
	JNZ     softmaxcols_exp

	VPXORD SC_JV, SC_JV, SC_JV
	LEAQ   (SC_ST)(SC_G*1), SC_P
	MOVQ   SC_N, SC_J

softmaxcols_div:
	VMOVUPS   (SC_P), Z0
	VDIVPS    SC_SUM, Z0, Z0             // e / sum
	VPCMPGTD  SC_JV, SC_LIMV, K1
	KANDW     K5, K1, K1
	VBLENDMPS Z0, SC_ZERO, K1, Z0        // 0 past lim[r] and in rows without a key
	VMOVUPS   Z0, (SC_P)
	VPADDD    SC_ONEI, SC_JV, SC_JV
	ADDQ      SC_RS4, SC_P
	DECQ      SC_J
	JNZ       softmaxcols_div

	ADDQ $64, SC_G
	CMPQ SC_G, SC_RS4
	JB   softmaxcols_group

softmaxcols_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func SoftmaxColsAVX2(st *float32, rs int, lim *int32, scale float32, n int)
//
// SoftmaxColsAVX512 on 8 lanes, with comparisons and blends for its mask
// registers. rs is a multiple of 8, n ≥ 1. Twin: softmaxColsGeneric.
#define SY_SCALE Y5
#define SY_NEGINF Y6
#define SY_SUM Y7
#define SY_ONEI Y8  // int32 1
#define SY_JV Y9    // int32 j
#define SY_MAX Y10
#define SY_LIMV Y11 // int32 lim[r]
#define SY_LIVE Y12 // rows with a key that is not −Inf
#define SY_ZERO Y13
#define SY_M Y14    // j < lim[r]

TEXT ·SoftmaxColsAVX2(SB), NOSPLIT, $0-40
	MOVQ         st+0(FP), SC_ST
	MOVQ         rs+8(FP), SC_RS4
	SHLQ         $2, SC_RS4
	MOVQ         lim+16(FP), SC_LIM
	VBROADCASTSS scale+24(FP), SY_SCALE
	MOVQ         n+32(FP), SC_N
	TESTQ        SC_N, SC_N
	JZ           softmaxcolsavx2_done
	VBROADCASTSS NEGINF, SY_NEGINF
	VXORPS       SY_ZERO, SY_ZERO, SY_ZERO
	MOVL         $1, AX
	MOVQ         AX, X8
	VPBROADCASTD X8, SY_ONEI
	XORQ         SC_G, SC_G

softmaxcolsavx2_group:
	VMOVDQU   (SC_LIM)(SC_G*1), SY_LIMV
	VPXOR     SY_JV, SY_JV, SY_JV
	VMOVAPS   SY_NEGINF, SY_MAX
	VXORPS    SY_LIVE, SY_LIVE, SY_LIVE
	LEAQ      (SC_ST)(SC_G*1), SC_P
	MOVQ      SC_N, SC_J

softmaxcolsavx2_scores:
	VMULPS    (SC_P), SY_SCALE, Y0        // s·scale
	VPCMPGTD  SY_JV, SY_LIMV, SY_M        // j < lim[r]
	VBLENDVPS SY_M, Y0, SY_NEGINF, Y0     // else −Inf
	VMOVUPS   Y0, (SC_P)
	VMAXPS    SY_MAX, Y0, SY_MAX          // s > max ? s : max
	VCMPPS    $4, SY_NEGINF, Y0, Y1       // s != −Inf (NaN too)
	VORPS     Y1, SY_LIVE, SY_LIVE
	VPADDD    SY_ONEI, SY_JV, SY_JV
	ADDQ      SC_RS4, SC_P
	DECQ      SC_J
	JNZ       softmaxcolsavx2_scores

	VBLENDVPS SY_LIVE, SY_MAX, SY_ZERO, SY_MAX // rows without a key: 0, to stay finite
	VXORPS    SY_SUM, SY_SUM, SY_SUM
	LEAQ      (SC_ST)(SC_G*1), SC_P
	MOVQ      SC_N, SC_J

	PCALIGN $32

softmaxcolsavx2_exp:
	VMOVUPS (SC_P), Y0
	VSUBPS  SY_MAX, Y0, Y0              // s − max
	EXP8(Y0, Y1, Y2, Y3, Y4)
	VMOVUPS Y2, (SC_P)
	VADDPS  Y2, SY_SUM, SY_SUM          // sum += e, in key order
	ADDQ    SC_RS4, SC_P
	DECQ    SC_J
	JNZ     softmaxcolsavx2_exp

	VPXOR SY_JV, SY_JV, SY_JV
	LEAQ  (SC_ST)(SC_G*1), SC_P
	MOVQ  SC_N, SC_J

softmaxcolsavx2_div:
	VMOVUPS   (SC_P), Y0
	VDIVPS    SY_SUM, Y0, Y0            // e / sum
	VPCMPGTD  SY_JV, SY_LIMV, SY_M
	VANDPS    SY_LIVE, SY_M, SY_M
	VANDPS    SY_M, Y0, Y0              // 0 past lim[r] and in rows without a key
	VMOVUPS   Y0, (SC_P)
	VPADDD    SY_ONEI, SY_JV, SY_JV
	ADDQ      SC_RS4, SC_P
	DECQ      SC_J
	JNZ       softmaxcolsavx2_div

	ADDQ $32, SC_G
	CMPQ SC_G, SC_RS4
	JB   softmaxcolsavx2_group

softmaxcolsavx2_done:
	VZEROUPPER
	RET
