//go:build !purego

// Q4_K · Q8_K kernels: matrix-vector (MatVecQ4K*, also used for a single dot)
// and matrix-matrix tiles of one weight row by four activation columns
// (MatMul4Q4K*) for AVX2, AVX-VNNI, AVX-512 and AVX-512 VNNI, and by eight
// columns packed in pairs (MatMul8Q4K*, Q8KPair) for AVX-512 [VNNI].
//
// Every routine mirrors dotQ4KGeneric in package kernels and returns its
// bits: the integer work is exact (int16 pair products from VPMADDUBSW, which
// cannot saturate because activation quants lie in [-127, 127] and weights in
// [0, 15]; then int32 sums of scale x pair), and the float work follows the
// package contract operation by operation — per super-block dd = f16(d)·D and
// dm = f16(dmin)·D, acc[l] += dd·float32(A[l]) and accm[j] += dm·float32(M[j])
// as separate VMULPS and VADDPS (never FMA), result hsum(acc) − hsum(accm).
//
// Layout of one super-block (go_asm.h offsets): blockQ4K_d, _dmin (fp16),
// _scales (12 bytes, 6-bit scales and mins, see kquant_amd64.h), _qs (128
// bytes; byte 32c+l holds value 64c+l in its low nibble and 64c+32+l in its
// high nibble). Activations: blockQ8K_d (float32), _qs (256 int8), _bsums
// (16 int16 sums of 16 quants).
//
// The ymm kernels (AVX2, AVX-VNNI) handle one 32-value sub-block per
// register, so int32 lane l of a product is lane l of the contract. The zmm
// MatVec and MatMul4 kernels handle a 64-value chunk per register (see
// KQ_NIBBLES_Z) and add the two 256-bit halves in int32 before converting;
// the MatMul8 kernels hold one sub-block of two columns per register. !!!
// Deviation from the Go twin: the integer sums are associated differently
// (exact, so the bits are the same).
//
// Frames: 16 bytes at 0(SP) hold the unpacked scale bytes of the current
// block (KQ_SCALES); the ymm MatMul4 kernels keep their float accumulators
// above them, the MatMul8 kernels the eight scale dwords.

#include "go_asm.h"
#include "textflag.h"
#include "kquant_amd64.h"

// General-purpose registers, common to every routine in this file.
#define DST   DI  // dst: next output (row r of column 0)
#define WP    SI  // current weight block
#define XROW  DX  // first activation block of the row (column 0)
#define XP    BX  // current activation block (column 0)
#define ROWS  R8  // rows left
#define NB    R9  // blocks per row
#define N     CX  // blocks left in the row
#define XS    R13 // MatMul: bytes from one activation column (pair) to the next
#define XS3   R12 // MatMul: 3·XS
// AX, R10, R11: scratch for KQ_SCALES.

// Activation addresses of columns (MatMul8: column pairs) 1..3.
#define XC1(off) off(XP)(XS*1)
#define XC2(off) off(XP)(XS*2)
#define XC3(off) off(XP)(XS3*1)

// ------------------------------------------------------------------ zmm
// Registers of the zmm MatVec and MatMul4 kernels (AVX512F, AVX512BW,
// AVX512VL [, AVX512VNNI]; MatMul8 lists its own):
//	Z16 = 0x0F bytes, Z17..Z20 = kqScZ controls of chunks 0..3,
//	Z21 = kqMin control, Z22 = kqDDM indices,
//	K1 = 0xFFFF0000 (high 16 words), K2 = 0xAA (odd qwords), K3 = 0x00FF.

#define Q4K_Z_CONSTANTS \
	VMOVDQU64 kqNib<>(SB), Z16       \
	VMOVDQU64 kqScZ<>+0(SB), Z17     \
	VMOVDQU64 kqScZ<>+64(SB), Z18    \
	VMOVDQU64 kqScZ<>+128(SB), Z19   \
	VMOVDQU64 kqScZ<>+192(SB), Z20   \
	VMOVDQU64 kqMin<>(SB), Z21       \
	VMOVDQU64 kqDDM<>(SB), Z22       \
	MOVL      $0xFFFF0000, AX        \
	KMOVD     AX, K1                 \
	MOVL      $0xAA, AX              \
	KMOVW     AX, K2                 \
	MOVL      $0xFF, AX              \
	KMOVW     AX, K3

// Q4K_MV_CHUNK_Z(qoff, yoff, q, ctl, MADD) — MatVec, one 64-value chunk:
// q = nibbles · y in int16 pairs, scaled by the chunk's scale words (from
// the scale bytes in Z5 via control ctl) and summed into Z4.
#define Q4K_MV_CHUNK_Z(qoff, yoff, q, ctl, MADD) \
	KQ_NIBBLES_Z(blockQ4K_qs+qoff(WP), q)    \
	VPMADDUBSW blockQ8K_qs+yoff(XP), q, q     \
	VPSHUFB    ctl, Z5, Z6                   \
	MADD(Z6, q, Z4)

// func MatVecQ4KAVX512(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for r < rows.
// Requires: AVX512F, AVX512BW, AVX512VL, F16C
//
// Z0..Z3 chunk products, Z4 int32 sums (16 lanes), Z5 scale bytes, Z6 scale
// words, Z7 [A | M], Z8 bsums, Z9 scratch, Z10 [dd x8 | dm x8],
// Z11 [acc | accm].
TEXT ·MatVecQ4KAVX512(SB), NOSPLIT, $16-40
	MOVQ  dst+0(FP), DST
	MOVQ  w+8(FP), WP
	MOVQ  x+16(FP), XROW
	MOVQ  rows+24(FP), ROWS
	MOVQ  nb+32(FP), NB
	TESTQ ROWS, ROWS
	JZ    matVecQ4KAVX512_ret
	Q4K_Z_CONSTANTS

matVecQ4KAVX512_row:
	VPXORD Z11, Z11, Z11
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matVecQ4KAVX512_rowend

	PCALIGN $32
matVecQ4KAVX512_block:
	KQ_PREFETCH(WP, blockQ4K__size)
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Z(Z5, Z6)
	// M[j] = m_j·(bsums[2j] + bsums[2j+1]) in the high half of Z7.
	VBROADCASTI64X4 blockQ8K_bsums(XP), Z8
	VPSHUFB         Z21, Z5, Z7
	VPMADDWD        Z8, Z7, Z7

	Q4K_MV_CHUNK_Z(0, 0, Z0, Z17, KQ_MUL_Z)
	Q4K_MV_CHUNK_Z(32, 64, Z1, Z18, KQ_ACC_BW_Z)
	Q4K_MV_CHUNK_Z(64, 128, Z2, Z19, KQ_ACC_BW_Z)
	Q4K_MV_CHUNK_Z(96, 192, Z3, Z20, KQ_ACC_BW_Z)

	// Z10 = [f16(d)·D x8 | f16(dmin)·D x8]. Only d and dmin are converted:
	// junk halves could be subnormal and cost a microcode assist.
	VPBROADCASTD blockQ4K_d(WP), X10
	VCVTPH2PS    X10, X10
	VMULPS.BCST  blockQ8K_d(XP), X10, X10
	VPERMPS      Z10, Z22, Z10
	KQ_FINISH_Z(Z4, Z7, Z9, Z10, Z11)

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matVecQ4KAVX512_block

matVecQ4KAVX512_rowend:
	KQ_HSUM_Z(Z11, Z9, X11, X9)
	VMOVSS X11, (DST)
	ADDQ   $4, DST
	DECQ   ROWS
	JNZ    matVecQ4KAVX512_row

matVecQ4KAVX512_ret:
	VZEROUPPER
	RET

// func MatVecQ4KAVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for r < rows.
// Requires: AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
//
// Z0..Z3 chunk products, Z4 int32 sums (16 lanes), Z5 scale bytes, Z6 scale
// words, Z7 [A | M], Z8 bsums, Z9 scratch, Z10 [dd x8 | dm x8],
// Z11 [acc | accm].
TEXT ·MatVecQ4KAVX512VNNI(SB), NOSPLIT, $16-40
	MOVQ  dst+0(FP), DST
	MOVQ  w+8(FP), WP
	MOVQ  x+16(FP), XROW
	MOVQ  rows+24(FP), ROWS
	MOVQ  nb+32(FP), NB
	TESTQ ROWS, ROWS
	JZ    matVecQ4KAVX512VNNI_ret
	Q4K_Z_CONSTANTS

matVecQ4KAVX512VNNI_row:
	VPXORD Z11, Z11, Z11
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matVecQ4KAVX512VNNI_rowend

	PCALIGN $32
matVecQ4KAVX512VNNI_block:
	KQ_PREFETCH(WP, blockQ4K__size)
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Z(Z5, Z6)
	// M[j] = m_j·(bsums[2j] + bsums[2j+1]) in the high half of Z7.
	VBROADCASTI64X4 blockQ8K_bsums(XP), Z8
	VPSHUFB         Z21, Z5, Z7
	VPMADDWD        Z8, Z7, Z7

	Q4K_MV_CHUNK_Z(0, 0, Z0, Z17, KQ_MUL_Z)
	Q4K_MV_CHUNK_Z(32, 64, Z1, Z18, KQ_ACC_VNNI_Z)
	Q4K_MV_CHUNK_Z(64, 128, Z2, Z19, KQ_ACC_VNNI_Z)
	Q4K_MV_CHUNK_Z(96, 192, Z3, Z20, KQ_ACC_VNNI_Z)

	// Z10 = [f16(d)·D x8 | f16(dmin)·D x8]. Only d and dmin are converted:
	// junk halves could be subnormal and cost a microcode assist.
	VPBROADCASTD blockQ4K_d(WP), X10
	VCVTPH2PS    X10, X10
	VMULPS.BCST  blockQ8K_d(XP), X10, X10
	VPERMPS      Z10, Z22, Z10
	KQ_FINISH_Z(Z4, Z7, Z9, Z10, Z11)

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matVecQ4KAVX512VNNI_block

matVecQ4KAVX512VNNI_rowend:
	KQ_HSUM_Z(Z11, Z9, X11, X9)
	VMOVSS X11, (DST)
	ADDQ   $4, DST
	DECQ   ROWS
	JNZ    matVecQ4KAVX512VNNI_row

matVecQ4KAVX512VNNI_ret:
	VZEROUPPER
	RET

#define W1      R12 // MatVec2: current weight block of row r+1
#define WSTRIDE R13 // MatVec2: bytes per weight row

// func MatVec2Q4KAVX512(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for r < rows; rows is even.
// Two rows at a time: a register holds one sub-block of both rows (row r in
// the low half, row r+1 in the high half), so the int32 lanes need no
// folding and the mins, d and dmin of the two rows are handled together.
// Requires: AVX512F, AVX512BW, AVX512VL, F16C
//
// Z0, Z1 sub-blocks 2c, 2c+1 → products, Z2, Z3 activations → scale words,
// Z4, Z9 int32 sums A (low, high sub-blocks), Z5 scale bytes (row r in
// 128-bit lanes 0..1, row r+1 in 2..3), Z7 M, Z8 bsums, Z10, Z11 dd, dm,
// Z13 acc and Z14 accm ([row r | row r+1] each); Z16 = 0x0F bytes,
// Z21 = kqMin2 control, Z22, Z23 = kqDD2, kqDM2 indices. The frame holds
// the scale qwords of row r (0..15) and row r+1 (16..31).
TEXT ·MatVec2Q4KAVX512(SB), NOSPLIT, $32-40
	MOVQ      dst+0(FP), DST
	MOVQ      w+8(FP), WP
	MOVQ      x+16(FP), XROW
	MOVQ      rows+24(FP), ROWS
	MOVQ      nb+32(FP), NB
	SHRQ      $1, ROWS
	JZ        matVec2Q4KAVX512_ret
	IMUL3Q    $blockQ4K__size, NB, WSTRIDE
	VMOVDQU64 kqNib<>(SB), Z16
	VMOVDQU64 kqMin2<>(SB), Z21
	VMOVDQU64 kqDD2<>(SB), Z22
	VMOVDQU64 kqDM2<>(SB), Z23
	MOVL      $0xAA, AX
	KMOVW     AX, K2
	MOVL      $0x50, AX
	KMOVW     AX, K5
	MOVL      $0xA0, AX
	KMOVW     AX, K6

matVec2Q4KAVX512_pair:
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	LEAQ   (WP)(WSTRIDE*1), W1
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matVec2Q4KAVX512_pairend

	PCALIGN $32
matVec2Q4KAVX512_block:
	KQ_PREFETCH2(W1, WSTRIDE)
	KQ_SCALES_TO(WP, blockQ4K_scales, AX, R10, R11, 0(SP), 8(SP))
	KQ_SCALES_TO(W1, blockQ4K_scales, AX, R10, R11, 16(SP), 24(SP))
	VPBROADCASTQ 0(SP), Z5
	VPBROADCASTQ 8(SP), K2, Z5
	VPBROADCASTQ 16(SP), K5, Z5
	VPBROADCASTQ 24(SP), K6, Z5

	// [M(row r) | M(row r+1)].
	VBROADCASTI64X4 blockQ8K_bsums(XP), Z8
	VPSHUFB         Z21, Z5, Z7
	VPMADDWD        Z8, Z7, Z7

	// Chunk 0: sub-blocks 0 (Z0) and 1 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+0(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+0(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+0(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+32(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+0(SB), Z5, Z2
	VPSHUFB         kqScP<>+64(SB), Z5, Z3
	KQ_MUL_Z(Z2, Z0, Z4)
	KQ_MUL_Z(Z3, Z1, Z9)

	// Chunk 1: sub-blocks 2 (Z0) and 3 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+32(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+32(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+64(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+96(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+128(SB), Z5, Z2
	VPSHUFB         kqScP<>+192(SB), Z5, Z3
	KQ_ACC_BW_Z(Z2, Z0, Z4)
	KQ_ACC_BW_Z(Z3, Z1, Z9)

	// Chunk 2: sub-blocks 4 (Z0) and 5 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+64(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+64(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+128(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+160(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+256(SB), Z5, Z2
	VPSHUFB         kqScP<>+320(SB), Z5, Z3
	KQ_ACC_BW_Z(Z2, Z0, Z4)
	KQ_ACC_BW_Z(Z3, Z1, Z9)

	// Chunk 3: sub-blocks 6 (Z0) and 7 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+96(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+96(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+192(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+224(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+384(SB), Z5, Z2
	VPSHUFB         kqScP<>+448(SB), Z5, Z3
	KQ_ACC_BW_Z(Z2, Z0, Z4)
	KQ_ACC_BW_Z(Z3, Z1, Z9)

	// [dd(r) x8 | dd(r+1) x8] and [dm(r) x8 | dm(r+1) x8], then the float
	// steps of the contract for both rows.
	VPADDD       Z9, Z4, Z4
	VCVTDQ2PS    Z4, Z4
	VCVTDQ2PS    Z7, Z7
	VMOVD        blockQ4K_d(WP), X10
	VPINSRD      $1, blockQ4K_d(W1), X10, X10
	VCVTPH2PS    X10, X10
	VMULPS.BCST  blockQ8K_d(XP), X10, X10
	VPERMPS      Z10, Z22, Z11
	VPERMPS      Z10, Z23, Z10
	VMULPS       Z11, Z4, Z4
	VMULPS       Z10, Z7, Z7
	VADDPS       Z4, Z13, Z13
	VADDPS       Z7, Z14, Z14

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ4K__size, W1
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matVec2Q4KAVX512_block

matVec2Q4KAVX512_pairend:
	VSHUFF64X2 $0x44, Z14, Z13, Z0
	VSHUFF64X2 $0xEE, Z14, Z13, Z1
	KQ_HSUM_Z(Z0, Z2, X0, X2)
	KQ_HSUM_Z(Z1, Z2, X1, X2)
	VMOVSS     X0, (DST)
	VMOVSS     X1, 4(DST)
	ADDQ       $8, DST
	MOVQ       W1, WP
	DECQ       ROWS
	JNZ        matVec2Q4KAVX512_pair

matVec2Q4KAVX512_ret:
	VZEROUPPER
	RET

// func MatVec2Q4KAVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for r < rows; rows is even.
// Two rows at a time: a register holds one sub-block of both rows (row r in
// the low half, row r+1 in the high half), so the int32 lanes need no
// folding and the mins, d and dmin of the two rows are handled together.
// Requires: AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
//
// Z0, Z1 sub-blocks 2c, 2c+1 → products, Z2, Z3 activations → scale words,
// Z4, Z9 int32 sums A (low, high sub-blocks), Z5 scale bytes (row r in
// 128-bit lanes 0..1, row r+1 in 2..3), Z7 M, Z8 bsums, Z10, Z11 dd, dm,
// Z13 acc and Z14 accm ([row r | row r+1] each); Z16 = 0x0F bytes,
// Z21 = kqMin2 control, Z22, Z23 = kqDD2, kqDM2 indices. The frame holds
// the scale qwords of row r (0..15) and row r+1 (16..31).
TEXT ·MatVec2Q4KAVX512VNNI(SB), NOSPLIT, $32-40
	MOVQ      dst+0(FP), DST
	MOVQ      w+8(FP), WP
	MOVQ      x+16(FP), XROW
	MOVQ      rows+24(FP), ROWS
	MOVQ      nb+32(FP), NB
	SHRQ      $1, ROWS
	JZ        matVec2Q4KAVX512VNNI_ret
	IMUL3Q    $blockQ4K__size, NB, WSTRIDE
	VMOVDQU64 kqNib<>(SB), Z16
	VMOVDQU64 kqMin2<>(SB), Z21
	VMOVDQU64 kqDD2<>(SB), Z22
	VMOVDQU64 kqDM2<>(SB), Z23
	MOVL      $0xAA, AX
	KMOVW     AX, K2
	MOVL      $0x50, AX
	KMOVW     AX, K5
	MOVL      $0xA0, AX
	KMOVW     AX, K6

matVec2Q4KAVX512VNNI_pair:
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	LEAQ   (WP)(WSTRIDE*1), W1
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matVec2Q4KAVX512VNNI_pairend

	PCALIGN $32
matVec2Q4KAVX512VNNI_block:
	KQ_PREFETCH2(W1, WSTRIDE)
	KQ_SCALES_TO(WP, blockQ4K_scales, AX, R10, R11, 0(SP), 8(SP))
	KQ_SCALES_TO(W1, blockQ4K_scales, AX, R10, R11, 16(SP), 24(SP))
	VPBROADCASTQ 0(SP), Z5
	VPBROADCASTQ 8(SP), K2, Z5
	VPBROADCASTQ 16(SP), K5, Z5
	VPBROADCASTQ 24(SP), K6, Z5

	// [M(row r) | M(row r+1)].
	VBROADCASTI64X4 blockQ8K_bsums(XP), Z8
	VPSHUFB         Z21, Z5, Z7
	VPMADDWD        Z8, Z7, Z7

	// Chunk 0: sub-blocks 0 (Z0) and 1 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+0(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+0(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+0(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+32(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+0(SB), Z5, Z2
	VPSHUFB         kqScP<>+64(SB), Z5, Z3
	KQ_MUL_Z(Z2, Z0, Z4)
	KQ_MUL_Z(Z3, Z1, Z9)

	// Chunk 1: sub-blocks 2 (Z0) and 3 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+32(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+32(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+64(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+96(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+128(SB), Z5, Z2
	VPSHUFB         kqScP<>+192(SB), Z5, Z3
	KQ_ACC_VNNI_Z(Z2, Z0, Z4)
	KQ_ACC_VNNI_Z(Z3, Z1, Z9)

	// Chunk 2: sub-blocks 4 (Z0) and 5 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+64(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+64(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+128(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+160(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+256(SB), Z5, Z2
	VPSHUFB         kqScP<>+320(SB), Z5, Z3
	KQ_ACC_VNNI_Z(Z2, Z0, Z4)
	KQ_ACC_VNNI_Z(Z3, Z1, Z9)

	// Chunk 3: sub-blocks 6 (Z0) and 7 (Z1) of both rows.
	VBROADCASTI64X4 blockQ4K_qs+96(WP), Z0
	VINSERTI64X4    $1, blockQ4K_qs+96(W1), Z0, Z0
	VPSRLW          $4, Z0, Z1
	VPANDD          Z16, Z0, Z0
	VPANDD          Z16, Z1, Z1
	VBROADCASTI64X4 blockQ8K_qs+192(XP), Z2
	VBROADCASTI64X4 blockQ8K_qs+224(XP), Z3
	VPMADDUBSW      Z2, Z0, Z0
	VPMADDUBSW      Z3, Z1, Z1
	VPSHUFB         kqScP<>+384(SB), Z5, Z2
	VPSHUFB         kqScP<>+448(SB), Z5, Z3
	KQ_ACC_VNNI_Z(Z2, Z0, Z4)
	KQ_ACC_VNNI_Z(Z3, Z1, Z9)

	// [dd(r) x8 | dd(r+1) x8] and [dm(r) x8 | dm(r+1) x8], then the float
	// steps of the contract for both rows.
	VPADDD       Z9, Z4, Z4
	VCVTDQ2PS    Z4, Z4
	VCVTDQ2PS    Z7, Z7
	VMOVD        blockQ4K_d(WP), X10
	VPINSRD      $1, blockQ4K_d(W1), X10, X10
	VCVTPH2PS    X10, X10
	VMULPS.BCST  blockQ8K_d(XP), X10, X10
	VPERMPS      Z10, Z22, Z11
	VPERMPS      Z10, Z23, Z10
	VMULPS       Z11, Z4, Z4
	VMULPS       Z10, Z7, Z7
	VADDPS       Z4, Z13, Z13
	VADDPS       Z7, Z14, Z14

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ4K__size, W1
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matVec2Q4KAVX512VNNI_block

matVec2Q4KAVX512VNNI_pairend:
	VSHUFF64X2 $0x44, Z14, Z13, Z0
	VSHUFF64X2 $0xEE, Z14, Z13, Z1
	KQ_HSUM_Z(Z0, Z2, X0, X2)
	KQ_HSUM_Z(Z1, Z2, X1, X2)
	VMOVSS     X0, (DST)
	VMOVSS     X1, 4(DST)
	ADDQ       $8, DST
	MOVQ       W1, WP
	DECQ       ROWS
	JNZ        matVec2Q4KAVX512VNNI_pair

matVec2Q4KAVX512VNNI_ret:
	VZEROUPPER
	RET

#undef W1
#undef WSTRIDE

// func MatMul4Q4KAVX512(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)
//
// dst[c·ldd + r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[c·nb:(c+1)·nb]) for
// r < rows and c < 4: one weight row against four activation columns at a
// time, so that each weight block is decoded once for four dots.
// Requires: AVX512F, AVX512BW, AVX512VL, F16C
//
// Z0..Z3 decoded chunks, Z4..Z7 their scale words, Z8 mins words, Z9
// [f16(d) x8 | f16(dmin) x8], Z10 scale bytes, then [A | M],
// Z12, Z29..Z31 products and Z13..Z15, Z11 int32 sums of columns 0..3,
// Z24..Z27 their [acc | accm], Z28 [dd | dm] of the current column.
TEXT ·MatMul4Q4KAVX512(SB), NOSPLIT, $16-48
	MOVQ   dst+0(FP), DST
	MOVQ   w+16(FP), WP
	MOVQ   x+24(FP), XROW
	MOVQ   rows+32(FP), ROWS
	MOVQ   nb+40(FP), NB
	TESTQ  ROWS, ROWS
	JZ     matMul4Q4KAVX512_ret
	IMUL3Q $blockQ8K__size, NB, XS
	LEAQ   (XS)(XS*2), XS3
	Q4K_Z_CONSTANTS

matMul4Q4KAVX512_row:
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matMul4Q4KAVX512_rowend

	PCALIGN $32
matMul4Q4KAVX512_block:
	// Decode the weight block once: quants, scale words, mins words, d.
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Z(Z10, Z11)
	KQ_NIBBLES_Z(blockQ4K_qs+0(WP), Z0)
	KQ_NIBBLES_Z(blockQ4K_qs+32(WP), Z1)
	KQ_NIBBLES_Z(blockQ4K_qs+64(WP), Z2)
	KQ_NIBBLES_Z(blockQ4K_qs+96(WP), Z3)
	VPSHUFB      Z17, Z10, Z4
	VPSHUFB      Z18, Z10, Z5
	VPSHUFB      Z19, Z10, Z6
	VPSHUFB      Z20, Z10, Z7
	VPSHUFB      Z21, Z10, Z8
	VPBROADCASTD blockQ4K_d(WP), X9
	VCVTPH2PS    X9, X9
	VPERMPS      Z9, Z22, Z9

	// Chunk-major over the four columns, so that the four columns' dependency
	// chains interleave.
	VPMADDUBSW blockQ8K_qs+0(XP), Z0, Z12
	KQ_MUL_Z(Z4, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+0), Z0, Z29
	KQ_MUL_Z(Z4, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+0), Z0, Z30
	KQ_MUL_Z(Z4, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+0), Z0, Z31
	KQ_MUL_Z(Z4, Z31, Z11)
	VPMADDUBSW blockQ8K_qs+64(XP), Z1, Z12
	KQ_ACC_BW_Z(Z5, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+64), Z1, Z29
	KQ_ACC_BW_Z(Z5, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+64), Z1, Z30
	KQ_ACC_BW_Z(Z5, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+64), Z1, Z31
	KQ_ACC_BW_Z(Z5, Z31, Z11)
	VPMADDUBSW blockQ8K_qs+128(XP), Z2, Z12
	KQ_ACC_BW_Z(Z6, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+128), Z2, Z29
	KQ_ACC_BW_Z(Z6, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+128), Z2, Z30
	KQ_ACC_BW_Z(Z6, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+128), Z2, Z31
	KQ_ACC_BW_Z(Z6, Z31, Z11)
	VPMADDUBSW blockQ8K_qs+192(XP), Z3, Z12
	KQ_ACC_BW_Z(Z7, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+192), Z3, Z29
	KQ_ACC_BW_Z(Z7, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+192), Z3, Z30
	KQ_ACC_BW_Z(Z7, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+192), Z3, Z31
	KQ_ACC_BW_Z(Z7, Z31, Z11)

	// Column 0: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 blockQ8K_bsums(XP), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     blockQ8K_d(XP), Z9, Z28
	KQ_FINISH_Z(Z13, Z10, Z12, Z28, Z24)

	// Column 1: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 XC1(blockQ8K_bsums), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     XC1(blockQ8K_d), Z9, Z28
	KQ_FINISH_Z(Z14, Z10, Z29, Z28, Z25)

	// Column 2: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 XC2(blockQ8K_bsums), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     XC2(blockQ8K_d), Z9, Z28
	KQ_FINISH_Z(Z15, Z10, Z30, Z28, Z26)

	// Column 3: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 XC3(blockQ8K_bsums), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     XC3(blockQ8K_d), Z9, Z28
	KQ_FINISH_Z(Z11, Z10, Z31, Z28, Z27)

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matMul4Q4KAVX512_block

matMul4Q4KAVX512_rowend:
	MOVQ   ldd+8(FP), AX
	SHLQ   $2, AX
	KQ_HSUM_Z(Z24, Z15, X24, X15)
	VMOVSS X24, (DST)
	KQ_HSUM_Z(Z25, Z15, X25, X15)
	VMOVSS X25, (DST)(AX*1)
	KQ_HSUM_Z(Z26, Z15, X26, X15)
	VMOVSS X26, (DST)(AX*2)
	LEAQ   (AX)(AX*2), AX
	KQ_HSUM_Z(Z27, Z15, X27, X15)
	VMOVSS X27, (DST)(AX*1)
	ADDQ   $4, DST
	DECQ   ROWS
	JNZ    matMul4Q4KAVX512_row

matMul4Q4KAVX512_ret:
	VZEROUPPER
	RET

// func MatMul4Q4KAVX512VNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)
//
// dst[c·ldd + r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[c·nb:(c+1)·nb]) for
// r < rows and c < 4: one weight row against four activation columns at a
// time, so that each weight block is decoded once for four dots.
// Requires: AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
//
// Z0..Z3 decoded chunks, Z4..Z7 their scale words, Z8 mins words, Z9
// [f16(d) x8 | f16(dmin) x8], Z10 scale bytes, then [A | M],
// Z12, Z29..Z31 products and Z13..Z15, Z11 int32 sums of columns 0..3,
// Z24..Z27 their [acc | accm], Z28 [dd | dm] of the current column.
TEXT ·MatMul4Q4KAVX512VNNI(SB), NOSPLIT, $16-48
	MOVQ   dst+0(FP), DST
	MOVQ   w+16(FP), WP
	MOVQ   x+24(FP), XROW
	MOVQ   rows+32(FP), ROWS
	MOVQ   nb+40(FP), NB
	TESTQ  ROWS, ROWS
	JZ     matMul4Q4KAVX512VNNI_ret
	IMUL3Q $blockQ8K__size, NB, XS
	LEAQ   (XS)(XS*2), XS3
	Q4K_Z_CONSTANTS

matMul4Q4KAVX512VNNI_row:
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matMul4Q4KAVX512VNNI_rowend

	PCALIGN $32
matMul4Q4KAVX512VNNI_block:
	// Decode the weight block once: quants, scale words, mins words, d.
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Z(Z10, Z11)
	KQ_NIBBLES_Z(blockQ4K_qs+0(WP), Z0)
	KQ_NIBBLES_Z(blockQ4K_qs+32(WP), Z1)
	KQ_NIBBLES_Z(blockQ4K_qs+64(WP), Z2)
	KQ_NIBBLES_Z(blockQ4K_qs+96(WP), Z3)
	VPSHUFB      Z17, Z10, Z4
	VPSHUFB      Z18, Z10, Z5
	VPSHUFB      Z19, Z10, Z6
	VPSHUFB      Z20, Z10, Z7
	VPSHUFB      Z21, Z10, Z8
	VPBROADCASTD blockQ4K_d(WP), X9
	VCVTPH2PS    X9, X9
	VPERMPS      Z9, Z22, Z9

	// Chunk-major over the four columns, so that the four columns' dependency
	// chains interleave.
	VPMADDUBSW blockQ8K_qs+0(XP), Z0, Z12
	KQ_MUL_Z(Z4, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+0), Z0, Z29
	KQ_MUL_Z(Z4, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+0), Z0, Z30
	KQ_MUL_Z(Z4, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+0), Z0, Z31
	KQ_MUL_Z(Z4, Z31, Z11)
	VPMADDUBSW blockQ8K_qs+64(XP), Z1, Z12
	KQ_ACC_VNNI_Z(Z5, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+64), Z1, Z29
	KQ_ACC_VNNI_Z(Z5, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+64), Z1, Z30
	KQ_ACC_VNNI_Z(Z5, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+64), Z1, Z31
	KQ_ACC_VNNI_Z(Z5, Z31, Z11)
	VPMADDUBSW blockQ8K_qs+128(XP), Z2, Z12
	KQ_ACC_VNNI_Z(Z6, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+128), Z2, Z29
	KQ_ACC_VNNI_Z(Z6, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+128), Z2, Z30
	KQ_ACC_VNNI_Z(Z6, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+128), Z2, Z31
	KQ_ACC_VNNI_Z(Z6, Z31, Z11)
	VPMADDUBSW blockQ8K_qs+192(XP), Z3, Z12
	KQ_ACC_VNNI_Z(Z7, Z12, Z13)
	VPMADDUBSW XC1(blockQ8K_qs+192), Z3, Z29
	KQ_ACC_VNNI_Z(Z7, Z29, Z14)
	VPMADDUBSW XC2(blockQ8K_qs+192), Z3, Z30
	KQ_ACC_VNNI_Z(Z7, Z30, Z15)
	VPMADDUBSW XC3(blockQ8K_qs+192), Z3, Z31
	KQ_ACC_VNNI_Z(Z7, Z31, Z11)

	// Column 0: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 blockQ8K_bsums(XP), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     blockQ8K_d(XP), Z9, Z28
	KQ_FINISH_Z(Z13, Z10, Z12, Z28, Z24)

	// Column 1: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 XC1(blockQ8K_bsums), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     XC1(blockQ8K_d), Z9, Z28
	KQ_FINISH_Z(Z14, Z10, Z29, Z28, Z25)

	// Column 2: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 XC2(blockQ8K_bsums), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     XC2(blockQ8K_d), Z9, Z28
	KQ_FINISH_Z(Z15, Z10, Z30, Z28, Z26)

	// Column 3: [A | M], then acc += dd·float32(A), accm += dm·float32(M).
	VBROADCASTI64X4 XC3(blockQ8K_bsums), Z10
	VPMADDWD        Z8, Z10, Z10
	VMULPS.BCST     XC3(blockQ8K_d), Z9, Z28
	KQ_FINISH_Z(Z11, Z10, Z31, Z28, Z27)

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matMul4Q4KAVX512VNNI_block

matMul4Q4KAVX512VNNI_rowend:
	MOVQ   ldd+8(FP), AX
	SHLQ   $2, AX
	KQ_HSUM_Z(Z24, Z15, X24, X15)
	VMOVSS X24, (DST)
	KQ_HSUM_Z(Z25, Z15, X25, X15)
	VMOVSS X25, (DST)(AX*1)
	KQ_HSUM_Z(Z26, Z15, X26, X15)
	VMOVSS X26, (DST)(AX*2)
	LEAQ   (AX)(AX*2), AX
	KQ_HSUM_Z(Z27, Z15, X27, X15)
	VMOVSS X27, (DST)(AX*1)
	ADDQ   $4, DST
	DECQ   ROWS
	JNZ    matMul4Q4KAVX512VNNI_row

matMul4Q4KAVX512VNNI_ret:
	VZEROUPPER
	RET

// func MatMul8Q4KAVX512(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)
//
// dst[c·ldd + r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], column c) for r < rows and
// c < 8, where xp holds the eight activation columns as four pairs in the
// Q8KPair layout (pair p at xp + p·nb·Q8KPair__size, block b of the pair at
// + b·Q8KPair__size). One zmm register holds one sub-block of two columns,
// so the int32 lanes need no folding, and one sub-block has one scale:
// VPMADDWD + VPADDD with the scale dword broadcast from the frame.
// Requires: AVX512F, AVX512BW, AVX512VL, F16C
//
// Z0..Z7 the eight sub-blocks of the weight block (the same quants in both
// halves), Z8, Z9, Z29, Z30 products of pairs 0..3, Z12..Z15 their int32
// sums A, Z24..Z27 their acc and Z16..Z19 their accm ([column 2p | column
// 2p+1] each), Z20 mins words, Z21 f16(d) x16, Z22 f16(dmin) x16, Z23 0x0F
// bytes, Z10 scale bytes, then scale words, Z11 and Z31 scratch, Z28
// dword 1s. The frame holds the scale qwords (0..15) and the eight scale
// dwords sc(j) | sc(j)<<16 (16..47).
TEXT ·MatMul8Q4KAVX512(SB), NOSPLIT, $48-48
	MOVQ   dst+0(FP), DST
	MOVQ   w+16(FP), WP
	MOVQ   xp+24(FP), XROW
	MOVQ   rows+32(FP), ROWS
	MOVQ   nb+40(FP), NB
	TESTQ  ROWS, ROWS
	JZ     matMul8Q4KAVX512_ret
	IMUL3Q $Q8KPair__size, NB, XS
	LEAQ   (XS)(XS*2), XS3
	VMOVDQU64 kqNib<>(SB), Z23
	MOVL   $0xAA, AX
	KMOVW  AX, K2

matMul8Q4KAVX512_row:
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matMul8Q4KAVX512_rowend

	PCALIGN $32
matMul8Q4KAVX512_block:
	// Decode the weight block once for eight columns.
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Z(Z10, Z11)
	VPSHUFB      kqScD<>(SB), Y10, Y11
	VMOVDQU      Y11, 16(SP)
	VPSHUFB      kqMin2<>(SB), Z10, Z20
	VPBROADCASTD blockQ4K_d(WP), X21
	VCVTPH2PS    X21, X21
	VPBROADCASTD kqDDM<>+32(SB), Z28
	VPERMPS      Z21, Z28, Z22
	VBROADCASTSS X21, Z21
	VBROADCASTI64X4 blockQ4K_qs+0(WP), Z11
	VPANDD          Z23, Z11, Z0
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z1
	VBROADCASTI64X4 blockQ4K_qs+32(WP), Z11
	VPANDD          Z23, Z11, Z2
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z3
	VBROADCASTI64X4 blockQ4K_qs+64(WP), Z11
	VPANDD          Z23, Z11, Z4
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z5
	VBROADCASTI64X4 blockQ4K_qs+96(WP), Z11
	VPANDD          Z23, Z11, Z6
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z7

	// Sub-block by sub-block over the four pairs.
	VPBROADCASTD 16(SP), Z10
	VPMADDUBSW Q8KPair_Qs+0(XP), Z0, Z8
	VPMADDWD   Z10, Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+0), Z0, Z9
	VPMADDWD   Z10, Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+0), Z0, Z29
	VPMADDWD   Z10, Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+0), Z0, Z30
	VPMADDWD   Z10, Z30, Z15
	VPBROADCASTD 20(SP), Z10
	VPMADDUBSW Q8KPair_Qs+64(XP), Z1, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+64), Z1, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+64), Z1, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+64), Z1, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)
	VPBROADCASTD 24(SP), Z10
	VPMADDUBSW Q8KPair_Qs+128(XP), Z2, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+128), Z2, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+128), Z2, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+128), Z2, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)
	VPBROADCASTD 28(SP), Z10
	VPMADDUBSW Q8KPair_Qs+192(XP), Z3, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+192), Z3, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+192), Z3, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+192), Z3, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)
	VPBROADCASTD 32(SP), Z10
	VPMADDUBSW Q8KPair_Qs+256(XP), Z4, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+256), Z4, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+256), Z4, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+256), Z4, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)
	VPBROADCASTD 36(SP), Z10
	VPMADDUBSW Q8KPair_Qs+320(XP), Z5, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+320), Z5, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+320), Z5, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+320), Z5, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)
	VPBROADCASTD 40(SP), Z10
	VPMADDUBSW Q8KPair_Qs+384(XP), Z6, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+384), Z6, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+384), Z6, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+384), Z6, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)
	VPBROADCASTD 44(SP), Z10
	VPMADDUBSW Q8KPair_Qs+448(XP), Z7, Z8
	KQ_ACC_BW_Z(Z10, Z8, Z12)
	VPMADDUBSW XC1(Q8KPair_Qs+448), Z7, Z9
	KQ_ACC_BW_Z(Z10, Z9, Z13)
	VPMADDUBSW XC2(Q8KPair_Qs+448), Z7, Z29
	KQ_ACC_BW_Z(Z10, Z29, Z14)
	VPMADDUBSW XC3(Q8KPair_Qs+448), Z7, Z30
	KQ_ACC_BW_Z(Z10, Z30, Z15)

	// Pair 0 (columns 0, 1): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  Q8KPair_BSums(XP), Z20, Z8
	VCVTDQ2PS Z12, Z12
	VCVTDQ2PS Z8, Z8
	VMULPS    Q8KPair_D(XP), Z21, Z31
	VMULPS    Z31, Z12, Z12
	VMULPS    Q8KPair_D(XP), Z22, Z31
	VMULPS    Z31, Z8, Z8
	VADDPS    Z12, Z24, Z24
	VADDPS    Z8, Z16, Z16

	// Pair 1 (columns 2, 3): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  XC1(Q8KPair_BSums), Z20, Z9
	VCVTDQ2PS Z13, Z13
	VCVTDQ2PS Z9, Z9
	VMULPS    XC1(Q8KPair_D), Z21, Z31
	VMULPS    Z31, Z13, Z13
	VMULPS    XC1(Q8KPair_D), Z22, Z31
	VMULPS    Z31, Z9, Z9
	VADDPS    Z13, Z25, Z25
	VADDPS    Z9, Z17, Z17

	// Pair 2 (columns 4, 5): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  XC2(Q8KPair_BSums), Z20, Z29
	VCVTDQ2PS Z14, Z14
	VCVTDQ2PS Z29, Z29
	VMULPS    XC2(Q8KPair_D), Z21, Z31
	VMULPS    Z31, Z14, Z14
	VMULPS    XC2(Q8KPair_D), Z22, Z31
	VMULPS    Z31, Z29, Z29
	VADDPS    Z14, Z26, Z26
	VADDPS    Z29, Z18, Z18

	// Pair 3 (columns 6, 7): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  XC3(Q8KPair_BSums), Z20, Z30
	VCVTDQ2PS Z15, Z15
	VCVTDQ2PS Z30, Z30
	VMULPS    XC3(Q8KPair_D), Z21, Z31
	VMULPS    Z31, Z15, Z15
	VMULPS    XC3(Q8KPair_D), Z22, Z31
	VMULPS    Z31, Z30, Z30
	VADDPS    Z15, Z27, Z27
	VADDPS    Z30, Z19, Z19

	ADDQ $blockQ4K__size, WP
	ADDQ $Q8KPair__size, XP
	DECQ N
	JNZ  matMul8Q4KAVX512_block

matMul8Q4KAVX512_rowend:
	MOVQ ldd+8(FP), AX
	SHLQ $2, AX
	MOVQ DST, R10
	VSHUFF64X2 $0x44, Z16, Z24, Z0
	VSHUFF64X2 $0xEE, Z16, Z24, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	VSHUFF64X2 $0x44, Z17, Z25, Z0
	VSHUFF64X2 $0xEE, Z17, Z25, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	VSHUFF64X2 $0x44, Z18, Z26, Z0
	VSHUFF64X2 $0xEE, Z18, Z26, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	VSHUFF64X2 $0x44, Z19, Z27, Z0
	VSHUFF64X2 $0xEE, Z19, Z27, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	ADDQ $4, DST
	DECQ ROWS
	JNZ  matMul8Q4KAVX512_row

matMul8Q4KAVX512_ret:
	VZEROUPPER
	RET

// func MatMul8Q4KAVX512VNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)
//
// dst[c·ldd + r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], column c) for r < rows and
// c < 8, where xp holds the eight activation columns as four pairs in the
// Q8KPair layout (pair p at xp + p·nb·Q8KPair__size, block b of the pair at
// + b·Q8KPair__size). One zmm register holds one sub-block of two columns,
// so the int32 lanes need no folding, and one sub-block has one scale:
// VPDPWSSD with the scale dword broadcast from the frame ({1to16}).
// Requires: AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
//
// Z0..Z7 the eight sub-blocks of the weight block (the same quants in both
// halves), Z8, Z9, Z29, Z30 products of pairs 0..3, Z12..Z15 their int32
// sums A, Z24..Z27 their acc and Z16..Z19 their accm ([column 2p | column
// 2p+1] each), Z20 mins words, Z21 f16(d) x16, Z22 f16(dmin) x16, Z23 0x0F
// bytes, Z10 scale bytes, then scale words, Z11 and Z31 scratch, Z28
// dword 1s. The frame holds the scale qwords (0..15) and the eight scale
// dwords sc(j) | sc(j)<<16 (16..47).
TEXT ·MatMul8Q4KAVX512VNNI(SB), NOSPLIT, $48-48
	MOVQ   dst+0(FP), DST
	MOVQ   w+16(FP), WP
	MOVQ   xp+24(FP), XROW
	MOVQ   rows+32(FP), ROWS
	MOVQ   nb+40(FP), NB
	TESTQ  ROWS, ROWS
	JZ     matMul8Q4KAVX512VNNI_ret
	IMUL3Q $Q8KPair__size, NB, XS
	LEAQ   (XS)(XS*2), XS3
	VMOVDQU64 kqNib<>(SB), Z23
	MOVL   $0xAA, AX
	KMOVW  AX, K2

matMul8Q4KAVX512VNNI_row:
	VPXORD Z24, Z24, Z24
	VPXORD Z25, Z25, Z25
	VPXORD Z26, Z26, Z26
	VPXORD Z27, Z27, Z27
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matMul8Q4KAVX512VNNI_rowend

	PCALIGN $32
matMul8Q4KAVX512VNNI_block:
	// Decode the weight block once for eight columns.
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Z(Z10, Z11)
	VPSHUFB      kqScD<>(SB), Y10, Y11
	VMOVDQU      Y11, 16(SP)
	VPSHUFB      kqMin2<>(SB), Z10, Z20
	VPBROADCASTD blockQ4K_d(WP), X21
	VCVTPH2PS    X21, X21
	VPBROADCASTD kqDDM<>+32(SB), Z28
	VPERMPS      Z21, Z28, Z22
	VBROADCASTSS X21, Z21
	VBROADCASTI64X4 blockQ4K_qs+0(WP), Z11
	VPANDD          Z23, Z11, Z0
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z1
	VBROADCASTI64X4 blockQ4K_qs+32(WP), Z11
	VPANDD          Z23, Z11, Z2
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z3
	VBROADCASTI64X4 blockQ4K_qs+64(WP), Z11
	VPANDD          Z23, Z11, Z4
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z5
	VBROADCASTI64X4 blockQ4K_qs+96(WP), Z11
	VPANDD          Z23, Z11, Z6
	VPSRLW          $4, Z11, Z11
	VPANDD          Z23, Z11, Z7

	// Sub-block by sub-block over the four pairs.
	VPBROADCASTD 16(SP), Z10
	VPMADDUBSW Q8KPair_Qs+0(XP), Z0, Z8
	VPMADDWD   Z10, Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+0), Z0, Z9
	VPMADDWD   Z10, Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+0), Z0, Z29
	VPMADDWD   Z10, Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+0), Z0, Z30
	VPMADDWD   Z10, Z30, Z15
	VPMADDUBSW Q8KPair_Qs+64(XP), Z1, Z8
	VPDPWSSD.BCST 20(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+64), Z1, Z9
	VPDPWSSD.BCST 20(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+64), Z1, Z29
	VPDPWSSD.BCST 20(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+64), Z1, Z30
	VPDPWSSD.BCST 20(SP), Z30, Z15
	VPMADDUBSW Q8KPair_Qs+128(XP), Z2, Z8
	VPDPWSSD.BCST 24(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+128), Z2, Z9
	VPDPWSSD.BCST 24(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+128), Z2, Z29
	VPDPWSSD.BCST 24(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+128), Z2, Z30
	VPDPWSSD.BCST 24(SP), Z30, Z15
	VPMADDUBSW Q8KPair_Qs+192(XP), Z3, Z8
	VPDPWSSD.BCST 28(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+192), Z3, Z9
	VPDPWSSD.BCST 28(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+192), Z3, Z29
	VPDPWSSD.BCST 28(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+192), Z3, Z30
	VPDPWSSD.BCST 28(SP), Z30, Z15
	VPMADDUBSW Q8KPair_Qs+256(XP), Z4, Z8
	VPDPWSSD.BCST 32(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+256), Z4, Z9
	VPDPWSSD.BCST 32(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+256), Z4, Z29
	VPDPWSSD.BCST 32(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+256), Z4, Z30
	VPDPWSSD.BCST 32(SP), Z30, Z15
	VPMADDUBSW Q8KPair_Qs+320(XP), Z5, Z8
	VPDPWSSD.BCST 36(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+320), Z5, Z9
	VPDPWSSD.BCST 36(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+320), Z5, Z29
	VPDPWSSD.BCST 36(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+320), Z5, Z30
	VPDPWSSD.BCST 36(SP), Z30, Z15
	VPMADDUBSW Q8KPair_Qs+384(XP), Z6, Z8
	VPDPWSSD.BCST 40(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+384), Z6, Z9
	VPDPWSSD.BCST 40(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+384), Z6, Z29
	VPDPWSSD.BCST 40(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+384), Z6, Z30
	VPDPWSSD.BCST 40(SP), Z30, Z15
	VPMADDUBSW Q8KPair_Qs+448(XP), Z7, Z8
	VPDPWSSD.BCST 44(SP), Z8, Z12
	VPMADDUBSW XC1(Q8KPair_Qs+448), Z7, Z9
	VPDPWSSD.BCST 44(SP), Z9, Z13
	VPMADDUBSW XC2(Q8KPair_Qs+448), Z7, Z29
	VPDPWSSD.BCST 44(SP), Z29, Z14
	VPMADDUBSW XC3(Q8KPair_Qs+448), Z7, Z30
	VPDPWSSD.BCST 44(SP), Z30, Z15

	// Pair 0 (columns 0, 1): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  Q8KPair_BSums(XP), Z20, Z8
	VCVTDQ2PS Z12, Z12
	VCVTDQ2PS Z8, Z8
	VMULPS    Q8KPair_D(XP), Z21, Z31
	VMULPS    Z31, Z12, Z12
	VMULPS    Q8KPair_D(XP), Z22, Z31
	VMULPS    Z31, Z8, Z8
	VADDPS    Z12, Z24, Z24
	VADDPS    Z8, Z16, Z16

	// Pair 1 (columns 2, 3): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  XC1(Q8KPair_BSums), Z20, Z9
	VCVTDQ2PS Z13, Z13
	VCVTDQ2PS Z9, Z9
	VMULPS    XC1(Q8KPair_D), Z21, Z31
	VMULPS    Z31, Z13, Z13
	VMULPS    XC1(Q8KPair_D), Z22, Z31
	VMULPS    Z31, Z9, Z9
	VADDPS    Z13, Z25, Z25
	VADDPS    Z9, Z17, Z17

	// Pair 2 (columns 4, 5): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  XC2(Q8KPair_BSums), Z20, Z29
	VCVTDQ2PS Z14, Z14
	VCVTDQ2PS Z29, Z29
	VMULPS    XC2(Q8KPair_D), Z21, Z31
	VMULPS    Z31, Z14, Z14
	VMULPS    XC2(Q8KPair_D), Z22, Z31
	VMULPS    Z31, Z29, Z29
	VADDPS    Z14, Z26, Z26
	VADDPS    Z29, Z18, Z18

	// Pair 3 (columns 6, 7): M, then acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD  XC3(Q8KPair_BSums), Z20, Z30
	VCVTDQ2PS Z15, Z15
	VCVTDQ2PS Z30, Z30
	VMULPS    XC3(Q8KPair_D), Z21, Z31
	VMULPS    Z31, Z15, Z15
	VMULPS    XC3(Q8KPair_D), Z22, Z31
	VMULPS    Z31, Z30, Z30
	VADDPS    Z15, Z27, Z27
	VADDPS    Z30, Z19, Z19

	ADDQ $blockQ4K__size, WP
	ADDQ $Q8KPair__size, XP
	DECQ N
	JNZ  matMul8Q4KAVX512VNNI_block

matMul8Q4KAVX512VNNI_rowend:
	MOVQ ldd+8(FP), AX
	SHLQ $2, AX
	MOVQ DST, R10
	VSHUFF64X2 $0x44, Z16, Z24, Z0
	VSHUFF64X2 $0xEE, Z16, Z24, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	VSHUFF64X2 $0x44, Z17, Z25, Z0
	VSHUFF64X2 $0xEE, Z17, Z25, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	VSHUFF64X2 $0x44, Z18, Z26, Z0
	VSHUFF64X2 $0xEE, Z18, Z26, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	VSHUFF64X2 $0x44, Z19, Z27, Z0
	VSHUFF64X2 $0xEE, Z19, Z27, Z1
	KQ_HSUM_Z(Z0, Z9, X0, X9)
	KQ_HSUM_Z(Z1, Z9, X1, X9)
	VMOVSS     X0, (R10)
	ADDQ       AX, R10
	VMOVSS     X1, (R10)
	ADDQ       AX, R10
	ADDQ $4, DST
	DECQ ROWS
	JNZ  matMul8Q4KAVX512VNNI_row

matMul8Q4KAVX512VNNI_ret:
	VZEROUPPER
	RET

// ------------------------------------------------------------------ ymm
// The ymm kernels (AVX2, F16C [, AVX-VNNI]) keep Y15 = 0x0F bytes and Y14 =
// the scale bytes of the current block. AVX-VNNI's VPDPWSSD exists in the Go
// assembler only in its EVEX form, so the VEX form is spelled in bytes, each
// line commented with the instruction it encodes.

// func MatVecQ4KAVX2(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for r < rows.
// Requires: AVX2, F16C
//
// Y0, Y1 low/high quants → products, Y2, Y3 scale words, Y4 dd x8, Y5 dm x8,
// Y9 = 1 x8 (VPERMPS indices), Y10 accm, Y11 acc, Y12 A (int32), Y13 M.
TEXT ·MatVecQ4KAVX2(SB), NOSPLIT, $16-40
	MOVQ  dst+0(FP), DST
	MOVQ  w+8(FP), WP
	MOVQ  x+16(FP), XROW
	MOVQ  rows+24(FP), ROWS
	MOVQ  nb+32(FP), NB
	TESTQ ROWS, ROWS
	JZ    matVecQ4KAVX2_ret
	VMOVDQU      kqNib<>(SB), Y15
	VPBROADCASTD kqDDM<>+32(SB), Y9

matVecQ4KAVX2_row:
	VXORPS Y11, Y11, Y11
	VXORPS Y10, Y10, Y10
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matVecQ4KAVX2_rowend

	PCALIGN $32
matVecQ4KAVX2_block:
	KQ_PREFETCH(WP, blockQ4K__size)
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Y(Y14, Y2)

	// M[j] = m_j·(bsums[2j] + bsums[2j+1]).
	VPSHUFB  kqMin<>+32(SB), Y14, Y13
	VPMADDWD blockQ8K_bsums(XP), Y13, Y13

	// Chunk 0: sub-blocks 0 (low nibbles) and 1 (high nibbles).
	VMOVDQU    blockQ4K_qs+0(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+0(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+32(XP), Y1, Y1
	VPSHUFB    kqScY<>+0(SB), Y14, Y2
	VPSHUFB    kqScY<>+32(SB), Y14, Y3
	VPMADDWD   Y2, Y0, Y0
	VPMADDWD   Y3, Y1, Y1
	VPADDD     Y0, Y1, Y12

	// Chunk 1: sub-blocks 2 (low nibbles) and 3 (high nibbles).
	VMOVDQU    blockQ4K_qs+32(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+64(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+96(XP), Y1, Y1
	VPSHUFB    kqScY<>+64(SB), Y14, Y2
	VPSHUFB    kqScY<>+96(SB), Y14, Y3
	VPMADDWD   Y2, Y0, Y0
	VPMADDWD   Y3, Y1, Y1
	VPADDD     Y0, Y12, Y12
	VPADDD     Y1, Y12, Y12

	// Chunk 2: sub-blocks 4 (low nibbles) and 5 (high nibbles).
	VMOVDQU    blockQ4K_qs+64(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+128(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+160(XP), Y1, Y1
	VPSHUFB    kqScY<>+128(SB), Y14, Y2
	VPSHUFB    kqScY<>+160(SB), Y14, Y3
	VPMADDWD   Y2, Y0, Y0
	VPMADDWD   Y3, Y1, Y1
	VPADDD     Y0, Y12, Y12
	VPADDD     Y1, Y12, Y12

	// Chunk 3: sub-blocks 6 (low nibbles) and 7 (high nibbles).
	VMOVDQU    blockQ4K_qs+96(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+192(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+224(XP), Y1, Y1
	VPSHUFB    kqScY<>+192(SB), Y14, Y2
	VPSHUFB    kqScY<>+224(SB), Y14, Y3
	VPMADDWD   Y2, Y0, Y0
	VPMADDWD   Y3, Y1, Y1
	VPADDD     Y0, Y12, Y12
	VPADDD     Y1, Y12, Y12

	VCVTDQ2PS    Y12, Y12
	VCVTDQ2PS    Y13, Y13
	VPBROADCASTD blockQ4K_d(WP), X4
	VCVTPH2PS    X4, X4         // [d, dmin, d, dmin]
	VBROADCASTSS blockQ8K_d(XP), X5
	VMULPS       X5, X4, X4     // [dd, dm, dd, dm]
	VPERMPS      Y4, Y9, Y5     // dm x8
	VBROADCASTSS X4, Y4         // dd x8
	VMULPS       Y4, Y12, Y12
	VADDPS       Y12, Y11, Y11
	VMULPS       Y5, Y13, Y13
	VADDPS       Y13, Y10, Y10

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matVecQ4KAVX2_block

matVecQ4KAVX2_rowend:
	KQ_HSUM_Y(Y11, Y10, X11, X10, X0)
	VMOVSS X11, (DST)
	ADDQ   $4, DST
	DECQ   ROWS
	JNZ    matVecQ4KAVX2_row

matVecQ4KAVX2_ret:
	VZEROUPPER
	RET

// func MatVecQ4KAVXVNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)
//
// dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for r < rows.
// Requires: AVX2, F16C, AVX-VNNI
//
// Y0, Y1 low/high quants → products, Y2, Y3 scale words, Y4 dd x8, Y5 dm x8,
// Y9 = 1 x8 (VPERMPS indices), Y10 accm, Y11 acc, Y12 A (int32), Y13 M.
TEXT ·MatVecQ4KAVXVNNI(SB), NOSPLIT, $16-40
	MOVQ  dst+0(FP), DST
	MOVQ  w+8(FP), WP
	MOVQ  x+16(FP), XROW
	MOVQ  rows+24(FP), ROWS
	MOVQ  nb+32(FP), NB
	TESTQ ROWS, ROWS
	JZ    matVecQ4KAVXVNNI_ret
	VMOVDQU      kqNib<>(SB), Y15
	VPBROADCASTD kqDDM<>+32(SB), Y9

matVecQ4KAVXVNNI_row:
	VXORPS Y11, Y11, Y11
	VXORPS Y10, Y10, Y10
	MOVQ   XROW, XP
	MOVQ   NB, N
	TESTQ  N, N
	JZ     matVecQ4KAVXVNNI_rowend

	PCALIGN $32
matVecQ4KAVXVNNI_block:
	KQ_PREFETCH(WP, blockQ4K__size)
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Y(Y14, Y2)

	// M[j] = m_j·(bsums[2j] + bsums[2j+1]).
	VPSHUFB  kqMin<>+32(SB), Y14, Y13
	VPMADDWD blockQ8K_bsums(XP), Y13, Y13

	// Chunk 0: sub-blocks 0 (low nibbles) and 1 (high nibbles).
	VMOVDQU    blockQ4K_qs+0(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+0(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+32(XP), Y1, Y1
	VPSHUFB    kqScY<>+0(SB), Y14, Y2
	VPSHUFB    kqScY<>+32(SB), Y14, Y3
	VPMADDWD   Y2, Y0, Y12
	LONG $0x527562c4; BYTE $0xe3 // {vex} vpdpwssd ymm12, ymm1, ymm3

	// Chunk 1: sub-blocks 2 (low nibbles) and 3 (high nibbles).
	VMOVDQU    blockQ4K_qs+32(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+64(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+96(XP), Y1, Y1
	VPSHUFB    kqScY<>+64(SB), Y14, Y2
	VPSHUFB    kqScY<>+96(SB), Y14, Y3
	LONG $0x527d62c4; BYTE $0xe2 // {vex} vpdpwssd ymm12, ymm0, ymm2
	LONG $0x527562c4; BYTE $0xe3 // {vex} vpdpwssd ymm12, ymm1, ymm3

	// Chunk 2: sub-blocks 4 (low nibbles) and 5 (high nibbles).
	VMOVDQU    blockQ4K_qs+64(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+128(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+160(XP), Y1, Y1
	VPSHUFB    kqScY<>+128(SB), Y14, Y2
	VPSHUFB    kqScY<>+160(SB), Y14, Y3
	LONG $0x527d62c4; BYTE $0xe2 // {vex} vpdpwssd ymm12, ymm0, ymm2
	LONG $0x527562c4; BYTE $0xe3 // {vex} vpdpwssd ymm12, ymm1, ymm3

	// Chunk 3: sub-blocks 6 (low nibbles) and 7 (high nibbles).
	VMOVDQU    blockQ4K_qs+96(WP), Y0
	VPSRLW     $4, Y0, Y1
	VPAND      Y15, Y0, Y0
	VPAND      Y15, Y1, Y1
	VPMADDUBSW blockQ8K_qs+192(XP), Y0, Y0
	VPMADDUBSW blockQ8K_qs+224(XP), Y1, Y1
	VPSHUFB    kqScY<>+192(SB), Y14, Y2
	VPSHUFB    kqScY<>+224(SB), Y14, Y3
	LONG $0x527d62c4; BYTE $0xe2 // {vex} vpdpwssd ymm12, ymm0, ymm2
	LONG $0x527562c4; BYTE $0xe3 // {vex} vpdpwssd ymm12, ymm1, ymm3

	VCVTDQ2PS    Y12, Y12
	VCVTDQ2PS    Y13, Y13
	VPBROADCASTD blockQ4K_d(WP), X4
	VCVTPH2PS    X4, X4         // [d, dmin, d, dmin]
	VBROADCASTSS blockQ8K_d(XP), X5
	VMULPS       X5, X4, X4     // [dd, dm, dd, dm]
	VPERMPS      Y4, Y9, Y5     // dm x8
	VBROADCASTSS X4, Y4         // dd x8
	VMULPS       Y4, Y12, Y12
	VADDPS       Y12, Y11, Y11
	VMULPS       Y5, Y13, Y13
	VADDPS       Y13, Y10, Y10

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matVecQ4KAVXVNNI_block

matVecQ4KAVXVNNI_rowend:
	KQ_HSUM_Y(Y11, Y10, X11, X10, X0)
	VMOVSS X11, (DST)
	ADDQ   $4, DST
	DECQ   ROWS
	JNZ    matVecQ4KAVXVNNI_row

matVecQ4KAVXVNNI_ret:
	VZEROUPPER
	RET

// func MatMul4Q4KAVX2(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)
//
// dst[c·ldd + r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[c·nb:(c+1)·nb]) for
// r < rows and c < 4 (one weight row against four activation columns).
// Requires: AVX2, F16C
//
// Y0, Y1 quants, Y2, Y3 scale words, Y4..Y7 int32 sums A of columns 0..3,
// Y8, Y9 products, Y10 mins words, Y12 f16(d) x8, Y13 f16(dmin) x8.
// The float accumulators acc and accm of column k live at 16+64k(SP) and
// 48+64k(SP).
TEXT ·MatMul4Q4KAVX2(SB), NOSPLIT, $272-48
	MOVQ    dst+0(FP), DST
	MOVQ    w+16(FP), WP
	MOVQ    x+24(FP), XROW
	MOVQ    rows+32(FP), ROWS
	MOVQ    nb+40(FP), NB
	TESTQ   ROWS, ROWS
	JZ      matMul4Q4KAVX2_ret
	IMUL3Q  $blockQ8K__size, NB, XS
	LEAQ    (XS)(XS*2), XS3
	VMOVDQU kqNib<>(SB), Y15

matMul4Q4KAVX2_row:
	VXORPS  Y0, Y0, Y0
	VMOVUPS Y0, 16(SP)
	VMOVUPS Y0, 48(SP)
	VMOVUPS Y0, 80(SP)
	VMOVUPS Y0, 112(SP)
	VMOVUPS Y0, 144(SP)
	VMOVUPS Y0, 176(SP)
	VMOVUPS Y0, 208(SP)
	VMOVUPS Y0, 240(SP)
	MOVQ    XROW, XP
	MOVQ    NB, N
	TESTQ   N, N
	JZ      matMul4Q4KAVX2_rowend

	PCALIGN $32
matMul4Q4KAVX2_block:
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Y(Y14, Y2)

	// Chunk 0: sub-blocks 0 and 1.
	VMOVDQU blockQ4K_qs+0(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+0(SB), Y14, Y2
	VPSHUFB kqScY<>+32(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+0(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+32(XP), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y9, Y4
	VPMADDUBSW XC1(blockQ8K_qs+0), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+32), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y9, Y5
	VPMADDUBSW XC2(blockQ8K_qs+0), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+32), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y9, Y6
	VPMADDUBSW XC3(blockQ8K_qs+0), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+32), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y9, Y7

	// Chunk 1: sub-blocks 2 and 3.
	VMOVDQU blockQ4K_qs+32(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+64(SB), Y14, Y2
	VPSHUFB kqScY<>+96(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+64(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+96(XP), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y4, Y4
	VPADDD     Y9, Y4, Y4
	VPMADDUBSW XC1(blockQ8K_qs+64), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+96), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y5, Y5
	VPADDD     Y9, Y5, Y5
	VPMADDUBSW XC2(blockQ8K_qs+64), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+96), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y6, Y6
	VPADDD     Y9, Y6, Y6
	VPMADDUBSW XC3(blockQ8K_qs+64), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+96), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y7, Y7
	VPADDD     Y9, Y7, Y7

	// Chunk 2: sub-blocks 4 and 5.
	VMOVDQU blockQ4K_qs+64(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+128(SB), Y14, Y2
	VPSHUFB kqScY<>+160(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+128(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+160(XP), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y4, Y4
	VPADDD     Y9, Y4, Y4
	VPMADDUBSW XC1(blockQ8K_qs+128), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+160), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y5, Y5
	VPADDD     Y9, Y5, Y5
	VPMADDUBSW XC2(blockQ8K_qs+128), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+160), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y6, Y6
	VPADDD     Y9, Y6, Y6
	VPMADDUBSW XC3(blockQ8K_qs+128), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+160), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y7, Y7
	VPADDD     Y9, Y7, Y7

	// Chunk 3: sub-blocks 6 and 7.
	VMOVDQU blockQ4K_qs+96(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+192(SB), Y14, Y2
	VPSHUFB kqScY<>+224(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+192(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+224(XP), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y4, Y4
	VPADDD     Y9, Y4, Y4
	VPMADDUBSW XC1(blockQ8K_qs+192), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+224), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y5, Y5
	VPADDD     Y9, Y5, Y5
	VPMADDUBSW XC2(blockQ8K_qs+192), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+224), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y6, Y6
	VPADDD     Y9, Y6, Y6
	VPMADDUBSW XC3(blockQ8K_qs+192), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+224), Y1, Y9
	VPMADDWD   Y2, Y8, Y8
	VPMADDWD   Y3, Y9, Y9
	VPADDD     Y8, Y7, Y7
	VPADDD     Y9, Y7, Y7

	// Mins words and f16(d), f16(dmin) of the weight block.
	VPSHUFB      kqMin<>+32(SB), Y14, Y10
	VPBROADCASTD blockQ4K_d(WP), X12
	VCVTPH2PS    X12, X12
	VMOVSHDUP    X12, X13
	VBROADCASTSS X12, Y12
	VBROADCASTSS X13, Y13

	// Column 0: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     blockQ8K_bsums(XP), Y10, Y0
	VCVTDQ2PS    Y4, Y4
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS blockQ8K_d(XP), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y4, Y4
	VMULPS       Y3, Y0, Y0
	VADDPS       16(SP), Y4, Y4
	VMOVUPS      Y4, 16(SP)
	VADDPS       48(SP), Y0, Y0
	VMOVUPS      Y0, 48(SP)

	// Column 1: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     XC1(blockQ8K_bsums), Y10, Y0
	VCVTDQ2PS    Y5, Y5
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS XC1(blockQ8K_d), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y5, Y5
	VMULPS       Y3, Y0, Y0
	VADDPS       80(SP), Y5, Y5
	VMOVUPS      Y5, 80(SP)
	VADDPS       112(SP), Y0, Y0
	VMOVUPS      Y0, 112(SP)

	// Column 2: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     XC2(blockQ8K_bsums), Y10, Y0
	VCVTDQ2PS    Y6, Y6
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS XC2(blockQ8K_d), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y6, Y6
	VMULPS       Y3, Y0, Y0
	VADDPS       144(SP), Y6, Y6
	VMOVUPS      Y6, 144(SP)
	VADDPS       176(SP), Y0, Y0
	VMOVUPS      Y0, 176(SP)

	// Column 3: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     XC3(blockQ8K_bsums), Y10, Y0
	VCVTDQ2PS    Y7, Y7
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS XC3(blockQ8K_d), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y7, Y7
	VMULPS       Y3, Y0, Y0
	VADDPS       208(SP), Y7, Y7
	VMOVUPS      Y7, 208(SP)
	VADDPS       240(SP), Y0, Y0
	VMOVUPS      Y0, 240(SP)

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matMul4Q4KAVX2_block

matMul4Q4KAVX2_rowend:
	MOVQ ldd+8(FP), AX
	SHLQ $2, AX
	LEAQ (AX)(AX*2), R10
	VMOVUPS 16(SP), Y0
	VMOVUPS 48(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)
	VMOVUPS 80(SP), Y0
	VMOVUPS 112(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)(AX*1)
	VMOVUPS 144(SP), Y0
	VMOVUPS 176(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)(AX*2)
	VMOVUPS 208(SP), Y0
	VMOVUPS 240(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)(R10*1)
	ADDQ    $4, DST
	DECQ    ROWS
	JNZ     matMul4Q4KAVX2_row

matMul4Q4KAVX2_ret:
	VZEROUPPER
	RET

// func MatMul4Q4KAVXVNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)
//
// dst[c·ldd + r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[c·nb:(c+1)·nb]) for
// r < rows and c < 4 (one weight row against four activation columns).
// Requires: AVX2, F16C, AVX-VNNI
//
// Y0, Y1 quants, Y2, Y3 scale words, Y4..Y7 int32 sums A of columns 0..3,
// Y8, Y9 products, Y10 mins words, Y12 f16(d) x8, Y13 f16(dmin) x8.
// The float accumulators acc and accm of column k live at 16+64k(SP) and
// 48+64k(SP).
TEXT ·MatMul4Q4KAVXVNNI(SB), NOSPLIT, $272-48
	MOVQ    dst+0(FP), DST
	MOVQ    w+16(FP), WP
	MOVQ    x+24(FP), XROW
	MOVQ    rows+32(FP), ROWS
	MOVQ    nb+40(FP), NB
	TESTQ   ROWS, ROWS
	JZ      matMul4Q4KAVXVNNI_ret
	IMUL3Q  $blockQ8K__size, NB, XS
	LEAQ    (XS)(XS*2), XS3
	VMOVDQU kqNib<>(SB), Y15

matMul4Q4KAVXVNNI_row:
	VXORPS  Y0, Y0, Y0
	VMOVUPS Y0, 16(SP)
	VMOVUPS Y0, 48(SP)
	VMOVUPS Y0, 80(SP)
	VMOVUPS Y0, 112(SP)
	VMOVUPS Y0, 144(SP)
	VMOVUPS Y0, 176(SP)
	VMOVUPS Y0, 208(SP)
	VMOVUPS Y0, 240(SP)
	MOVQ    XROW, XP
	MOVQ    NB, N
	TESTQ   N, N
	JZ      matMul4Q4KAVXVNNI_rowend

	PCALIGN $32
matMul4Q4KAVXVNNI_block:
	KQ_SCALES(WP, blockQ4K_scales, AX, R10, R11)
	KQ_SBYTES_Y(Y14, Y2)

	// Chunk 0: sub-blocks 0 and 1.
	VMOVDQU blockQ4K_qs+0(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+0(SB), Y14, Y2
	VPSHUFB kqScY<>+32(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+0(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+32(XP), Y1, Y9
	VPMADDWD   Y2, Y8, Y4
	LONG $0x5235e2c4; BYTE $0xe3 // {vex} vpdpwssd ymm4, ymm9, ymm3
	VPMADDUBSW XC1(blockQ8K_qs+0), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+32), Y1, Y9
	VPMADDWD   Y2, Y8, Y5
	LONG $0x5235e2c4; BYTE $0xeb // {vex} vpdpwssd ymm5, ymm9, ymm3
	VPMADDUBSW XC2(blockQ8K_qs+0), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+32), Y1, Y9
	VPMADDWD   Y2, Y8, Y6
	LONG $0x5235e2c4; BYTE $0xf3 // {vex} vpdpwssd ymm6, ymm9, ymm3
	VPMADDUBSW XC3(blockQ8K_qs+0), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+32), Y1, Y9
	VPMADDWD   Y2, Y8, Y7
	LONG $0x5235e2c4; BYTE $0xfb // {vex} vpdpwssd ymm7, ymm9, ymm3

	// Chunk 1: sub-blocks 2 and 3.
	VMOVDQU blockQ4K_qs+32(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+64(SB), Y14, Y2
	VPSHUFB kqScY<>+96(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+64(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+96(XP), Y1, Y9
	LONG $0x523de2c4; BYTE $0xe2 // {vex} vpdpwssd ymm4, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xe3 // {vex} vpdpwssd ymm4, ymm9, ymm3
	VPMADDUBSW XC1(blockQ8K_qs+64), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+96), Y1, Y9
	LONG $0x523de2c4; BYTE $0xea // {vex} vpdpwssd ymm5, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xeb // {vex} vpdpwssd ymm5, ymm9, ymm3
	VPMADDUBSW XC2(blockQ8K_qs+64), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+96), Y1, Y9
	LONG $0x523de2c4; BYTE $0xf2 // {vex} vpdpwssd ymm6, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xf3 // {vex} vpdpwssd ymm6, ymm9, ymm3
	VPMADDUBSW XC3(blockQ8K_qs+64), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+96), Y1, Y9
	LONG $0x523de2c4; BYTE $0xfa // {vex} vpdpwssd ymm7, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xfb // {vex} vpdpwssd ymm7, ymm9, ymm3

	// Chunk 2: sub-blocks 4 and 5.
	VMOVDQU blockQ4K_qs+64(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+128(SB), Y14, Y2
	VPSHUFB kqScY<>+160(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+128(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+160(XP), Y1, Y9
	LONG $0x523de2c4; BYTE $0xe2 // {vex} vpdpwssd ymm4, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xe3 // {vex} vpdpwssd ymm4, ymm9, ymm3
	VPMADDUBSW XC1(blockQ8K_qs+128), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+160), Y1, Y9
	LONG $0x523de2c4; BYTE $0xea // {vex} vpdpwssd ymm5, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xeb // {vex} vpdpwssd ymm5, ymm9, ymm3
	VPMADDUBSW XC2(blockQ8K_qs+128), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+160), Y1, Y9
	LONG $0x523de2c4; BYTE $0xf2 // {vex} vpdpwssd ymm6, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xf3 // {vex} vpdpwssd ymm6, ymm9, ymm3
	VPMADDUBSW XC3(blockQ8K_qs+128), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+160), Y1, Y9
	LONG $0x523de2c4; BYTE $0xfa // {vex} vpdpwssd ymm7, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xfb // {vex} vpdpwssd ymm7, ymm9, ymm3

	// Chunk 3: sub-blocks 6 and 7.
	VMOVDQU blockQ4K_qs+96(WP), Y0
	VPSRLW  $4, Y0, Y1
	VPAND   Y15, Y0, Y0
	VPAND   Y15, Y1, Y1
	VPSHUFB kqScY<>+192(SB), Y14, Y2
	VPSHUFB kqScY<>+224(SB), Y14, Y3
	VPMADDUBSW blockQ8K_qs+192(XP), Y0, Y8
	VPMADDUBSW blockQ8K_qs+224(XP), Y1, Y9
	LONG $0x523de2c4; BYTE $0xe2 // {vex} vpdpwssd ymm4, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xe3 // {vex} vpdpwssd ymm4, ymm9, ymm3
	VPMADDUBSW XC1(blockQ8K_qs+192), Y0, Y8
	VPMADDUBSW XC1(blockQ8K_qs+224), Y1, Y9
	LONG $0x523de2c4; BYTE $0xea // {vex} vpdpwssd ymm5, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xeb // {vex} vpdpwssd ymm5, ymm9, ymm3
	VPMADDUBSW XC2(blockQ8K_qs+192), Y0, Y8
	VPMADDUBSW XC2(blockQ8K_qs+224), Y1, Y9
	LONG $0x523de2c4; BYTE $0xf2 // {vex} vpdpwssd ymm6, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xf3 // {vex} vpdpwssd ymm6, ymm9, ymm3
	VPMADDUBSW XC3(blockQ8K_qs+192), Y0, Y8
	VPMADDUBSW XC3(blockQ8K_qs+224), Y1, Y9
	LONG $0x523de2c4; BYTE $0xfa // {vex} vpdpwssd ymm7, ymm8, ymm2
	LONG $0x5235e2c4; BYTE $0xfb // {vex} vpdpwssd ymm7, ymm9, ymm3

	// Mins words and f16(d), f16(dmin) of the weight block.
	VPSHUFB      kqMin<>+32(SB), Y14, Y10
	VPBROADCASTD blockQ4K_d(WP), X12
	VCVTPH2PS    X12, X12
	VMOVSHDUP    X12, X13
	VBROADCASTSS X12, Y12
	VBROADCASTSS X13, Y13

	// Column 0: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     blockQ8K_bsums(XP), Y10, Y0
	VCVTDQ2PS    Y4, Y4
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS blockQ8K_d(XP), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y4, Y4
	VMULPS       Y3, Y0, Y0
	VADDPS       16(SP), Y4, Y4
	VMOVUPS      Y4, 16(SP)
	VADDPS       48(SP), Y0, Y0
	VMOVUPS      Y0, 48(SP)

	// Column 1: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     XC1(blockQ8K_bsums), Y10, Y0
	VCVTDQ2PS    Y5, Y5
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS XC1(blockQ8K_d), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y5, Y5
	VMULPS       Y3, Y0, Y0
	VADDPS       80(SP), Y5, Y5
	VMOVUPS      Y5, 80(SP)
	VADDPS       112(SP), Y0, Y0
	VMOVUPS      Y0, 112(SP)

	// Column 2: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     XC2(blockQ8K_bsums), Y10, Y0
	VCVTDQ2PS    Y6, Y6
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS XC2(blockQ8K_d), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y6, Y6
	VMULPS       Y3, Y0, Y0
	VADDPS       144(SP), Y6, Y6
	VMOVUPS      Y6, 144(SP)
	VADDPS       176(SP), Y0, Y0
	VMOVUPS      Y0, 176(SP)

	// Column 3: acc += dd·float32(A), accm += dm·float32(M).
	VPMADDWD     XC3(blockQ8K_bsums), Y10, Y0
	VCVTDQ2PS    Y7, Y7
	VCVTDQ2PS    Y0, Y0
	VBROADCASTSS XC3(blockQ8K_d), Y1
	VMULPS       Y12, Y1, Y2
	VMULPS       Y13, Y1, Y3
	VMULPS       Y2, Y7, Y7
	VMULPS       Y3, Y0, Y0
	VADDPS       208(SP), Y7, Y7
	VMOVUPS      Y7, 208(SP)
	VADDPS       240(SP), Y0, Y0
	VMOVUPS      Y0, 240(SP)

	ADDQ $blockQ4K__size, WP
	ADDQ $blockQ8K__size, XP
	DECQ N
	JNZ  matMul4Q4KAVXVNNI_block

matMul4Q4KAVXVNNI_rowend:
	MOVQ ldd+8(FP), AX
	SHLQ $2, AX
	LEAQ (AX)(AX*2), R10
	VMOVUPS 16(SP), Y0
	VMOVUPS 48(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)
	VMOVUPS 80(SP), Y0
	VMOVUPS 112(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)(AX*1)
	VMOVUPS 144(SP), Y0
	VMOVUPS 176(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)(AX*2)
	VMOVUPS 208(SP), Y0
	VMOVUPS 240(SP), Y1
	KQ_HSUM_Y(Y0, Y1, X0, X1, X2)
	VMOVSS  X0, (DST)(R10*1)
	ADDQ    $4, DST
	DECQ    ROWS
	JNZ     matMul4Q4KAVXVNNI_row

matMul4Q4KAVXVNNI_ret:
	VZEROUPPER
	RET
