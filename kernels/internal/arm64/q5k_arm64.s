//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"

// Q5_K · Q8_K dot products, whole rows per call:
//
//	func DotQ5KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ5KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb super-blocks.
// Both follow dotQ5KGeneric in package kernels, whose float order is the
// package doc's contract. Per super-block, with sub-block scales sc_j and
// mins m_j:
//
//	A[l]  = Σ_j sc_j · Σ_{i in sub-block j, lane l} q_i·y_i      (exact int32)
//	M[j]  = m_j · (bsums[2j] + bsums[2j+1])                       (exact int32)
//	dd ← f16(d)·D ;  dm ← f16(dmin)·D
//	acc[l] ← acc[l] + dd·float32(A[l]) ;  accm[j] ← accm[j] + dm·float32(M[j])
//
// with a separate FMUL and FADD (never FMLA), and the row's result is
// hsum(acc) − hsum(accm). Lane l of a 32-value sub-block is (i mod 32)/4:
// quants 0..15 of a sub-block feed lanes 0..3 (one register), 16..31 lanes
// 4..7 (the next). hsum(v) = ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)) is:
// t = lo + hi, u = t + t[2,3,0,1], faddp u0, u1.
//
// DotQ5KSDOT requires ASIMD and FEAT_DotProd (sdot). DotQ5KNEON requires
// ASIMD only: !!! it forms each group of four products with smull/smull2
// (16-bit products), addp (pairs, still 16-bit: |q|·|y| ≤ 32·128) and
// saddlp (pairs of pairs, to 32 bits).

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
// V0, V1   quants of a 64-value chunk (qs[32c..32c+31]): high nibbles
// V2..V5   activation quants of the chunk
// V6, V7   low nibbles
// V8..V11  lane sums of the four products (NEON: also V21, V22)
// V12, V13 A[0..3], A[4..7]
// V14, V15 m0..3, m4..7 (int32);  V30, V31 sc0..3, sc4..7 (int32)
// V16, V17 acc lo, hi;  V18, V19 accm lo, hi
// V20      0x0F in every byte;  V21, V22 bsums
// V24, V25 dd, dm (lane 0);  V26 D (lane 0)
// V23      0x10 in every byte;  V27, V28 qh[0..15], qh[16..31], shifted
//          right by 2 after each chunk

// func DotQ5KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ5KSDOT(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), DST
	MOVD w+8(FP), W
	MOVD x+16(FP), X
	MOVD rows+24(FP), ROWS
	MOVD nb+32(FP), NB
	VMOVI $15, V20.B16 // low-nibble mask
	VMOVI $16, V23.B16 // the fifth bit, as a value
	CBZ  ROWS, DotQ5KSDOT_done

DotQ5KSDOT_row:
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	MOVD X, XP
	MOVD NB, N
	CBZ  N, DotQ5KSDOT_reduce

	PCALIGN $32
DotQ5KSDOT_blocks:
	// the 6-bit scales and mins (layout: quant.KScaleMin) as int32 lanes
	MOVWU blockQ5K_scales(W), R9 // u0: sc0..3 | hi bits of sc4..7
	MOVWU blockQ5K_scales+4(W), R10 // u1: m0..3 | hi bits of m4..7
	MOVWU blockQ5K_scales+8(W), R11 // u2: lo nibbles of sc4..7 | of m4..7
	ANDW  $0x3f3f3f3f, R9, R12 // sc0..3
	LSRW  $6, R9, R14
	ANDW  $0x03030303, R14, R14
	ANDW  $0x0f0f0f0f, R11, R13
	ORRW  R14<<4, R13, R13 // sc4..7
	ORR   R13<<32, R12, R12 // sc0..7, a byte each
	ANDW  $0x3f3f3f3f, R10, R13 // m0..3
	LSRW  $6, R10, R14
	ANDW  $0x03030303, R14, R14
	LSRW  $4, R11, R15
	ANDW  $0x0f0f0f0f, R15, R15
	ORRW  R14<<4, R15, R15 // m4..7
	ORR   R15<<32, R13, R13 // m0..7
	VMOV  R12, V30.D[0]
	VMOV  R13, V14.D[0]
	VUXTL V30.B8, V30.H8
	VUXTL V14.B8, V14.H8
	VUXTL2 V30.H8, V31.S4 // sc4..7
	VUXTL V30.H4, V30.S4 // sc0..3
	VUXTL2 V14.H8, V15.S4 // m4..7
	VUXTL V14.H4, V14.S4 // m0..3
	// dd = f16(d)·D, dm = f16(dmin)·D
	MOVHU blockQ5K_d(W), R9
	MOVHU blockQ5K_dmin(W), R10
	FMOVS blockQ8K_d(XP), F26
	FMOVS R9, F24
	FMOVS R10, F25
	FCVTHS F24, F24
	FCVTHS F25, F25
	FMULS F26, F24, F24
	FMULS F26, F25, F25
	ADD   $blockQ5K_qs, W, WQ
	ADD   $blockQ8K_qs, XP, XQ
	ADD   $blockQ5K_qh, W, R9
	VLD1  (R9), [V27.B16, V28.B16] // qh[0..15], qh[16..31]
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	// chunk 0: values 0..31 (sub-block 0, low nibbles) and 32..63 (sub-block 1, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 0 (low nibbles) or 1 (high) of qh[l] is set; V27, V28 hold qh >> 0
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	VEOR V8.B16, V8.B16, V8.B16
	SDOT(2, 6, 8) // sdot v8.4s, v6.16b, v2.16b
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(3, 7, 10) // sdot v10.4s, v7.16b, v3.16b
	VEOR V9.B16, V9.B16, V9.B16
	SDOT(4, 0, 9) // sdot v9.4s, v0.16b, v4.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(5, 1, 11) // sdot v11.4s, v1.16b, v5.16b
	// A ← A + sc_0·(lane sums) + sc_1·(lane sums)
	MLA4SE(30, 0, 8, 12) // mla v12.4s, v8.4s, v30.s[0]
	MLA4SE(30, 0, 10, 13) // mla v13.4s, v10.4s, v30.s[0]
	MLA4SE(30, 1, 9, 12) // mla v12.4s, v9.4s, v30.s[1]
	MLA4SE(30, 1, 11, 13) // mla v13.4s, v11.4s, v30.s[1]
	// chunk 1: values 64..95 (sub-block 2, low nibbles) and 96..127 (sub-block 3, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 2 (low nibbles) or 3 (high) of qh[l] is set; V27, V28 hold qh >> 2
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	VEOR V8.B16, V8.B16, V8.B16
	SDOT(2, 6, 8) // sdot v8.4s, v6.16b, v2.16b
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(3, 7, 10) // sdot v10.4s, v7.16b, v3.16b
	VEOR V9.B16, V9.B16, V9.B16
	SDOT(4, 0, 9) // sdot v9.4s, v0.16b, v4.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(5, 1, 11) // sdot v11.4s, v1.16b, v5.16b
	// A ← A + sc_2·(lane sums) + sc_3·(lane sums)
	MLA4SE(30, 2, 8, 12) // mla v12.4s, v8.4s, v30.s[2]
	MLA4SE(30, 2, 10, 13) // mla v13.4s, v10.4s, v30.s[2]
	MLA4SE(30, 3, 9, 12) // mla v12.4s, v9.4s, v30.s[3]
	MLA4SE(30, 3, 11, 13) // mla v13.4s, v11.4s, v30.s[3]
	// chunk 2: values 128..159 (sub-block 4, low nibbles) and 160..191 (sub-block 5, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 4 (low nibbles) or 5 (high) of qh[l] is set; V27, V28 hold qh >> 4
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	VEOR V8.B16, V8.B16, V8.B16
	SDOT(2, 6, 8) // sdot v8.4s, v6.16b, v2.16b
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(3, 7, 10) // sdot v10.4s, v7.16b, v3.16b
	VEOR V9.B16, V9.B16, V9.B16
	SDOT(4, 0, 9) // sdot v9.4s, v0.16b, v4.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(5, 1, 11) // sdot v11.4s, v1.16b, v5.16b
	// A ← A + sc_4·(lane sums) + sc_5·(lane sums)
	MLA4SE(31, 0, 8, 12) // mla v12.4s, v8.4s, v31.s[0]
	MLA4SE(31, 0, 10, 13) // mla v13.4s, v10.4s, v31.s[0]
	MLA4SE(31, 1, 9, 12) // mla v12.4s, v9.4s, v31.s[1]
	MLA4SE(31, 1, 11, 13) // mla v13.4s, v11.4s, v31.s[1]
	// chunk 3: values 192..223 (sub-block 6, low nibbles) and 224..255 (sub-block 7, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 6 (low nibbles) or 7 (high) of qh[l] is set; V27, V28 hold qh >> 6
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VEOR V8.B16, V8.B16, V8.B16
	SDOT(2, 6, 8) // sdot v8.4s, v6.16b, v2.16b
	VEOR V10.B16, V10.B16, V10.B16
	SDOT(3, 7, 10) // sdot v10.4s, v7.16b, v3.16b
	VEOR V9.B16, V9.B16, V9.B16
	SDOT(4, 0, 9) // sdot v9.4s, v0.16b, v4.16b
	VEOR V11.B16, V11.B16, V11.B16
	SDOT(5, 1, 11) // sdot v11.4s, v1.16b, v5.16b
	// A ← A + sc_6·(lane sums) + sc_7·(lane sums)
	MLA4SE(31, 2, 8, 12) // mla v12.4s, v8.4s, v31.s[2]
	MLA4SE(31, 2, 10, 13) // mla v13.4s, v10.4s, v31.s[2]
	MLA4SE(31, 3, 9, 12) // mla v12.4s, v9.4s, v31.s[3]
	MLA4SE(31, 3, 11, 13) // mla v13.4s, v11.4s, v31.s[3]
	// M[j] = m_j·(bsums[2j] + bsums[2j+1]);  accm ← accm + dm·float32(M)
	ADD   $blockQ8K_bsums, XP, R9
	VLD1  (R9), [V21.H8, V22.H8]
	SADDLP(21, 21) // saddlp v21.4s, v21.8h
	SADDLP(22, 22) // saddlp v22.4s, v22.8h
	MUL4S(21, 14, 21) // mul v21.4s, v14.4s, v21.4s
	MUL4S(22, 15, 22) // mul v22.4s, v15.4s, v22.4s
	SCVTF4S(21, 21) // scvtf v21.4s, v21.4s
	SCVTF4S(22, 22) // scvtf v22.4s, v22.4s
	FMUL4SE(25, 0, 21, 21) // fmul v21.4s, v21.4s, v25.s[0]
	FMUL4SE(25, 0, 22, 22) // fmul v22.4s, v22.4s, v25.s[0]
	FADD4S(21, 18, 18) // fadd v18.4s, v18.4s, v21.4s
	FADD4S(22, 19, 19) // fadd v19.4s, v19.4s, v22.4s
	// acc ← acc + dd·float32(A)
	SCVTF4S(12, 12) // scvtf v12.4s, v12.4s
	SCVTF4S(13, 13) // scvtf v13.4s, v13.4s
	FMUL4SE(24, 0, 12, 12) // fmul v12.4s, v12.4s, v24.s[0]
	FMUL4SE(24, 0, 13, 13) // fmul v13.4s, v13.4s, v24.s[0]
	FADD4S(12, 16, 16) // fadd v16.4s, v16.4s, v12.4s
	FADD4S(13, 17, 17) // fadd v17.4s, v17.4s, v13.4s
	ADD   $blockQ5K__size, W
	ADD   $blockQ8K__size, XP
	SUBS  $1, N
	BNE   DotQ5KSDOT_blocks

DotQ5KSDOT_reduce:
	// hsum(acc) − hsum(accm)
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // t = lo + hi
	VEXT  $8, V16.B16, V16.B16, V17.B16 // t[2], t[3], t[0], t[1]
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(16, 16) // faddp s16, v16.2s // u0 + u1
	FADD4S(19, 18, 18) // fadd v18.4s, v18.4s, v19.4s // t = lo + hi
	VEXT  $8, V18.B16, V18.B16, V19.B16 // t[2], t[3], t[0], t[1]
	FADD4S(19, 18, 18) // fadd v18.4s, v18.4s, v19.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(18, 18) // faddp s18, v18.2s // u0 + u1
	FSUBS F18, F16, F16
	FMOVS F16, (DST)
	ADD   $4, DST
	SUBS  $1, ROWS
	BNE   DotQ5KSDOT_row

DotQ5KSDOT_done:
	RET

// func DotQ5KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ5KNEON(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), DST
	MOVD w+8(FP), W
	MOVD x+16(FP), X
	MOVD rows+24(FP), ROWS
	MOVD nb+32(FP), NB
	VMOVI $15, V20.B16 // low-nibble mask
	VMOVI $16, V23.B16 // the fifth bit, as a value
	CBZ  ROWS, DotQ5KNEON_done

DotQ5KNEON_row:
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	MOVD X, XP
	MOVD NB, N
	CBZ  N, DotQ5KNEON_reduce

	PCALIGN $32
DotQ5KNEON_blocks:
	// the 6-bit scales and mins (layout: quant.KScaleMin) as int32 lanes
	MOVWU blockQ5K_scales(W), R9 // u0: sc0..3 | hi bits of sc4..7
	MOVWU blockQ5K_scales+4(W), R10 // u1: m0..3 | hi bits of m4..7
	MOVWU blockQ5K_scales+8(W), R11 // u2: lo nibbles of sc4..7 | of m4..7
	ANDW  $0x3f3f3f3f, R9, R12 // sc0..3
	LSRW  $6, R9, R14
	ANDW  $0x03030303, R14, R14
	ANDW  $0x0f0f0f0f, R11, R13
	ORRW  R14<<4, R13, R13 // sc4..7
	ORR   R13<<32, R12, R12 // sc0..7, a byte each
	ANDW  $0x3f3f3f3f, R10, R13 // m0..3
	LSRW  $6, R10, R14
	ANDW  $0x03030303, R14, R14
	LSRW  $4, R11, R15
	ANDW  $0x0f0f0f0f, R15, R15
	ORRW  R14<<4, R15, R15 // m4..7
	ORR   R15<<32, R13, R13 // m0..7
	VMOV  R12, V30.D[0]
	VMOV  R13, V14.D[0]
	VUXTL V30.B8, V30.H8
	VUXTL V14.B8, V14.H8
	VUXTL2 V30.H8, V31.S4 // sc4..7
	VUXTL V30.H4, V30.S4 // sc0..3
	VUXTL2 V14.H8, V15.S4 // m4..7
	VUXTL V14.H4, V14.S4 // m0..3
	// dd = f16(d)·D, dm = f16(dmin)·D
	MOVHU blockQ5K_d(W), R9
	MOVHU blockQ5K_dmin(W), R10
	FMOVS blockQ8K_d(XP), F26
	FMOVS R9, F24
	FMOVS R10, F25
	FCVTHS F24, F24
	FCVTHS F25, F25
	FMULS F26, F24, F24
	FMULS F26, F25, F25
	ADD   $blockQ5K_qs, W, WQ
	ADD   $blockQ8K_qs, XP, XQ
	ADD   $blockQ5K_qh, W, R9
	VLD1  (R9), [V27.B16, V28.B16] // qh[0..15], qh[16..31]
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	// chunk 0: values 0..31 (sub-block 0, low nibbles) and 32..63 (sub-block 1, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 0 (low nibbles) or 1 (high) of qh[l] is set; V27, V28 hold qh >> 0
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	SMULL(2, 6, 8) // smull v8.8h, v6.8b, v2.8b
	SMULL2(2, 6, 9) // smull2 v9.8h, v6.16b, v2.16b
	VADDP V9.H8, V8.H8, V8.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(8, 8) // saddlp v8.4s, v8.8h // pairs of pairs
	SMULL(3, 7, 10) // smull v10.8h, v7.8b, v3.8b
	SMULL2(3, 7, 11) // smull2 v11.8h, v7.16b, v3.16b
	VADDP V11.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(4, 0, 9) // smull v9.8h, v0.8b, v4.8b
	SMULL2(4, 0, 21) // smull2 v21.8h, v0.16b, v4.16b
	VADDP V21.H8, V9.H8, V9.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(9, 9) // saddlp v9.4s, v9.8h // pairs of pairs
	SMULL(5, 1, 11) // smull v11.8h, v1.8b, v5.8b
	SMULL2(5, 1, 22) // smull2 v22.8h, v1.16b, v5.16b
	VADDP V22.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	// A ← A + sc_0·(lane sums) + sc_1·(lane sums)
	MLA4SE(30, 0, 8, 12) // mla v12.4s, v8.4s, v30.s[0]
	MLA4SE(30, 0, 10, 13) // mla v13.4s, v10.4s, v30.s[0]
	MLA4SE(30, 1, 9, 12) // mla v12.4s, v9.4s, v30.s[1]
	MLA4SE(30, 1, 11, 13) // mla v13.4s, v11.4s, v30.s[1]
	// chunk 1: values 64..95 (sub-block 2, low nibbles) and 96..127 (sub-block 3, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 2 (low nibbles) or 3 (high) of qh[l] is set; V27, V28 hold qh >> 2
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	SMULL(2, 6, 8) // smull v8.8h, v6.8b, v2.8b
	SMULL2(2, 6, 9) // smull2 v9.8h, v6.16b, v2.16b
	VADDP V9.H8, V8.H8, V8.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(8, 8) // saddlp v8.4s, v8.8h // pairs of pairs
	SMULL(3, 7, 10) // smull v10.8h, v7.8b, v3.8b
	SMULL2(3, 7, 11) // smull2 v11.8h, v7.16b, v3.16b
	VADDP V11.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(4, 0, 9) // smull v9.8h, v0.8b, v4.8b
	SMULL2(4, 0, 21) // smull2 v21.8h, v0.16b, v4.16b
	VADDP V21.H8, V9.H8, V9.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(9, 9) // saddlp v9.4s, v9.8h // pairs of pairs
	SMULL(5, 1, 11) // smull v11.8h, v1.8b, v5.8b
	SMULL2(5, 1, 22) // smull2 v22.8h, v1.16b, v5.16b
	VADDP V22.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	// A ← A + sc_2·(lane sums) + sc_3·(lane sums)
	MLA4SE(30, 2, 8, 12) // mla v12.4s, v8.4s, v30.s[2]
	MLA4SE(30, 2, 10, 13) // mla v13.4s, v10.4s, v30.s[2]
	MLA4SE(30, 3, 9, 12) // mla v12.4s, v9.4s, v30.s[3]
	MLA4SE(30, 3, 11, 13) // mla v13.4s, v11.4s, v30.s[3]
	// chunk 2: values 128..159 (sub-block 4, low nibbles) and 160..191 (sub-block 5, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 4 (low nibbles) or 5 (high) of qh[l] is set; V27, V28 hold qh >> 4
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	SMULL(2, 6, 8) // smull v8.8h, v6.8b, v2.8b
	SMULL2(2, 6, 9) // smull2 v9.8h, v6.16b, v2.16b
	VADDP V9.H8, V8.H8, V8.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(8, 8) // saddlp v8.4s, v8.8h // pairs of pairs
	SMULL(3, 7, 10) // smull v10.8h, v7.8b, v3.8b
	SMULL2(3, 7, 11) // smull2 v11.8h, v7.16b, v3.16b
	VADDP V11.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(4, 0, 9) // smull v9.8h, v0.8b, v4.8b
	SMULL2(4, 0, 21) // smull2 v21.8h, v0.16b, v4.16b
	VADDP V21.H8, V9.H8, V9.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(9, 9) // saddlp v9.4s, v9.8h // pairs of pairs
	SMULL(5, 1, 11) // smull v11.8h, v1.8b, v5.8b
	SMULL2(5, 1, 22) // smull2 v22.8h, v1.16b, v5.16b
	VADDP V22.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	// A ← A + sc_4·(lane sums) + sc_5·(lane sums)
	MLA4SE(31, 0, 8, 12) // mla v12.4s, v8.4s, v31.s[0]
	MLA4SE(31, 0, 10, 13) // mla v13.4s, v10.4s, v31.s[0]
	MLA4SE(31, 1, 9, 12) // mla v12.4s, v9.4s, v31.s[1]
	MLA4SE(31, 1, 11, 13) // mla v13.4s, v11.4s, v31.s[1]
	// chunk 3: values 192..223 (sub-block 6, low nibbles) and 224..255 (sub-block 7, high)
	VLD1.P 32(WQ), [V0.B16, V1.B16]
	VLD1.P 64(XQ), [V2.B16, V3.B16, V4.B16, V5.B16]
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	// + 16 where bit 6 (low nibbles) or 7 (high) of qh[l] is set; V27, V28 hold qh >> 6
	VSHL  $4, V27.B16, V8.B16
	VSHL  $4, V28.B16, V9.B16
	VSHL  $3, V27.B16, V10.B16
	VSHL  $3, V28.B16, V11.B16
	VAND  V23.B16, V8.B16, V8.B16
	VAND  V23.B16, V9.B16, V9.B16
	VAND  V23.B16, V10.B16, V10.B16
	VAND  V23.B16, V11.B16, V11.B16
	VORR  V8.B16, V6.B16, V6.B16
	VORR  V9.B16, V7.B16, V7.B16
	VORR  V10.B16, V0.B16, V0.B16
	VORR  V11.B16, V1.B16, V1.B16
	SMULL(2, 6, 8) // smull v8.8h, v6.8b, v2.8b
	SMULL2(2, 6, 9) // smull2 v9.8h, v6.16b, v2.16b
	VADDP V9.H8, V8.H8, V8.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(8, 8) // saddlp v8.4s, v8.8h // pairs of pairs
	SMULL(3, 7, 10) // smull v10.8h, v7.8b, v3.8b
	SMULL2(3, 7, 11) // smull2 v11.8h, v7.16b, v3.16b
	VADDP V11.H8, V10.H8, V10.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(10, 10) // saddlp v10.4s, v10.8h // pairs of pairs
	SMULL(4, 0, 9) // smull v9.8h, v0.8b, v4.8b
	SMULL2(4, 0, 21) // smull2 v21.8h, v0.16b, v4.16b
	VADDP V21.H8, V9.H8, V9.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(9, 9) // saddlp v9.4s, v9.8h // pairs of pairs
	SMULL(5, 1, 11) // smull v11.8h, v1.8b, v5.8b
	SMULL2(5, 1, 22) // smull2 v22.8h, v1.16b, v5.16b
	VADDP V22.H8, V11.H8, V11.H8 // pairs: 16-bit, |sum| ≤ 2·128·32
	SADDLP(11, 11) // saddlp v11.4s, v11.8h // pairs of pairs
	// A ← A + sc_6·(lane sums) + sc_7·(lane sums)
	MLA4SE(31, 2, 8, 12) // mla v12.4s, v8.4s, v31.s[2]
	MLA4SE(31, 2, 10, 13) // mla v13.4s, v10.4s, v31.s[2]
	MLA4SE(31, 3, 9, 12) // mla v12.4s, v9.4s, v31.s[3]
	MLA4SE(31, 3, 11, 13) // mla v13.4s, v11.4s, v31.s[3]
	// M[j] = m_j·(bsums[2j] + bsums[2j+1]);  accm ← accm + dm·float32(M)
	ADD   $blockQ8K_bsums, XP, R9
	VLD1  (R9), [V21.H8, V22.H8]
	SADDLP(21, 21) // saddlp v21.4s, v21.8h
	SADDLP(22, 22) // saddlp v22.4s, v22.8h
	MUL4S(21, 14, 21) // mul v21.4s, v14.4s, v21.4s
	MUL4S(22, 15, 22) // mul v22.4s, v15.4s, v22.4s
	SCVTF4S(21, 21) // scvtf v21.4s, v21.4s
	SCVTF4S(22, 22) // scvtf v22.4s, v22.4s
	FMUL4SE(25, 0, 21, 21) // fmul v21.4s, v21.4s, v25.s[0]
	FMUL4SE(25, 0, 22, 22) // fmul v22.4s, v22.4s, v25.s[0]
	FADD4S(21, 18, 18) // fadd v18.4s, v18.4s, v21.4s
	FADD4S(22, 19, 19) // fadd v19.4s, v19.4s, v22.4s
	// acc ← acc + dd·float32(A)
	SCVTF4S(12, 12) // scvtf v12.4s, v12.4s
	SCVTF4S(13, 13) // scvtf v13.4s, v13.4s
	FMUL4SE(24, 0, 12, 12) // fmul v12.4s, v12.4s, v24.s[0]
	FMUL4SE(24, 0, 13, 13) // fmul v13.4s, v13.4s, v24.s[0]
	FADD4S(12, 16, 16) // fadd v16.4s, v16.4s, v12.4s
	FADD4S(13, 17, 17) // fadd v17.4s, v17.4s, v13.4s
	ADD   $blockQ5K__size, W
	ADD   $blockQ8K__size, XP
	SUBS  $1, N
	BNE   DotQ5KNEON_blocks

DotQ5KNEON_reduce:
	// hsum(acc) − hsum(accm)
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // t = lo + hi
	VEXT  $8, V16.B16, V16.B16, V17.B16 // t[2], t[3], t[0], t[1]
	FADD4S(17, 16, 16) // fadd v16.4s, v16.4s, v17.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(16, 16) // faddp s16, v16.2s // u0 + u1
	FADD4S(19, 18, 18) // fadd v18.4s, v18.4s, v19.4s // t = lo + hi
	VEXT  $8, V18.B16, V18.B16, V19.B16 // t[2], t[3], t[0], t[1]
	FADD4S(19, 18, 18) // fadd v18.4s, v18.4s, v19.4s // u = (t0+t2, t1+t3, ...)
	FADDP2S(18, 18) // faddp s18, v18.2s // u0 + u1
	FSUBS F18, F16, F16
	FMOVS F16, (DST)
	ADD   $4, DST
	SUBS  $1, ROWS
	BNE   DotQ5KNEON_row

DotQ5KNEON_done:
	RET
