//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"
#include "dot_arm64.h"
#include "kquant_arm64.h"

// Q4_K and Q5_K · Q8_K dot products, whole rows per call, one body for
// the four routines:
//
//	func DotQ4KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ4KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ5KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	func DotQ5KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dot(row r of w, x) for r < rows, a row being nb super-blocks.
// They follow dotQ4KGeneric and dotQ5KGeneric in package kernels, whose
// float order is the package doc's contract. Per super-block, with
// sub-block scales sc_j and mins m_j:
//
//	A[l]  = Σ_j sc_j · Σ_{i in sub-block j, lane l} q_i·y_i      (exact int32)
//	M[j]  = m_j · (bsums[2j] + bsums[2j+1])                       (exact int32)
//	dd ← f16(d)·D ;  dm ← f16(dmin)·D
//	acc[l] ← acc[l] + dd·float32(A[l]) ;  accm[j] ← accm[j] + dm·float32(M[j])
//
// with a separate FMUL and FADD (never FMLA), and the row's result is
// hsum(acc) − hsum(accm). Lane l of a 32-value sub-block is (i mod 32)/4:
// quants 0..15 of a sub-block feed lanes 0..3 (one register), 16..31 lanes
// 4..7 (the next).
//
// What differs: the lane sums (LANES_SDOT or LANES_NEON, dot_arm64.h) and
// Q5_K's fifth bit (kquant_arm64.h), which Q4_K does without. The *SDOT
// routines require ASIMD and FEAT_DotProd, the *NEON routines ASIMD only.
// Q5_K's d, dmin and scales sit where Q4_K's do (a test in this package
// checks), so the block reads them with Q4_K's offsets.

#define WQ R7 // weight quant cursor within the block
#define XQ R8 // activation quant cursor within the block

// Vector registers.
#define WA V0 // quants of a 64-value chunk, bytes 0..15: then high nibbles
#define wa 0
#define WB V1 // bytes 16..31: then high nibbles
#define wb 1
#define XA V2 // activation quants of the chunk, 16 a register
#define xa 2
#define XB V3
#define xb 3
#define XC V4
#define xc 4
#define XD V5
#define xd 5
#define WLA V6 // low nibbles of WA, WB
#define wla 6
#define WLB V7
#define wlb 7
#define S0 V8 // lane sums: (XA, WLA), (XB, WLB), (XC, WA), (XD, WB)
#define s0 8
#define S1 V9
#define s1 9
#define S2 V10
#define s2 10
#define S3 V11
#define s3 11
#define H0 V8 // Q5_K: the fifth bits, before the lane sums
#define H1 V9
#define H2 V10
#define H3 V11
#define ALO V12 // A[0..3]
#define alo 12
#define AHI V13 // A[4..7]
#define ahi 13
#define MLO V14 // m0..3 (int32)
#define mlo 14
#define MHI V15 // m4..7
#define mhi 15
#define ACCLO V16 // acc[0..3]
#define acclo 16
#define ACCHI V17 // acc[4..7]
#define acchi 17
#define ACMLO V18 // accm[0..3]
#define acmlo 18
#define ACMHI V19 // accm[4..7]
#define acmhi 19
#define MASK V20 // 0x0F in every byte
#define BSA V21 // bsums 0..7, then pairs summed
#define bsa 21
#define BSB V22 // bsums 8..15
#define bsb 22
#define FIVE V23 // 0x10 in every byte
#define dd 24 // dd (lane 0)
#define dm 25 // dm (lane 0)
#define d8 26 // D (lane 0)
#define QHA V27 // Q5_K: qh[0..15] >> 2c
#define QHB V28 // qh[16..31] >> 2c
#define T V29 // LANES_NEON's temporary
#define t 29
#define SCLO V30 // sc0..3 (int32)
#define sclo 30
#define SCHI V31 // sc4..7
#define schi 31
#define res acclo // the row's result

#define K45_SETUP \
	VMOVI $15, MASK.B16 \
	VMOVI $16, FIVE.B16

#define K45_ZERO \
	VEOR ACCLO.B16, ACCLO.B16, ACCLO.B16 \
	VEOR ACCHI.B16, ACCHI.B16, ACCHI.B16 \
	VEOR ACMLO.B16, ACMLO.B16, ACMLO.B16 \
	VEOR ACMHI.B16, ACMHI.B16, ACMHI.B16

// K45_CHUNK: values 64c..64c+31 (sub-block 2c, low nibbles) and
// 64c+32..64c+63 (sub-block 2c+1, high nibbles); A ← A + sc_2c·(their
// lane sums) + sc_2c+1·(theirs), the scales being lanes i, j of sc.
#define K45_CHUNK(LANES, BITS, sc, i, j) \
	VLD1.P 32(WQ), [WA.B16, WB.B16] \
	VLD1.P 64(XQ), [XA.B16, XB.B16, XC.B16, XD.B16] \
	VAND MASK.B16, WA.B16, WLA.B16 \
	VAND MASK.B16, WB.B16, WLB.B16 \
	VUSHR $4, WA.B16, WA.B16 \
	VUSHR $4, WB.B16, WB.B16 \
	BITS \
	LANES(xa, wla, s0, S0) \
	LANES(xb, wlb, s1, S1) \
	LANES(xc, wa, s2, S2) \
	LANES(xd, wb, s3, S3) \
	MLA4SE(sc, i, s0, alo) \
	MLA4SE(sc, i, s1, ahi) \
	MLA4SE(sc, j, s2, alo) \
	MLA4SE(sc, j, s3, ahi)

// K45_BLOCK: one super-block; QH and BITS are Q5K_QH and Q5K_BITS, or
// NONE; QS and SIZE the type's qs offset and block size.
#define K45_BLOCK(LANES, QH, BITS, QS, SIZE) \
	KSCALES(blockQ4K_scales, W) \
	F16S(blockQ4K_d, W, dd) /* dd = f16(d)·D, dm = f16(dmin)·D */ \
	F16S(blockQ4K_dmin, W, dm) \
	FMOVS blockQ8K_d(XP), F(d8) \
	FMULS F(d8), F(dd), F(dd) \
	FMULS F(d8), F(dm), F(dm) \
	ADD $QS, W, WQ \
	ADD $blockQ8K_qs, XP, XQ \
	QH \
	VEOR ALO.B16, ALO.B16, ALO.B16 \
	VEOR AHI.B16, AHI.B16, AHI.B16 \
	K45_CHUNK(LANES, BITS, sclo, 0, 1) \
	K45_CHUNK(LANES, BITS, sclo, 2, 3) \
	K45_CHUNK(LANES, BITS, schi, 0, 1) \
	K45_CHUNK(LANES, BITS, schi, 2, 3) \
	ADD $blockQ8K_bsums, XP, R9 /* M = m·(bsums[2j] + bsums[2j+1]); accm ← accm + dm·float32(M) */ \
	VLD1 (R9), [BSA.H8, BSB.H8] \
	SADDLP(bsa, bsa) \
	SADDLP(bsb, bsb) \
	MUL4S(bsa, mlo, bsa) \
	MUL4S(bsb, mhi, bsb) \
	SCVTF4S(bsa, bsa) \
	SCVTF4S(bsb, bsb) \
	FMUL4SE(dm, 0, bsa, bsa) \
	FMUL4SE(dm, 0, bsb, bsb) \
	FADD4S(bsa, acmlo, acmlo) \
	FADD4S(bsb, acmhi, acmhi) \
	ACC_A(dd) \
	ADD $SIZE, W \
	ADD $blockQ8K__size, XP

// hsum(acc) − hsum(accm)
#define K45_REDUCE \
	HSUM8(acclo, ACCLO, acchi, ACCHI) \
	HSUM8(acmlo, ACMLO, acmhi, ACMHI) \
	FSUBS F(acmlo), F(acclo), F(acclo)

// func DotQ4KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ4KSDOT(SB), NOSPLIT, $0-40
	DOT_ROWS(K45_SETUP, K45_ZERO, K45_BLOCK(LANES_SDOT, NONE, NONE, blockQ4K_qs, blockQ4K__size), K45_REDUCE)

// func DotQ4KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ4KNEON(SB), NOSPLIT, $0-40
	DOT_ROWS(K45_SETUP, K45_ZERO, K45_BLOCK(LANES_NEON, NONE, NONE, blockQ4K_qs, blockQ4K__size), K45_REDUCE)

// func DotQ5KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD, FEAT_DotProd
TEXT ·DotQ5KSDOT(SB), NOSPLIT, $0-40
	DOT_ROWS(K45_SETUP, K45_ZERO, K45_BLOCK(LANES_SDOT, Q5K_QH(blockQ5K_qh, W), Q5K_BITS, blockQ5K_qs, blockQ5K__size), K45_REDUCE)

// func DotQ5KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: ASIMD
TEXT ·DotQ5KNEON(SB), NOSPLIT, $0-40
	DOT_ROWS(K45_SETUP, K45_ZERO, K45_BLOCK(LANES_NEON, Q5K_QH(blockQ5K_qh, W), Q5K_BITS, blockQ5K_qs, blockQ5K__size), K45_REDUCE)
