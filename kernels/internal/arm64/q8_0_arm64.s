//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"

// Q8_0 · Q8_0 dot products, whole rows per call:
//
//	func DotQ8_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ8_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb blocks. Both
// follow dotQ8_0Generic in package kernels, whose float order is the package
// doc's contract: block b has its eight exact int32 lane sums
// A[l] = Σ_{i in lane l} w_i·x_i (lane l = i/4), then
//
//	dd ← f16(dw)·f16(dx) ;  acc_s[l] ← acc_s[l] + dd·float32(A[l])   (s = b mod 4)
//
// with a separate FMUL and FADD (never FMLA), and the row's result is
// hsum((acc_0 + acc_1) + (acc_2 + acc_3)). Lanes 0..3 of an accumulator set
// live in one register, lanes 4..7 in the next, so hsum(v) =
// ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)) is: t = lo + hi, u = t +
// t[2,3,0,1], faddp u0, u1.
//
// DotQ8_0SDOT requires ASIMD and FEAT_DotProd (sdot). DotQ8_0NEON requires
// ASIMD only: !!! it forms the lane sums with smull/smull2 (16-bit
// products), saddlp (pairs, to 32 bits) and addp (pairs of pairs), which is
// exact for every int8 pair, −128·−128 included.

// Register table.
#define DST R0 // *float32, advanced one element per row
#define W R1 // weight cursor: the next block of the current row
#define X R2 // the activation row
#define ROWS R3 // rows left
#define NB R4 // blocks per row
#define XP R5 // activation cursor
#define N R6 // blocks left in this row
// R7, R8   the two fp16 scales;  R9, R10 quant addresses
// V0, V1   weight quants (values 0..15, 16..31);  V2, V3 activation quants
// V4       dd in lane 0;  V5 f16(dx) in lane 0
// V6, V7   the block's lane sums A[0..3], A[4..7];  V8, V9 NEON temporaries
// V16..V23 acc_0 lo, acc_0 hi, acc_1 lo, acc_1 hi, ..., acc_3 hi

// func DotQ8_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ8_0SDOT(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), DST
	MOVD w+8(FP), W
	MOVD x+16(FP), X
	MOVD rows+24(FP), ROWS
	MOVD nb+32(FP), NB
	CBZ  ROWS, DotQ8_0SDOT_done

DotQ8_0SDOT_row:
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	MOVD X, XP
	MOVD NB, N
	CBZ  N, DotQ8_0SDOT_reduce

	PCALIGN $32
DotQ8_0SDOT_blocks:
	// block b ≡ 0 (mod 4): set 0
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	SDOT(2, 0, 6) // sdot v6.4s, v0.16b, v2.16b // A[0..3]
	SDOT(3, 1, 7) // sdot v7.4s, v1.16b, v3.16b // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 16, 16) // fadd v16.4s, v16.4s, v6.4s
	FADD4S(7, 17, 17) // fadd v17.4s, v17.4s, v7.4s
	SUBS $1, N
	BEQ  DotQ8_0SDOT_reduce

	// block b ≡ 1 (mod 4): set 1
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	SDOT(2, 0, 6) // sdot v6.4s, v0.16b, v2.16b // A[0..3]
	SDOT(3, 1, 7) // sdot v7.4s, v1.16b, v3.16b // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 18, 18) // fadd v18.4s, v18.4s, v6.4s
	FADD4S(7, 19, 19) // fadd v19.4s, v19.4s, v7.4s
	SUBS $1, N
	BEQ  DotQ8_0SDOT_reduce

	// block b ≡ 2 (mod 4): set 2
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	SDOT(2, 0, 6) // sdot v6.4s, v0.16b, v2.16b // A[0..3]
	SDOT(3, 1, 7) // sdot v7.4s, v1.16b, v3.16b // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 20, 20) // fadd v20.4s, v20.4s, v6.4s
	FADD4S(7, 21, 21) // fadd v21.4s, v21.4s, v7.4s
	SUBS $1, N
	BEQ  DotQ8_0SDOT_reduce

	// block b ≡ 3 (mod 4): set 3
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	SDOT(2, 0, 6) // sdot v6.4s, v0.16b, v2.16b // A[0..3]
	SDOT(3, 1, 7) // sdot v7.4s, v1.16b, v3.16b // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 22, 22) // fadd v22.4s, v22.4s, v6.4s
	FADD4S(7, 23, 23) // fadd v23.4s, v23.4s, v7.4s
	SUBS $1, N
	BNE  DotQ8_0SDOT_blocks

DotQ8_0SDOT_reduce:
	// lane-wise (acc_0 + acc_1) + (acc_2 + acc_3), then hsum
	FADD4S(18, 16, 16) // fadd v16.4s, v16.4s, v18.4s
	FADD4S(22, 20, 20) // fadd v20.4s, v20.4s, v22.4s
	FADD4S(20, 16, 16) // fadd v16.4s, v16.4s, v20.4s
	FADD4S(19, 17, 17) // fadd v17.4s, v17.4s, v19.4s
	FADD4S(23, 21, 21) // fadd v21.4s, v21.4s, v23.4s
	FADD4S(21, 17, 17) // fadd v17.4s, v17.4s, v21.4s
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // t = lo + hi
	VEXT  $8, V16.B16, V16.B16, V17.B16 // t[2], t[3], t[0], t[1]
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(16, 16) // faddp s16, v16.2s // u0 + u1
	FMOVS F16, (DST)
	ADD   $4, DST
	SUBS  $1, ROWS
	BNE   DotQ8_0SDOT_row

DotQ8_0SDOT_done:
	RET

// func DotQ8_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ8_0NEON(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), DST
	MOVD w+8(FP), W
	MOVD x+16(FP), X
	MOVD rows+24(FP), ROWS
	MOVD nb+32(FP), NB
	CBZ  ROWS, DotQ8_0NEON_done

DotQ8_0NEON_row:
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	MOVD X, XP
	MOVD NB, N
	CBZ  N, DotQ8_0NEON_reduce

	PCALIGN $32
DotQ8_0NEON_blocks:
	// block b ≡ 0 (mod 4): set 0
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	SMULL(2, 0, 6) // smull v6.8h, v0.8b, v2.8b
	SMULL2(2, 0, 7) // smull2 v7.8h, v0.16b, v2.16b
	SADDLP(6, 6) // saddlp v6.4s, v6.8h
	SADDLP(7, 7) // saddlp v7.4s, v7.8h
	VADDP V7.S4, V6.S4, V6.S4 // A[0..3]
	SMULL(3, 1, 8) // smull v8.8h, v1.8b, v3.8b
	SMULL2(3, 1, 9) // smull2 v9.8h, v1.16b, v3.16b
	SADDLP(8, 8) // saddlp v8.4s, v8.8h
	SADDLP(9, 9) // saddlp v9.4s, v9.8h
	VADDP V9.S4, V8.S4, V7.S4 // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 16, 16) // fadd v16.4s, v16.4s, v6.4s
	FADD4S(7, 17, 17) // fadd v17.4s, v17.4s, v7.4s
	SUBS $1, N
	BEQ  DotQ8_0NEON_reduce

	// block b ≡ 1 (mod 4): set 1
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	SMULL(2, 0, 6) // smull v6.8h, v0.8b, v2.8b
	SMULL2(2, 0, 7) // smull2 v7.8h, v0.16b, v2.16b
	SADDLP(6, 6) // saddlp v6.4s, v6.8h
	SADDLP(7, 7) // saddlp v7.4s, v7.8h
	VADDP V7.S4, V6.S4, V6.S4 // A[0..3]
	SMULL(3, 1, 8) // smull v8.8h, v1.8b, v3.8b
	SMULL2(3, 1, 9) // smull2 v9.8h, v1.16b, v3.16b
	SADDLP(8, 8) // saddlp v8.4s, v8.8h
	SADDLP(9, 9) // saddlp v9.4s, v9.8h
	VADDP V9.S4, V8.S4, V7.S4 // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 18, 18) // fadd v18.4s, v18.4s, v6.4s
	FADD4S(7, 19, 19) // fadd v19.4s, v19.4s, v7.4s
	SUBS $1, N
	BEQ  DotQ8_0NEON_reduce

	// block b ≡ 2 (mod 4): set 2
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	SMULL(2, 0, 6) // smull v6.8h, v0.8b, v2.8b
	SMULL2(2, 0, 7) // smull2 v7.8h, v0.16b, v2.16b
	SADDLP(6, 6) // saddlp v6.4s, v6.8h
	SADDLP(7, 7) // saddlp v7.4s, v7.8h
	VADDP V7.S4, V6.S4, V6.S4 // A[0..3]
	SMULL(3, 1, 8) // smull v8.8h, v1.8b, v3.8b
	SMULL2(3, 1, 9) // smull2 v9.8h, v1.16b, v3.16b
	SADDLP(8, 8) // saddlp v8.4s, v8.8h
	SADDLP(9, 9) // saddlp v9.4s, v9.8h
	VADDP V9.S4, V8.S4, V7.S4 // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 20, 20) // fadd v20.4s, v20.4s, v6.4s
	FADD4S(7, 21, 21) // fadd v21.4s, v21.4s, v7.4s
	SUBS $1, N
	BEQ  DotQ8_0NEON_reduce

	// block b ≡ 3 (mod 4): set 3
	MOVHU blockQ8_0_d(W), R7
	MOVHU blockQ8_0_d(XP), R8
	ADD   $blockQ8_0_qs, W, R9
	ADD   $blockQ8_0_qs, XP, R10
	VLD1  (R9), [V0.B16, V1.B16]
	VLD1  (R10), [V2.B16, V3.B16]
	FMOVS R7, F4
	FMOVS R8, F5
	FCVTHS F4, F4
	FCVTHS F5, F5
	FMULS F5, F4, F4 // dd = f16(dw)·f16(dx)
	ADD   $blockQ8_0__size, W
	ADD   $blockQ8_0__size, XP
	SMULL(2, 0, 6) // smull v6.8h, v0.8b, v2.8b
	SMULL2(2, 0, 7) // smull2 v7.8h, v0.16b, v2.16b
	SADDLP(6, 6) // saddlp v6.4s, v6.8h
	SADDLP(7, 7) // saddlp v7.4s, v7.8h
	VADDP V7.S4, V6.S4, V6.S4 // A[0..3]
	SMULL(3, 1, 8) // smull v8.8h, v1.8b, v3.8b
	SMULL2(3, 1, 9) // smull2 v9.8h, v1.16b, v3.16b
	SADDLP(8, 8) // saddlp v8.4s, v8.8h
	SADDLP(9, 9) // saddlp v9.4s, v9.8h
	VADDP V9.S4, V8.S4, V7.S4 // A[4..7]
	SCVTF4S(6, 6) // scvtf v6.4s, v6.4s
	SCVTF4S(7, 7) // scvtf v7.4s, v7.4s
	FMUL4SE(4, 0, 6, 6) // fmul v6.4s, v6.4s, v4.s[0]
	FMUL4SE(4, 0, 7, 7) // fmul v7.4s, v7.4s, v4.s[0]
	FADD4S(6, 22, 22) // fadd v22.4s, v22.4s, v6.4s
	FADD4S(7, 23, 23) // fadd v23.4s, v23.4s, v7.4s
	SUBS $1, N
	BNE  DotQ8_0NEON_blocks

DotQ8_0NEON_reduce:
	// lane-wise (acc_0 + acc_1) + (acc_2 + acc_3), then hsum
	FADD4S(18, 16, 16) // fadd v16.4s, v16.4s, v18.4s
	FADD4S(22, 20, 20) // fadd v20.4s, v20.4s, v22.4s
	FADD4S(20, 16, 16) // fadd v16.4s, v16.4s, v20.4s
	FADD4S(19, 17, 17) // fadd v17.4s, v17.4s, v19.4s
	FADD4S(23, 21, 21) // fadd v21.4s, v21.4s, v23.4s
	FADD4S(21, 17, 17) // fadd v17.4s, v17.4s, v21.4s
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // t = lo + hi
	VEXT  $8, V16.B16, V16.B16, V17.B16 // t[2], t[3], t[0], t[1]
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(16, 16) // faddp s16, v16.2s // u0 + u1
	FMOVS F16, (DST)
	ADD   $4, DST
	SUBS  $1, ROWS
	BNE   DotQ8_0NEON_row

DotQ8_0NEON_done:
	RET
