//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"

// Q6_K · Q8_K dot products, whole rows per call:
//
//	func DotQ6KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ6KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb super-blocks.
// Both follow dotQ6KGeneric in package kernels, whose float order is the
// package doc's contract. Per super-block, with signed group scales sc_g
// (16 values a group) and q = (low 4 bits | high 2 bits << 4) − 32:
//
//	A[l]  = Σ_g sc_g · Σ_{i in group g, lane l} q_i·y_i          (exact int32)
//	dd ← f16(d)·D ;  acc[l] ← acc[l] + dd·float32(A[l])
//
// with a separate FMUL and FADD, and the row's result is hsum(acc). In each
// 32-value group, values 0..15 (scale sc_2k of the half) feed lanes 0..3,
// values 16..31 (sc_2k+1) lanes 4..7. hsum as in q4k_arm64.s.
//
// DotQ6KSDOT requires ASIMD and FEAT_DotProd (sdot). DotQ6KNEON requires
// ASIMD only: !!! it forms each group of four products with smull/smull2,
// addp (16-bit pairs: |q|·|y| ≤ 32·128) and saddlp (to 32 bits).

// Register table.
#define DST R0 // *float32, advanced one element per row
#define W R1 // weight cursor: the current block of the current row
#define X R2 // the activation row
#define ROWS R3 // rows left
#define NB R4 // blocks per row
#define XP R5 // activation cursor: the current block
#define N R6 // blocks left in this row
#define WQ R7 // weight quant cursor within the block
#define XQ R8 // activation quant cursor within the block
#define WH R10 // high-bits cursor within the block
// V0..V3   ql of a half (64 bytes);  V4, V5 qh of a half (32 bytes)
// V6, V7   activation quants of a 32-value group
// V8, V9   q of the group (values 0..15, 16..31);  V10, V11 lane sums
// V12, V13 A[0..3], A[4..7];  V14, V15 NEON temporaries
// V16, V17 acc lo, hi
// V20      0x0F;  V23 0x30;  V24 32 (every byte)
// V25      dd (lane 0);  V26 D (lane 0)
// V28..V31 the 16 scales as int32, four a register

// func DotQ6KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ6KSDOT(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), DST
	MOVD w+8(FP), W
	MOVD x+16(FP), X
	MOVD rows+24(FP), ROWS
	MOVD nb+32(FP), NB
	VMOVI $15, V20.B16 // low-nibble mask
	VMOVI $48, V23.B16 // the two high bits, in place
	VMOVI $32, V24.B16 // the offset of q
	CBZ  ROWS, DotQ6KSDOT_done

DotQ6KSDOT_row:
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	MOVD X, XP
	MOVD NB, N
	CBZ  N, DotQ6KSDOT_reduce

	PCALIGN $32
DotQ6KSDOT_blocks:
	// the 16 signed scales as int32: V28 sc0..3, V29 sc4..7, V30 sc8..11, V31 sc12..15
	ADD   $blockQ6K_scales, W, R9
	VLD1  (R9), [V21.B16]
	SXTL28H(21, 22) // sxtl2 v22.8h, v21.16b
	SXTL8H(21, 21) // sxtl v21.8h, v21.8b
	SXTL24S(21, 29) // sxtl2 v29.4s, v21.8h
	SXTL4S(21, 28) // sxtl v28.4s, v21.4h
	SXTL24S(22, 31) // sxtl2 v31.4s, v22.8h
	SXTL4S(22, 30) // sxtl v30.4s, v22.4h
	// dd = f16(d)·D
	MOVHU blockQ6K_d(W), R9
	FMOVS blockQ8K_d(XP), F26
	FMOVS R9, F25
	FCVTHS F25, F25
	FMULS F26, F25, F25
	ADD   $blockQ6K_ql, W, WQ
	ADD   $blockQ6K_qh, W, WH
	ADD   $blockQ8K_qs, XP, XQ
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	// half 0: values 0..127
	VLD1.P 64(WQ), [V0.B16, V1.B16, V2.B16, V3.B16] // ql
	VLD1.P 32(WH), [V4.B16, V5.B16] // qh
	// group 0: values 0..31, scales sc0 (lanes 0..3), sc1 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V0.B16, V8.B16
	VAND  V20.B16, V1.B16, V9.B16
	VSHL  $4, V4.B16, V10.B16
	VSHL  $4, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(28, 0, 10, 12) // mla v12.4s, v10.4s, v28.s[0]
	MLA4SE(28, 1, 11, 13) // mla v13.4s, v11.4s, v28.s[1]
	// group 1: values 32..63, scales sc2 (lanes 0..3), sc3 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V2.B16, V8.B16
	VAND  V20.B16, V3.B16, V9.B16
	VSHL  $2, V4.B16, V10.B16
	VSHL  $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(28, 2, 10, 12) // mla v12.4s, v10.4s, v28.s[2]
	MLA4SE(28, 3, 11, 13) // mla v13.4s, v11.4s, v28.s[3]
	// group 2: values 64..95, scales sc4 (lanes 0..3), sc5 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V0.B16, V8.B16
	VUSHR $4, V1.B16, V9.B16
	VAND  V23.B16, V4.B16, V10.B16
	VAND  V23.B16, V5.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(29, 0, 10, 12) // mla v12.4s, v10.4s, v29.s[0]
	MLA4SE(29, 1, 11, 13) // mla v13.4s, v11.4s, v29.s[1]
	// group 3: values 96..127, scales sc6 (lanes 0..3), sc7 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V2.B16, V8.B16
	VUSHR $4, V3.B16, V9.B16
	VUSHR $2, V4.B16, V10.B16
	VUSHR $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(29, 2, 10, 12) // mla v12.4s, v10.4s, v29.s[2]
	MLA4SE(29, 3, 11, 13) // mla v13.4s, v11.4s, v29.s[3]
	// half 1: values 128..255
	VLD1.P 64(WQ), [V0.B16, V1.B16, V2.B16, V3.B16] // ql
	VLD1.P 32(WH), [V4.B16, V5.B16] // qh
	// group 0: values 128..159, scales sc8 (lanes 0..3), sc9 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V0.B16, V8.B16
	VAND  V20.B16, V1.B16, V9.B16
	VSHL  $4, V4.B16, V10.B16
	VSHL  $4, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(30, 0, 10, 12) // mla v12.4s, v10.4s, v30.s[0]
	MLA4SE(30, 1, 11, 13) // mla v13.4s, v11.4s, v30.s[1]
	// group 1: values 160..191, scales sc10 (lanes 0..3), sc11 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V2.B16, V8.B16
	VAND  V20.B16, V3.B16, V9.B16
	VSHL  $2, V4.B16, V10.B16
	VSHL  $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(30, 2, 10, 12) // mla v12.4s, v10.4s, v30.s[2]
	MLA4SE(30, 3, 11, 13) // mla v13.4s, v11.4s, v30.s[3]
	// group 2: values 192..223, scales sc12 (lanes 0..3), sc13 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V0.B16, V8.B16
	VUSHR $4, V1.B16, V9.B16
	VAND  V23.B16, V4.B16, V10.B16
	VAND  V23.B16, V5.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(31, 0, 10, 12) // mla v12.4s, v10.4s, v31.s[0]
	MLA4SE(31, 1, 11, 13) // mla v13.4s, v11.4s, v31.s[1]
	// group 3: values 224..255, scales sc14 (lanes 0..3), sc15 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V2.B16, V8.B16
	VUSHR $4, V3.B16, V9.B16
	VUSHR $2, V4.B16, V10.B16
	VUSHR $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(6, 8, 10) // sdot v10.4s, v8.16b, v6.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(7, 9, 11) // sdot v11.4s, v9.16b, v7.16b
	MLA4SE(31, 2, 10, 12) // mla v12.4s, v10.4s, v31.s[2]
	MLA4SE(31, 3, 11, 13) // mla v13.4s, v11.4s, v31.s[3]
	// acc ← acc + dd·float32(A)
	SCVTF4S(12, 12) // scvtf v12.4s, v12.4s
	SCVTF4S(13, 13) // scvtf v13.4s, v13.4s
	FMUL4SE(25, 0, 12, 12) // fmul v12.4s, v12.4s, v25.s[0]
	FMUL4SE(25, 0, 13, 13) // fmul v13.4s, v13.4s, v25.s[0]
	FADD4S(12, 16, 16) // fadd v16.4s, v16.4s, v12.4s
	FADD4S(13, 17, 17) // fadd v17.4s, v17.4s, v13.4s
	ADD   $blockQ6K__size, W
	ADD   $blockQ8K__size, XP
	SUBS  $1, N
	BNE   DotQ6KSDOT_blocks

DotQ6KSDOT_reduce:
	// hsum(acc)
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // t = lo + hi
	VEXT  $8, V16.B16, V16.B16, V17.B16 // t[2], t[3], t[0], t[1]
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(16, 16) // faddp s16, v16.2s // u0 + u1
	FMOVS F16, (DST)
	ADD   $4, DST
	SUBS  $1, ROWS
	BNE   DotQ6KSDOT_row

DotQ6KSDOT_done:
	RET

// func DotQ6KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ6KNEON(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), DST
	MOVD w+8(FP), W
	MOVD x+16(FP), X
	MOVD rows+24(FP), ROWS
	MOVD nb+32(FP), NB
	VMOVI $15, V20.B16 // low-nibble mask
	VMOVI $48, V23.B16 // the two high bits, in place
	VMOVI $32, V24.B16 // the offset of q
	CBZ  ROWS, DotQ6KNEON_done

DotQ6KNEON_row:
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	MOVD X, XP
	MOVD NB, N
	CBZ  N, DotQ6KNEON_reduce

	PCALIGN $32
DotQ6KNEON_blocks:
	// the 16 signed scales as int32: V28 sc0..3, V29 sc4..7, V30 sc8..11, V31 sc12..15
	ADD   $blockQ6K_scales, W, R9
	VLD1  (R9), [V21.B16]
	SXTL28H(21, 22) // sxtl2 v22.8h, v21.16b
	SXTL8H(21, 21) // sxtl v21.8h, v21.8b
	SXTL24S(21, 29) // sxtl2 v29.4s, v21.8h
	SXTL4S(21, 28) // sxtl v28.4s, v21.4h
	SXTL24S(22, 31) // sxtl2 v31.4s, v22.8h
	SXTL4S(22, 30) // sxtl v30.4s, v22.4h
	// dd = f16(d)·D
	MOVHU blockQ6K_d(W), R9
	FMOVS blockQ8K_d(XP), F26
	FMOVS R9, F25
	FCVTHS F25, F25
	FMULS F26, F25, F25
	ADD   $blockQ6K_ql, W, WQ
	ADD   $blockQ6K_qh, W, WH
	ADD   $blockQ8K_qs, XP, XQ
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	// half 0: values 0..127
	VLD1.P 64(WQ), [V0.B16, V1.B16, V2.B16, V3.B16] // ql
	VLD1.P 32(WH), [V4.B16, V5.B16] // qh
	// group 0: values 0..31, scales sc0 (lanes 0..3), sc1 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V0.B16, V8.B16
	VAND  V20.B16, V1.B16, V9.B16
	VSHL  $4, V4.B16, V10.B16
	VSHL  $4, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(28, 0, 10, 12) // mla v12.4s, v10.4s, v28.s[0]
	MLA4SE(28, 1, 11, 13) // mla v13.4s, v11.4s, v28.s[1]
	// group 1: values 32..63, scales sc2 (lanes 0..3), sc3 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V2.B16, V8.B16
	VAND  V20.B16, V3.B16, V9.B16
	VSHL  $2, V4.B16, V10.B16
	VSHL  $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(28, 2, 10, 12) // mla v12.4s, v10.4s, v28.s[2]
	MLA4SE(28, 3, 11, 13) // mla v13.4s, v11.4s, v28.s[3]
	// group 2: values 64..95, scales sc4 (lanes 0..3), sc5 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V0.B16, V8.B16
	VUSHR $4, V1.B16, V9.B16
	VAND  V23.B16, V4.B16, V10.B16
	VAND  V23.B16, V5.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(29, 0, 10, 12) // mla v12.4s, v10.4s, v29.s[0]
	MLA4SE(29, 1, 11, 13) // mla v13.4s, v11.4s, v29.s[1]
	// group 3: values 96..127, scales sc6 (lanes 0..3), sc7 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V2.B16, V8.B16
	VUSHR $4, V3.B16, V9.B16
	VUSHR $2, V4.B16, V10.B16
	VUSHR $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(29, 2, 10, 12) // mla v12.4s, v10.4s, v29.s[2]
	MLA4SE(29, 3, 11, 13) // mla v13.4s, v11.4s, v29.s[3]
	// half 1: values 128..255
	VLD1.P 64(WQ), [V0.B16, V1.B16, V2.B16, V3.B16] // ql
	VLD1.P 32(WH), [V4.B16, V5.B16] // qh
	// group 0: values 128..159, scales sc8 (lanes 0..3), sc9 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V0.B16, V8.B16
	VAND  V20.B16, V1.B16, V9.B16
	VSHL  $4, V4.B16, V10.B16
	VSHL  $4, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(30, 0, 10, 12) // mla v12.4s, v10.4s, v30.s[0]
	MLA4SE(30, 1, 11, 13) // mla v13.4s, v11.4s, v30.s[1]
	// group 1: values 160..191, scales sc10 (lanes 0..3), sc11 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VAND  V20.B16, V2.B16, V8.B16
	VAND  V20.B16, V3.B16, V9.B16
	VSHL  $2, V4.B16, V10.B16
	VSHL  $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(30, 2, 10, 12) // mla v12.4s, v10.4s, v30.s[2]
	MLA4SE(30, 3, 11, 13) // mla v13.4s, v11.4s, v30.s[3]
	// group 2: values 192..223, scales sc12 (lanes 0..3), sc13 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V0.B16, V8.B16
	VUSHR $4, V1.B16, V9.B16
	VAND  V23.B16, V4.B16, V10.B16
	VAND  V23.B16, V5.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(31, 0, 10, 12) // mla v12.4s, v10.4s, v31.s[0]
	MLA4SE(31, 1, 11, 13) // mla v13.4s, v11.4s, v31.s[1]
	// group 3: values 224..255, scales sc14 (lanes 0..3), sc15 (lanes 4..7)
	VLD1.P 32(XQ), [V6.B16, V7.B16]
	VUSHR $4, V2.B16, V8.B16
	VUSHR $4, V3.B16, V9.B16
	VUSHR $2, V4.B16, V10.B16
	VUSHR $2, V5.B16, V11.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V10.B16, V8.B16, V8.B16
	VORR  V11.B16, V9.B16, V9.B16
	VSUB  V24.B16, V8.B16, V8.B16 // q − 32
	VSUB  V24.B16, V9.B16, V9.B16
	SMULL(6, 8, 10) // smull v10.8h, v8.8b, v6.8b
	SMULL2(6, 8, 14) // smull2 v14.8h, v8.16b, v6.16b
	VADDP V14.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(7, 9, 11) // smull v11.8h, v9.8b, v7.8b
	SMULL2(7, 9, 15) // smull2 v15.8h, v9.16b, v7.16b
	VADDP V15.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	MLA4SE(31, 2, 10, 12) // mla v12.4s, v10.4s, v31.s[2]
	MLA4SE(31, 3, 11, 13) // mla v13.4s, v11.4s, v31.s[3]
	// acc ← acc + dd·float32(A)
	SCVTF4S(12, 12) // scvtf v12.4s, v12.4s
	SCVTF4S(13, 13) // scvtf v13.4s, v13.4s
	FMUL4SE(25, 0, 12, 12) // fmul v12.4s, v12.4s, v25.s[0]
	FMUL4SE(25, 0, 13, 13) // fmul v13.4s, v13.4s, v25.s[0]
	FADD4S(12, 16, 16) // fadd v16.4s, v16.4s, v12.4s
	FADD4S(13, 17, 17) // fadd v17.4s, v17.4s, v13.4s
	ADD   $blockQ6K__size, W
	ADD   $blockQ8K__size, XP
	SUBS  $1, N
	BNE   DotQ6KNEON_blocks

DotQ6KNEON_reduce:
	// hsum(acc)
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // t = lo + hi
	VEXT  $8, V16.B16, V16.B16, V17.B16 // t[2], t[3], t[0], t[1]
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(16, 16) // faddp s16, v16.2s // u0 + u1
	FMOVS F16, (DST)
	ADD   $4, DST
	SUBS  $1, ROWS
	BNE   DotQ6KNEON_row

DotQ6KNEON_done:
	RET
