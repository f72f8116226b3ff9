//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// Q6_K · Q8_K dot products, many rows a call. Go twin: kernels.dotQ6KGeneric.
//
//	MatVecQ6K{AVX2,AVXVNNI,AVX512,AVX512VNNI}(dst *float32, w, x unsafe.Pointer, rows, nb int)
//	    dst[r] = dot(row r of w, x) for r < rows
//	MatMulQ6K{AVX2,AVXVNNI,AVX512,AVX512VNNI}(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb int)
//	    dst[c·ldd + r] = dot(row r of w, column c of x) for r < rows, c < 4
//	    (AVX512*: rows even); t = per-column data prepared in Go (q6k_amd64.go)
//
// Rows of w and columns of x hold nb super-blocks (256 values) each. Every
// dot follows kernels.dotQ6KGeneric exactly: per super-block, eight exact
// int32 lane sums A[l] = Σ_g sc_g Σ_{i in group g, lane l} q_i·y_i (lane
// l = values 4l..4l+3 of each 32-value group; lanes 0..3 take the scale of
// the group's first 16 values, lanes 4..7 of the second), dd = f16(d)·D
// as one float32 multiply, acc[l] += dd·float32(A[l]) as a multiply then an
// add (no FMA), and at the end hsum(acc) = ((a0+a4)+(a2+a6)) +
// ((a1+a5)+(a3+a7)). Integer sums are exact in any order; nothing else is
// reordered.
//
// q = q6 − 32 with q6 in 0..63 (4 bits from ql, 2 from qh):
//	value i of chunk k (0..3) of half h (0, 1) of a super-block:
//	ql[64h + 32(k&1) + i] >> 4(k>>1) & 15  |  (qh[32h + i] >> 2k & 3) << 4
// The products use q6 as the unsigned operand of VPMADDUBSW and subtract
// 32·(y_a+y_b) per pair of values (computed once per chunk of x and shared
// by the rows of a tile, or prepared per column for MatMul), which leaves
// the exact int16 pair sums of q·y (|·| ≤ 8128); VPMADDWD (or VPDPWSSD)
// with the group scales as int16 words then sums the pairs into the lanes.
// AVX512VNNI instead starts VPDPBUSD(q6, y) from -32·Σy per lane, which
// gives the lanes' exact sums of q·y (|·| ≤ 16256) in one instruction.
//
// Tiles: MatVec takes rows in pairs (VEX: 16 registers) or fours (512-bit),
// then one at a time; MatMul takes one row (VEX) or two (512-bit) against
// four columns, so a weight block is decoded once for four columns.

// VPDPWSSD_Y(s, u, d) is the VEX (AVX-VNNI) form of VPDPWSSD on ymm
// registers, d += u·s (int16 pairs into int32 lanes), taking register
// numbers; the Go assembler only encodes the EVEX form. Each use carries the
// instruction in its comment.
#define VPDPWSSD_Y(s, u, d) BYTE $0xC4; BYTE $(0xE2 ^ (((d)>>3)<<7) ^ (((s)>>3)<<5)); BYTE $(0x05 | ((15-(u))<<3)); BYTE $0x52; BYTE $(0xC0 | (((d)&7)<<3) | ((s)&7))

#define QL blockQ6K_ql
#define QH blockQ6K_qh
#define SC blockQ6K_scales
#define YQ blockQ8K_qs

DATA q6c0F<>+0(SB)/4, $0x0f0f0f0f
GLOBL q6c0F<>(SB), RODATA|NOPTR, $4
DATA q6c30<>+0(SB)/4, $0x30303030
GLOBL q6c30<>(SB), RODATA|NOPTR, $4
DATA q6c20<>+0(SB)/4, $0x20202020
GLOBL q6c20<>(SB), RODATA|NOPTR, $4

// q6ScY: VPSHUFB controls, 32 bytes per chunk k, for a ymm register that
// holds the eight int16 scales of a half in both 128-bit lanes: word 2k in
// the low lane (values 0..15 of the chunk), word 2k+1 in the high lane.
DATA q6ScY<>+0(SB)/8, $0x0100010001000100
DATA q6ScY<>+8(SB)/8, $0x0100010001000100
DATA q6ScY<>+16(SB)/8, $0x0302030203020302
DATA q6ScY<>+24(SB)/8, $0x0302030203020302
DATA q6ScY<>+32(SB)/8, $0x0504050405040504
DATA q6ScY<>+40(SB)/8, $0x0504050405040504
DATA q6ScY<>+48(SB)/8, $0x0706070607060706
DATA q6ScY<>+56(SB)/8, $0x0706070607060706
DATA q6ScY<>+64(SB)/8, $0x0908090809080908
DATA q6ScY<>+72(SB)/8, $0x0908090809080908
DATA q6ScY<>+80(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA q6ScY<>+88(SB)/8, $0x0b0a0b0a0b0a0b0a
DATA q6ScY<>+96(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA q6ScY<>+104(SB)/8, $0x0d0c0d0c0d0c0d0c
DATA q6ScY<>+112(SB)/8, $0x0f0e0f0e0f0e0f0e
DATA q6ScY<>+120(SB)/8, $0x0f0e0f0e0f0e0f0e
GLOBL q6ScY<>(SB), RODATA|NOPTR, $128

// ---------------------------------------------------------------------------
// AVX2 and AVX-VNNI (VEX, 16 registers).
//
// The half loop: R9 = 8h indexes the half (ql + 64h = (p)(R9*8), qh + 32h =
// (p)(R9*4), scales + 8h = (p)(R9*1)); BX steps through x by 128.
//
// Q6V_DEC0..3(p, qh, q, t): q = the unsigned 6-bit values of chunk k of the
// current half of block p, from qh (that half's 32 qh bytes, in a
// register); t scratch. Y6 = 0x0f.., Y7 = 0x30.. (word shifts leak bits
// between the bytes of a word; the masks drop them).
#define Q6V_DEC0(p, qh, q, t) \
	VPSLLW $4, qh, t           \
	VPAND  Y7, t, t            \
	VPAND  QL(p)(R9*8), Y6, q  \
	VPOR   t, q, q

#define Q6V_DEC1(p, qh, q, t) \
	VPSLLW $2, qh, t             \
	VPAND  Y7, t, t              \
	VPAND  QL+32(p)(R9*8), Y6, q \
	VPOR   t, q, q

#define Q6V_DEC2(p, qh, q, t) \
	VPAND   Y7, qh, t          \
	VMOVDQU QL(p)(R9*8), q     \
	VPSRLW  $4, q, q           \
	VPAND   Y6, q, q           \
	VPOR    t, q, q

#define Q6V_DEC3(p, qh, q, t) \
	VPSRLW  $2, qh, t            \
	VPAND   Y7, t, t             \
	VMOVDQU QL+32(p)(R9*8), q    \
	VPSRLW  $4, q, q             \
	VPAND   Y6, q, q             \
	VPOR    t, q, q

// Q6V_PROD(xq, q, sc, k, s): q = exact int16 pair sums of (q6−32)·y for the
// chunk at xq (Y4 = its 32·y pair sums), s = the chunk's scale words from
// the half's scale register sc.
#define Q6V_PROD(xq, q, sc, k, s) \
	VPMADDUBSW xq, q, q          \
	VPSUBW     Y4, q, q          \
	VPSHUFB    q6ScY<>+32*k(SB), sc, s

// Q6V_SCALES(p, s): s = the eight int16 scales of the current half of
// block p, in both 128-bit lanes.
#define Q6V_SCALES(p, s, xs) \
	VPMOVSXBW SC(p)(R9*1), xs \
	VPERMQ    $0x44, s, s

// Q6V_HSUM(a, x, t): x (the low half of a) = hsum(a) in its low lane.
#define Q6V_HSUM(a, x, t) \
	VEXTRACTF128 $1, a, t   \
	VADDPS       t, x, x    \
	VPERMILPS    $0x4E, x, t \
	VADDPS       t, x, x    \
	VMOVSHDUP    x, t       \
	VADDSS       t, x, x

// Q6V_DD2(p0, p1): 0(SP), 4(SP) = dd of the blocks at p0, p1 against the
// x block at BX-256 (the half loop has stepped BX past its quants).
#define Q6V_DD2(p0, p1) \
	MOVWQZX      blockQ6K_d(p1), AX    \
	SHLQ         $16, AX               \
	MOVWQZX      blockQ6K_d(p0), R12   \
	ORQ          R12, AX               \
	VMOVQ        AX, X12               \
	VCVTPH2PS    X12, X12              \
	VBROADCASTSS blockQ8K_d-256(BX), X13 \
	VMULPS       X13, X12, X12         \
	VMOVQ        X12, 0(SP)

// Q6V_ACC(a, d, t, acc): acc += dd(d(SP))·float(a).
#define Q6V_ACC(a, d, t, acc) \
	VCVTDQ2PS    a, a     \
	VBROADCASTSS d(SP), t \
	VMULPS       t, a, a  \
	VADDPS       a, acc, acc

// AVX-512 tables: q6ScW / q6ScD are VPERMW indices, 64 bytes per chunk j,
// that widen the sixteen int16 scales of a block to the (sc, sc) / (sc, 0)
// word pairs of chunk j (word 16 of the table is zero); q6CntA, q6CntB the
// per-half qh shift counts; q6DD the dd pair permutes; q6Lane0 gathers
// lane 0 of each 128-bit lane.
DATA q6ScW<>+0(SB)/8, $0x0000000000000000
DATA q6ScW<>+8(SB)/8, $0x0000000000000000
DATA q6ScW<>+16(SB)/8, $0x0001000100010001
DATA q6ScW<>+24(SB)/8, $0x0001000100010001
DATA q6ScW<>+32(SB)/8, $0x0002000200020002
DATA q6ScW<>+40(SB)/8, $0x0002000200020002
DATA q6ScW<>+48(SB)/8, $0x0003000300030003
DATA q6ScW<>+56(SB)/8, $0x0003000300030003
DATA q6ScW<>+64(SB)/8, $0x0004000400040004
DATA q6ScW<>+72(SB)/8, $0x0004000400040004
DATA q6ScW<>+80(SB)/8, $0x0005000500050005
DATA q6ScW<>+88(SB)/8, $0x0005000500050005
DATA q6ScW<>+96(SB)/8, $0x0006000600060006
DATA q6ScW<>+104(SB)/8, $0x0006000600060006
DATA q6ScW<>+112(SB)/8, $0x0007000700070007
DATA q6ScW<>+120(SB)/8, $0x0007000700070007
DATA q6ScW<>+128(SB)/8, $0x0008000800080008
DATA q6ScW<>+136(SB)/8, $0x0008000800080008
DATA q6ScW<>+144(SB)/8, $0x0009000900090009
DATA q6ScW<>+152(SB)/8, $0x0009000900090009
DATA q6ScW<>+160(SB)/8, $0x000a000a000a000a
DATA q6ScW<>+168(SB)/8, $0x000a000a000a000a
DATA q6ScW<>+176(SB)/8, $0x000b000b000b000b
DATA q6ScW<>+184(SB)/8, $0x000b000b000b000b
DATA q6ScW<>+192(SB)/8, $0x000c000c000c000c
DATA q6ScW<>+200(SB)/8, $0x000c000c000c000c
DATA q6ScW<>+208(SB)/8, $0x000d000d000d000d
DATA q6ScW<>+216(SB)/8, $0x000d000d000d000d
DATA q6ScW<>+224(SB)/8, $0x000e000e000e000e
DATA q6ScW<>+232(SB)/8, $0x000e000e000e000e
DATA q6ScW<>+240(SB)/8, $0x000f000f000f000f
DATA q6ScW<>+248(SB)/8, $0x000f000f000f000f
GLOBL q6ScW<>(SB), RODATA|NOPTR, $256

DATA q6ScD<>+0(SB)/8, $0x0010000000100000
DATA q6ScD<>+8(SB)/8, $0x0010000000100000
DATA q6ScD<>+16(SB)/8, $0x0010000100100001
DATA q6ScD<>+24(SB)/8, $0x0010000100100001
DATA q6ScD<>+32(SB)/8, $0x0010000200100002
DATA q6ScD<>+40(SB)/8, $0x0010000200100002
DATA q6ScD<>+48(SB)/8, $0x0010000300100003
DATA q6ScD<>+56(SB)/8, $0x0010000300100003
DATA q6ScD<>+64(SB)/8, $0x0010000400100004
DATA q6ScD<>+72(SB)/8, $0x0010000400100004
DATA q6ScD<>+80(SB)/8, $0x0010000500100005
DATA q6ScD<>+88(SB)/8, $0x0010000500100005
DATA q6ScD<>+96(SB)/8, $0x0010000600100006
DATA q6ScD<>+104(SB)/8, $0x0010000600100006
DATA q6ScD<>+112(SB)/8, $0x0010000700100007
DATA q6ScD<>+120(SB)/8, $0x0010000700100007
DATA q6ScD<>+128(SB)/8, $0x0010000800100008
DATA q6ScD<>+136(SB)/8, $0x0010000800100008
DATA q6ScD<>+144(SB)/8, $0x0010000900100009
DATA q6ScD<>+152(SB)/8, $0x0010000900100009
DATA q6ScD<>+160(SB)/8, $0x0010000a0010000a
DATA q6ScD<>+168(SB)/8, $0x0010000a0010000a
DATA q6ScD<>+176(SB)/8, $0x0010000b0010000b
DATA q6ScD<>+184(SB)/8, $0x0010000b0010000b
DATA q6ScD<>+192(SB)/8, $0x0010000c0010000c
DATA q6ScD<>+200(SB)/8, $0x0010000c0010000c
DATA q6ScD<>+208(SB)/8, $0x0010000d0010000d
DATA q6ScD<>+216(SB)/8, $0x0010000d0010000d
DATA q6ScD<>+224(SB)/8, $0x0010000e0010000e
DATA q6ScD<>+232(SB)/8, $0x0010000e0010000e
DATA q6ScD<>+240(SB)/8, $0x0010000f0010000f
DATA q6ScD<>+248(SB)/8, $0x0010000f0010000f
GLOBL q6ScD<>(SB), RODATA|NOPTR, $256

DATA q6CntA<>+0(SB)/8, $0x0004000400040004
DATA q6CntA<>+8(SB)/8, $0x0004000400040004
DATA q6CntA<>+16(SB)/8, $0x0004000400040004
DATA q6CntA<>+24(SB)/8, $0x0004000400040004
DATA q6CntA<>+32(SB)/8, $0x0002000200020002
DATA q6CntA<>+40(SB)/8, $0x0002000200020002
DATA q6CntA<>+48(SB)/8, $0x0002000200020002
DATA q6CntA<>+56(SB)/8, $0x0002000200020002
GLOBL q6CntA<>(SB), RODATA|NOPTR, $64

DATA q6CntB<>+0(SB)/8, $0x0000000000000000
DATA q6CntB<>+8(SB)/8, $0x0000000000000000
DATA q6CntB<>+16(SB)/8, $0x0000000000000000
DATA q6CntB<>+24(SB)/8, $0x0000000000000000
DATA q6CntB<>+32(SB)/8, $0x0002000200020002
DATA q6CntB<>+40(SB)/8, $0x0002000200020002
DATA q6CntB<>+48(SB)/8, $0x0002000200020002
DATA q6CntB<>+56(SB)/8, $0x0002000200020002
GLOBL q6CntB<>(SB), RODATA|NOPTR, $64

DATA q6DD<>+0(SB)/8, $0x0000000000000000
DATA q6DD<>+8(SB)/8, $0x0000000000000000
DATA q6DD<>+16(SB)/8, $0x0000000000000000
DATA q6DD<>+24(SB)/8, $0x0000000000000000
DATA q6DD<>+32(SB)/8, $0x0000000100000001
DATA q6DD<>+40(SB)/8, $0x0000000100000001
DATA q6DD<>+48(SB)/8, $0x0000000100000001
DATA q6DD<>+56(SB)/8, $0x0000000100000001
DATA q6DD<>+64(SB)/8, $0x0000000200000002
DATA q6DD<>+72(SB)/8, $0x0000000200000002
DATA q6DD<>+80(SB)/8, $0x0000000200000002
DATA q6DD<>+88(SB)/8, $0x0000000200000002
DATA q6DD<>+96(SB)/8, $0x0000000300000003
DATA q6DD<>+104(SB)/8, $0x0000000300000003
DATA q6DD<>+112(SB)/8, $0x0000000300000003
DATA q6DD<>+120(SB)/8, $0x0000000300000003
GLOBL q6DD<>(SB), RODATA|NOPTR, $128

DATA q6Lane0<>+0(SB)/8, $0x0000000400000000
DATA q6Lane0<>+8(SB)/8, $0x0000000c00000008
GLOBL q6Lane0<>(SB), RODATA|NOPTR, $16

// q6ScB, q6ScBW: VPSHUFB controls, 64 bytes per chunk j, that widen the
// sixteen scale bytes of a block (in every 128-bit lane) to the word pairs
// (256·sc, 0) / (256·sc, 256·sc) of chunk j: the scale byte goes to the
// high byte of a word, so no sign extension is needed; the lane sums come
// out ×256 and fit int32 for the four chunks of a super-block
// (4·16256·128·256 < 2³¹), and VPSRAD $8 divides them back exactly.
DATA q6ScB<>+0(SB)/8, $0x8080008080800080
DATA q6ScB<>+8(SB)/8, $0x8080008080800080
DATA q6ScB<>+16(SB)/8, $0x8080018080800180
DATA q6ScB<>+24(SB)/8, $0x8080018080800180
DATA q6ScB<>+32(SB)/8, $0x8080028080800280
DATA q6ScB<>+40(SB)/8, $0x8080028080800280
DATA q6ScB<>+48(SB)/8, $0x8080038080800380
DATA q6ScB<>+56(SB)/8, $0x8080038080800380
DATA q6ScB<>+64(SB)/8, $0x8080048080800480
DATA q6ScB<>+72(SB)/8, $0x8080048080800480
DATA q6ScB<>+80(SB)/8, $0x8080058080800580
DATA q6ScB<>+88(SB)/8, $0x8080058080800580
DATA q6ScB<>+96(SB)/8, $0x8080068080800680
DATA q6ScB<>+104(SB)/8, $0x8080068080800680
DATA q6ScB<>+112(SB)/8, $0x8080078080800780
DATA q6ScB<>+120(SB)/8, $0x8080078080800780
DATA q6ScB<>+128(SB)/8, $0x8080088080800880
DATA q6ScB<>+136(SB)/8, $0x8080088080800880
DATA q6ScB<>+144(SB)/8, $0x8080098080800980
DATA q6ScB<>+152(SB)/8, $0x8080098080800980
DATA q6ScB<>+160(SB)/8, $0x80800a8080800a80
DATA q6ScB<>+168(SB)/8, $0x80800a8080800a80
DATA q6ScB<>+176(SB)/8, $0x80800b8080800b80
DATA q6ScB<>+184(SB)/8, $0x80800b8080800b80
DATA q6ScB<>+192(SB)/8, $0x80800c8080800c80
DATA q6ScB<>+200(SB)/8, $0x80800c8080800c80
DATA q6ScB<>+208(SB)/8, $0x80800d8080800d80
DATA q6ScB<>+216(SB)/8, $0x80800d8080800d80
DATA q6ScB<>+224(SB)/8, $0x80800e8080800e80
DATA q6ScB<>+232(SB)/8, $0x80800e8080800e80
DATA q6ScB<>+240(SB)/8, $0x80800f8080800f80
DATA q6ScB<>+248(SB)/8, $0x80800f8080800f80
GLOBL q6ScB<>(SB), RODATA|NOPTR, $256

DATA q6ScBW<>+0(SB)/8, $0x0080008000800080
DATA q6ScBW<>+8(SB)/8, $0x0080008000800080
DATA q6ScBW<>+16(SB)/8, $0x0180018001800180
DATA q6ScBW<>+24(SB)/8, $0x0180018001800180
DATA q6ScBW<>+32(SB)/8, $0x0280028002800280
DATA q6ScBW<>+40(SB)/8, $0x0280028002800280
DATA q6ScBW<>+48(SB)/8, $0x0380038003800380
DATA q6ScBW<>+56(SB)/8, $0x0380038003800380
DATA q6ScBW<>+64(SB)/8, $0x0480048004800480
DATA q6ScBW<>+72(SB)/8, $0x0480048004800480
DATA q6ScBW<>+80(SB)/8, $0x0580058005800580
DATA q6ScBW<>+88(SB)/8, $0x0580058005800580
DATA q6ScBW<>+96(SB)/8, $0x0680068006800680
DATA q6ScBW<>+104(SB)/8, $0x0680068006800680
DATA q6ScBW<>+112(SB)/8, $0x0780078007800780
DATA q6ScBW<>+120(SB)/8, $0x0780078007800780
DATA q6ScBW<>+128(SB)/8, $0x0880088008800880
DATA q6ScBW<>+136(SB)/8, $0x0880088008800880
DATA q6ScBW<>+144(SB)/8, $0x0980098009800980
DATA q6ScBW<>+152(SB)/8, $0x0980098009800980
DATA q6ScBW<>+160(SB)/8, $0x0a800a800a800a80
DATA q6ScBW<>+168(SB)/8, $0x0a800a800a800a80
DATA q6ScBW<>+176(SB)/8, $0x0b800b800b800b80
DATA q6ScBW<>+184(SB)/8, $0x0b800b800b800b80
DATA q6ScBW<>+192(SB)/8, $0x0c800c800c800c80
DATA q6ScBW<>+200(SB)/8, $0x0c800c800c800c80
DATA q6ScBW<>+208(SB)/8, $0x0d800d800d800d80
DATA q6ScBW<>+216(SB)/8, $0x0d800d800d800d80
DATA q6ScBW<>+224(SB)/8, $0x0e800e800e800e80
DATA q6ScBW<>+232(SB)/8, $0x0e800e800e800e80
DATA q6ScBW<>+240(SB)/8, $0x0f800f800f800f80
DATA q6ScBW<>+248(SB)/8, $0x0f800f800f800f80
GLOBL q6ScBW<>(SB), RODATA|NOPTR, $256

// ---------------------------------------------------------------------------
// AVX-512 (512-bit vectors). A zmm register holds 64 values: chunks 2h and
// 2h+1 of half h are the low and high nibbles of the 64 ql bytes of the
// half, against y[128h : 128h+64] and y[128h+64 : 128h+128]. Its int32
// lane m is lane l = m mod 8 of group 2n + m/8, so a row's lane sums A[l]
// are lanes l and l+8 of its accumulator (added exactly before the
// conversion), and the scale of lane m in chunk j = 2h+n is sc[4j + m/4].
//
// Scale words: MatVec broadcasts a block's sixteen scale bytes to every
// 128-bit lane (a plain load) and VPSHUFB (q6ScB, q6ScBW) puts each into the
// high byte of its words, so the sums come out ×256 and one VPSRAD $8 a
// super-block undoes it; MatMul, where a row's scales serve four columns,
// widens them with VPMOVSXBW and VPERMW (q6ScD, q6ScW).
//
// MatVec registers:
//	DI dst   SI, R8, R9, R11 rows 0..3   DX x   BX x (current)
//	CX blocks left   R10 rows left   AX, R12 scratch
//	Z0..Z3  int32 accumulators of rows 0..3   Z4, Z5  float [row 0 | row 1], [2 | 3]
//	Z8, Z9  32·y pair sums (AVX512)          Z10..Z13  scale controls, chunks 0..3
//	Z14, Z15  dd permutes                     Z16..Z19  scale bytes, rows 0..3
//	Z20..Z25  scratch   Z26  zero   Z27  0x20..   Z28..Z31  decode constants
// Frame (AVX512VNNI): -32·Σy of the two chunks of the current half.

// Q6Z_DEC(p, h, qa, qb, t, u): qa, qb = the unsigned 6-bit values of chunks
// 2h and 2h+1 of block p: qa = (ql & 15) | (qh << (4, 2) & 0x30), qb =
// (ql >> 4 & 15) | (qh >> (0, 2) & 0x30), the qh bytes of the half in both
// 256-bit halves (shift counts per half; word shifts leak bits between the
// bytes of a word, the masks drop them). Q6Z_M0F, Q6Z_M30 hold the masks,
// Q6Z_CA, Q6Z_CB the shift counts (q6CntA, q6CntB).
#define Q6Z_DEC(p, h, qa, qb, t, u) \
	VMOVDQU64       QL+64*h(p), qa          \
	VPSRLW          $4, qa, qb              \
	VPANDD          Q6Z_M0F, qa, qa         \
	VPANDD          Q6Z_M0F, qb, qb         \
	VBROADCASTI64X4 QH+32*h(p), t           \
	VPSLLVW         Q6Z_CA, t, u            \
	VPTERNLOGD      $0xF8, Q6Z_M30, u, qa   \
	VPSRLVW         Q6Z_CB, t, t            \
	VPTERNLOGD      $0xF8, Q6Z_M30, t, qb

#define Q6Z_M0F Z28
#define Q6Z_M30 Z29
#define Q6Z_CA  Z30
#define Q6Z_CB  Z31

// Q6Z_DECCONST loads Q6Z_M0F, Q6Z_M30, Q6Z_CA and Q6Z_CB.
#define Q6Z_DECCONST \
	VPBROADCASTD q6c0F<>(SB), Q6Z_M0F \
	VPBROADCASTD q6c30<>(SB), Q6Z_M30 \
	VMOVDQU64    q6CntA<>(SB), Q6Z_CA \
	VMOVDQU64    q6CntB<>(SB), Q6Z_CB

// Q6Z_NEGC(h): 0(SP), 64(SP) = -32·Σy per lane of the two chunks of half h
// (x block at BX).
#define Q6Z_NEGC(h) \
	VPXORD    Z20, Z20, Z20           \
	VPDPBUSD  YQ+128*h(BX), Z27, Z20  \
	VPSUBD    Z20, Z26, Z20           \
	VMOVDQU64 Z20, 0(SP)              \
	VPXORD    Z21, Z21, Z21           \
	VPDPBUSD  YQ+128*h+64(BX), Z27, Z21 \
	VPSUBD    Z21, Z26, Z21           \
	VMOVDQU64 Z21, 64(SP)

// Q6Z_ROWV(p, h, a, sc, i0, i1): a += the scaled lane sums of half h of
// block p (AVX512VNNI); sc its scales, i0, i1 the chunks' permutes.
#define Q6Z_ROWV(p, h, a, sc, i0, i1) \
	Q6Z_DEC(p, h, Z20, Z21, Z22, Z23)    \
	VMOVDQU64 0(SP), Z24                 \
	VPDPBUSD  YQ+128*h(BX), Z20, Z24     \
	VPSHUFB   i0, sc, Z25                \
	VPDPWSSD  Z25, Z24, a                \
	VMOVDQU64 64(SP), Z22                \
	VPDPBUSD  YQ+128*h+64(BX), Z21, Z22  \
	VPSHUFB   i1, sc, Z23                \
	VPDPWSSD  Z23, Z22, a

// Q6Z_Y2(h): Z8, Z9 = 32·(y_a + y_b) word pair sums of the two chunks of
// half h (AVX512).
#define Q6Z_Y2(h) \
	VPMADDUBSW YQ+128*h(BX), Z27, Z8 \
	VPMADDUBSW YQ+128*h+64(BX), Z27, Z9

// Q6Z_ROWP(p, h, a, sc, i0, i1): Q6Z_ROWV without VNNI.
#define Q6Z_ROWP(p, h, a, sc, i0, i1) \
	Q6Z_DEC(p, h, Z20, Z21, Z22, Z23)    \
	VPMADDUBSW YQ+128*h(BX), Z20, Z20    \
	VPSUBW     Z8, Z20, Z20              \
	VPSHUFB    i0, sc, Z25               \
	VPMADDWD   Z25, Z20, Z20             \
	VPADDD     Z20, a, a                 \
	VPMADDUBSW YQ+128*h+64(BX), Z21, Z21 \
	VPSUBW     Z9, Z21, Z21              \
	VPSHUFB    i1, sc, Z23               \
	VPMADDWD   Z23, Z21, Z21             \
	VPADDD     Z21, a, a

// Q6Z_DD4: Z24 = [dd0 ×8 | dd1 ×8], Z25 = [dd2 ×8 | dd3 ×8] for the blocks
// at SI, R8, R9, R11 against the x block at BX.
#define Q6Z_DD4 \
	MOVWQZX     blockQ6K_d(R11), AX    \
	SHLQ        $16, AX                \
	MOVWQZX     blockQ6K_d(R9), R12    \
	ORQ         R12, AX                \
	SHLQ        $16, AX                \
	MOVWQZX     blockQ6K_d(R8), R12    \
	ORQ         R12, AX                \
	SHLQ        $16, AX                \
	MOVWQZX     blockQ6K_d(SI), R12    \
	ORQ         R12, AX                \
	VMOVQ       AX, X23                \
	VCVTPH2PS   X23, X23               \
	VMULPS.BCST blockQ8K_d(BX), X23, X23 \
	VPERMPS     Z23, Z14, Z24          \
	VPERMPS     Z23, Z15, Z25

// Q6Z_FOLD(a, b, dd, acc): acc += dd·float([A of a | A of b]), A[l] = lanes
// l + l+8 of an accumulator (exact int32 adds).
#define Q6Z_FOLD(a, b, dd, acc) \
	VSHUFI64X2 $0x44, b, a, Z20 \
	VSHUFI64X2 $0xEE, b, a, Z21 \
	VPADDD     Z21, Z20, Z20    \
	VCVTDQ2PS  Z20, Z20         \
	VMULPS     dd, Z20, Z20     \
	VADDPS     Z20, acc, acc

// Q6Z_HSUM4(a, b, o, t): o's low 128 bits = hsum of the four rows in a =
// [r0 | r1], b = [r2 | r3]: add the 128-bit halves of each row, then the
// high qword, then lane 1, in the package order; lane 0 of each 128-bit
// lane then holds a row's sum, and a permute gathers them.
#define Q6Z_HSUM4(a, b, o, t) \
	VSHUFF32X4 $0x88, b, a, o     \
	VSHUFF32X4 $0xDD, b, a, t     \
	VADDPS     t, o, o            \
	VPERMILPS  $0x4E, o, t        \
	VADDPS     t, o, o            \
	VPERMILPS  $0xB1, o, t        \
	VADDPS     t, o, o            \
	VMOVDQU32  q6Lane0<>(SB), t   \
	VPERMPS    o, t, o

// Q6Z_ROWS4: SI, R8, R9, R11 = four consecutive rows from SI (CX blocks
// each); BX = x.
#define Q6Z_ROWS4 \
	IMUL3Q $blockQ6K__size, CX, AX \
	LEAQ   (SI)(AX*1), R8  \
	LEAQ   (R8)(AX*1), R9  \
	LEAQ   (R9)(AX*1), R11 \
	MOVQ   DX, BX

// Q6Z_CONST(scales): the constant registers of MatVec; scales = q6ScB or
// q6ScBW.
#define Q6Z_CONST(scales) \
	Q6Z_DECCONST                      \
	VPBROADCASTD q6c20<>(SB), Z27     \
	VPXORD       Z26, Z26, Z26        \
	VMOVDQU64    scales<>+0(SB), Z10   \
	VMOVDQU64    scales<>+64(SB), Z11  \
	VMOVDQU64    scales<>+128(SB), Z12 \
	VMOVDQU64    scales<>+192(SB), Z13 \
	VMOVDQU32    q6DD<>+0(SB), Z14    \
	VMOVDQU32    q6DD<>+64(SB), Z15

// Q6Z_SC4: the scale bytes of the four rows' blocks, in every 128-bit lane.
#define Q6Z_SC4 \
	VBROADCASTI32X4 SC(SI), Z16  \
	VBROADCASTI32X4 SC(R8), Z17  \
	VBROADCASTI32X4 SC(R9), Z18  \
	VBROADCASTI32X4 SC(R11), Z19

// Q6Z_UNSCALE4: the four rows' lane sums ÷ 256 (exact).
#define Q6Z_UNSCALE4 \
	VPSRAD $8, Z0, Z0 \
	VPSRAD $8, Z1, Z1 \
	VPSRAD $8, Z2, Z2 \
	VPSRAD $8, Z3, Z3

#define Q6Z_ZERO4 \
	VPXORD Z0, Z0, Z0 \
	VPXORD Z1, Z1, Z1 \
	VPXORD Z2, Z2, Z2 \
	VPXORD Z3, Z3, Z3

#define Q6Z_STEP4 \
	ADDQ $blockQ6K__size, SI  \
	ADDQ $blockQ6K__size, R8  \
	ADDQ $blockQ6K__size, R9  \
	ADDQ $blockQ6K__size, R11 \
	ADDQ $blockQ8K__size, BX

// Q6Z_END1(a, acc): the one-row version of DD4 + FOLD: acc (ymm) +=
// dd·float(A) for the block at SI.
#define Q6Z_END1(a, y, acc) \
	VEXTRACTI64X4 $1, a, Y20              \
	VPADDD        Y20, y, Y20             \
	VCVTDQ2PS     Y20, Y20                \
	MOVWQZX       blockQ6K_d(SI), AX      \
	VMOVD         AX, X21                 \
	VCVTPH2PS     X21, X21                \
	VMULSS        blockQ8K_d(BX), X21, X21 \
	VBROADCASTSS  X21, Y21                \
	VMULPS        Y21, Y20, Y20           \
	VADDPS        Y20, acc, acc

// q6m0F, q6m30: the nibble and qh masks as 32-byte memory operands (the
// matmul tiles have no registers to spare for them).
DATA q6m0F<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q6m0F<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q6m0F<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q6m0F<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL q6m0F<>(SB), RODATA|NOPTR, $32
DATA q6m30<>+0(SB)/8, $0x3030303030303030
DATA q6m30<>+8(SB)/8, $0x3030303030303030
DATA q6m30<>+16(SB)/8, $0x3030303030303030
DATA q6m30<>+24(SB)/8, $0x3030303030303030
GLOBL q6m30<>(SB), RODATA|NOPTR, $32

// MatMul (VEX): one row of w × four columns of x. Column c of x is at
// BX + c·R11 (R12 = 3·R11); the decode is shared by the four columns. The
// 32·y pair sums of the columns come precomputed (the table t, see
// MatMulQ6KAVX2), 256 bytes per (block, column) at R13 + 256c, so a
// column costs VPMADDUBSW + VPSUBW (+ VPMADDWD + VPADDD or VPDPWSSD) a
// chunk.
//
//	DI dst (row r, column 0)   SI row (current block)   DX x   BX x (current)
//	R13 t (current)   R8 ldd·4   R11 column stride   R12 3·R11
//	CX blocks left   R10 rows left   R9 half index   AX scratch
//	Y0..Y3 int32 lane sums (columns 0..3)   Y4..Y7 float accumulators
//	Y8 qh   Y9 scales of the half   Y10 q6 of the chunk   Y11 its scales
//	Y12 0x0f..   Y13 products   Y14 scratch   Y15 0x30..

// Q6M_DEC0..3: Y10 = the unsigned 6-bit values of chunk k of the current
// half of the block at SI (as Q6V_DEC0..3, with the masks in Y12, Y15).
#define Q6M_DEC0 \
	VPSLLW $4, Y8, Y14          \
	VPAND  Y15, Y14, Y14        \
	VPAND  QL(SI)(R9*8), Y12, Y10 \
	VPOR   Y14, Y10, Y10

#define Q6M_DEC1 \
	VPSLLW $2, Y8, Y14            \
	VPAND  Y15, Y14, Y14          \
	VPAND  QL+32(SI)(R9*8), Y12, Y10 \
	VPOR   Y14, Y10, Y10

#define Q6M_DEC2 \
	VPAND   Y15, Y8, Y14        \
	VMOVDQU QL(SI)(R9*8), Y10   \
	VPSRLW  $4, Y10, Y10        \
	VPAND   Y12, Y10, Y10       \
	VPOR    Y14, Y10, Y10

#define Q6M_DEC3 \
	VPSRLW  $2, Y8, Y14          \
	VPAND   Y15, Y14, Y14        \
	VMOVDQU QL+32(SI)(R9*8), Y10 \
	VPSRLW  $4, Y10, Y10         \
	VPAND   Y12, Y10, Y10        \
	VPOR    Y14, Y10, Y10

// Q6M_P(y, t): Y13 = exact int16 pair sums of (q6−32)·y for the chunk at
// y, whose 32·y pair sums are at t.
#define Q6M_P(y, t) \
	VPMADDUBSW y, Y10, Y13 \
	VPSUBW     t, Y13, Y13

// Q6M_ACC(a, acc, t, addr): acc += dd·float(a) for the x block whose scale
// is at addr; Y14 = f16(d) in every lane.
#define Q6M_ACC(a, acc, t, addr) \
	VBROADCASTSS addr, t      \
	VMULPS       Y14, t, t    \
	VCVTDQ2PS    a, a         \
	VMULPS       t, a, a      \
	VADDPS       a, acc, acc

// MatMul (AVX-512): two rows of w × four columns of x; column c of x at
// BX + c·R11 (R12 = 3·R11). The columns' x work comes precomputed in the
// table t (see MatMulQ6KAVX512, MatMulQ6KAVX512VNNI): 256 bytes per (block,
// column), chunk n of half h of column c at R9 + 256c + 128h + 64n.
//
//	DI dst (row r, column 0)   SI row r   R8 row r+1   DX x   BX x (current)
//	R9 t (current)   R11 column stride   R12 3·R11   R13 ldd·4
//	CX blocks left   R10 rows left   AX scratch
//	Z0..Z3, Z4..Z7  int32 accumulators, rows r, r+1 × columns 0..3
//	Z8..Z11  float [row r | row r+1] of columns 0..3   Z12..Z15 scale permutes
//	Z16, Z17  int16 scales of the two rows   Z18..Z25 scratch
//	Z28..Z31  decode constants

// Q6ZM_CV(h, y, off, a): a += the scaled lane sums of column y (whose table
// entries start at off(R9)) against the decoded half in Z18, Z19 (scales
// Z22, Z23); VPDPBUSD starts from the table's -32·Σy.
#define Q6ZM_CV(h, y, off, a) \
	VMOVDQU64 off+128*h(R9), Z24        \
	VPDPBUSD  YQ+128*h y, Z18, Z24      \
	VPDPWSSD  Z22, Z24, a               \
	VMOVDQU64 off+128*h+64(R9), Z25     \
	VPDPBUSD  YQ+128*h+64 y, Z19, Z25   \
	VPDPWSSD  Z23, Z25, a

// Q6ZM_CP(h, y, off, a): Q6ZM_CV without VNNI; the table holds the 32·y
// pair sums.
#define Q6ZM_CP(h, y, off, a) \
	VPMADDUBSW YQ+128*h y, Z18, Z24     \
	VPSUBW     off+128*h(R9), Z24, Z24  \
	VPMADDWD   Z22, Z24, Z24            \
	VPADDD     Z24, a, a                \
	VPMADDUBSW YQ+128*h+64 y, Z19, Z25  \
	VPSUBW     off+128*h+64(R9), Z25, Z25 \
	VPMADDWD   Z23, Z25, Z25            \
	VPADDD     Z25, a, a

// Q6ZM_ROW(p, h, sc, i0, i1): decode half h of the block at p into Z18, Z19
// and its chunks' scales into Z22, Z23.
#define Q6ZM_ROW(p, h, sc, i0, i1) \
	Q6Z_DEC(p, h, Z18, Z19, Z20, Z21) \
	VPERMW sc, i0, Z22                \
	VPERMW sc, i1, Z23

// Q6ZM_END(y, a, b, acc): acc += [dd_r | dd_r+1]·float([A of a | A of b])
// for column y; Z22 = [f16(d_r) ×8 | f16(d_r+1) ×8].
#define Q6ZM_END(y, a, b, acc) \
	VMULPS.BCST blockQ8K_d y, Z22, Z23 \
	VSHUFI64X2  $0x44, b, a, Z20       \
	VSHUFI64X2  $0xEE, b, a, Z21       \
	VPADDD      Z21, Z20, Z20          \
	VCVTDQ2PS   Z20, Z20               \
	VMULPS      Z23, Z20, Z20          \
	VADDPS      Z20, acc, acc

// MatVec registers (VEX):
//	DI dst   SI row 0   R8 row 1   DX x   BX x (current)   CX blocks left
//	R10 rows left   R9 half index   AX, R12 scratch
//	Y0, Y1 int32 lane sums (rows 0, 1)   Y2, Y3 float accumulators
//	Y4 32·y pair sums   Y5 0x20..   Y6 0x0f..   Y7 0x30..
//	Y8, Y9 qh (rows 0, 1)   Y10, Y11 scales   Y12..Y15 scratch

// func MatVecQ6KAVX2(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, F16C
TEXT ·MatVecQ6KAVX2(SB), NOSPLIT, $8-40
	MOVQ         dst+0(FP), DI
	MOVQ         w+8(FP), SI
	MOVQ         x+16(FP), DX
	MOVQ         rows+24(FP), R10
	VPBROADCASTD q6c20<>(SB), Y5
	VPBROADCASTD q6c0F<>(SB), Y6
	VPBROADCASTD q6c30<>(SB), Y7

mvq6avx2_pairs:
	CMPQ   R10, $2
	JB     mvq6avx2_single
	MOVQ   nb+32(FP), CX
	IMUL3Q $blockQ6K__size, CX, R8
	ADDQ   SI, R8
	MOVQ   DX, BX
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ  CX, CX
	JZ     mvq6avx2_pend

mvq6avx2_pblock:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	XORL  R9, R9

	PCALIGN $32
mvq6avx2_phalf:
	VMOVDQU QH(SI)(R9*4), Y8
	VMOVDQU QH(R8)(R9*4), Y9
	Q6V_SCALES(SI, Y10, X10)
	Q6V_SCALES(R8, Y11, X11)

	VPMADDUBSW YQ(BX), Y5, Y4
	Q6V_DEC0(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ(BX), Y12, Y10, 0, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	Q6V_DEC0(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ(BX), Y12, Y11, 0, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y1, Y1

	VPMADDUBSW YQ+32(BX), Y5, Y4
	Q6V_DEC1(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+32(BX), Y12, Y10, 1, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	Q6V_DEC1(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ+32(BX), Y12, Y11, 1, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y1, Y1

	VPMADDUBSW YQ+64(BX), Y5, Y4
	Q6V_DEC2(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+64(BX), Y12, Y10, 2, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	Q6V_DEC2(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ+64(BX), Y12, Y11, 2, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y1, Y1

	VPMADDUBSW YQ+96(BX), Y5, Y4
	Q6V_DEC3(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+96(BX), Y12, Y10, 3, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	Q6V_DEC3(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ+96(BX), Y12, Y11, 3, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y1, Y1

	ADDQ $128, BX
	ADDQ $8, R9
	CMPQ R9, $16
	JB   mvq6avx2_phalf

	Q6V_DD2(SI, R8)
	Q6V_ACC(Y0, 0, Y12, Y2)
	Q6V_ACC(Y1, 4, Y13, Y3)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ6K__size, R8
	ADDQ $blockQ8K__size-256, BX
	DECQ CX
	JNZ  mvq6avx2_pblock

mvq6avx2_pend:
	Q6V_HSUM(Y2, X2, X12)
	Q6V_HSUM(Y3, X3, X12)
	VMOVSS X2, (DI)
	VMOVSS X3, 4(DI)
	ADDQ   $8, DI
	MOVQ   R8, SI // the next pair starts where row 1 ended
	SUBQ   $2, R10
	JMP    mvq6avx2_pairs

mvq6avx2_single:
	TESTQ  R10, R10
	JZ     mvq6avx2_ret
	MOVQ   nb+32(FP), CX
	MOVQ   DX, BX
	VXORPS Y2, Y2, Y2
	TESTQ  CX, CX
	JZ     mvq6avx2_send

mvq6avx2_sblock:
	VPXOR Y0, Y0, Y0
	XORL  R9, R9

	PCALIGN $32
mvq6avx2_shalf:
	VMOVDQU QH(SI)(R9*4), Y8
	Q6V_SCALES(SI, Y10, X10)
	VPMADDUBSW YQ(BX), Y5, Y4
	Q6V_DEC0(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ(BX), Y12, Y10, 0, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	VPMADDUBSW YQ+32(BX), Y5, Y4
	Q6V_DEC1(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+32(BX), Y12, Y10, 1, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	VPMADDUBSW YQ+64(BX), Y5, Y4
	Q6V_DEC2(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+64(BX), Y12, Y10, 2, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	VPMADDUBSW YQ+96(BX), Y5, Y4
	Q6V_DEC3(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+96(BX), Y12, Y10, 3, Y14)
	VPMADDWD   Y14, Y12, Y12
	VPADDD     Y12, Y0, Y0
	ADDQ       $128, BX
	ADDQ       $8, R9
	CMPQ       R9, $16
	JB         mvq6avx2_shalf

	Q6V_DD2(SI, SI)
	Q6V_ACC(Y0, 0, Y12, Y2)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ8K__size-256, BX
	DECQ CX
	JNZ  mvq6avx2_sblock

mvq6avx2_send:
	Q6V_HSUM(Y2, X2, X12)
	VMOVSS X2, (DI)

mvq6avx2_ret:
	VZEROUPPER
	RET

// func MatVecQ6KAVXVNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX-VNNI, F16C
//
// MatVecQ6KAVX2 with VPDPWSSD in place of VPMADDWD + VPADDD.
TEXT ·MatVecQ6KAVXVNNI(SB), NOSPLIT, $8-40
	MOVQ         dst+0(FP), DI
	MOVQ         w+8(FP), SI
	MOVQ         x+16(FP), DX
	MOVQ         rows+24(FP), R10
	VPBROADCASTD q6c20<>(SB), Y5
	VPBROADCASTD q6c0F<>(SB), Y6
	VPBROADCASTD q6c30<>(SB), Y7

mvq6vnni_pairs:
	CMPQ   R10, $2
	JB     mvq6vnni_single
	MOVQ   nb+32(FP), CX
	IMUL3Q $blockQ6K__size, CX, R8
	ADDQ   SI, R8
	MOVQ   DX, BX
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	TESTQ  CX, CX
	JZ     mvq6vnni_pend

mvq6vnni_pblock:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	XORL  R9, R9

	PCALIGN $32
mvq6vnni_phalf:
	VMOVDQU QH(SI)(R9*4), Y8
	VMOVDQU QH(R8)(R9*4), Y9
	Q6V_SCALES(SI, Y10, X10)
	Q6V_SCALES(R8, Y11, X11)

	VPMADDUBSW YQ(BX), Y5, Y4
	Q6V_DEC0(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ(BX), Y12, Y10, 0, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	Q6V_DEC0(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ(BX), Y12, Y11, 0, Y14)
	VPDPWSSD_Y(14, 12, 1) // {vex} vpdpwssd ymm1, ymm12, ymm14

	VPMADDUBSW YQ+32(BX), Y5, Y4
	Q6V_DEC1(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+32(BX), Y12, Y10, 1, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	Q6V_DEC1(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ+32(BX), Y12, Y11, 1, Y14)
	VPDPWSSD_Y(14, 12, 1) // {vex} vpdpwssd ymm1, ymm12, ymm14

	VPMADDUBSW YQ+64(BX), Y5, Y4
	Q6V_DEC2(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+64(BX), Y12, Y10, 2, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	Q6V_DEC2(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ+64(BX), Y12, Y11, 2, Y14)
	VPDPWSSD_Y(14, 12, 1) // {vex} vpdpwssd ymm1, ymm12, ymm14

	VPMADDUBSW YQ+96(BX), Y5, Y4
	Q6V_DEC3(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+96(BX), Y12, Y10, 3, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	Q6V_DEC3(R8, Y9, Y12, Y13)
	Q6V_PROD(YQ+96(BX), Y12, Y11, 3, Y14)
	VPDPWSSD_Y(14, 12, 1) // {vex} vpdpwssd ymm1, ymm12, ymm14

	ADDQ $128, BX
	ADDQ $8, R9
	CMPQ R9, $16
	JB   mvq6vnni_phalf

	Q6V_DD2(SI, R8)
	Q6V_ACC(Y0, 0, Y12, Y2)
	Q6V_ACC(Y1, 4, Y13, Y3)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ6K__size, R8
	ADDQ $blockQ8K__size-256, BX
	DECQ CX
	JNZ  mvq6vnni_pblock

mvq6vnni_pend:
	Q6V_HSUM(Y2, X2, X12)
	Q6V_HSUM(Y3, X3, X12)
	VMOVSS X2, (DI)
	VMOVSS X3, 4(DI)
	ADDQ   $8, DI
	MOVQ   R8, SI
	SUBQ   $2, R10
	JMP    mvq6vnni_pairs

mvq6vnni_single:
	TESTQ  R10, R10
	JZ     mvq6vnni_ret
	MOVQ   nb+32(FP), CX
	MOVQ   DX, BX
	VXORPS Y2, Y2, Y2
	TESTQ  CX, CX
	JZ     mvq6vnni_send

mvq6vnni_sblock:
	VPXOR Y0, Y0, Y0
	XORL  R9, R9

	PCALIGN $32
mvq6vnni_shalf:
	VMOVDQU QH(SI)(R9*4), Y8
	Q6V_SCALES(SI, Y10, X10)
	VPMADDUBSW YQ(BX), Y5, Y4
	Q6V_DEC0(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ(BX), Y12, Y10, 0, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	VPMADDUBSW YQ+32(BX), Y5, Y4
	Q6V_DEC1(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+32(BX), Y12, Y10, 1, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	VPMADDUBSW YQ+64(BX), Y5, Y4
	Q6V_DEC2(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+64(BX), Y12, Y10, 2, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	VPMADDUBSW YQ+96(BX), Y5, Y4
	Q6V_DEC3(SI, Y8, Y12, Y13)
	Q6V_PROD(YQ+96(BX), Y12, Y10, 3, Y14)
	VPDPWSSD_Y(14, 12, 0) // {vex} vpdpwssd ymm0, ymm12, ymm14
	ADDQ       $128, BX
	ADDQ       $8, R9
	CMPQ       R9, $16
	JB         mvq6vnni_shalf

	Q6V_DD2(SI, SI)
	Q6V_ACC(Y0, 0, Y12, Y2)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ8K__size-256, BX
	DECQ CX
	JNZ  mvq6vnni_sblock

mvq6vnni_send:
	Q6V_HSUM(Y2, X2, X12)
	VMOVSS X2, (DI)

mvq6vnni_ret:
	VZEROUPPER
	RET

// func MatMulQ6KAVX2(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb int)
// Requires: AVX2, F16C
TEXT ·MatMulQ6KAVX2(SB), NOSPLIT, $0-56
	MOVQ         dst+0(FP), DI
	MOVQ         ldd+8(FP), R8
	SHLQ         $2, R8
	MOVQ         w+16(FP), SI
	MOVQ         x+24(FP), DX
	MOVQ         rows+40(FP), R10
	MOVQ         nb+48(FP), R11
	IMUL3Q       $blockQ8K__size, R11, R11
	LEAQ         (R11)(R11*2), R12
	VPBROADCASTD q6c0F<>(SB), Y12
	VPBROADCASTD q6c30<>(SB), Y15
	TESTQ        R10, R10
	JZ           mmq6avx2_ret

mmq6avx2_row:
	MOVQ   nb+48(FP), CX
	MOVQ   DX, BX
	MOVQ   t+32(FP), R13
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ  CX, CX
	JZ     mmq6avx2_rowend

mmq6avx2_block:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	XORL  R9, R9

	PCALIGN $32
mmq6avx2_half:
	VMOVDQU QH(SI)(R9*4), Y8
	Q6V_SCALES(SI, Y9, X9)
	Q6M_DEC0
	VPSHUFB q6ScY<>+0(SB), Y9, Y11
	Q6M_P(YQ+0(BX), 0(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y0, Y0
	Q6M_P(YQ+0(BX)(R11*1), 256(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y1, Y1
	Q6M_P(YQ+0(BX)(R11*2), 512(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y2, Y2
	Q6M_P(YQ+0(BX)(R12*1), 768(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y3, Y3
	Q6M_DEC1
	VPSHUFB q6ScY<>+32(SB), Y9, Y11
	Q6M_P(YQ+32(BX), 32(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y0, Y0
	Q6M_P(YQ+32(BX)(R11*1), 288(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y1, Y1
	Q6M_P(YQ+32(BX)(R11*2), 544(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y2, Y2
	Q6M_P(YQ+32(BX)(R12*1), 800(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y3, Y3
	Q6M_DEC2
	VPSHUFB q6ScY<>+64(SB), Y9, Y11
	Q6M_P(YQ+64(BX), 64(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y0, Y0
	Q6M_P(YQ+64(BX)(R11*1), 320(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y1, Y1
	Q6M_P(YQ+64(BX)(R11*2), 576(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y2, Y2
	Q6M_P(YQ+64(BX)(R12*1), 832(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y3, Y3
	Q6M_DEC3
	VPSHUFB q6ScY<>+96(SB), Y9, Y11
	Q6M_P(YQ+96(BX), 96(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y0, Y0
	Q6M_P(YQ+96(BX)(R11*1), 352(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y1, Y1
	Q6M_P(YQ+96(BX)(R11*2), 608(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y2, Y2
	Q6M_P(YQ+96(BX)(R12*1), 864(R13))
	VPMADDWD Y11, Y13, Y13
	VPADDD   Y13, Y3, Y3
	ADDQ $128, BX
	ADDQ $128, R13
	ADDQ $8, R9
	CMPQ R9, $16
	JB   mmq6avx2_half

	MOVWQZX      blockQ6K_d(SI), AX
	VMOVD        AX, X14
	VCVTPH2PS    X14, X14
	VBROADCASTSS X14, Y14
	Q6M_ACC(Y0, Y4, Y13, blockQ8K_d-256(BX))
	Q6M_ACC(Y1, Y5, Y13, blockQ8K_d-256(BX)(R11*1))
	Q6M_ACC(Y2, Y6, Y13, blockQ8K_d-256(BX)(R11*2))
	Q6M_ACC(Y3, Y7, Y13, blockQ8K_d-256(BX)(R12*1))
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ8K__size-256, BX
	ADDQ $1024-256, R13
	DECQ CX
	JNZ  mmq6avx2_block

mmq6avx2_rowend:
	Q6V_HSUM(Y4, X4, X13)
	Q6V_HSUM(Y5, X5, X13)
	Q6V_HSUM(Y6, X6, X13)
	Q6V_HSUM(Y7, X7, X13)
	LEAQ   (R8)(R8*2), AX
	VMOVSS X4, (DI)
	VMOVSS X5, (DI)(R8*1)
	VMOVSS X6, (DI)(R8*2)
	VMOVSS X7, (DI)(AX*1)
	ADDQ   $4, DI
	DECQ   R10
	JNZ    mmq6avx2_row

mmq6avx2_ret:
	VZEROUPPER
	RET

// func MatMulQ6KAVXVNNI(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX-VNNI, F16C
TEXT ·MatMulQ6KAVXVNNI(SB), NOSPLIT, $0-56
	MOVQ         dst+0(FP), DI
	MOVQ         ldd+8(FP), R8
	SHLQ         $2, R8
	MOVQ         w+16(FP), SI
	MOVQ         x+24(FP), DX
	MOVQ         rows+40(FP), R10
	MOVQ         nb+48(FP), R11
	IMUL3Q       $blockQ8K__size, R11, R11
	LEAQ         (R11)(R11*2), R12
	VPBROADCASTD q6c0F<>(SB), Y12
	VPBROADCASTD q6c30<>(SB), Y15
	TESTQ        R10, R10
	JZ           mmq6vnni_ret

mmq6vnni_row:
	MOVQ   nb+48(FP), CX
	MOVQ   DX, BX
	MOVQ   t+32(FP), R13
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	TESTQ  CX, CX
	JZ     mmq6vnni_rowend

mmq6vnni_block:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	XORL  R9, R9

	PCALIGN $32
mmq6vnni_half:
	VMOVDQU QH(SI)(R9*4), Y8
	Q6V_SCALES(SI, Y9, X9)
	Q6M_DEC0
	VPSHUFB q6ScY<>+0(SB), Y9, Y11
	Q6M_P(YQ+0(BX), 0(R13))
	VPDPWSSD_Y(11, 13, 0) // {vex} vpdpwssd ymm0, ymm13, ymm11
	Q6M_P(YQ+0(BX)(R11*1), 256(R13))
	VPDPWSSD_Y(11, 13, 1) // {vex} vpdpwssd ymm1, ymm13, ymm11
	Q6M_P(YQ+0(BX)(R11*2), 512(R13))
	VPDPWSSD_Y(11, 13, 2) // {vex} vpdpwssd ymm2, ymm13, ymm11
	Q6M_P(YQ+0(BX)(R12*1), 768(R13))
	VPDPWSSD_Y(11, 13, 3) // {vex} vpdpwssd ymm3, ymm13, ymm11
	Q6M_DEC1
	VPSHUFB q6ScY<>+32(SB), Y9, Y11
	Q6M_P(YQ+32(BX), 32(R13))
	VPDPWSSD_Y(11, 13, 0) // {vex} vpdpwssd ymm0, ymm13, ymm11
	Q6M_P(YQ+32(BX)(R11*1), 288(R13))
	VPDPWSSD_Y(11, 13, 1) // {vex} vpdpwssd ymm1, ymm13, ymm11
	Q6M_P(YQ+32(BX)(R11*2), 544(R13))
	VPDPWSSD_Y(11, 13, 2) // {vex} vpdpwssd ymm2, ymm13, ymm11
	Q6M_P(YQ+32(BX)(R12*1), 800(R13))
	VPDPWSSD_Y(11, 13, 3) // {vex} vpdpwssd ymm3, ymm13, ymm11
	Q6M_DEC2
	VPSHUFB q6ScY<>+64(SB), Y9, Y11
	Q6M_P(YQ+64(BX), 64(R13))
	VPDPWSSD_Y(11, 13, 0) // {vex} vpdpwssd ymm0, ymm13, ymm11
	Q6M_P(YQ+64(BX)(R11*1), 320(R13))
	VPDPWSSD_Y(11, 13, 1) // {vex} vpdpwssd ymm1, ymm13, ymm11
	Q6M_P(YQ+64(BX)(R11*2), 576(R13))
	VPDPWSSD_Y(11, 13, 2) // {vex} vpdpwssd ymm2, ymm13, ymm11
	Q6M_P(YQ+64(BX)(R12*1), 832(R13))
	VPDPWSSD_Y(11, 13, 3) // {vex} vpdpwssd ymm3, ymm13, ymm11
	Q6M_DEC3
	VPSHUFB q6ScY<>+96(SB), Y9, Y11
	Q6M_P(YQ+96(BX), 96(R13))
	VPDPWSSD_Y(11, 13, 0) // {vex} vpdpwssd ymm0, ymm13, ymm11
	Q6M_P(YQ+96(BX)(R11*1), 352(R13))
	VPDPWSSD_Y(11, 13, 1) // {vex} vpdpwssd ymm1, ymm13, ymm11
	Q6M_P(YQ+96(BX)(R11*2), 608(R13))
	VPDPWSSD_Y(11, 13, 2) // {vex} vpdpwssd ymm2, ymm13, ymm11
	Q6M_P(YQ+96(BX)(R12*1), 864(R13))
	VPDPWSSD_Y(11, 13, 3) // {vex} vpdpwssd ymm3, ymm13, ymm11
	ADDQ $128, BX
	ADDQ $128, R13
	ADDQ $8, R9
	CMPQ R9, $16
	JB   mmq6vnni_half

	MOVWQZX      blockQ6K_d(SI), AX
	VMOVD        AX, X14
	VCVTPH2PS    X14, X14
	VBROADCASTSS X14, Y14
	Q6M_ACC(Y0, Y4, Y13, blockQ8K_d-256(BX))
	Q6M_ACC(Y1, Y5, Y13, blockQ8K_d-256(BX)(R11*1))
	Q6M_ACC(Y2, Y6, Y13, blockQ8K_d-256(BX)(R11*2))
	Q6M_ACC(Y3, Y7, Y13, blockQ8K_d-256(BX)(R12*1))
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ8K__size-256, BX
	ADDQ $1024-256, R13
	DECQ CX
	JNZ  mmq6vnni_block

mmq6vnni_rowend:
	Q6V_HSUM(Y4, X4, X13)
	Q6V_HSUM(Y5, X5, X13)
	Q6V_HSUM(Y6, X6, X13)
	Q6V_HSUM(Y7, X7, X13)
	LEAQ   (R8)(R8*2), AX
	VMOVSS X4, (DI)
	VMOVSS X5, (DI)(R8*1)
	VMOVSS X6, (DI)(R8*2)
	VMOVSS X7, (DI)(AX*1)
	ADDQ   $4, DI
	DECQ   R10
	JNZ    mmq6vnni_row

mmq6vnni_ret:
	VZEROUPPER
	RET

// func MatVecQ6KAVX512(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX512F, AVX512BW, AVX512VL, F16C
//
// MatVecQ6KAVX512VNNI with VPMADDUBSW, VPSUBW, VPMADDWD and VPADDD in place
// of VPDPBUSD + VPDPWSSD.
TEXT ·MatVecQ6KAVX512(SB), NOSPLIT, $128-40
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ rows+24(FP), R10
	Q6Z_CONST(q6ScBW)

mvq6avx512_quads:
	CMPQ   R10, $4
	JB     mvq6avx512_single
	MOVQ   nb+32(FP), CX
	Q6Z_ROWS4
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	TESTQ  CX, CX
	JZ     mvq6avx512_qend

	PCALIGN $32
mvq6avx512_qblock:
	Q6Z_ZERO4
	Q6Z_SC4
	Q6Z_Y2(0)
	Q6Z_ROWP(SI, 0, Z0, Z16, Z10, Z11)
	Q6Z_ROWP(R8, 0, Z1, Z17, Z10, Z11)
	Q6Z_ROWP(R9, 0, Z2, Z18, Z10, Z11)
	Q6Z_ROWP(R11, 0, Z3, Z19, Z10, Z11)
	Q6Z_Y2(1)
	Q6Z_ROWP(SI, 1, Z0, Z16, Z12, Z13)
	Q6Z_ROWP(R8, 1, Z1, Z17, Z12, Z13)
	Q6Z_ROWP(R9, 1, Z2, Z18, Z12, Z13)
	Q6Z_ROWP(R11, 1, Z3, Z19, Z12, Z13)
	Q6Z_UNSCALE4
	Q6Z_DD4
	Q6Z_FOLD(Z0, Z1, Z24, Z4)
	Q6Z_FOLD(Z2, Z3, Z25, Z5)
	Q6Z_STEP4
	DECQ CX
	JNZ  mvq6avx512_qblock

mvq6avx512_qend:
	Q6Z_HSUM4(Z4, Z5, Z20, Z21)
	VMOVUPS X20, (DI)
	ADDQ    $16, DI
	MOVQ    R11, SI // the next rows start where row 3 ended
	SUBQ    $4, R10
	JMP     mvq6avx512_quads

mvq6avx512_single:
	TESTQ  R10, R10
	JZ     mvq6avx512_ret
	MOVQ   nb+32(FP), CX
	MOVQ   DX, BX
	VXORPS Y4, Y4, Y4
	TESTQ  CX, CX
	JZ     mvq6avx512_send

mvq6avx512_sblock:
	VPXORD          Z0, Z0, Z0
	VBROADCASTI32X4 SC(SI), Z16
	Q6Z_Y2(0)
	Q6Z_ROWP(SI, 0, Z0, Z16, Z10, Z11)
	Q6Z_Y2(1)
	Q6Z_ROWP(SI, 1, Z0, Z16, Z12, Z13)
	VPSRAD   $8, Z0, Z0
	Q6Z_END1(Z0, Y0, Y4)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ8K__size, BX
	DECQ CX
	JNZ  mvq6avx512_sblock

mvq6avx512_send:
	Q6V_HSUM(Y4, X4, X6) // X6, not a constant register
	VMOVSS X4, (DI)
	ADDQ   $4, DI
	DECQ   R10
	JMP    mvq6avx512_single

mvq6avx512_ret:
	VZEROUPPER
	RET

// func MatVecQ6KAVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
TEXT ·MatVecQ6KAVX512VNNI(SB), NOSPLIT, $128-40
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), SI
	MOVQ x+16(FP), DX
	MOVQ rows+24(FP), R10
	Q6Z_CONST(q6ScB)

mvq6vnni512_quads:
	CMPQ   R10, $4
	JB     mvq6vnni512_single
	MOVQ   nb+32(FP), CX
	Q6Z_ROWS4
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	TESTQ  CX, CX
	JZ     mvq6vnni512_qend

	PCALIGN $32
mvq6vnni512_qblock:
	Q6Z_ZERO4
	Q6Z_SC4
	Q6Z_NEGC(0)
	Q6Z_ROWV(SI, 0, Z0, Z16, Z10, Z11)
	Q6Z_ROWV(R8, 0, Z1, Z17, Z10, Z11)
	Q6Z_ROWV(R9, 0, Z2, Z18, Z10, Z11)
	Q6Z_ROWV(R11, 0, Z3, Z19, Z10, Z11)
	Q6Z_NEGC(1)
	Q6Z_ROWV(SI, 1, Z0, Z16, Z12, Z13)
	Q6Z_ROWV(R8, 1, Z1, Z17, Z12, Z13)
	Q6Z_ROWV(R9, 1, Z2, Z18, Z12, Z13)
	Q6Z_ROWV(R11, 1, Z3, Z19, Z12, Z13)
	Q6Z_UNSCALE4
	Q6Z_DD4
	Q6Z_FOLD(Z0, Z1, Z24, Z4)
	Q6Z_FOLD(Z2, Z3, Z25, Z5)
	Q6Z_STEP4
	DECQ CX
	JNZ  mvq6vnni512_qblock

mvq6vnni512_qend:
	Q6Z_HSUM4(Z4, Z5, Z20, Z21)
	VMOVUPS X20, (DI)
	ADDQ    $16, DI
	MOVQ    R11, SI // the next rows start where row 3 ended
	SUBQ    $4, R10
	JMP     mvq6vnni512_quads

mvq6vnni512_single:
	TESTQ  R10, R10
	JZ     mvq6vnni512_ret
	MOVQ   nb+32(FP), CX
	MOVQ   DX, BX
	VXORPS Y4, Y4, Y4
	TESTQ  CX, CX
	JZ     mvq6vnni512_send

mvq6vnni512_sblock:
	VPXORD          Z0, Z0, Z0
	VBROADCASTI32X4 SC(SI), Z16
	Q6Z_NEGC(0)
	Q6Z_ROWV(SI, 0, Z0, Z16, Z10, Z11)
	Q6Z_NEGC(1)
	Q6Z_ROWV(SI, 1, Z0, Z16, Z12, Z13)
	VPSRAD   $8, Z0, Z0
	Q6Z_END1(Z0, Y0, Y4)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ8K__size, BX
	DECQ CX
	JNZ  mvq6vnni512_sblock

mvq6vnni512_send:
	Q6V_HSUM(Y4, X4, X6) // X6, not a constant register
	VMOVSS X4, (DI)
	ADDQ   $4, DI
	DECQ   R10
	JMP    mvq6vnni512_single

mvq6vnni512_ret:
	VZEROUPPER
	RET

// func MatMulQ6KAVX512(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX512F, AVX512BW, AVX512VL, F16C
TEXT ·MatMulQ6KAVX512(SB), NOSPLIT, $0-56
	MOVQ      dst+0(FP), DI
	MOVQ      ldd+8(FP), R13
	SHLQ      $2, R13
	MOVQ      w+16(FP), SI
	MOVQ      x+24(FP), DX
	MOVQ      rows+40(FP), R10
	MOVQ      nb+48(FP), R11
	IMUL3Q    $blockQ8K__size, R11, R11
	LEAQ      (R11)(R11*2), R12
	Q6Z_DECCONST
	VMOVDQU64 q6ScW<>+0(SB), Z12
	VMOVDQU64 q6ScW<>+64(SB), Z13
	VMOVDQU64 q6ScW<>+128(SB), Z14
	VMOVDQU64 q6ScW<>+192(SB), Z15
	CMPQ      R10, $2
	JB        mmq6avx512_ret

mmq6avx512_pair:
	MOVQ   nb+48(FP), CX
	IMUL3Q $blockQ6K__size, CX, R8
	ADDQ   SI, R8
	MOVQ   DX, BX
	MOVQ   t+32(FP), R9
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	TESTQ  CX, CX
	JZ     mmq6avx512_pairend

	PCALIGN $32
mmq6avx512_block:
	Q6Z_ZERO4
	VPXORD    Z4, Z4, Z4
	VPXORD    Z5, Z5, Z5
	VPXORD    Z6, Z6, Z6
	VPXORD    Z7, Z7, Z7
	VPMOVSXBW SC(SI), Y16
	VPMOVSXBW SC(R8), Y17
	Q6ZM_ROW(SI, 0, Z16, Z12, Z13)
	Q6ZM_CP(0, (BX), 0, Z0)
	Q6ZM_CP(0, (BX)(R11*1), 256, Z1)
	Q6ZM_CP(0, (BX)(R11*2), 512, Z2)
	Q6ZM_CP(0, (BX)(R12*1), 768, Z3)
	Q6ZM_ROW(R8, 0, Z17, Z12, Z13)
	Q6ZM_CP(0, (BX), 0, Z4)
	Q6ZM_CP(0, (BX)(R11*1), 256, Z5)
	Q6ZM_CP(0, (BX)(R11*2), 512, Z6)
	Q6ZM_CP(0, (BX)(R12*1), 768, Z7)
	Q6ZM_ROW(SI, 1, Z16, Z14, Z15)
	Q6ZM_CP(1, (BX), 0, Z0)
	Q6ZM_CP(1, (BX)(R11*1), 256, Z1)
	Q6ZM_CP(1, (BX)(R11*2), 512, Z2)
	Q6ZM_CP(1, (BX)(R12*1), 768, Z3)
	Q6ZM_ROW(R8, 1, Z17, Z14, Z15)
	Q6ZM_CP(1, (BX), 0, Z4)
	Q6ZM_CP(1, (BX)(R11*1), 256, Z5)
	Q6ZM_CP(1, (BX)(R11*2), 512, Z6)
	Q6ZM_CP(1, (BX)(R12*1), 768, Z7)
	MOVWQZX   blockQ6K_d(R8), AX
	SHLQ      $16, AX
	MOVW      blockQ6K_d(SI), AX
	VMOVD     AX, X22
	VCVTPH2PS X22, X22
	VMOVDQU32 q6DD<>+0(SB), Z23
	VPERMPS   Z22, Z23, Z22
	Q6ZM_END((BX), Z0, Z4, Z8)
	Q6ZM_END((BX)(R11*1), Z1, Z5, Z9)
	Q6ZM_END((BX)(R11*2), Z2, Z6, Z10)
	Q6ZM_END((BX)(R12*1), Z3, Z7, Z11)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ6K__size, R8
	ADDQ $blockQ8K__size, BX
	ADDQ $1024, R9
	DECQ CX
	JNZ  mmq6avx512_block

mmq6avx512_pairend:
	Q6Z_HSUM4(Z8, Z9, Z0, Z20)
	Q6Z_HSUM4(Z10, Z11, Z1, Z20)
	VMOVQ   X0, (DI)
	VMOVHPS X0, (DI)(R13*1)
	VMOVQ   X1, (DI)(R13*2)
	LEAQ    (R13)(R13*2), AX
	VMOVHPS X1, (DI)(AX*1)
	ADDQ    $8, DI
	MOVQ    R8, SI // the next pair starts where row r+1 ended
	SUBQ    $2, R10
	CMPQ    R10, $2
	JAE     mmq6avx512_pair

mmq6avx512_ret:
	VZEROUPPER
	RET

// func MatMulQ6KAVX512VNNI(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb int)
// Requires: AVX2, AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C
TEXT ·MatMulQ6KAVX512VNNI(SB), NOSPLIT, $0-56
	MOVQ      dst+0(FP), DI
	MOVQ      ldd+8(FP), R13
	SHLQ      $2, R13
	MOVQ      w+16(FP), SI
	MOVQ      x+24(FP), DX
	MOVQ      rows+40(FP), R10
	MOVQ      nb+48(FP), R11
	IMUL3Q    $blockQ8K__size, R11, R11
	LEAQ      (R11)(R11*2), R12
	Q6Z_DECCONST
	VMOVDQU64 q6ScD<>+0(SB), Z12
	VMOVDQU64 q6ScD<>+64(SB), Z13
	VMOVDQU64 q6ScD<>+128(SB), Z14
	VMOVDQU64 q6ScD<>+192(SB), Z15
	CMPQ      R10, $2
	JB        mmq6vnni512_ret

mmq6vnni512_pair:
	MOVQ   nb+48(FP), CX
	IMUL3Q $blockQ6K__size, CX, R8
	ADDQ   SI, R8
	MOVQ   DX, BX
	MOVQ   t+32(FP), R9
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	TESTQ  CX, CX
	JZ     mmq6vnni512_pairend

	PCALIGN $32
mmq6vnni512_block:
	Q6Z_ZERO4
	VPXORD    Z4, Z4, Z4
	VPXORD    Z5, Z5, Z5
	VPXORD    Z6, Z6, Z6
	VPXORD    Z7, Z7, Z7
	VPMOVSXBW SC(SI), Y16
	VPMOVSXBW SC(R8), Y17
	Q6ZM_ROW(SI, 0, Z16, Z12, Z13)
	Q6ZM_CV(0, (BX), 0, Z0)
	Q6ZM_CV(0, (BX)(R11*1), 256, Z1)
	Q6ZM_CV(0, (BX)(R11*2), 512, Z2)
	Q6ZM_CV(0, (BX)(R12*1), 768, Z3)
	Q6ZM_ROW(R8, 0, Z17, Z12, Z13)
	Q6ZM_CV(0, (BX), 0, Z4)
	Q6ZM_CV(0, (BX)(R11*1), 256, Z5)
	Q6ZM_CV(0, (BX)(R11*2), 512, Z6)
	Q6ZM_CV(0, (BX)(R12*1), 768, Z7)
	Q6ZM_ROW(SI, 1, Z16, Z14, Z15)
	Q6ZM_CV(1, (BX), 0, Z0)
	Q6ZM_CV(1, (BX)(R11*1), 256, Z1)
	Q6ZM_CV(1, (BX)(R11*2), 512, Z2)
	Q6ZM_CV(1, (BX)(R12*1), 768, Z3)
	Q6ZM_ROW(R8, 1, Z17, Z14, Z15)
	Q6ZM_CV(1, (BX), 0, Z4)
	Q6ZM_CV(1, (BX)(R11*1), 256, Z5)
	Q6ZM_CV(1, (BX)(R11*2), 512, Z6)
	Q6ZM_CV(1, (BX)(R12*1), 768, Z7)
	MOVWQZX   blockQ6K_d(R8), AX
	SHLQ      $16, AX
	MOVW      blockQ6K_d(SI), AX
	VMOVD     AX, X22
	VCVTPH2PS X22, X22
	VMOVDQU32 q6DD<>+0(SB), Z23
	VPERMPS   Z22, Z23, Z22
	Q6ZM_END((BX), Z0, Z4, Z8)
	Q6ZM_END((BX)(R11*1), Z1, Z5, Z9)
	Q6ZM_END((BX)(R11*2), Z2, Z6, Z10)
	Q6ZM_END((BX)(R12*1), Z3, Z7, Z11)
	ADDQ $blockQ6K__size, SI
	ADDQ $blockQ6K__size, R8
	ADDQ $blockQ8K__size, BX
	ADDQ $1024, R9
	DECQ CX
	JNZ  mmq6vnni512_block

mmq6vnni512_pairend:
	Q6Z_HSUM4(Z8, Z9, Z0, Z20)
	Q6Z_HSUM4(Z10, Z11, Z1, Z20)
	VMOVQ   X0, (DI)
	VMOVHPS X0, (DI)(R13*1)
	VMOVQ   X1, (DI)(R13*2)
	LEAQ    (R13)(R13*2), AX
	VMOVHPS X1, (DI)(AX*1)
	ADDQ    $8, DI
	MOVQ    R8, SI // the next pair starts where row r+1 ended
	SUBQ    $2, R10
	CMPQ    R10, $2
	JAE     mmq6vnni512_pair

mmq6vnni512_ret:
	VZEROUPPER
	RET
