//go:build !purego

#include "textflag.h"
#include "asimd_arm64.h"

// func ExpSumNEON(dst, x []float32, sub float32) float32
//
// For i < len(x) &^ 3: dst[i] = Exp32(x[i] − sub), and the result is the
// sum of those dst values. Go twin: expSumGeneric in package kernels; every
// dst[i] has the bits of Exp32 (f32.go), whose steps this follows lane by
// lane, each a separate float32 operation (no FMA):
//
//	x ← v − sub
//	n ← floor(float32(x·log2e) + 0.5)          (frintm of the float32 sum)
//	r ← (x − n·ln2Hi) − n·ln2Lo
//	p ← c0; p ← p·r + c_k (k = 1..5); p ← p·(r·r); p ← (p + r) + 1
//	e ← (p·2^e1)·2^a                            (ldexp32)
//
// where a = −126 if n < −126, 1 if n > 127, else 0, and e1 = n − a: the two
// steps of ldexp32 (a product by 2^0 = 1 is exact). Then e ← +Inf where
// x > maxArg, 0 where x < minArg, and x where x is NaN. !!! The sum is
// reassociated (four lanes, then a fixed reduction), and the last
// len(x) mod 4 elements are left to the caller (kernels does them with
// Exp32 itself), so nothing past the whole 4-lane groups is read or written.
// Requires ASIMD.

// Register table.
#define DST R0
#define X R1
#define N R2 // groups of four left
// V0 x;  V1 n;  V2 r;  V3 p, then e;  V4 r·r;  V5 n, e1 (int32);  V6 a;
// V7 masks;  V8 zero;  V13 the lane sums;  V14 sub;  V15 int32 1;
// V16 log2e, V17 0.5, V18 ln2Hi, V19 ln2Lo, V20..V25 c0..c5, V26 1.0,
// V27 maxArg, V28 minArg, V29 +Inf, V30 int32 −126, V31 int32 127.

// Requires: ASIMD
TEXT ·ExpSumNEON(SB), NOSPLIT, $0-60
	MOVD dst_base+0(FP), DST
	MOVD x_base+24(FP), X
	MOVD x_len+32(FP), N
	LSR  $2, N
	FMOVS sub+48(FP), F14
	VDUP V14.S[0], V14.S4
	MOVW $0x3fb8aa3b, R3 // log2e
	VDUP R3, V16.S4
	MOVW $0x3f000000, R3 // 0.5
	VDUP R3, V17.S4
	MOVW $0x3f318000, R3 // ln2Hi
	VDUP R3, V18.S4
	MOVW $0xb95e8083, R3 // ln2Lo
	VDUP R3, V19.S4
	MOVW $0x39506967, R3 // c0
	VDUP R3, V20.S4
	MOVW $0x3ab743ce, R3 // c1
	VDUP R3, V21.S4
	MOVW $0x3c088908, R3 // c2
	VDUP R3, V22.S4
	MOVW $0x3d2aa9c1, R3 // c3
	VDUP R3, V23.S4
	MOVW $0x3e2aaaaa, R3 // c4
	VDUP R3, V24.S4
	MOVW $0x3f000000, R3 // c5
	VDUP R3, V25.S4
	MOVW $0x3f800000, R3 // 1.0
	VDUP R3, V26.S4
	MOVW $0x42b17218, R3 // maxArg
	VDUP R3, V27.S4
	MOVW $0xc2cff1b5, R3 // minArg
	VDUP R3, V28.S4
	MOVW $0x7f800000, R3 // +Inf
	VDUP R3, V29.S4
	MOVW $-126, R3 // int32 -126
	VDUP R3, V30.S4
	MOVW $0x0000007f, R3 // int32 127
	VDUP R3, V31.S4
	MOVW $0x00000001, R3 // int32 1
	VDUP R3, V15.S4
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V13.B16, V13.B16, V13.B16
	CBZ  N, ExpSumNEON_done
	PCALIGN $32
ExpSumNEON_loop:
	VLD1.P 16(X), [V0.S4]
	FSUB4S(14, 0, 0) // fsub v0.4s, v0.4s, v14.4s // x = v − sub
	FMUL4S(16, 0, 1) // fmul v1.4s, v0.4s, v16.4s // x·log2e
	FADD4S(17, 1, 1) // fadd v1.4s, v1.4s, v17.4s // + 0.5
	FRINTM4S(1, 1) // frintm v1.4s, v1.4s // n
	FMUL4S(18, 1, 2) // fmul v2.4s, v1.4s, v18.4s // n·ln2Hi
	FSUB4S(2, 0, 2) // fsub v2.4s, v0.4s, v2.4s // r = x − n·ln2Hi
	FMUL4S(19, 1, 3) // fmul v3.4s, v1.4s, v19.4s // n·ln2Lo
	FSUB4S(3, 2, 2) // fsub v2.4s, v2.4s, v3.4s // r = r − n·ln2Lo
	FMUL4S(2, 20, 3) // fmul v3.4s, v20.4s, v2.4s // p = c0·r
	FADD4S(21, 3, 3) // fadd v3.4s, v3.4s, v21.4s // + c1
	FMUL4S(2, 3, 3) // fmul v3.4s, v3.4s, v2.4s // p·r
	FADD4S(22, 3, 3) // fadd v3.4s, v3.4s, v22.4s // + c2
	FMUL4S(2, 3, 3) // fmul v3.4s, v3.4s, v2.4s // p·r
	FADD4S(23, 3, 3) // fadd v3.4s, v3.4s, v23.4s // + c3
	FMUL4S(2, 3, 3) // fmul v3.4s, v3.4s, v2.4s // p·r
	FADD4S(24, 3, 3) // fadd v3.4s, v3.4s, v24.4s // + c4
	FMUL4S(2, 3, 3) // fmul v3.4s, v3.4s, v2.4s // p·r
	FADD4S(25, 3, 3) // fadd v3.4s, v3.4s, v25.4s // + c5
	FMUL4S(2, 2, 4) // fmul v4.4s, v2.4s, v2.4s // r·r
	FMUL4S(4, 3, 3) // fmul v3.4s, v3.4s, v4.4s // p·(r·r)
	FADD4S(2, 3, 3) // fadd v3.4s, v3.4s, v2.4s // p + r
	FADD4S(26, 3, 3) // fadd v3.4s, v3.4s, v26.4s // + 1
	// ldexp32(p, n) = (p·2^e1)·2^a
	FCVTZS4S(1, 5) // fcvtzs v5.4s, v1.4s // n as int32 (exact)
	CMGT4S(5, 30, 6) // cmgt v6.4s, v30.4s, v5.4s // n < −126
	CMGT4S(31, 5, 7) // cmgt v7.4s, v5.4s, v31.4s // n > 127
	VAND  V30.B16, V6.B16, V6.B16
	VAND  V15.B16, V7.B16, V7.B16
	VORR  V7.B16, V6.B16, V6.B16 // a
	VSUB  V6.S4, V5.S4, V5.S4 // e1 = n − a
	VADD  V31.S4, V5.S4, V5.S4
	VADD  V31.S4, V6.S4, V6.S4
	VSHL  $23, V5.S4, V5.S4 // 2^e1
	VSHL  $23, V6.S4, V6.S4 // 2^a
	FMUL4S(5, 3, 3) // fmul v3.4s, v3.4s, v5.4s
	FMUL4S(6, 3, 3) // fmul v3.4s, v3.4s, v6.4s
	// the edges, in Exp32's order: NaN, > maxArg, < minArg
	FCMGT4S(27, 0, 7) // fcmgt v7.4s, v0.4s, v27.4s // x > maxArg
	VBIT  V7.B16, V29.B16, V3.B16 // +Inf
	FCMGT4S(0, 28, 7) // fcmgt v7.4s, v28.4s, v0.4s // minArg > x
	VBIT  V7.B16, V8.B16, V3.B16 // 0
	FCMEQ4S(0, 0, 7) // fcmeq v7.4s, v0.4s, v0.4s // x is not NaN
	VBIF  V7.B16, V0.B16, V3.B16 // NaN: x
	VST1.P [V3.S4], 16(DST)
	FADD4S(3, 13, 13) // fadd v13.4s, v13.4s, v3.4s
	SUBS $1, N
	BNE  ExpSumNEON_loop
ExpSumNEON_done:
	// ((l0+l2) + (l1+l3))
	VEXT  $8, V13.B16, V13.B16, V0.B16
	FADD4S(0, 13, 13) // fadd v13.4s, v13.4s, v0.4s
	FADDP2S(13, 13) // faddp s13, v13.2s
	FMOVS F13, ret+56(FP)
	RET
