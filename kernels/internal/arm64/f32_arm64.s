//go:build !purego

#include "textflag.h"
#include "asimd_arm64.h"

// Float32 kernels (ASIMD; the neon and dotprod variants share them). Each
// reads and writes exactly the elements its contract names: 16 lanes per
// iteration, then 4, then one at a time, never a wider access. Go twins:
// the generic kernels in package kernels (f32.go).
//
// !!! DotF32NEON and AxpyNEON fuse (fmla, fmadd); the generic twins round
// the products. Both are tolerance-tested (kernels.TestF32Tolerance).
// ScaleNEON and MaxNEON give the twins' results exactly.

// Vector registers (dot_arm64.h describes the naming).
#define ACC0 V0 // DotF32NEON: four 4-lane accumulators; Axpy: alpha; Max: maxima
#define acc0 0
#define ACC1 V1
#define acc1 1
#define ACC2 V2
#define acc2 2
#define ACC3 V3
#define acc3 3
#define tail 4 // DotF32NEON: the scalar tail's sum
#define A0 V16 // 16 lanes of a (or x)
#define a0 16
#define A1 V17
#define a1 17
#define A2 V18
#define a2 18
#define A3 V19
#define a3 19
#define B0 V20 // 16 lanes of b (or y)
#define b0 20
#define B1 V21
#define b1 21
#define B2 V22
#define b2 22
#define B3 V23
#define b3 23

// func DotF32NEON(a, b []float32) float32
// 16 lanes a step in four 4-lane FMA accumulators, then 4 lanes, then a
// scalar FMA tail; the accumulators are combined as (ACC0+ACC1)+(ACC2+ACC3) and
// reduced as ((l0+l2)+(l1+l3)), and the tail sum is added last.
// Requires: ASIMD
TEXT ·DotF32NEON(SB), NOSPLIT, $0-52
	MOVD a_base+0(FP), R0
	MOVD a_len+8(FP), R2
	MOVD b_base+24(FP), R1
	VEOR ACC0.B16, ACC0.B16, ACC0.B16
	VEOR ACC1.B16, ACC1.B16, ACC1.B16
	VEOR ACC2.B16, ACC2.B16, ACC2.B16
	VEOR ACC3.B16, ACC3.B16, ACC3.B16
	FMOVS ZR, F(tail)
	CMP  $16, R2
	BLT  DotF32NEON_four
	PCALIGN $32
DotF32NEON_sixteen:
	VLD1.P 64(R0), [A0.S4, A1.S4, A2.S4, A3.S4]
	VLD1.P 64(R1), [B0.S4, B1.S4, B2.S4, B3.S4]
	VFMLA B0.S4, A0.S4, ACC0.S4
	VFMLA B1.S4, A1.S4, ACC1.S4
	VFMLA B2.S4, A2.S4, ACC2.S4
	VFMLA B3.S4, A3.S4, ACC3.S4
	SUB  $16, R2
	CMP  $16, R2
	BGE  DotF32NEON_sixteen
DotF32NEON_four:
	CMP  $4, R2
	BLT  DotF32NEON_one
	VLD1.P 16(R0), [A0.S4]
	VLD1.P 16(R1), [B0.S4]
	VFMLA B0.S4, A0.S4, ACC0.S4
	SUB  $4, R2
	B    DotF32NEON_four
DotF32NEON_one:
	CBZ  R2, DotF32NEON_reduce
	FMOVS.P 4(R0), F(a0)
	FMOVS.P 4(R1), F(b0)
	FMADDS F(b0), F(tail), F(a0), F(tail) // tail += a·b
	SUB  $1, R2
	B    DotF32NEON_one
DotF32NEON_reduce:
	FADD4S(acc1, acc0, acc0)
	FADD4S(acc3, acc2, acc2)
	FADD4S(acc2, acc0, acc0)
	VEXT  $8, ACC0.B16, ACC0.B16, ACC1.B16
	FADD4S(acc1, acc0, acc0)
	FADDP2S(acc0, acc0)
	FADDS F(tail), F(acc0), F(acc0)
	FMOVS F(acc0), ret+48(FP)
	RET

// func DotF16NEON(a []float32, b *uint16) float32
// DotF32NEON with b binary16, widened exactly as it is read (fcvtl,
// fcvtl2; FCVTHS for the scalar tail): the same steps, accumulators and
// reduction, so the same bits as DotF32NEON on the widened b.
// Requires: ASIMD
#define H0 V24 // 16 binary16 lanes of b
#define h0 24
#define H1 V25
#define h1 25
TEXT ·DotF16NEON(SB), NOSPLIT, $0-36
	MOVD a_base+0(FP), R0
	MOVD a_len+8(FP), R2
	MOVD b+24(FP), R1
	VEOR ACC0.B16, ACC0.B16, ACC0.B16
	VEOR ACC1.B16, ACC1.B16, ACC1.B16
	VEOR ACC2.B16, ACC2.B16, ACC2.B16
	VEOR ACC3.B16, ACC3.B16, ACC3.B16
	FMOVS ZR, F(tail)
	CMP  $16, R2
	BLT  DotF16NEON_four
	PCALIGN $32
DotF16NEON_sixteen:
	VLD1.P 64(R0), [A0.S4, A1.S4, A2.S4, A3.S4]
	VLD1.P 32(R1), [H0.H8, H1.H8]
	FCVTL4S(h0, b0)
	FCVTL24S(h0, b1)
	FCVTL4S(h1, b2)
	FCVTL24S(h1, b3)
	VFMLA B0.S4, A0.S4, ACC0.S4
	VFMLA B1.S4, A1.S4, ACC1.S4
	VFMLA B2.S4, A2.S4, ACC2.S4
	VFMLA B3.S4, A3.S4, ACC3.S4
	SUB  $16, R2
	CMP  $16, R2
	BGE  DotF16NEON_sixteen
DotF16NEON_four:
	CMP  $4, R2
	BLT  DotF16NEON_one
	VLD1.P 16(R0), [A0.S4]
	VLD1.P 8(R1), [H0.H4]
	FCVTL4S(h0, b0)
	VFMLA B0.S4, A0.S4, ACC0.S4
	SUB  $4, R2
	B    DotF16NEON_four
DotF16NEON_one:
	CBZ  R2, DotF16NEON_reduce
	FMOVS.P 4(R0), F(a0)
	MOVHU.P 2(R1), R3
	FMOVS R3, F(b0)
	FCVTHS F(b0), F(b0)                   // binary16 → float32
	FMADDS F(b0), F(tail), F(a0), F(tail) // tail += a·b
	SUB  $1, R2
	B    DotF16NEON_one
DotF16NEON_reduce:
	FADD4S(acc1, acc0, acc0)
	FADD4S(acc3, acc2, acc2)
	FADD4S(acc2, acc0, acc0)
	VEXT  $8, ACC0.B16, ACC0.B16, ACC1.B16
	FADD4S(acc1, acc0, acc0)
	FADDP2S(acc0, acc0)
	FADDS F(tail), F(acc0), F(acc0)
	FMOVS F(acc0), ret+32(FP)
	RET

// func AxpyNEON(alpha float32, x, y []float32)
// y[i] = fma(alpha, x[i], y[i]) for i < len(x).
// Requires: ASIMD
TEXT ·AxpyNEON(SB), NOSPLIT, $0-56
	FMOVS alpha+0(FP), F(acc0)
	MOVD x_base+8(FP), R0
	MOVD x_len+16(FP), R2
	MOVD y_base+32(FP), R1
	VDUP ACC0.S[0], ACC0.S4
	CMP  $16, R2
	BLT  AxpyNEON_four
	PCALIGN $32
AxpyNEON_sixteen:
	VLD1.P 64(R0), [A0.S4, A1.S4, A2.S4, A3.S4]
	VLD1 (R1), [B0.S4, B1.S4, B2.S4, B3.S4]
	VFMLA A0.S4, ACC0.S4, B0.S4
	VFMLA A1.S4, ACC0.S4, B1.S4
	VFMLA A2.S4, ACC0.S4, B2.S4
	VFMLA A3.S4, ACC0.S4, B3.S4
	VST1.P [B0.S4, B1.S4, B2.S4, B3.S4], 64(R1)
	SUB  $16, R2
	CMP  $16, R2
	BGE  AxpyNEON_sixteen
AxpyNEON_four:
	CMP  $4, R2
	BLT  AxpyNEON_one
	VLD1.P 16(R0), [A0.S4]
	VLD1 (R1), [B0.S4]
	VFMLA A0.S4, ACC0.S4, B0.S4
	VST1.P [B0.S4], 16(R1)
	SUB  $4, R2
	B    AxpyNEON_four
AxpyNEON_one:
	CBZ  R2, AxpyNEON_done
	FMOVS.P 4(R0), F(a0)
	FMOVS (R1), F(b0)
	FMADDS F(a0), F(b0), F(acc0), F(b0) // y += alpha·x
	FMOVS.P F(b0), 4(R1)
	SUB  $1, R2
	B    AxpyNEON_one
AxpyNEON_done:
	RET

// func ScaleNEON(alpha float32, x []float32)
// x[i] *= alpha: one rounding per element, as the twin.
// Requires: ASIMD
TEXT ·ScaleNEON(SB), NOSPLIT, $0-32
	FMOVS alpha+0(FP), F(acc0)
	MOVD x_base+8(FP), R0
	MOVD x_len+16(FP), R2
	CMP  $16, R2
	BLT  ScaleNEON_four
	PCALIGN $32
ScaleNEON_sixteen:
	VLD1 (R0), [A0.S4, A1.S4, A2.S4, A3.S4]
	FMUL4SE(acc0, 0, a0, a0)
	FMUL4SE(acc0, 0, a1, a1)
	FMUL4SE(acc0, 0, a2, a2)
	FMUL4SE(acc0, 0, a3, a3)
	VST1.P [A0.S4, A1.S4, A2.S4, A3.S4], 64(R0)
	SUB  $16, R2
	CMP  $16, R2
	BGE  ScaleNEON_sixteen
ScaleNEON_four:
	CMP  $4, R2
	BLT  ScaleNEON_one
	VLD1 (R0), [A0.S4]
	FMUL4SE(acc0, 0, a0, a0)
	VST1.P [A0.S4], 16(R0)
	SUB  $4, R2
	B    ScaleNEON_four
ScaleNEON_one:
	CBZ  R2, ScaleNEON_done
	FMOVS (R0), F(a0)
	FMULS F(acc0), F(a0), F(a0)
	FMOVS.P F(a0), 4(R0)
	SUB  $1, R2
	B    ScaleNEON_one
ScaleNEON_done:
	RET

// func MaxNEON(x []float32) float32
// The largest element (−Inf for none); x holds no NaN.
// Requires: ASIMD
TEXT ·MaxNEON(SB), NOSPLIT, $0-28
	MOVD x_base+0(FP), R0
	MOVD x_len+8(FP), R2
	MOVW $0xff800000, R3 // −Inf
	VDUP R3, ACC0.S4
	VDUP R3, ACC1.S4
	VDUP R3, ACC2.S4
	VDUP R3, ACC3.S4
	CMP  $16, R2
	BLT  MaxNEON_four
	PCALIGN $32
MaxNEON_sixteen:
	VLD1.P 64(R0), [A0.S4, A1.S4, A2.S4, A3.S4]
	FMAX4S(a0, acc0, acc0)
	FMAX4S(a1, acc1, acc1)
	FMAX4S(a2, acc2, acc2)
	FMAX4S(a3, acc3, acc3)
	SUB  $16, R2
	CMP  $16, R2
	BGE  MaxNEON_sixteen
MaxNEON_four:
	CMP  $4, R2
	BLT  MaxNEON_reduce
	VLD1.P 16(R0), [A0.S4]
	FMAX4S(a0, acc0, acc0)
	SUB  $4, R2
	B    MaxNEON_four
MaxNEON_reduce:
	FMAX4S(acc1, acc0, acc0)
	FMAX4S(acc3, acc2, acc2)
	FMAX4S(acc2, acc0, acc0)
	FMAXV4S(acc0, acc0)
MaxNEON_one:
	CBZ  R2, MaxNEON_done
	FMOVS.P 4(R0), F(a0)
	FMAXS F(a0), F(acc0), F(acc0)
	SUB  $1, R2
	B    MaxNEON_one
MaxNEON_done:
	FMOVS F(acc0), ret+24(FP)
	RET
