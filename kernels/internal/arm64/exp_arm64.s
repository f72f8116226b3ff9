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
// Vector registers (dot_arm64.h describes the naming).
#define XIN V0 // x = v − sub
#define xin 0
#define nf 1 // n (float)
#define r 2 // r
#define PE V3 // p, then e
#define pe 3
#define rr 4 // r·r
#define NI V5 // n, then e1 (int32)
#define ni 5
#define AA V6 // a (int32)
#define aa 6
#define MSK V7 // compare masks
#define msk 7
#define ZERO V8 // 0
#define SUM V13 // the lane sums
#define sum 13
#define BIAS V14 // sub in every lane
#define bias 14
#define ONE32 V15 // int32 1
#define LOG2E V16 // log2e
#define log2e 16
#define HALF V17 // 0.5
#define half 17
#define LN2HI V18 // ln2Hi
#define ln2hi 18
#define LN2LO V19 // ln2Lo
#define ln2lo 19
#define C0 V20 // c0..c5
#define c0 20
#define C1 V21
#define c1 21
#define C2 V22
#define c2 22
#define C3 V23
#define c3 23
#define C4 V24
#define c4 24
#define C5 V25
#define c5 25
#define ONE V26 // 1.0
#define one 26
#define MAXARG V27 // maxArg
#define maxarg 27
#define MINARG V28 // minArg
#define minarg 28
#define INF V29 // +Inf
#define M126 V30 // int32 −126
#define m126 30
#define I127 V31 // int32 127
#define i127 31

// Requires: ASIMD
TEXT ·ExpSumNEON(SB), NOSPLIT, $0-60
	MOVD dst_base+0(FP), DST
	MOVD x_base+24(FP), X
	MOVD x_len+32(FP), N
	LSR  $2, N
	FMOVS sub+48(FP), F(bias)
	VDUP BIAS.S[0], BIAS.S4
	MOVW $0x3fb8aa3b, R3 // log2e
	VDUP R3, LOG2E.S4
	MOVW $0x3f000000, R3 // 0.5
	VDUP R3, HALF.S4
	MOVW $0x3f318000, R3 // ln2Hi
	VDUP R3, LN2HI.S4
	MOVW $0xb95e8083, R3 // ln2Lo
	VDUP R3, LN2LO.S4
	MOVW $0x39506967, R3 // c0
	VDUP R3, C0.S4
	MOVW $0x3ab743ce, R3 // c1
	VDUP R3, C1.S4
	MOVW $0x3c088908, R3 // c2
	VDUP R3, C2.S4
	MOVW $0x3d2aa9c1, R3 // c3
	VDUP R3, C3.S4
	MOVW $0x3e2aaaaa, R3 // c4
	VDUP R3, C4.S4
	MOVW $0x3f000000, R3 // c5
	VDUP R3, C5.S4
	MOVW $0x3f800000, R3 // 1.0
	VDUP R3, ONE.S4
	MOVW $0x42b17218, R3 // maxArg
	VDUP R3, MAXARG.S4
	MOVW $0xc2cff1b5, R3 // minArg
	VDUP R3, MINARG.S4
	MOVW $0x7f800000, R3 // +Inf
	VDUP R3, INF.S4
	MOVW $-126, R3 // int32 -126
	VDUP R3, M126.S4
	MOVW $0x0000007f, R3 // int32 127
	VDUP R3, I127.S4
	MOVW $0x00000001, R3 // int32 1
	VDUP R3, ONE32.S4
	VEOR ZERO.B16, ZERO.B16, ZERO.B16
	VEOR SUM.B16, SUM.B16, SUM.B16
	CBZ  N, ExpSumNEON_done
	PCALIGN $32
ExpSumNEON_loop:
	VLD1.P 16(X), [XIN.S4]
	FSUB4S(bias, xin, xin) // x = v − sub
	FMUL4S(log2e, xin, nf) // x·log2e
	FADD4S(half, nf, nf) // + 0.5
	FRINTM4S(nf, nf) // n
	FMUL4S(ln2hi, nf, r) // n·ln2Hi
	FSUB4S(r, xin, r) // r = x − n·ln2Hi
	FMUL4S(ln2lo, nf, pe) // n·ln2Lo
	FSUB4S(pe, r, r) // r = r − n·ln2Lo
	FMUL4S(r, c0, pe) // p = c0·r
	FADD4S(c1, pe, pe) // + c1
	FMUL4S(r, pe, pe) // p·r
	FADD4S(c2, pe, pe) // + c2
	FMUL4S(r, pe, pe) // p·r
	FADD4S(c3, pe, pe) // + c3
	FMUL4S(r, pe, pe) // p·r
	FADD4S(c4, pe, pe) // + c4
	FMUL4S(r, pe, pe) // p·r
	FADD4S(c5, pe, pe) // + c5
	FMUL4S(r, r, rr) // r·r
	FMUL4S(rr, pe, pe) // p·(r·r)
	FADD4S(r, pe, pe) // p + r
	FADD4S(one, pe, pe) // + 1
	// ldexp32(p, n) = (p·2^e1)·2^a
	FCVTZS4S(nf, ni) // n as int32 (exact)
	CMGT4S(ni, m126, aa) // n < −126
	CMGT4S(i127, ni, msk) // n > 127
	VAND  M126.B16, AA.B16, AA.B16
	VAND  ONE32.B16, MSK.B16, MSK.B16
	VORR  MSK.B16, AA.B16, AA.B16 // a
	VSUB  AA.S4, NI.S4, NI.S4 // e1 = n − a
	VADD  I127.S4, NI.S4, NI.S4
	VADD  I127.S4, AA.S4, AA.S4
	VSHL  $23, NI.S4, NI.S4 // 2^e1
	VSHL  $23, AA.S4, AA.S4 // 2^a
	FMUL4S(ni, pe, pe)
	FMUL4S(aa, pe, pe)
	// the edges, in Exp32's order: NaN, > maxArg, < minArg
	FCMGT4S(maxarg, xin, msk) // x > maxArg
	VBIT  MSK.B16, INF.B16, PE.B16 // +Inf
	FCMGT4S(xin, minarg, msk) // minArg > x
	VBIT  MSK.B16, ZERO.B16, PE.B16 // 0
	FCMEQ4S(xin, xin, msk) // x is not NaN
	VBIF  MSK.B16, XIN.B16, PE.B16 // NaN: x
	VST1.P [PE.S4], 16(DST)
	FADD4S(pe, sum, sum)
	SUBS $1, N
	BNE  ExpSumNEON_loop
ExpSumNEON_done:
	// ((l0+l2) + (l1+l3))
	VEXT  $8, SUM.B16, SUM.B16, XIN.B16
	FADD4S(xin, sum, sum)
	FADDP2S(sum, sum)
	FMOVS F(sum), ret+56(FP)
	RET
