//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// Q8_0 · Q8_0 dot products, many rows a call.
//
//	MatVecQ8_0AVX2, MatVecQ8_0AVXVNNI, MatVecQ8_0AVX512, MatVecQ8_0AVX512VNNI
//	(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)
//
// dst[r·inc] = dot(row r of w, x) for r < rows, each row nb blocks of 34
// bytes. Every dot follows kernels.dotQ8_0Generic exactly: per 32-value
// block b, the int32 lane sums A[l] (lane l = values 4l..4l+3, exact),
// dd = f16(dw)·f16(dx) as one float32 multiply, acc[b mod 4][l] +=
// dd·float32(A[l]) as a multiply then an add (no FMA), and at the end
// hsum((acc0+acc1) + (acc2+acc3)) with hsum(v) = ((v0+v4)+(v2+v6)) +
// ((v1+v5)+(v3+v7)), a NaN result stored as the canonical NaN.
//
// The product is symmetric, so the kernels package also uses these
// routines for MatMul: with w = the activation columns, x = one weight row
// and inc = ldd they fill one row of the output, so each weight row is read
// (and its sign and scales prepared) once for a whole tile of columns.
//
// Every quant byte is valid on either side, -128 included (GGUF files may
// hold it, and ggml's |x|·sign(w, x) trick overflows on it). The products
// are exact for all of them:
//
//   - without VNNI, both operands are sign-extended to int16 in place (the
//     even byte of each word shifted up and back down, the odd byte shifted
//     down), and VPMADDWD of the even halves plus VPMADDWD of the odd halves
//     is the sum of a lane's four products (|·| ≤ 4·128², no saturation);
//   - with VNNI, u = w XOR 0x80 (w + 128 as an unsigned byte) and s = x, so
//     VPDPBUSD adds Σ w·x + 128·Σ x to an accumulator seeded with
//     -128·Σ x, which is computed once per block of x (VPMADDUBSW of 1s
//     with x, then VPMADDWD with -128) and shared by every row of the tile.
//
// Either way x's part is done once per block and shared by every row.
//
// Vectors are 256 bits wide in every variant. A block is 32 values, so its
// float work (convert, scale, accumulate) fills one ymm register; a zmm
// register would hold two blocks with different scales and need a
// cross-lane permute per block pair. The AVX-512 variants use the 32
// registers of EVEX for a four-row tile and embedded broadcasts for dd.
//
// Scales: the fp16 scales of four blocks of every row (and of x) are
// packed into general registers (the vector ports stay free), converted
// with one VCVTPH2PS, multiplied, and stored to the frame; each block then
// reads its dd with a broadcast load.

// VPDPBUSD_Y(s, u, d) is the VEX (AVX-VNNI) form of VPDPBUSD on ymm
// registers d += u (u8) · s (s8), taking register numbers; the Go assembler
// only encodes the EVEX form. Each use carries the instruction in its
// comment.
#define VPDPBUSD_Y(s, u, d) BYTE $0xC4; BYTE $(0xE2 ^ (((d)>>3)<<7) ^ (((s)>>3)<<5)); BYTE $(0x05 | ((15-(u))<<3)); BYTE $0x50; BYTE $(0xC0 | (((d)&7)<<3) | ((s)&7))

#define Q8B blockQ8_0__size
#define Q8D blockQ8_0_d
#define Q8Q blockQ8_0_qs

// Constants: bytes 0x80, bytes 1, words -128.
DATA q8C80<>+0(SB)/8, $0x8080808080808080
DATA q8C80<>+8(SB)/8, $0x8080808080808080
DATA q8C80<>+16(SB)/8, $0x8080808080808080
DATA q8C80<>+24(SB)/8, $0x8080808080808080
GLOBL q8C80<>(SB), RODATA|NOPTR, $32
DATA q8C01<>+0(SB)/8, $0x0101010101010101
DATA q8C01<>+8(SB)/8, $0x0101010101010101
DATA q8C01<>+16(SB)/8, $0x0101010101010101
DATA q8C01<>+24(SB)/8, $0x0101010101010101
GLOBL q8C01<>(SB), RODATA|NOPTR, $32
DATA q8CM128<>+0(SB)/8, $0xff80ff80ff80ff80
DATA q8CM128<>+8(SB)/8, $0xff80ff80ff80ff80
DATA q8CM128<>+16(SB)/8, $0xff80ff80ff80ff80
DATA q8CM128<>+24(SB)/8, $0xff80ff80ff80ff80
GLOBL q8CM128<>(SB), RODATA|NOPTR, $32
DATA q8NaN<>+0(SB)/8, $0x7fc000007fc00000
DATA q8NaN<>+8(SB)/8, $0x7fc000007fc00000
GLOBL q8NaN<>(SB), RODATA|NOPTR, $16

// Q8_CANON(x, t): x = the canonical NaN 0x7fc00000 where x is a NaN
// (kernels.canonNaN: the payload of a NaN result depends on operand order,
// the canonical one does not); t scratch.
#define Q8_CANON(x, t) \
	VCMPPS    $3, x, x, t            \
	VBLENDVPS t, q8NaN<>(SB), x, x

// Q8S_X(off): Y14, Y13 = the even and odd quants of the block of x at
// byte offset off (BX), sign-extended to int16 words.
#define Q8S_X(off) \
	VMOVDQU Q8Q+off(BX), Y13 \
	VPSLLW  $8, Y13, Y14     \
	VPSRAW  $8, Y14, Y14     \
	VPSRAW  $8, Y13, Y13

// Q8S_ROW(p, off, a, t): a = the int32 lane sums of the block at off of
// row p against x (after Q8S_X); t scratch.
#define Q8S_ROW(p, off, a, t) \
	VMOVDQU  Q8Q+off(p), a \
	VPSLLW   $8, a, t      \
	VPSRAW   $8, t, t      \
	VPSRAW   $8, a, a      \
	VPMADDWD Y14, t, t     \
	VPMADDWD Y13, a, a     \
	VPADDD   t, a, a

// Q8S_PRE2(off), Q8S_PRE1(off), Q8S_PRE4(off): the lane sums of rows SI and
// R8 in Y12 and Y11; of row SI in Y12; of rows SI, R8, R9, R11 in Y12, Y11,
// Y10, Y9.
#define Q8S_PRE2(off) \
	Q8S_X(off)               \
	Q8S_ROW(SI, off, Y12, Y10) \
	Q8S_ROW(R8, off, Y11, Y9)

#define Q8S_PRE1(off) \
	Q8S_X(off) \
	Q8S_ROW(SI, off, Y12, Y11)

#define Q8S_PRE4(off) \
	Q8S_X(off)                 \
	Q8S_ROW(SI, off, Y12, Y0)  \
	Q8S_ROW(R8, off, Y11, Y1)  \
	Q8S_ROW(R9, off, Y10, Y2)  \
	Q8S_ROW(R11, off, Y9, Y3)

// Q8U_X(off): Y14 = the quants of the block of x at off, Y13 = -128 times
// each lane's sum of four of them (the VNNI seed, exact in int32).
#define Q8U_X(off) \
	VMOVDQU    Q8Q+off(BX), Y14      \
	VMOVDQU    q8C01<>(SB), Y13      \
	VPMADDUBSW Y14, Y13, Y13         \
	VPMADDWD   q8CM128<>(SB), Y13, Y13

// Q8U_PRE2(off): Q8U_X, then Y12, Y11 = rows SI, R8 XOR 0x80 (Y15) and
// Y10, Y9 = the seed, ready for VPDPBUSD.
#define Q8U_PRE2(off) \
	Q8U_X(off)                   \
	VPXOR   Q8Q+off(SI), Y15, Y12 \
	VPXOR   Q8Q+off(R8), Y15, Y11 \
	VMOVDQA Y13, Y10             \
	VMOVDQA Y13, Y9

// Q8U_PRE1(off): the same for row SI into Y12, seed in Y11.
#define Q8U_PRE1(off) \
	Q8U_X(off)                   \
	VPXOR   Q8Q+off(SI), Y15, Y12 \
	VMOVDQA Y13, Y11

// Q8U_PRE4(off): the four rows SI, R8, R9, R11 XOR 0x80 in Y12, Y11, Y10,
// Y9 and their lane sums in Y0..Y3 (EVEX VPDPBUSD).
#define Q8U_PRE4(off) \
	Q8U_X(off)                     \
	VPXOR    Q8Q+off(SI), Y15, Y12  \
	VPXOR    Q8Q+off(R8), Y15, Y11  \
	VPXOR    Q8Q+off(R9), Y15, Y10  \
	VPXOR    Q8Q+off(R11), Y15, Y9  \
	VMOVDQA  Y13, Y0               \
	VMOVDQA  Y13, Y1               \
	VMOVDQA  Y13, Y2               \
	VMOVDQA  Y13, Y3               \
	VPDPBUSD Y14, Y12, Y0          \
	VPDPBUSD Y14, Y11, Y1          \
	VPDPBUSD Y14, Y10, Y2          \
	VPDPBUSD Y14, Y9, Y3

// Q8_PACK4(p, r): r = the fp16 scales of the four blocks at p, block j in
// bits 16j..16j+15. R13 is scratch.
#define Q8_PACK4(p, r) \
	MOVWQZX 3*Q8B+Q8D(p), r \
	SHLQ    $16, r          \
	MOVWQZX 2*Q8B+Q8D(p), R13 \
	ORQ     R13, r          \
	SHLQ    $16, r          \
	MOVWQZX Q8B+Q8D(p), R13 \
	ORQ     R13, r          \
	SHLQ    $16, r          \
	MOVWQZX Q8D(p), R13     \
	ORQ     R13, r

// ---------------------------------------------------------------------------
// AVX2 and AVX-VNNI (VEX, 16 registers): rows in pairs, then one row.
//
// Registers, pair loop:
//	DI  dst            SI  row 0 (current block)   R8  row 1
//	DX  x              BX  x (current block)       CX  blocks left
//	R10 rows left      AX, R9, R12, R13 scratch
//	Y0..Y3  row 0, accumulator sets 0..3       Y4..Y7  row 1
//	Y14, Y13  x (Q8S_X or Q8U_X)             Y12, Y11  rows 0, 1
//	Y15 0x80 bytes (AVX-VNNI)                  Y8..Y10 scratch
// Frame: 0(SP) dd of row 0, blocks 0..3; 16(SP) row 1.

// Q8V_DD4X2: the dd of blocks 0..3 for rows SI and R8 against BX, to
// 0(SP) and 16(SP).
#define Q8V_DD4X2 \
	Q8_PACK4(SI, AX)              \
	Q8_PACK4(R8, R12)             \
	Q8_PACK4(BX, R9)              \
	VMOVQ       AX, X10           \
	VPINSRQ     $1, R12, X10, X10 \
	VCVTPH2PS   X10, Y10          \
	VMOVQ       R9, X9            \
	VCVTPH2PS   X9, X9            \
	VINSERTF128 $1, X9, Y9, Y9    \
	VMULPS      Y9, Y10, Y10      \
	VMOVUPS     Y10, 0(SP)

// Q8V_DD1X2: the dd of block 0 for rows SI and R8, to 0(SP) and 4(SP).
#define Q8V_DD1X2 \
	MOVWQZX   Q8D(R8), AX        \
	SHLQ      $16, AX            \
	MOVWQZX   Q8D(SI), R12       \
	ORQ       R12, AX            \
	MOVWQZX   Q8D(BX), R12       \
	SHLQ      $32, R12           \
	ORQ       R12, AX            \
	VMOVQ     AX, X10            \
	VCVTPH2PS X10, X10           \
	VPERMILPS $0xAA, X10, X9     \
	VMULPS    X9, X10, X10       \
	VMOVQ     X10, 0(SP)

// Q8V_POST2(a, b, t, u, d0, d1, acc0, acc1): acc0 += dd(d0(SP))·float(a),
// acc1 += dd(d1(SP))·float(b); t, u scratch.
#define Q8V_POST2(a, b, t, u, d0, d1, acc0, acc1) \
	VCVTDQ2PS    a, a        \
	VCVTDQ2PS    b, b        \
	VBROADCASTSS d0(SP), t   \
	VBROADCASTSS d1(SP), u   \
	VMULPS       t, a, a     \
	VMULPS       u, b, b     \
	VADDPS       a, acc0, acc0 \
	VADDPS       b, acc1, acc1

// Q8V_DD4X1, Q8V_DD1X1, Q8V_POST1: the same for the one row SI.
#define Q8V_DD4X1 \
	Q8_PACK4(SI, AX)              \
	Q8_PACK4(BX, R12)             \
	VMOVQ        AX, X10          \
	VPINSRQ      $1, R12, X10, X10 \
	VCVTPH2PS    X10, Y10         \
	VEXTRACTF128 $1, Y10, X9      \
	VMULPS       X9, X10, X10     \
	VMOVUPS      X10, 0(SP)

#define Q8V_DD1X1 \
	MOVWQZX   Q8D(BX), AX   \
	SHLQ      $16, AX       \
	MOVWQZX   Q8D(SI), R12  \
	ORQ       R12, AX       \
	VMOVQ     AX, X10       \
	VCVTPH2PS X10, X10      \
	VMOVSHDUP X10, X9       \
	VMULSS    X9, X10, X10  \
	VMOVSS    X10, 0(SP)

#define Q8V_POST1(a, t, d0, acc0) \
	VCVTDQ2PS    a, a        \
	VBROADCASTSS d0(SP), t   \
	VMULPS       t, a, a     \
	VADDPS       a, acc0, acc0

// Q8V_RED(a0, a1, a2, a3, x0, xt): x0 = hsum((a0+a1) + (a2+a3)) in its low
// lane, where x0 is the low half of a0.
#define Q8V_RED(a0, a1, a2, a3, x0, xt) \
	VADDPS       a1, a0, a0 \
	VADDPS       a3, a2, a2 \
	VADDPS       a2, a0, a0 \
	VEXTRACTF128 $1, a0, xt \
	VADDPS       xt, x0, x0 \
	VPERMILPS    $0x4E, x0, xt \
	VADDPS       xt, x0, x0 \
	VMOVSHDUP    x0, xt     \
	VADDSS       xt, x0, x0

#define Q8V_ZERO8 \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3 \
	VXORPS Y4, Y4, Y4 \
	VXORPS Y5, Y5, Y5 \
	VXORPS Y6, Y6, Y6 \
	VXORPS Y7, Y7, Y7

// Q8V_STORE2: dst[0] = X0, dst[inc] = X4; DI advances two rows.
#define Q8V_STORE2 \
	Q8_CANON(X0, X8)     \
	Q8_CANON(X4, X8)     \
	MOVQ   inc+8(FP), AX \
	SHLQ   $2, AX        \
	VMOVSS X0, (DI)      \
	ADDQ   AX, DI        \
	VMOVSS X4, (DI)      \
	ADDQ   AX, DI

// ---------------------------------------------------------------------------
// AVX-512 (EVEX, 32 registers): rows in fours, then one at a time with the
// one-row code above. Still 256-bit vectors (see the top of the file); the
// extra registers hold sixteen accumulators, and VMULPS broadcasts dd
// straight from the frame.
//
// Registers, quad loop:
//	DI  dst       SI, R8, R9, R11  rows 0..3 (current block)
//	DX  x         BX  x (current block)      CX  blocks left
//	R10 rows left AX, R12, R13 scratch
//	Y16..Y31  accumulators: row r, set s in Y(16+4r+s)
//	Y14, Y13  x (Q8S_X or Q8U_X)   Y12, Y11, Y10, Y9  rows 0..3
//	Y15 0x80 bytes (AVX512VNNI)    Y0..Y3 scratch or sums       Y8 scratch
// Frame: dd of row r, block j at 16r+4j(SP).

// Q8Z_DD4X4: the dd of blocks 0..3 of the four rows, to the frame.
#define Q8Z_DD4X4 \
	Q8_PACK4(SI, AX)              \
	Q8_PACK4(R8, R12)             \
	VMOVQ       AX, X10           \
	VPINSRQ     $1, R12, X10, X10 \
	Q8_PACK4(R9, AX)              \
	Q8_PACK4(R11, R12)            \
	VMOVQ       AX, X9            \
	VPINSRQ     $1, R12, X9, X9   \
	Q8_PACK4(BX, AX)              \
	VMOVQ       AX, X8            \
	VCVTPH2PS   X8, X8            \
	VINSERTF128 $1, X8, Y8, Y8    \
	VCVTPH2PS   X10, Y10          \
	VCVTPH2PS   X9, Y9            \
	VMULPS      Y8, Y10, Y10      \
	VMULPS      Y8, Y9, Y9        \
	VMOVUPS     Y10, 0(SP)        \
	VMOVUPS     Y9, 32(SP)

// Q8Z_DD1X4: the dd of block 0 of the four rows, to 0, 16, 32, 48(SP).
#define Q8Z_DD1X4 \
	MOVWQZX      Q8D(R11), AX    \
	SHLQ         $16, AX         \
	MOVWQZX      Q8D(R9), R12    \
	ORQ          R12, AX         \
	SHLQ         $16, AX         \
	MOVWQZX      Q8D(R8), R12    \
	ORQ          R12, AX         \
	SHLQ         $16, AX         \
	MOVWQZX      Q8D(SI), R12    \
	ORQ          R12, AX         \
	VMOVQ        AX, X10         \
	VCVTPH2PS    X10, X10        \
	MOVWQZX      Q8D(BX), AX     \
	VMOVD        AX, X8          \
	VCVTPH2PS    X8, X8          \
	VBROADCASTSS X8, X8          \
	VMULPS       X8, X10, X10    \
	VMOVSS       X10, 0(SP)      \
	VEXTRACTPS   $1, X10, 16(SP) \
	VEXTRACTPS   $2, X10, 32(SP) \
	VEXTRACTPS   $3, X10, 48(SP)

// Q8Z_POST(a, d, acc): acc += dd(d(SP))·float(a).
#define Q8Z_POST(a, d, acc) \
	VCVTDQ2PS   a, a         \
	VMULPS.BCST d(SP), a, a  \
	VADDPS      a, acc, acc

// Q8Z_RED4(a0, a1, a2, a3, x0, xt): as Q8V_RED for accumulators in Y16..Y31
// (x0 = the X register that receives the result, a VEX-addressable one).
#define Q8Z_RED4(a0, a1, a2, a3, y0, x0, xt) \
	VADDPS       a1, a0, a0 \
	VADDPS       a3, a2, a2 \
	VADDPS       a2, a0, y0 \
	VEXTRACTF128 $1, y0, xt \
	VADDPS       xt, x0, x0 \
	VPERMILPS    $0x4E, x0, xt \
	VADDPS       xt, x0, x0 \
	VMOVSHDUP    x0, xt     \
	VADDSS       xt, x0, x0

#define Q8Z_ZERO16 \
	VPXORD Y16, Y16, Y16 \
	VPXORD Y17, Y17, Y17 \
	VPXORD Y18, Y18, Y18 \
	VPXORD Y19, Y19, Y19 \
	VPXORD Y20, Y20, Y20 \
	VPXORD Y21, Y21, Y21 \
	VPXORD Y22, Y22, Y22 \
	VPXORD Y23, Y23, Y23 \
	VPXORD Y24, Y24, Y24 \
	VPXORD Y25, Y25, Y25 \
	VPXORD Y26, Y26, Y26 \
	VPXORD Y27, Y27, Y27 \
	VPXORD Y28, Y28, Y28 \
	VPXORD Y29, Y29, Y29 \
	VPXORD Y30, Y30, Y30 \
	VPXORD Y31, Y31, Y31

// Q8Z_STEP(n): advance the four rows and x by n blocks.
#define Q8Z_STEP(n) \
	ADDQ $n*Q8B, SI  \
	ADDQ $n*Q8B, R8  \
	ADDQ $n*Q8B, R9  \
	ADDQ $n*Q8B, R11 \
	ADDQ $n*Q8B, BX

// Q8Z_STORE4: dst[r·inc] for the four rows; DI advances four rows.
#define Q8Z_STORE4 \
	Q8Z_RED4(Y16, Y17, Y18, Y19, Y0, X0, X8) \
	Q8Z_RED4(Y20, Y21, Y22, Y23, Y1, X1, X8) \
	Q8Z_RED4(Y24, Y25, Y26, Y27, Y2, X2, X8) \
	Q8Z_RED4(Y28, Y29, Y30, Y31, Y3, X3, X8) \
	Q8_CANON(X0, X8)     \
	Q8_CANON(X1, X8)     \
	Q8_CANON(X2, X8)     \
	Q8_CANON(X3, X8)     \
	MOVQ   inc+8(FP), AX \
	SHLQ   $2, AX        \
	VMOVSS X0, (DI)      \
	ADDQ   AX, DI        \
	VMOVSS X1, (DI)      \
	ADDQ   AX, DI        \
	VMOVSS X2, (DI)      \
	ADDQ   AX, DI        \
	VMOVSS X3, (DI)      \
	ADDQ   AX, DI

// Q8Z_ROWS4: SI, R8, R9, R11 = four consecutive rows from SI (CX blocks
// each); BX = x.
#define Q8Z_ROWS4 \
	IMUL3Q $Q8B, CX, AX \
	LEAQ   (SI)(AX*1), R8 \
	LEAQ   (R8)(AX*1), R9 \
	LEAQ   (R9)(AX*1), R11 \
	MOVQ   DX, BX

// func MatVecQ8_0AVX2(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, F16C
TEXT ·MatVecQ8_0AVX2(SB), NOSPLIT, $32-48
	MOVQ     dst+0(FP), DI
	MOVQ     w+16(FP), SI
	MOVQ     x+24(FP), DX
	MOVQ     rows+32(FP), R10

mvq80avx2_pairs:
	CMPQ   R10, $2
	JB     mvq80avx2_single
	MOVQ   nb+40(FP), CX
	IMUL3Q $Q8B, CX, R8
	ADDQ   SI, R8
	MOVQ   DX, BX
	Q8V_ZERO8
	CMPQ   CX, $4
	JB     mvq80avx2_ptail

	PCALIGN $32
mvq80avx2_pquad:
	Q8V_DD4X2
	Q8S_PRE2(0)
	Q8V_POST2(Y12, Y11, Y10, Y9, 0, 16, Y0, Y4)
	Q8S_PRE2(Q8B)
	Q8V_POST2(Y12, Y11, Y10, Y9, 4, 20, Y1, Y5)
	Q8S_PRE2(2*Q8B)
	Q8V_POST2(Y12, Y11, Y10, Y9, 8, 24, Y2, Y6)
	Q8S_PRE2(3*Q8B)
	Q8V_POST2(Y12, Y11, Y10, Y9, 12, 28, Y3, Y7)
	ADDQ $4*Q8B, SI
	ADDQ $4*Q8B, R8
	ADDQ $4*Q8B, BX
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80avx2_pquad

mvq80avx2_ptail:
	// 0..3 blocks left, into sets 0, 1, 2.
	TESTQ CX, CX
	JZ    mvq80avx2_pend
	Q8V_DD1X2
	Q8S_PRE2(0)
	Q8V_POST2(Y12, Y11, Y10, Y9, 0, 4, Y0, Y4)
	ADDQ $Q8B, SI
	ADDQ $Q8B, R8
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80avx2_pend
	Q8V_DD1X2
	Q8S_PRE2(0)
	Q8V_POST2(Y12, Y11, Y10, Y9, 0, 4, Y1, Y5)
	ADDQ $Q8B, SI
	ADDQ $Q8B, R8
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80avx2_pend
	Q8V_DD1X2
	Q8S_PRE2(0)
	Q8V_POST2(Y12, Y11, Y10, Y9, 0, 4, Y2, Y6)
	ADDQ $Q8B, SI
	ADDQ $Q8B, R8
	ADDQ $Q8B, BX

mvq80avx2_pend:
	Q8V_RED(Y0, Y1, Y2, Y3, X0, X8)
	Q8V_RED(Y4, Y5, Y6, Y7, X4, X8)
	Q8V_STORE2
	MOVQ R8, SI // the next pair starts where row 1 ended
	SUBQ $2, R10
	JMP  mvq80avx2_pairs

mvq80avx2_single:
	TESTQ  R10, R10
	JZ     mvq80avx2_ret
	MOVQ   nb+40(FP), CX
	MOVQ   DX, BX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $4
	JB     mvq80avx2_stail

	PCALIGN $32
mvq80avx2_squad:
	Q8V_DD4X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y0)
	Q8S_PRE1(Q8B)
	Q8V_POST1(Y12, Y10, 4, Y1)
	Q8S_PRE1(2*Q8B)
	Q8V_POST1(Y12, Y10, 8, Y2)
	Q8S_PRE1(3*Q8B)
	Q8V_POST1(Y12, Y10, 12, Y3)
	ADDQ $4*Q8B, SI
	ADDQ $4*Q8B, BX
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80avx2_squad

mvq80avx2_stail:
	TESTQ CX, CX
	JZ    mvq80avx2_send
	Q8V_DD1X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y0)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80avx2_send
	Q8V_DD1X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y1)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80avx2_send
	Q8V_DD1X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y2)

mvq80avx2_send:
	Q8V_RED(Y0, Y1, Y2, Y3, X0, X8)
	Q8_CANON(X0, X8)
	VMOVSS X0, (DI)

mvq80avx2_ret:
	VZEROUPPER
	RET

// func MatVecQ8_0AVXVNNI(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX-VNNI, F16C
//
// MatVecQ8_0AVX2 with VPDPBUSD (into the seeded register) in place of the
// sign-extended VPMADDWD products.
TEXT ·MatVecQ8_0AVXVNNI(SB), NOSPLIT, $32-48
	MOVQ dst+0(FP), DI
	MOVQ w+16(FP), SI
	MOVQ x+24(FP), DX
	MOVQ rows+32(FP), R10
	VMOVDQU q8C80<>(SB), Y15

mvq80vnni_pairs:
	CMPQ   R10, $2
	JB     mvq80vnni_single
	MOVQ   nb+40(FP), CX
	IMUL3Q $Q8B, CX, R8
	ADDQ   SI, R8
	MOVQ   DX, BX
	Q8V_ZERO8
	CMPQ   CX, $4
	JB     mvq80vnni_ptail

	PCALIGN $32
mvq80vnni_pquad:
	Q8V_DD4X2
	Q8U_PRE2(0)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 0, 16, Y0, Y4)
	Q8U_PRE2(Q8B)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 4, 20, Y1, Y5)
	Q8U_PRE2(2*Q8B)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 8, 24, Y2, Y6)
	Q8U_PRE2(3*Q8B)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 12, 28, Y3, Y7)
	ADDQ $4*Q8B, SI
	ADDQ $4*Q8B, R8
	ADDQ $4*Q8B, BX
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80vnni_pquad

mvq80vnni_ptail:
	TESTQ CX, CX
	JZ    mvq80vnni_pend
	Q8V_DD1X2
	Q8U_PRE2(0)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 0, 4, Y0, Y4)
	ADDQ $Q8B, SI
	ADDQ $Q8B, R8
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80vnni_pend
	Q8V_DD1X2
	Q8U_PRE2(0)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 0, 4, Y1, Y5)
	ADDQ $Q8B, SI
	ADDQ $Q8B, R8
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80vnni_pend
	Q8V_DD1X2
	Q8U_PRE2(0)
	VPDPBUSD_Y(14, 12, 10) // {vex} vpdpbusd ymm10, ymm12, ymm14
	VPDPBUSD_Y(14, 11, 9)  // {vex} vpdpbusd ymm9, ymm11, ymm14
	Q8V_POST2(Y10, Y9, Y12, Y11, 0, 4, Y2, Y6)
	ADDQ $Q8B, SI
	ADDQ $Q8B, R8
	ADDQ $Q8B, BX

mvq80vnni_pend:
	Q8V_RED(Y0, Y1, Y2, Y3, X0, X8)
	Q8V_RED(Y4, Y5, Y6, Y7, X4, X8)
	Q8V_STORE2
	MOVQ R8, SI
	SUBQ $2, R10
	JMP  mvq80vnni_pairs

mvq80vnni_single:
	TESTQ  R10, R10
	JZ     mvq80vnni_ret
	MOVQ   nb+40(FP), CX
	MOVQ   DX, BX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $4
	JB     mvq80vnni_stail

	PCALIGN $32
mvq80vnni_squad:
	Q8V_DD4X1
	Q8U_PRE1(0)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 0, Y0)
	Q8U_PRE1(Q8B)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 4, Y1)
	Q8U_PRE1(2*Q8B)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 8, Y2)
	Q8U_PRE1(3*Q8B)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 12, Y3)
	ADDQ $4*Q8B, SI
	ADDQ $4*Q8B, BX
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80vnni_squad

mvq80vnni_stail:
	TESTQ CX, CX
	JZ    mvq80vnni_send
	Q8V_DD1X1
	Q8U_PRE1(0)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 0, Y0)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80vnni_send
	Q8V_DD1X1
	Q8U_PRE1(0)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 0, Y1)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80vnni_send
	Q8V_DD1X1
	Q8U_PRE1(0)
	VPDPBUSD_Y(14, 12, 11) // {vex} vpdpbusd ymm11, ymm12, ymm14
	Q8V_POST1(Y11, Y10, 0, Y2)

mvq80vnni_send:
	Q8V_RED(Y0, Y1, Y2, Y3, X0, X8)
	Q8_CANON(X0, X8)
	VMOVSS X0, (DI)

mvq80vnni_ret:
	VZEROUPPER
	RET

// func MatVecQ8_0AVX512(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX512F, AVX512BW, AVX512VL, F16C
TEXT ·MatVecQ8_0AVX512(SB), NOSPLIT, $64-48
	MOVQ     dst+0(FP), DI
	MOVQ     w+16(FP), SI
	MOVQ     x+24(FP), DX
	MOVQ     rows+32(FP), R10

mvq80avx512_quads:
	CMPQ R10, $4
	JB   mvq80avx512_single
	MOVQ nb+40(FP), CX
	Q8Z_ROWS4
	Q8Z_ZERO16
	CMPQ CX, $4
	JB   mvq80avx512_qtail

	PCALIGN $32
mvq80avx512_qquad:
	Q8Z_DD4X4
	Q8S_PRE4(0)
	Q8Z_POST(Y12, 0, Y16)
	Q8Z_POST(Y11, 16, Y20)
	Q8Z_POST(Y10, 32, Y24)
	Q8Z_POST(Y9, 48, Y28)
	Q8S_PRE4(Q8B)
	Q8Z_POST(Y12, 4, Y17)
	Q8Z_POST(Y11, 20, Y21)
	Q8Z_POST(Y10, 36, Y25)
	Q8Z_POST(Y9, 52, Y29)
	Q8S_PRE4(2*Q8B)
	Q8Z_POST(Y12, 8, Y18)
	Q8Z_POST(Y11, 24, Y22)
	Q8Z_POST(Y10, 40, Y26)
	Q8Z_POST(Y9, 56, Y30)
	Q8S_PRE4(3*Q8B)
	Q8Z_POST(Y12, 12, Y19)
	Q8Z_POST(Y11, 28, Y23)
	Q8Z_POST(Y10, 44, Y27)
	Q8Z_POST(Y9, 60, Y31)
	Q8Z_STEP(4)
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80avx512_qquad

mvq80avx512_qtail:
	TESTQ CX, CX
	JZ    mvq80avx512_qend
	Q8Z_DD1X4
	Q8S_PRE4(0)
	Q8Z_POST(Y12, 0, Y16)
	Q8Z_POST(Y11, 16, Y20)
	Q8Z_POST(Y10, 32, Y24)
	Q8Z_POST(Y9, 48, Y28)
	Q8Z_STEP(1)
	DECQ CX
	JZ   mvq80avx512_qend
	Q8Z_DD1X4
	Q8S_PRE4(0)
	Q8Z_POST(Y12, 0, Y17)
	Q8Z_POST(Y11, 16, Y21)
	Q8Z_POST(Y10, 32, Y25)
	Q8Z_POST(Y9, 48, Y29)
	Q8Z_STEP(1)
	DECQ CX
	JZ   mvq80avx512_qend
	Q8Z_DD1X4
	Q8S_PRE4(0)
	Q8Z_POST(Y12, 0, Y18)
	Q8Z_POST(Y11, 16, Y22)
	Q8Z_POST(Y10, 32, Y26)
	Q8Z_POST(Y9, 48, Y30)
	Q8Z_STEP(1)

mvq80avx512_qend:
	Q8Z_STORE4
	MOVQ R11, SI // the next rows start where row 3 ended
	SUBQ $4, R10
	JMP  mvq80avx512_quads

mvq80avx512_single:
	TESTQ  R10, R10
	JZ     mvq80avx512_ret
	MOVQ   nb+40(FP), CX
	MOVQ   DX, BX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $4
	JB     mvq80avx512_stail

	PCALIGN $32
mvq80avx512_squad:
	Q8V_DD4X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y0)
	Q8S_PRE1(Q8B)
	Q8V_POST1(Y12, Y10, 4, Y1)
	Q8S_PRE1(2*Q8B)
	Q8V_POST1(Y12, Y10, 8, Y2)
	Q8S_PRE1(3*Q8B)
	Q8V_POST1(Y12, Y10, 12, Y3)
	ADDQ $4*Q8B, SI
	ADDQ $4*Q8B, BX
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80avx512_squad

mvq80avx512_stail:
	TESTQ CX, CX
	JZ    mvq80avx512_send
	Q8V_DD1X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y0)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80avx512_send
	Q8V_DD1X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y1)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80avx512_send
	Q8V_DD1X1
	Q8S_PRE1(0)
	Q8V_POST1(Y12, Y10, 0, Y2)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX

mvq80avx512_send:
	Q8V_RED(Y0, Y1, Y2, Y3, X0, X8)
	Q8_CANON(X0, X8)
	VMOVSS X0, (DI)
	MOVQ   inc+8(FP), AX
	LEAQ   (DI)(AX*4), DI
	DECQ   R10
	JMP    mvq80avx512_single

mvq80avx512_ret:
	VZEROUPPER
	RET

// func MatVecQ8_0AVX512VNNI(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
//
// MatVecQ8_0AVX512 with VPDPBUSD (into the seeded register) in place of the
// sign-extended VPMADDWD products.
TEXT ·MatVecQ8_0AVX512VNNI(SB), NOSPLIT, $64-48
	MOVQ dst+0(FP), DI
	MOVQ w+16(FP), SI
	MOVQ x+24(FP), DX
	MOVQ rows+32(FP), R10
	VMOVDQU q8C80<>(SB), Y15

mvq80vnni512_quads:
	CMPQ R10, $4
	JB   mvq80vnni512_single
	MOVQ nb+40(FP), CX
	Q8Z_ROWS4
	Q8Z_ZERO16
	CMPQ CX, $4
	JB   mvq80vnni512_qtail

	PCALIGN $32
mvq80vnni512_qquad:
	Q8Z_DD4X4
	Q8U_PRE4(0)
	Q8Z_POST(Y0, 0, Y16)
	Q8Z_POST(Y1, 16, Y20)
	Q8Z_POST(Y2, 32, Y24)
	Q8Z_POST(Y3, 48, Y28)
	Q8U_PRE4(Q8B)
	Q8Z_POST(Y0, 4, Y17)
	Q8Z_POST(Y1, 20, Y21)
	Q8Z_POST(Y2, 36, Y25)
	Q8Z_POST(Y3, 52, Y29)
	Q8U_PRE4(2*Q8B)
	Q8Z_POST(Y0, 8, Y18)
	Q8Z_POST(Y1, 24, Y22)
	Q8Z_POST(Y2, 40, Y26)
	Q8Z_POST(Y3, 56, Y30)
	Q8U_PRE4(3*Q8B)
	Q8Z_POST(Y0, 12, Y19)
	Q8Z_POST(Y1, 28, Y23)
	Q8Z_POST(Y2, 44, Y27)
	Q8Z_POST(Y3, 60, Y31)
	Q8Z_STEP(4)
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80vnni512_qquad

mvq80vnni512_qtail:
	TESTQ CX, CX
	JZ    mvq80vnni512_qend
	Q8Z_DD1X4
	Q8U_PRE4(0)
	Q8Z_POST(Y0, 0, Y16)
	Q8Z_POST(Y1, 16, Y20)
	Q8Z_POST(Y2, 32, Y24)
	Q8Z_POST(Y3, 48, Y28)
	Q8Z_STEP(1)
	DECQ CX
	JZ   mvq80vnni512_qend
	Q8Z_DD1X4
	Q8U_PRE4(0)
	Q8Z_POST(Y0, 0, Y17)
	Q8Z_POST(Y1, 16, Y21)
	Q8Z_POST(Y2, 32, Y25)
	Q8Z_POST(Y3, 48, Y29)
	Q8Z_STEP(1)
	DECQ CX
	JZ   mvq80vnni512_qend
	Q8Z_DD1X4
	Q8U_PRE4(0)
	Q8Z_POST(Y0, 0, Y18)
	Q8Z_POST(Y1, 16, Y22)
	Q8Z_POST(Y2, 32, Y26)
	Q8Z_POST(Y3, 48, Y30)
	Q8Z_STEP(1)

mvq80vnni512_qend:
	Q8Z_STORE4
	MOVQ R11, SI
	SUBQ $4, R10
	JMP  mvq80vnni512_quads

mvq80vnni512_single:
	TESTQ  R10, R10
	JZ     mvq80vnni512_ret
	MOVQ   nb+40(FP), CX
	MOVQ   DX, BX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	CMPQ   CX, $4
	JB     mvq80vnni512_stail

	PCALIGN $32
mvq80vnni512_squad:
	Q8V_DD4X1
	Q8U_PRE1(0)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 0, Y0)
	Q8U_PRE1(Q8B)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 4, Y1)
	Q8U_PRE1(2*Q8B)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 8, Y2)
	Q8U_PRE1(3*Q8B)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 12, Y3)
	ADDQ $4*Q8B, SI
	ADDQ $4*Q8B, BX
	SUBQ $4, CX
	CMPQ CX, $4
	JAE  mvq80vnni512_squad

mvq80vnni512_stail:
	TESTQ CX, CX
	JZ    mvq80vnni512_send
	Q8V_DD1X1
	Q8U_PRE1(0)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 0, Y0)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80vnni512_send
	Q8V_DD1X1
	Q8U_PRE1(0)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 0, Y1)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX
	DECQ CX
	JZ   mvq80vnni512_send
	Q8V_DD1X1
	Q8U_PRE1(0)
	VPDPBUSD Y14, Y12, Y11
	Q8V_POST1(Y11, Y10, 0, Y2)
	ADDQ $Q8B, SI
	ADDQ $Q8B, BX

mvq80vnni512_send:
	Q8V_RED(Y0, Y1, Y2, Y3, X0, X8)
	Q8_CANON(X0, X8)
	VMOVSS X0, (DI)
	MOVQ   inc+8(FP), AX
	LEAQ   (DI)(AX*4), DI
	DECQ   R10
	JMP    mvq80vnni512_single

mvq80vnni512_ret:
	VZEROUPPER
	RET
