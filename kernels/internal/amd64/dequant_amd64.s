//go:build !purego

// Row dequantization of Q4_K, Q5_K, Q6_K and Q8_0, bit-exact with ggml.
//
// Each routine mirrors a dequantizer of package quant and gives the same
// bits, because it does the same float32 operations with the same
// roundings (separate multiplies and subtracts, never FMA):
//
//	DequantQ4K{AVX2,AVX512}   quant.DequantizeRowQ4K   x = (d·sc)·q − dmin·m
//	DequantQ5K{AVX2,AVX512}   quant.DequantizeRowQ5K   x = (d·sc)·q − dmin·m
//	DequantQ6K{AVX2,AVX512}   quant.DequantizeRowQ6K   x = (d·sc)·q
//	DequantQ8_0{AVX2,AVX512}  quant.DequantizeRowQ8_0  x = q·d
//
// Per Q4_K/Q5_K super-block, t1[j] = d·sc_j and t2[j] = dmin·m_j are formed
// once for the eight sub-blocks (as the Go code forms d1, dm1), and every
// value is then t1·float32(q) − t2, one rounding each.
//
// !!! DequantQ4KAVX512 looks the values up instead of computing them: with
// q in 0..15, sub-block j has only 16 possible results, so it builds the
// table T_j[q] = t1[j]·q − t2[j] with the same two roundings and picks each
// value with VPERMPS, whose 16-lane form uses bits 3..0 of each index.
// Its loop is bound by the shuffle port (one widening and two lookups per
// 32 values), so the scales are unpacked with general registers and moved
// through the stack rather than broadcast, and the scales of the next block
// are formed before the values of the current one (software pipelining by
// one block, with two stack slots).
//
// !!! The Q5_K and Q6_K routines first assemble the 256 quants of a
// super-block as bytes on the stack (q = low bits | high bits << 4, and
// q − 32 for Q6_K) with 32-byte integer operations, then widen, convert
// and scale them 8 or 16 at a time.
//
// Arguments: dst points to nb·256 (Q8_0: nb·32) float32, src to nb blocks
// laid out as the quant package's BlockQ4K ... BlockQ8_0 (offsets from
// go_asm.h, mirrors in blocks.go). nb may be 0.
//
// Requires: AVX2, F16C (…AVX2 routines); AVX512F, AVX512BW, AVX512VL, F16C
// (…AVX512 routines; the byte staging is AVX2 code).

#include "textflag.h"
#include "go_asm.h"

DATA ·dqNib32<>+0(SB)/4, $0x0000000f // low nibble of a dword
GLOBL ·dqNib32<>(SB), RODATA|NOPTR, $4
DATA ·dqNib8<>+0(SB)/4, $0x0f0f0f0f  // low nibble of each byte
GLOBL ·dqNib8<>(SB), RODATA|NOPTR, $4
DATA ·dqBit4<>+0(SB)/4, $0x10101010  // bit 4 of each byte
GLOBL ·dqBit4<>(SB), RODATA|NOPTR, $4
DATA ·dqBits45<>+0(SB)/4, $0x30303030 // bits 4..5 of each byte
GLOBL ·dqBits45<>(SB), RODATA|NOPTR, $4
DATA ·dq32<>+0(SB)/4, $0x20202020    // 32 in each byte
GLOBL ·dq32<>(SB), RODATA|NOPTR, $4

// 0.0, 1.0, ..., 15.0: the q of each table lane.
DATA ·dqIota<>+0(SB)/8, $0x3f80000000000000
DATA ·dqIota<>+8(SB)/8, $0x4040000040000000
DATA ·dqIota<>+16(SB)/8, $0x40a0000040800000
DATA ·dqIota<>+24(SB)/8, $0x40e0000040c00000
DATA ·dqIota<>+32(SB)/8, $0x4110000041000000
DATA ·dqIota<>+40(SB)/8, $0x4130000041200000
DATA ·dqIota<>+48(SB)/8, $0x4150000041400000
DATA ·dqIota<>+56(SB)/8, $0x4170000041600000
GLOBL ·dqIota<>(SB), RODATA|NOPTR, $64

// Registers.
#define DST DI
#define SRC SI
#define NB CX

// KSCALES sets t1[j] = d·sc_j at T1(SP) and t2[j] = dmin·m_j at T2(SP),
// j = 0..7, for the Q4_K/Q5_K block at SRC, whose d, dmin and 12 packed
// scale bytes are at DOFF, MOFF, SOFF. The 6-bit scales and mins are
// unpacked eight at a time from the three little-endian uint32s u0, u1, u2
// of the packed bytes:
//
//	sc0..3 = u0 & 0x3f3f3f3f          m0..3 = u1 & 0x3f3f3f3f
//	sc4..7 = u2 & 0x0f0f0f0f | (u0>>2) & 0x30303030
//	m4..7  = (u2>>4) & 0x0f0f0f0f | (u1>>2) & 0x30303030
//
// Clobbers AX, BX, DX, R8..R10, Y0..Y3.
#define KSCALES(DOFF, MOFF, SOFF, T1, T2) \
	MOVWLZX      DOFF(SRC), AX ; \
	MOVWLZX      MOFF(SRC), BX ; \
	SHLL         $16, BX ; \
	ORL          BX, AX ; \
	VMOVD        AX, X0 ; \
	VCVTPH2PS    X0, X0                 /* d, dmin */ ; \
	VBROADCASTSS X0, Y1 ; \
	VMOVSHDUP    X0, X0 ; \
	VBROADCASTSS X0, Y2 ; \
	MOVL         SOFF(SRC), AX          /* u0 */ ; \
	MOVL         SOFF+4(SRC), BX        /* u1 */ ; \
	MOVL         SOFF+8(SRC), DX        /* u2 */ ; \
	MOVL         AX, R8 ; \
	ANDL         $0x3f3f3f3f, R8        /* sc0..3 */ ; \
	MOVL         BX, R9 ; \
	ANDL         $0x3f3f3f3f, R9        /* m0..3 */ ; \
	MOVL         DX, R10 ; \
	ANDL         $0x0f0f0f0f, R10 ; \
	SHRL         $2, AX ; \
	ANDL         $0x30303030, AX ; \
	ORL          AX, R10                /* sc4..7 */ ; \
	SHRL         $4, DX ; \
	ANDL         $0x0f0f0f0f, DX ; \
	SHRL         $2, BX ; \
	ANDL         $0x30303030, BX ; \
	ORL          BX, DX                 /* m4..7 */ ; \
	SHLQ         $32, R10 ; \
	ORQ          R10, R8 ; \
	SHLQ         $32, DX ; \
	ORQ          DX, R9 ; \
	VMOVQ        R8, X3 ; \
	VPMOVZXBD    X3, Y3 ; \
	VCVTDQ2PS    Y3, Y3 ; \
	VMULPS       Y1, Y3, Y3             /* t1 = d·sc */ ; \
	VMOVQ        R9, X0 ; \
	VPMOVZXBD    X0, Y0 ; \
	VCVTDQ2PS    Y0, Y0 ; \
	VMULPS       Y2, Y0, Y0             /* t2 = dmin·m */ ; \
	VMOVUPS      Y3, T1(SP) ; \
	VMOVUPS      Y0, T2(SP)

// KSCALES512 is KSCALES for the Q4_K AVX-512 routine, whose loop is bound
// by ports 0 and 5: fewer instructions, and t1, t2 interleaved. It writes
// 16 floats at T(SP): t1[0..3], t2[0..3], t1[4..7], t2[4..7], using 32
// bytes of scratch at S(SP). It converts d and dmin with one 8-byte load at
// DOFF (dmin follows d; dequant_amd64.go checks it). R11, R12, R13 hold
// 0x3f, 0x30, 0x0f in every byte; K1 = 0x0f0f, K2 = 0xf0f0. The 12 packed
// bytes, as u01 = u0 | u1<<32 and u2, give
//
//	sc0..3 | m0..3 = u01 & 0x3f…
//	sc4..7 | m4..7 = (u01>>2) & 0x30… | (u2 | (u2>>4)<<32) & 0x0f…
//
// Clobbers AX, BX, DX, R8, Z0.
#define KSCALES512(DOFF, SOFF, T, S) \
	VCVTPH2PS   DOFF(SRC), X0           /* d, dmin (two more lanes unused) */ ; \
	VMOVUPS     X0, S(SP) ; \
	MOVQ        SOFF(SRC), AX ; \
	MOVL        SOFF+8(SRC), DX ; \
	MOVQ        AX, BX ; \
	ANDQ        R11, BX                 /* sc0..3 | m0..3 */ ; \
	SHRQ        $2, AX ; \
	ANDQ        R12, AX ; \
	MOVL        DX, R8 ; \
	SHRL        $4, R8 ; \
	SHLQ        $32, R8 ; \
	ORQ         R8, DX ; \
	ANDQ        R13, DX ; \
	ORQ         DX, AX                  /* sc4..7 | m4..7 */ ; \
	MOVQ        BX, S+16(SP) ; \
	MOVQ        AX, S+24(SP) ; \
	VPMOVZXBD   S+16(SP), Y0 ; \
	VPMOVZXBD   S+24(SP), Y1 ; \
	VCVTDQ2PS   Y0, Y0 ; \
	VCVTDQ2PS   Y1, Y1 ; \
	VMULPS.BCST S(SP), Y0, K1, Y0       /* t1 = d·sc */ ; \
	VMULPS.BCST S+4(SP), Y0, K2, Y0     /* t2 = dmin·m */ ; \
	VMULPS.BCST S(SP), Y1, K1, Y1 ; \
	VMULPS.BCST S+4(SP), Y1, K2, Y1 ; \
	VMOVUPS     Y0, T(SP) ; \
	VMOVUPS     Y1, T+32(SP)

// ---------------------------------------------------------------------------
// Q4_K, AVX2: 16 values (8 bytes of qs) at a time, straight from the block.
// Y4/Y5 hold t1 and Y6/Y7 t2 of the two sub-blocks of chunk c (the low and
// the high nibbles of qs[32c..32c+31]); Y15 the dword nibble mask.
#define Q4K8_AVX2(c, k, A, B) \
	VPMOVZXBD blockQ4K_qs+32*c+8*k(SRC), A ; \
	VPAND     Y15, A, B                /* low nibbles: sub-block 2c */ ; \
	VPSRLD    $4, A, A                 /* high nibbles: sub-block 2c+1 */ ; \
	VCVTDQ2PS B, B ; \
	VCVTDQ2PS A, A ; \
	VMULPS    Y4, B, B ; \
	VMULPS    Y5, A, A ; \
	VSUBPS    Y6, B, B ; \
	VSUBPS    Y7, A, A ; \
	VMOVUPS   B, 256*c+32*k(DST) ; \
	VMOVUPS   A, 256*c+128+32*k(DST)

#define Q4KCHUNK_AVX2(c) \
	VBROADCASTSS 8*c(SP), Y4 ; \
	VBROADCASTSS 8*c+4(SP), Y5 ; \
	VBROADCASTSS 32+8*c(SP), Y6 ; \
	VBROADCASTSS 32+8*c+4(SP), Y7 ; \
	Q4K8_AVX2(c, 0, Y8, Y9) ; \
	Q4K8_AVX2(c, 1, Y10, Y11) ; \
	Q4K8_AVX2(c, 2, Y12, Y13) ; \
	Q4K8_AVX2(c, 3, Y8, Y9)

// func DequantQ4KAVX2(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ4KAVX2(SB), NOSPLIT, $64-24
	MOVQ         dst+0(FP), DST
	MOVQ         src+8(FP), SRC
	MOVQ         nb+16(FP), NB
	TESTQ        NB, NB
	JZ           dequantq4kavx2_done
	VPBROADCASTD ·dqNib32<>(SB), Y15

	PCALIGN $32

dequantq4kavx2_block:
	KSCALES(blockQ4K_d, blockQ4K_dmin, blockQ4K_scales, 0, 32)
	Q4KCHUNK_AVX2(0)
	Q4KCHUNK_AVX2(1)
	Q4KCHUNK_AVX2(2)
	Q4KCHUNK_AVX2(3)
	ADDQ $blockQ4K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JNZ  dequantq4kavx2_block

dequantq4kavx2_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q4_K, AVX-512: table lookup (see the header). Z15 holds 0..15 as floats.
#define Q4KCHUNK_AVX512(c, t) \
	VMULPS.BCST t(SP), Z15, Z4 ; \
	VSUBPS.BCST t+16(SP), Z4, Z4       /* T_2c[q] = t1·q − t2 */ ; \
	VMULPS.BCST t+4(SP), Z15, Z5 ; \
	VSUBPS.BCST t+20(SP), Z5, Z5       /* T_2c+1[q] */ ; \
	VPMOVZXBD   blockQ4K_qs+32*c(SRC), Z8 ; \
	VPMOVZXBD   blockQ4K_qs+32*c+16(SRC), Z10 ; \
	VPSRLD      $4, Z8, Z9 ; \
	VPSRLD      $4, Z10, Z11 ; \
	VPERMPS     Z4, Z8, Z8             /* T_2c[low nibble] */ ; \
	VPERMPS     Z5, Z9, Z9             /* T_2c+1[high nibble] */ ; \
	VPERMPS     Z4, Z10, Z10 ; \
	VPERMPS     Z5, Z11, Z11 ; \
	VMOVUPS     Z8, 256*c(DST) ; \
	VMOVUPS     Z10, 256*c+64(DST) ; \
	VMOVUPS     Z9, 256*c+128(DST) ; \
	VMOVUPS     Z11, 256*c+192(DST)

// func DequantQ4KAVX512(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ4KAVX512(SB), NOSPLIT, $160-24
	MOVQ    dst+0(FP), DST
	MOVQ    src+8(FP), SRC
	MOVQ    nb+16(FP), NB
	TESTQ   NB, NB
	JZ      dequantq4kavx512_done
	VMOVUPS ·dqIota<>(SB), Z15
	MOVQ    $0x3f3f3f3f3f3f3f3f, R11
	MOVQ    $0x3030303030303030, R12
	MOVQ    $0x0f0f0f0f0f0f0f0f, R13
	MOVL    $0x0f, AX
	KMOVW   AX, K1
	MOVL    $0xf0, AX
	KMOVW   AX, K2

	// Stack: the t1/t2 of two blocks at 0(SP) and 64(SP), used in turn;
	// scratch at 128(SP).
	KSCALES512(blockQ4K_d, blockQ4K_scales, 0, 128)

	PCALIGN $32

dequantq4kavx512_block:
	// The scales of the next block, if any, go into the other slot before
	// this block's values are written.
	CMPQ NB, $1
	JEQ  dequantq4kavx512_vals0
	KSCALES512(blockQ4K__size+blockQ4K_d, blockQ4K__size+blockQ4K_scales, 64, 128)

dequantq4kavx512_vals0:
	Q4KCHUNK_AVX512(0, 0)
	Q4KCHUNK_AVX512(1, 8)
	Q4KCHUNK_AVX512(2, 32)
	Q4KCHUNK_AVX512(3, 40)
	ADDQ $blockQ4K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JZ   dequantq4kavx512_done
	CMPQ NB, $1
	JEQ  dequantq4kavx512_vals1
	KSCALES512(blockQ4K__size+blockQ4K_d, blockQ4K__size+blockQ4K_scales, 0, 128)

dequantq4kavx512_vals1:
	Q4KCHUNK_AVX512(0, 64)
	Q4KCHUNK_AVX512(1, 72)
	Q4KCHUNK_AVX512(2, 96)
	Q4KCHUNK_AVX512(3, 104)
	ADDQ $blockQ4K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JNZ  dequantq4kavx512_block

dequantq4kavx512_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q5_K. Stack: the 256 staged quants at 0(SP), t1 at 256(SP), t2 at 288(SP).
//
// Q5KSTAGE(c) writes the quants of chunk c: values 64c..64c+31 are
// qs[32c+l] & 15 | bit 2c of qh[l] << 4, values 64c+32.. the high nibbles
// with bit 2c+1. Y14 holds qh >> 2c (16-bit shifts: the bits that cross a
// byte never reach bits 0..1, the only ones used), Y15 0x0f and Y13 0x10
// in every byte.
#define Q5KSTAGE(c) \
	VMOVDQU blockQ5K_qs+32*c(SRC), Y8 ; \
	VPSRLW  $4, Y8, Y9 ; \
	VPAND   Y15, Y8, Y8 ; \
	VPAND   Y15, Y9, Y9 ; \
	VPSLLW  $4, Y14, Y10 ; \
	VPAND   Y13, Y10, Y10              /* bit 2c at bit 4 */ ; \
	VPOR    Y10, Y8, Y8 ; \
	VPSLLW  $3, Y14, Y11 ; \
	VPAND   Y13, Y11, Y11              /* bit 2c+1 at bit 4 */ ; \
	VPOR    Y11, Y9, Y9 ; \
	VMOVDQU Y8, 64*c(SP) ; \
	VMOVDQU Y9, 64*c+32(SP) ; \
	VPSRLW  $2, Y14, Y14

// Q5KSTAGEALL stages the block at SRC; KSTAGEREGS sets the masks.
#define Q5KSTAGEALL \
	VMOVDQU blockQ5K_qh(SRC), Y14 ; \
	Q5KSTAGE(0) ; \
	Q5KSTAGE(1) ; \
	Q5KSTAGE(2) ; \
	Q5KSTAGE(3)

#define KSTAGEREGS \
	VPBROADCASTD ·dqNib8<>(SB), Y15 ; \
	VPBROADCASTD ·dqBit4<>(SB), Y13

// KCONV_AVX2(j) converts the 32 staged quants of sub-block j (0..255,
// unsigned): x = t1[j]·q − t2[j].
#define KCONV_AVX2(j) \
	VBROADCASTSS 256+4*j(SP), Y4 ; \
	VBROADCASTSS 288+4*j(SP), Y5 ; \
	VPMOVZXBD    32*j(SP), Y8 ; \
	VPMOVZXBD    32*j+8(SP), Y9 ; \
	VPMOVZXBD    32*j+16(SP), Y10 ; \
	VPMOVZXBD    32*j+24(SP), Y11 ; \
	VCVTDQ2PS    Y8, Y8 ; \
	VCVTDQ2PS    Y9, Y9 ; \
	VCVTDQ2PS    Y10, Y10 ; \
	VCVTDQ2PS    Y11, Y11 ; \
	VMULPS       Y4, Y8, Y8 ; \
	VMULPS       Y4, Y9, Y9 ; \
	VMULPS       Y4, Y10, Y10 ; \
	VMULPS       Y4, Y11, Y11 ; \
	VSUBPS       Y5, Y8, Y8 ; \
	VSUBPS       Y5, Y9, Y9 ; \
	VSUBPS       Y5, Y10, Y10 ; \
	VSUBPS       Y5, Y11, Y11 ; \
	VMOVUPS      Y8, 128*j(DST) ; \
	VMOVUPS      Y9, 128*j+32(DST) ; \
	VMOVUPS      Y10, 128*j+64(DST) ; \
	VMOVUPS      Y11, 128*j+96(DST)

#define KCONV_AVX512(j) \
	VBROADCASTSS 256+4*j(SP), Z4 ; \
	VBROADCASTSS 288+4*j(SP), Z5 ; \
	VPMOVZXBD    32*j(SP), Z8 ; \
	VPMOVZXBD    32*j+16(SP), Z9 ; \
	VCVTDQ2PS    Z8, Z8 ; \
	VCVTDQ2PS    Z9, Z9 ; \
	VMULPS       Z4, Z8, Z8 ; \
	VMULPS       Z4, Z9, Z9 ; \
	VSUBPS       Z5, Z8, Z8 ; \
	VSUBPS       Z5, Z9, Z9 ; \
	VMOVUPS      Z8, 128*j(DST) ; \
	VMOVUPS      Z9, 128*j+64(DST)

// func DequantQ5KAVX2(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ5KAVX2(SB), NOSPLIT, $320-24
	MOVQ  dst+0(FP), DST
	MOVQ  src+8(FP), SRC
	MOVQ  nb+16(FP), NB
	TESTQ NB, NB
	JZ    dequantq5kavx2_done
	KSTAGEREGS

	PCALIGN $32

dequantq5kavx2_block:
	KSCALES(blockQ5K_d, blockQ5K_dmin, blockQ5K_scales, 256, 288)
	Q5KSTAGEALL
	KCONV_AVX2(0)
	KCONV_AVX2(1)
	KCONV_AVX2(2)
	KCONV_AVX2(3)
	KCONV_AVX2(4)
	KCONV_AVX2(5)
	KCONV_AVX2(6)
	KCONV_AVX2(7)
	ADDQ $blockQ5K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JNZ  dequantq5kavx2_block

dequantq5kavx2_done:
	VZEROUPPER
	RET

// func DequantQ5KAVX512(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ5KAVX512(SB), NOSPLIT, $320-24
	MOVQ  dst+0(FP), DST
	MOVQ  src+8(FP), SRC
	MOVQ  nb+16(FP), NB
	TESTQ NB, NB
	JZ    dequantq5kavx512_done
	KSTAGEREGS

	PCALIGN $32

dequantq5kavx512_block:
	KSCALES(blockQ5K_d, blockQ5K_dmin, blockQ5K_scales, 256, 288)
	Q5KSTAGEALL
	KCONV_AVX512(0)
	KCONV_AVX512(1)
	KCONV_AVX512(2)
	KCONV_AVX512(3)
	KCONV_AVX512(4)
	KCONV_AVX512(5)
	KCONV_AVX512(6)
	KCONV_AVX512(7)
	ADDQ $blockQ5K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JNZ  dequantq5kavx512_block

dequantq5kavx512_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q6_K. Stack: the 256 staged quants q − 32 (int8) at 0(SP), the 16 group
// scales t[g] = d·scales[g] at 256(SP).
//
// Q6KSTAGE(h) writes half h: value 128h + 32k + l is nibble k of
// (ql[64h+l], ql[64h+32+l]) | bits 2k..2k+1 of qh[32h+l] << 4, minus 32.
// Y15 holds 0x0f, Y13 0x30 and Y12 0x20 in every byte.
#define Q6KSTAGE(h) \
	VMOVDQU blockQ6K_ql+64*h(SRC), Y8 ; \
	VMOVDQU blockQ6K_ql+64*h+32(SRC), Y9 ; \
	VMOVDQU blockQ6K_qh+32*h(SRC), Y10 ; \
	VPSRLW  $4, Y8, Y6 ; \
	VPSRLW  $4, Y9, Y7 ; \
	VPAND   Y15, Y8, Y8                /* k = 0 low bits */ ; \
	VPAND   Y15, Y9, Y9                /* k = 1 */ ; \
	VPAND   Y15, Y6, Y6                /* k = 2 */ ; \
	VPAND   Y15, Y7, Y7                /* k = 3 */ ; \
	VPSLLW  $4, Y10, Y11 ; \
	VPAND   Y13, Y11, Y11 ; \
	VPOR    Y11, Y8, Y8 ; \
	VPSLLW  $2, Y10, Y11 ; \
	VPAND   Y13, Y11, Y11 ; \
	VPOR    Y11, Y9, Y9 ; \
	VPAND   Y13, Y10, Y11 ; \
	VPOR    Y11, Y6, Y6 ; \
	VPSRLW  $2, Y10, Y11 ; \
	VPAND   Y13, Y11, Y11 ; \
	VPOR    Y11, Y7, Y7 ; \
	VPSUBB  Y12, Y8, Y8 ; \
	VPSUBB  Y12, Y9, Y9 ; \
	VPSUBB  Y12, Y6, Y6 ; \
	VPSUBB  Y12, Y7, Y7 ; \
	VMOVDQU Y8, 128*h(SP) ; \
	VMOVDQU Y9, 128*h+32(SP) ; \
	VMOVDQU Y6, 128*h+64(SP) ; \
	VMOVDQU Y7, 128*h+96(SP)

// Q6KSCALES sets t[g] = d·float32(scales[g]) at 256(SP).
#define Q6KSCALES \
	VPBROADCASTW blockQ6K_d(SRC), X0 ; \
	VCVTPH2PS    X0, Y0 ; \
	VPMOVSXBD    blockQ6K_scales(SRC), Y1 ; \
	VPMOVSXBD    blockQ6K_scales+8(SRC), Y2 ; \
	VCVTDQ2PS    Y1, Y1 ; \
	VCVTDQ2PS    Y2, Y2 ; \
	VMULPS       Y1, Y0, Y1 ; \
	VMULPS       Y2, Y0, Y2 ; \
	VMOVUPS      Y1, 256(SP) ; \
	VMOVUPS      Y2, 288(SP)

#define Q6KSTAGEREGS \
	VPBROADCASTD ·dqNib8<>(SB), Y15 ; \
	VPBROADCASTD ·dqBits45<>(SB), Y13 ; \
	VPBROADCASTD ·dq32<>(SB), Y12

// Q6KCONV_AVX2(g, g2) converts groups g and g2 = g+1 (16 values each).
#define Q6KCONV_AVX2(g, g2) \
	VBROADCASTSS 256+4*g(SP), Y4 ; \
	VBROADCASTSS 256+4*g2(SP), Y5 ; \
	VPMOVSXBD    16*g(SP), Y8 ; \
	VPMOVSXBD    16*g+8(SP), Y9 ; \
	VPMOVSXBD    16*g2(SP), Y10 ; \
	VPMOVSXBD    16*g2+8(SP), Y11 ; \
	VCVTDQ2PS    Y8, Y8 ; \
	VCVTDQ2PS    Y9, Y9 ; \
	VCVTDQ2PS    Y10, Y10 ; \
	VCVTDQ2PS    Y11, Y11 ; \
	VMULPS       Y4, Y8, Y8 ; \
	VMULPS       Y4, Y9, Y9 ; \
	VMULPS       Y5, Y10, Y10 ; \
	VMULPS       Y5, Y11, Y11 ; \
	VMOVUPS      Y8, 64*g(DST) ; \
	VMOVUPS      Y9, 64*g+32(DST) ; \
	VMOVUPS      Y10, 64*g2(DST) ; \
	VMOVUPS      Y11, 64*g2+32(DST)

#define Q6KCONV_AVX512(g, g2) \
	VPMOVSXBD   16*g(SP), Z8 ; \
	VPMOVSXBD   16*g2(SP), Z9 ; \
	VCVTDQ2PS   Z8, Z8 ; \
	VCVTDQ2PS   Z9, Z9 ; \
	VMULPS.BCST 256+4*g(SP), Z8, Z8 ; \
	VMULPS.BCST 256+4*g2(SP), Z9, Z9 ; \
	VMOVUPS     Z8, 64*g(DST) ; \
	VMOVUPS     Z9, 64*g2(DST)

// func DequantQ6KAVX2(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ6KAVX2(SB), NOSPLIT, $320-24
	MOVQ  dst+0(FP), DST
	MOVQ  src+8(FP), SRC
	MOVQ  nb+16(FP), NB
	TESTQ NB, NB
	JZ    dequantq6kavx2_done
	Q6KSTAGEREGS

	PCALIGN $32

dequantq6kavx2_block:
	Q6KSCALES
	Q6KSTAGE(0)
	Q6KSTAGE(1)
	Q6KCONV_AVX2(0, 1)
	Q6KCONV_AVX2(2, 3)
	Q6KCONV_AVX2(4, 5)
	Q6KCONV_AVX2(6, 7)
	Q6KCONV_AVX2(8, 9)
	Q6KCONV_AVX2(10, 11)
	Q6KCONV_AVX2(12, 13)
	Q6KCONV_AVX2(14, 15)
	ADDQ $blockQ6K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JNZ  dequantq6kavx2_block

dequantq6kavx2_done:
	VZEROUPPER
	RET

// func DequantQ6KAVX512(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ6KAVX512(SB), NOSPLIT, $320-24
	MOVQ  dst+0(FP), DST
	MOVQ  src+8(FP), SRC
	MOVQ  nb+16(FP), NB
	TESTQ NB, NB
	JZ    dequantq6kavx512_done
	Q6KSTAGEREGS

	PCALIGN $32

dequantq6kavx512_block:
	Q6KSCALES
	Q6KSTAGE(0)
	Q6KSTAGE(1)
	Q6KCONV_AVX512(0, 1)
	Q6KCONV_AVX512(2, 3)
	Q6KCONV_AVX512(4, 5)
	Q6KCONV_AVX512(6, 7)
	Q6KCONV_AVX512(8, 9)
	Q6KCONV_AVX512(10, 11)
	Q6KCONV_AVX512(12, 13)
	Q6KCONV_AVX512(14, 15)
	ADDQ $blockQ6K__size, SRC
	ADDQ $1024, DST
	DECQ NB
	JNZ  dequantq6kavx512_block

dequantq6kavx512_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// Q8_0: x = float32(q)·d, 32 values a block.

// func DequantQ8_0AVX2(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ8_0AVX2(SB), NOSPLIT, $0-24
	MOVQ  dst+0(FP), DST
	MOVQ  src+8(FP), SRC
	MOVQ  nb+16(FP), NB
	TESTQ NB, NB
	JZ    dequantq8_0avx2_done

	PCALIGN $32

dequantq8_0avx2_block:
	VPBROADCASTW blockQ8_0_d(SRC), X0
	VCVTPH2PS    X0, Y0                 // d in every lane
	VPMOVSXBD    blockQ8_0_qs(SRC), Y1
	VPMOVSXBD    blockQ8_0_qs+8(SRC), Y2
	VPMOVSXBD    blockQ8_0_qs+16(SRC), Y3
	VPMOVSXBD    blockQ8_0_qs+24(SRC), Y4
	VCVTDQ2PS    Y1, Y1
	VCVTDQ2PS    Y2, Y2
	VCVTDQ2PS    Y3, Y3
	VCVTDQ2PS    Y4, Y4
	VMULPS       Y0, Y1, Y1
	VMULPS       Y0, Y2, Y2
	VMULPS       Y0, Y3, Y3
	VMULPS       Y0, Y4, Y4
	VMOVUPS      Y1, 0(DST)
	VMOVUPS      Y2, 32(DST)
	VMOVUPS      Y3, 64(DST)
	VMOVUPS      Y4, 96(DST)
	ADDQ         $blockQ8_0__size, SRC
	ADDQ         $128, DST
	DECQ         NB
	JNZ          dequantq8_0avx2_block

dequantq8_0avx2_done:
	VZEROUPPER
	RET

// func DequantQ8_0AVX512(dst *float32, src unsafe.Pointer, nb int)
TEXT ·DequantQ8_0AVX512(SB), NOSPLIT, $0-24
	MOVQ  dst+0(FP), DST
	MOVQ  src+8(FP), SRC
	MOVQ  nb+16(FP), NB
	TESTQ NB, NB
	JZ    dequantq8_0avx512_done

	PCALIGN $32

dequantq8_0avx512_block:
	VPBROADCASTW blockQ8_0_d(SRC), Y0
	VCVTPH2PS    Y0, Z0
	VPMOVSXBD    blockQ8_0_qs(SRC), Z1
	VPMOVSXBD    blockQ8_0_qs+16(SRC), Z2
	VCVTDQ2PS    Z1, Z1
	VCVTDQ2PS    Z2, Z2
	VMULPS       Z0, Z1, Z1
	VMULPS       Z0, Z2, Z2
	VMOVUPS      Z1, 0(DST)
	VMOVUPS      Z2, 64(DST)
	ADDQ         $blockQ8_0__size, SRC
	ADDQ         $128, DST
	DECQ         NB
	JNZ          dequantq8_0avx512_block

dequantq8_0avx512_done:
	VZEROUPPER
	RET
