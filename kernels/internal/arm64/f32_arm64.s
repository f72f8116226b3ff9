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

// func DotF32NEON(a, b []float32) float32
// 16 lanes a step in four 4-lane FMA accumulators, then 4 lanes, then a
// scalar FMA tail; the accumulators are combined as (V0+V1)+(V2+V3) and
// reduced as ((l0+l2)+(l1+l3)), and the tail sum is added last.
// Requires: ASIMD
TEXT ·DotF32NEON(SB), NOSPLIT, $0-52
	MOVD a_base+0(FP), R0
	MOVD a_len+8(FP), R2
	MOVD b_base+24(FP), R1
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	FMOVS ZR, F4 // the scalar tail's sum
	CMP  $16, R2
	BLT  DotF32NEON_four
	PCALIGN $32
DotF32NEON_sixteen:
	VLD1.P 64(R0), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1.P 64(R1), [V20.S4, V21.S4, V22.S4, V23.S4]
	VFMLA V20.S4, V16.S4, V0.S4
	VFMLA V21.S4, V17.S4, V1.S4
	VFMLA V22.S4, V18.S4, V2.S4
	VFMLA V23.S4, V19.S4, V3.S4
	SUB  $16, R2
	CMP  $16, R2
	BGE  DotF32NEON_sixteen
DotF32NEON_four:
	CMP  $4, R2
	BLT  DotF32NEON_one
	VLD1.P 16(R0), [V16.S4]
	VLD1.P 16(R1), [V20.S4]
	VFMLA V20.S4, V16.S4, V0.S4
	SUB  $4, R2
	B    DotF32NEON_four
DotF32NEON_one:
	CBZ  R2, DotF32NEON_reduce
	FMOVS.P 4(R0), F16
	FMOVS.P 4(R1), F20
	FMADDS F20, F4, F16, F4 // F4 += a·b
	SUB  $1, R2
	B    DotF32NEON_one
DotF32NEON_reduce:
	FADD4S(1, 0, 0) // fadd v0.4s, v0.4s, v1.4s
	FADD4S(3, 2, 2) // fadd v2.4s, v2.4s, v3.4s
	FADD4S(2, 0, 0) // fadd v0.4s, v0.4s, v2.4s
	VEXT  $8, V0.B16, V0.B16, V1.B16
	FADD4S(1, 0, 0) // fadd v0.4s, v0.4s, v1.4s
	FADDP2S(0, 0) // faddp s0, v0.2s
	FADDS F4, F0, F0
	FMOVS F0, ret+48(FP)
	RET

// func AxpyNEON(alpha float32, x, y []float32)
// y[i] = fma(alpha, x[i], y[i]) for i < len(x).
// Requires: ASIMD
TEXT ·AxpyNEON(SB), NOSPLIT, $0-56
	FMOVS alpha+0(FP), F0
	MOVD x_base+8(FP), R0
	MOVD x_len+16(FP), R2
	MOVD y_base+32(FP), R1
	VDUP V0.S[0], V0.S4
	CMP  $16, R2
	BLT  AxpyNEON_four
	PCALIGN $32
AxpyNEON_sixteen:
	VLD1.P 64(R0), [V16.S4, V17.S4, V18.S4, V19.S4]
	VLD1 (R1), [V20.S4, V21.S4, V22.S4, V23.S4]
	VFMLA V16.S4, V0.S4, V20.S4
	VFMLA V17.S4, V0.S4, V21.S4
	VFMLA V18.S4, V0.S4, V22.S4
	VFMLA V19.S4, V0.S4, V23.S4
	VST1.P [V20.S4, V21.S4, V22.S4, V23.S4], 64(R1)
	SUB  $16, R2
	CMP  $16, R2
	BGE  AxpyNEON_sixteen
AxpyNEON_four:
	CMP  $4, R2
	BLT  AxpyNEON_one
	VLD1.P 16(R0), [V16.S4]
	VLD1 (R1), [V20.S4]
	VFMLA V16.S4, V0.S4, V20.S4
	VST1.P [V20.S4], 16(R1)
	SUB  $4, R2
	B    AxpyNEON_four
AxpyNEON_one:
	CBZ  R2, AxpyNEON_done
	FMOVS.P 4(R0), F16
	FMOVS (R1), F20
	FMADDS F16, F20, F0, F20 // y += alpha·x
	FMOVS.P F20, 4(R1)
	SUB  $1, R2
	B    AxpyNEON_one
AxpyNEON_done:
	RET

// func ScaleNEON(alpha float32, x []float32)
// x[i] *= alpha: one rounding per element, as the twin.
// Requires: ASIMD
TEXT ·ScaleNEON(SB), NOSPLIT, $0-32
	FMOVS alpha+0(FP), F0
	MOVD x_base+8(FP), R0
	MOVD x_len+16(FP), R2
	CMP  $16, R2
	BLT  ScaleNEON_four
	PCALIGN $32
ScaleNEON_sixteen:
	VLD1 (R0), [V16.S4, V17.S4, V18.S4, V19.S4]
	FMUL4SE(0, 0, 16, 16) // fmul v16.4s, v16.4s, v0.s[0]
	FMUL4SE(0, 0, 17, 17) // fmul v17.4s, v17.4s, v0.s[0]
	FMUL4SE(0, 0, 18, 18) // fmul v18.4s, v18.4s, v0.s[0]
	FMUL4SE(0, 0, 19, 19) // fmul v19.4s, v19.4s, v0.s[0]
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R0)
	SUB  $16, R2
	CMP  $16, R2
	BGE  ScaleNEON_sixteen
ScaleNEON_four:
	CMP  $4, R2
	BLT  ScaleNEON_one
	VLD1 (R0), [V16.S4]
	FMUL4SE(0, 0, 16, 16) // fmul v16.4s, v16.4s, v0.s[0]
	VST1.P [V16.S4], 16(R0)
	SUB  $4, R2
	B    ScaleNEON_four
ScaleNEON_one:
	CBZ  R2, ScaleNEON_done
	FMOVS (R0), F16
	FMULS F0, F16, F16
	FMOVS.P F16, 4(R0)
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
	VDUP R3, V0.S4
	VDUP R3, V1.S4
	VDUP R3, V2.S4
	VDUP R3, V3.S4
	CMP  $16, R2
	BLT  MaxNEON_four
	PCALIGN $32
MaxNEON_sixteen:
	VLD1.P 64(R0), [V16.S4, V17.S4, V18.S4, V19.S4]
	FMAX4S(16, 0, 0) // fmax v0.4s, v0.4s, v16.4s
	FMAX4S(17, 1, 1) // fmax v1.4s, v1.4s, v17.4s
	FMAX4S(18, 2, 2) // fmax v2.4s, v2.4s, v18.4s
	FMAX4S(19, 3, 3) // fmax v3.4s, v3.4s, v19.4s
	SUB  $16, R2
	CMP  $16, R2
	BGE  MaxNEON_sixteen
MaxNEON_four:
	CMP  $4, R2
	BLT  MaxNEON_reduce
	VLD1.P 16(R0), [V16.S4]
	FMAX4S(16, 0, 0) // fmax v0.4s, v0.4s, v16.4s
	SUB  $4, R2
	B    MaxNEON_four
MaxNEON_reduce:
	FMAX4S(1, 0, 0) // fmax v0.4s, v0.4s, v1.4s
	FMAX4S(3, 2, 2) // fmax v2.4s, v2.4s, v3.4s
	FMAX4S(2, 0, 0) // fmax v0.4s, v0.4s, v2.4s
	FMAXV4S(0, 0) // fmaxv s0, v0.4s
MaxNEON_one:
	CBZ  R2, MaxNEON_done
	FMOVS.P 4(R0), F16
	FMAXS F16, F0, F0
	SUB  $1, R2
	B    MaxNEON_one
MaxNEON_done:
	FMOVS F0, ret+24(FP)
	RET
