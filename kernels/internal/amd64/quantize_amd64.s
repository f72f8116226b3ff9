//go:build !purego

// Activation quantizers Q8_K and Q8_0, bit-identical to ggml's reference
// quantizers (quantize_row_q8_K_ref, quantize_row_q8_0_ref).
//
//	QuantizeQ8K{AVX2,AVX512}   quant.QuantizeRowQ8K
//	QuantizeQ8_0{AVX2,AVX512}  quant.QuantizeRowQ8_0
//
// Q8_K, per 256 values: amax = max |x|; max = the first x with |x| ==
// amax (the twin's strict > keeps the first); iscale = −127/max;
// qs = min(127, nearest_int(iscale·x)); bsums = sums of 16 qs; d = 1/iscale.
//
//   - max: one pass takes max x and min x (exact in any order); amax is the
//     larger of max x and −min x, and max is whichever of the two reaches
//     it. Only when both do (+a and −a in one block) does a second pass
//     look for the first x with |x| == amax.
//   - nearest_int is ggml's 1.5·2^23 trick, which rounds half to even for
//     |f| ≤ 4194303; VCVTPS2DQ under Go's MXCSR (round to nearest even,
//     never changed by the runtime) gives the same integer there. With a
//     finite iscale, |iscale·x| ≤ 127·(1+2^-23)^2, which rounds to at most
//     127: the min never binds, and the saturating packs to int8 lose
//     nothing.
//   - !!! When max is so small that iscale overflows to ±Inf, the twin's qs
//     are all 0 (the trick's garbage, truncated to int8) while VCVTPS2DQ
//     would give 0x80000000: such blocks take a separate path that writes
//     qs = 0, bsums = 0, d = 1/iscale = ±0. An all-zero block is all zero
//     bytes (ggml leaves its bsums unwritten; the twin zeroes them).
//   - bsums come from the packed qs in registers: AVX2 by VPMADDUBSW with
//     1s (16-bit pair sums) and three rounds of VPHADDW; AVX-512 by
//     VPMADDUBSW, then VPMADDWD with 1s and VPACKSSDW, halving twice. Sums
//     stay within ±2032.
//
// Q8_0, per 32 values: d = amax/127, id = d != 0 ? 1/d : 0, stored fp16(d)
// (VCVTPS2PH with immediate 0: round to nearest even, chosen by the
// immediate, not MXCSR), qs = roundf(x·id), half away from zero (see the
// Q8_0 section for how). !!! When 1/d overflows to +Inf the twin's qs are 0
// (C's conversion of a non-finite value, truncated); such blocks get id = 0,
// hence qs = 0, as d == 0 blocks do.
//
// Arguments: src points to nb·256 (Q8_0: nb·32) float32, dst to nb blocks
// laid out as quant.BlockQ8K / quant.BlockQ8_0; nb may be 0. Every byte of
// each output block is written; nothing else is. Input must be finite (the
// kernels package checks); with NaN or Inf the output is unspecified but
// the memory accessed is the same.
//
// Requires: AVX2, F16C (…AVX2); AVX512F, AVX512BW, F16C (…AVX512).

#include "textflag.h"
#include "go_asm.h"

DATA ·qAbs<>+0(SB)/4, $0x7fffffff   // |x| mask
GLOBL ·qAbs<>(SB), RODATA|NOPTR, $4
DATA ·qM127<>+0(SB)/4, $0xc2fe0000  // −127.0
GLOBL ·qM127<>(SB), RODATA|NOPTR, $4
DATA ·qF127<>+0(SB)/4, $0x42fe0000  // 127.0
GLOBL ·qF127<>(SB), RODATA|NOPTR, $4
DATA ·qOne<>+0(SB)/4, $0x3f800000   // 1.0
GLOBL ·qOne<>(SB), RODATA|NOPTR, $4
DATA ·qOnes8<>+0(SB)/4, $0x01010101 // 1 in each byte
GLOBL ·qOnes8<>(SB), RODATA|NOPTR, $4
DATA ·qInf<>+0(SB)/4, $0x7f800000   // +Inf
GLOBL ·qInf<>(SB), RODATA|NOPTR, $4
DATA ·qSign<>+0(SB)/4, $0x80000000  // sign bit
GLOBL ·qSign<>(SB), RODATA|NOPTR, $4
DATA ·qRndP<>+0(SB)/4, $0x3effffff  // 0.49999997, the float32 below ½
GLOBL ·qRndP<>(SB), RODATA|NOPTR, $4
DATA ·qOnes16<>+0(SB)/4, $0x00010001 // 1 in each word
GLOBL ·qOnes16<>(SB), RODATA|NOPTR, $4

// Dword order after VPACKSSDW/VPACKSSWB of four 8-lane vectors a, b, c, d
// is a0 b0 c0 d0 a1 b1 c1 d1 (per 128-bit lane); VPERMD with this index
// puts it back to a0 a1 b0 b1 c0 c1 d0 d1.
DATA ·qPackIdx<>+0(SB)/8, $0x0000000400000000
DATA ·qPackIdx<>+8(SB)/8, $0x0000000500000001
DATA ·qPackIdx<>+16(SB)/8, $0x0000000600000002
DATA ·qPackIdx<>+24(SB)/8, $0x0000000700000003
GLOBL ·qPackIdx<>(SB), RODATA|NOPTR, $32

// The same for four 16-lane vectors (dwords a0 b0 c0 d0 a1 b1 … per 128-bit
// lane, back to a0 a1 a2 a3 b0 …), and for the bsums, whose lane L holds
// groups L, 4+L, 8+L, 12+L.
DATA ·qPackIdx16<>+0(SB)/8, $0x0000000400000000
DATA ·qPackIdx16<>+8(SB)/8, $0x0000000c00000008
DATA ·qPackIdx16<>+16(SB)/8, $0x0000000500000001
DATA ·qPackIdx16<>+24(SB)/8, $0x0000000d00000009
DATA ·qPackIdx16<>+32(SB)/8, $0x0000000600000002
DATA ·qPackIdx16<>+40(SB)/8, $0x0000000e0000000a
DATA ·qPackIdx16<>+48(SB)/8, $0x0000000700000003
DATA ·qPackIdx16<>+56(SB)/8, $0x0000000f0000000b
GLOBL ·qPackIdx16<>(SB), RODATA|NOPTR, $64

// Registers.
#define DST DI
#define SRC SI
#define NB CX
#define OFF AX

// ---------------------------------------------------------------------------
// Q8_0. Eight blocks at a time: their |x| maxima are reduced together (one
// transposing reduction instead of eight horizontal ones), d, fp16(d) and id
// computed 8 lanes at once, id set to 0 where d == 0 or 1/d == +Inf (the
// twin's qs are then 0, and x·0 rounds to 0). Fewer than eight blocks go
// one at a time through the same arithmetic on lane 0.
//
// roundf: t = v + copysign(0.49999997, v) in float32, then truncation.
// This is C's roundf for every float32 |v| ≤ 2^23 (checked exhaustively
// against the twin's trunc-and-compare rule); the constant just below ½
// keeps 0.49999997 from rounding up, and the float32 add rounds exact
// halves away from zero.
//
// Registers (both routines): SRC, DST, NB; Y15 |x| mask, Y14 127.0, Y13
// 1.0, Y12 +Inf, Y11 sign mask, Y10 0.49999997, Y9 pack order (AVX2), Y8/Z8
// id; stack: fp16(d) × 8 at 0(SP), id × 8 at 16(SP).

// Q80AMAX(b, M): M = per-lane max of |x| over the 32 values of block b.
#define Q80AMAX(b, M) \
	VANDPS 128*b(SRC), Y15, M ; \
	VANDPS 128*b+32(SRC), Y15, Y6 ; \
	VANDPS 128*b+64(SRC), Y15, Y7 ; \
	VANDPS 128*b+96(SRC), Y15, Y5 ; \
	VMAXPS Y6, M, M ; \
	VMAXPS Y5, Y7, Y7 ; \
	VMAXPS Y7, M, M

// Q80PAIR(A, B, T): T = max of adjacent lane pairs of A then B, per 128-bit
// lane (A is clobbered). Three rounds of it and one cross-lane step turn
// eight vectors into their eight maxima.
#define Q80PAIR(A, B, T) \
	VSHUFPS $0x88, B, A, T ; \
	VSHUFPS $0xdd, B, A, A ; \
	VMAXPS  A, T, T

// Q80SCALE8: from Y0 = amax of blocks 0..7, store fp16(d) and id.
#define Q80SCALE8 \
	VDIVPS    Y14, Y0, Y0             /* d = amax/127 */ ; \
	VCVTPS2PH $0, Y0, X1              /* round to nearest even */ ; \
	VMOVDQU   X1, 0(SP) ; \
	VDIVPS    Y0, Y13, Y1             /* id = 1/d */ ; \
	VCMPPS    $0x11, Y12, Y1, Y2      /* id < +Inf (LT_OQ): false for d = 0 */ ; \
	VANDPS    Y2, Y1, Y1 ; \
	VMOVUPS   Y1, 16(SP)

// Q80SCALE1: the same for one block, amax in X0; id broadcast to Y8.
#define Q80SCALE1 \
	VDIVSS       X14, X0, X0 ; \
	VCVTPS2PH    $0, X0, X1 ; \
	VMOVD        X1, DX ; \
	MOVW         DX, blockQ8_0_d(DST) ; \
	VDIVSS       X0, X13, X1 ; \
	VCMPSS       $0x11, X12, X1, X2 ; \
	VANDPS       X2, X1, X1 ; \
	VBROADCASTSS X1, Y8

#define Q80STORED(b) \
	MOVWLZX 2*b(SP), DX ; \
	MOVW    DX, blockQ8_0__size*b+blockQ8_0_d(DST)

// Q80ROUNDF(V, T): V = roundf(V) as int32; T scratch.
#define Q80ROUNDF(V, T) \
	VANDPS     Y11, V, T ; \
	VORPS      Y10, T, T              /* ±0.49999997 */ ; \
	VADDPS     T, V, V ; \
	VCVTTPS2DQ V, V

// Q80QUANT(soff, qoff): quantize the 32 values at SRC+soff with id in Y8
// into the 32 bytes at DST+qoff.
#define Q80QUANT(soff, qoff) \
	VMULPS    soff(SRC), Y8, Y0 ; \
	VMULPS    soff+32(SRC), Y8, Y1 ; \
	VMULPS    soff+64(SRC), Y8, Y2 ; \
	VMULPS    soff+96(SRC), Y8, Y3 ; \
	Q80ROUNDF(Y0, Y4) ; \
	Q80ROUNDF(Y1, Y5) ; \
	Q80ROUNDF(Y2, Y6) ; \
	Q80ROUNDF(Y3, Y7) ; \
	VPACKSSDW Y1, Y0, Y0 ; \
	VPACKSSDW Y3, Y2, Y2 ; \
	VPACKSSWB Y2, Y0, Y0 ; \
	VPERMD    Y0, Y9, Y0 ; \
	VMOVDQU   Y0, qoff(DST)

#define Q80BLOCK8_AVX2(b) \
	Q80STORED(b) ; \
	VBROADCASTSS 16+4*b(SP), Y8 ; \
	Q80QUANT(128*b, blockQ8_0__size*b+blockQ8_0_qs)

#define Q80CONSTS \
	VBROADCASTSS ·qF127<>(SB), Y14 ; \
	VBROADCASTSS ·qOne<>(SB), Y13 ; \
	VBROADCASTSS ·qInf<>(SB), Y12

// Q80REDUCE8(AMAX): Y0 = amax of blocks 0..7 (AMAX is Q80AMAX or
// Q80AMAX512).
#define Q80REDUCE8(AMAX) \
	AMAX(0, Y0) ; \
	AMAX(1, Y1) ; \
	Q80PAIR(Y0, Y1, Y2) ; \
	AMAX(2, Y0) ; \
	AMAX(3, Y1) ; \
	Q80PAIR(Y0, Y1, Y3) ; \
	Q80PAIR(Y2, Y3, Y4)               /* lanes: blocks 0..3, per half */ ; \
	AMAX(4, Y0) ; \
	AMAX(5, Y1) ; \
	Q80PAIR(Y0, Y1, Y2) ; \
	AMAX(6, Y0) ; \
	AMAX(7, Y1) ; \
	Q80PAIR(Y0, Y1, Y3) ; \
	Q80PAIR(Y2, Y3, Y5)               /* blocks 4..7 */ ; \
	VPERM2F128 $0x20, Y5, Y4, Y0 ; \
	VPERM2F128 $0x31, Y5, Y4, Y1 ; \
	VMAXPS     Y1, Y0, Y0             /* amax of blocks 0..7 */

// func QuantizeQ8_0AVX2(dst unsafe.Pointer, src *float32, nb int)
TEXT ·QuantizeQ8_0AVX2(SB), NOSPLIT, $48-24
	MOVQ         dst+0(FP), DST
	MOVQ         src+8(FP), SRC
	MOVQ         nb+16(FP), NB
	TESTQ        NB, NB
	JZ           quantizeq8_0avx2_done
	VBROADCASTSS ·qAbs<>(SB), Y15
	Q80CONSTS
	VBROADCASTSS ·qSign<>(SB), Y11
	VBROADCASTSS ·qRndP<>(SB), Y10
	VMOVDQU      ·qPackIdx<>(SB), Y9
	CMPQ         NB, $8
	JB           quantizeq8_0avx2_one

	PCALIGN $32

quantizeq8_0avx2_eight:
	Q80REDUCE8(Q80AMAX)
	Q80SCALE8
	Q80BLOCK8_AVX2(0)
	Q80BLOCK8_AVX2(1)
	Q80BLOCK8_AVX2(2)
	Q80BLOCK8_AVX2(3)
	Q80BLOCK8_AVX2(4)
	Q80BLOCK8_AVX2(5)
	Q80BLOCK8_AVX2(6)
	Q80BLOCK8_AVX2(7)
	ADDQ $1024, SRC
	ADDQ $8*blockQ8_0__size, DST
	SUBQ $8, NB
	CMPQ NB, $8
	JAE  quantizeq8_0avx2_eight
	TESTQ NB, NB
	JZ    quantizeq8_0avx2_done

quantizeq8_0avx2_one:
	Q80AMAX(0, Y0)
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VMAXPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VMAXSS       X1, X0, X0               // amax
	Q80SCALE1
	Q80QUANT(0, blockQ8_0_qs)
	ADDQ $128, SRC
	ADDQ $blockQ8_0__size, DST
	DECQ NB
	JNZ  quantizeq8_0avx2_one

quantizeq8_0avx2_done:
	VZEROUPPER
	RET

// AVX-512: 16 lanes per multiply, VPMOVDB stores the low bytes.
#define Q80AMAX512(b, M) \
	VPANDD        128*b(SRC), Z15, Z6 ; \
	VPANDD        128*b+64(SRC), Z15, Z7 ; \
	VMAXPS        Z7, Z6, Z6 ; \
	VEXTRACTF64X4 $1, Z6, Y7 ; \
	VMAXPS        Y7, Y6, M

#define Q80ROUNDF512(V, T) \
	VPANDD     Z11, V, T ; \
	VPORD      Z10, T, T ; \
	VADDPS     T, V, V ; \
	VCVTTPS2DQ V, V

#define Q80QUANT512(soff, qoff) \
	VMULPS  soff(SRC), Z8, Z0 ; \
	VMULPS  soff+64(SRC), Z8, Z1 ; \
	Q80ROUNDF512(Z0, Z4) ; \
	Q80ROUNDF512(Z1, Z5) ; \
	VPMOVDB Z0, qoff(DST) ; \
	VPMOVDB Z1, qoff+16(DST)

#define Q80BLOCK8_AVX512(b) \
	Q80STORED(b) ; \
	VBROADCASTSS 16+4*b(SP), Z8 ; \
	Q80QUANT512(128*b, blockQ8_0__size*b+blockQ8_0_qs)

// func QuantizeQ8_0AVX512(dst unsafe.Pointer, src *float32, nb int)
TEXT ·QuantizeQ8_0AVX512(SB), NOSPLIT, $48-24
	MOVQ         dst+0(FP), DST
	MOVQ         src+8(FP), SRC
	MOVQ         nb+16(FP), NB
	TESTQ        NB, NB
	JZ           quantizeq8_0avx512_done
	VPBROADCASTD ·qAbs<>(SB), Z15
	Q80CONSTS
	VPBROADCASTD ·qSign<>(SB), Z11
	VPBROADCASTD ·qRndP<>(SB), Z10
	CMPQ         NB, $8
	JB           quantizeq8_0avx512_one

	PCALIGN $32

quantizeq8_0avx512_eight:
	Q80REDUCE8(Q80AMAX512)
	Q80SCALE8
	Q80BLOCK8_AVX512(0)
	Q80BLOCK8_AVX512(1)
	Q80BLOCK8_AVX512(2)
	Q80BLOCK8_AVX512(3)
	Q80BLOCK8_AVX512(4)
	Q80BLOCK8_AVX512(5)
	Q80BLOCK8_AVX512(6)
	Q80BLOCK8_AVX512(7)
	ADDQ $1024, SRC
	ADDQ $8*blockQ8_0__size, DST
	SUBQ $8, NB
	CMPQ NB, $8
	JAE  quantizeq8_0avx512_eight
	TESTQ NB, NB
	JZ    quantizeq8_0avx512_done

quantizeq8_0avx512_one:
	Q80AMAX512(0, Y0)
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VMAXPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VMAXSS       X1, X0, X0
	Q80SCALE1
	VBROADCASTSS X1, Z8
	Q80QUANT512(0, blockQ8_0_qs)
	ADDQ $128, SRC
	ADDQ $blockQ8_0__size, DST
	DECQ NB
	JNZ  quantizeq8_0avx512_one

quantizeq8_0avx512_done:
	VZEROUPPER
	RET

// Q8K_MAXMIN_AVX2 sets X0 = max x and X2 = min x over the 256 values at
// SRC, with four accumulators of each to shorten the dependency chains.
// Clobbers Y1, Y3..Y11, OFF.
#define Q8K_MAXMIN_AVX2(LOOP) \
	VMOVUPS      0(SRC), Y0 ; \
	VMOVUPS      32(SRC), Y1 ; \
	VMOVUPS      64(SRC), Y2 ; \
	VMOVUPS      96(SRC), Y3 ; \
	VMOVAPS      Y0, Y4 ; \
	VMOVAPS      Y1, Y5 ; \
	VMOVAPS      Y2, Y6 ; \
	VMOVAPS      Y3, Y7 ; \
	MOVQ         $128, OFF ; \
LOOP: ; \
	VMAXPS       0(SRC)(OFF*1), Y0, Y0 ; \
	VMINPS       0(SRC)(OFF*1), Y4, Y4 ; \
	VMAXPS       32(SRC)(OFF*1), Y1, Y1 ; \
	VMINPS       32(SRC)(OFF*1), Y5, Y5 ; \
	VMAXPS       64(SRC)(OFF*1), Y2, Y2 ; \
	VMINPS       64(SRC)(OFF*1), Y6, Y6 ; \
	VMAXPS       96(SRC)(OFF*1), Y3, Y3 ; \
	VMINPS       96(SRC)(OFF*1), Y7, Y7 ; \
	ADDQ         $128, OFF ; \
	CMPQ         OFF, $1024 ; \
	JB           LOOP ; \
	VMAXPS       Y1, Y0, Y0 ; \
	VMAXPS       Y3, Y2, Y2 ; \
	VMINPS       Y5, Y4, Y4 ; \
	VMINPS       Y7, Y6, Y6 ; \
	VMAXPS       Y2, Y0, Y0 ; \
	VMINPS       Y6, Y4, Y2 ; \
	VEXTRACTF128 $1, Y0, X1 ; \
	VEXTRACTF128 $1, Y2, X3 ; \
	VMAXPS       X1, X0, X0 ; \
	VMINPS       X3, X2, X2 ; \
	VMOVHLPS     X0, X0, X1 ; \
	VMOVHLPS     X2, X2, X3 ; \
	VMAXPS       X1, X0, X0 ; \
	VMINPS       X3, X2, X2 ; \
	VMOVSHDUP    X0, X1 ; \
	VMOVSHDUP    X2, X3 ; \
	VMAXSS       X1, X0, X0 ; \
	VMINSS       X3, X2, X2

// Q8K_PICKMAX: from X0 = max x and X2 = min x, sets X1 = amax = max(max x,
// −min x) and jumps to ZERO if it is 0, else sets X1 = the signed value of
// largest magnitude: −amax if only negative values reach it, +amax if only
// positive ones do, and jumps to BOTH when both do (then the first one in
// x decides; rare, so the branch predicts well). Clobbers X3..X5, DX.
#define Q8K_PICKMAX(ZERO, BOTH) \
	VXORPS    X3, X3, X3 ; \
	VSUBSS    X2, X3, X3              /* −min x */ ; \
	VMAXSS    X3, X0, X1              /* amax */ ; \
	VXORPS    X4, X4, X4 ; \
	VUCOMISS  X4, X1 ; \
	JEQ       ZERO ; \
	VCMPSS    $0, X1, X0, X4          /* max x == amax */ ; \
	VCMPSS    $0, X1, X3, X5          /* −min x == amax */ ; \
	VANDPS    X5, X4, X4 ; \
	VMOVD     X4, DX ; \
	TESTL     DX, DX ; \
	JNZ       BOTH ; \
	VBLENDVPS X5, X2, X0, X1          /* min x if it has the magnitude, else max x */

// Q8K_SCALE: X1 = the signed max. Sets X2 = iscale = −127/max, stores
// d = 1/iscale, and jumps to INF when iscale is ±Inf. Clobbers X1, DX.
#define Q8K_SCALE(INF) \
	VMOVSS ·qM127<>(SB), X2 ; \
	VDIVSS X1, X2, X2                 /* iscale = −127/max */ ; \
	VMOVD  X2, DX ; \
	ANDL   $0x7fffffff, DX ; \
	CMPL   DX, $0x7f800000 ; \
	JAE    INF ; \
	VMOVSS ·qOne<>(SB), X1 ; \
	VDIVSS X2, X1, X1                 /* d = 1/iscale */ ; \
	VMOVSS X1, blockQ8K_d(DST)

// Q8K_QUANT32_AVX2(off, P) quantizes the 32 values at SRC+4·off into
// qs[off..off+31] and sets P to their 16-bit pair sums (VPMADDUBSW with 1s:
// group off/16 in the low lane, the next group in the high lane). Y14
// holds iscale, Y12 the pack order, Y15 1 in every byte.
// Clobbers Y0..Y3.
#define Q8K_QUANT32_AVX2(off, P) \
	VMULPS     4*off(SRC), Y14, Y0 ; \
	VMULPS     4*off+32(SRC), Y14, Y1 ; \
	VMULPS     4*off+64(SRC), Y14, Y2 ; \
	VMULPS     4*off+96(SRC), Y14, Y3 ; \
	VCVTPS2DQ  Y0, Y0                 /* nearest, ties to even */ ; \
	VCVTPS2DQ  Y1, Y1 ; \
	VCVTPS2DQ  Y2, Y2 ; \
	VCVTPS2DQ  Y3, Y3 ; \
	VPACKSSDW  Y1, Y0, Y0 ; \
	VPACKSSDW  Y3, Y2, Y2 ; \
	VPACKSSWB  Y2, Y0, Y0 ; \
	VPERMD     Y0, Y12, Y0 ; \
	VMOVDQU    Y0, blockQ8K_qs+off(DST) ; \
	VPMADDUBSW Y0, Y15, P

// Q8K_QUANT64_AVX2(off, off+32, R) quantizes 64 values and reduces their pair
// sums one step: R = VPHADDW of the two 32-value results.
#define Q8K_QUANT64_AVX2(off, off32, R) \
	Q8K_QUANT32_AVX2(off, Y4) ; \
	Q8K_QUANT32_AVX2(off32, Y5) ; \
	VPHADDW Y5, Y4, R

// ---------------------------------------------------------------------------
// func QuantizeQ8KAVX2(dst unsafe.Pointer, src *float32, nb int)
TEXT ·QuantizeQ8KAVX2(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), DST
	MOVQ         src+8(FP), SRC
	MOVQ         nb+16(FP), NB
	TESTQ        NB, NB
	JZ           quantizeq8kavx2_done
	VPBROADCASTD ·qOnes8<>(SB), Y15
	VMOVDQU      ·qPackIdx<>(SB), Y12

	PCALIGN $32

quantizeq8kavx2_block:
	Q8K_MAXMIN_AVX2(quantizeq8kavx2_maxmin)
	Q8K_PICKMAX(quantizeq8kavx2_zero, quantizeq8kavx2_both)

quantizeq8kavx2_scale:
	Q8K_SCALE(quantizeq8kavx2_inf)
	VBROADCASTSS X2, Y14
	Q8K_QUANT64_AVX2(0, 32, Y8)
	Q8K_QUANT64_AVX2(64, 96, Y9)
	Q8K_QUANT64_AVX2(128, 160, Y10)
	Q8K_QUANT64_AVX2(192, 224, Y11)
	VPHADDW      Y9, Y8, Y8
	VPHADDW      Y11, Y10, Y10
	VPHADDW      Y10, Y8, Y8              // g0 g2 … g14 | g1 g3 … g15
	VEXTRACTI128 $1, Y8, X9
	VPUNPCKLWD   X9, X8, X10              // g0 … g7
	VPUNPCKHWD   X9, X8, X11              // g8 … g15
	VMOVDQU      X10, blockQ8K_bsums(DST)
	VMOVDQU      X11, blockQ8K_bsums+16(DST)
	JMP          quantizeq8kavx2_next

quantizeq8kavx2_both:
	// ±amax both occur: max is the first x with |x| == amax.
	VBROADCASTSS X1, Y11
	VBROADCASTSS ·qAbs<>(SB), Y10
	XORQ         OFF, OFF

quantizeq8kavx2_find:
	VANDPS    0(SRC)(OFF*1), Y10, Y4
	VCMPPS    $0, Y11, Y4, Y4             // EQ_OQ
	VMOVMSKPS Y4, DX
	TESTL     DX, DX
	JNZ       quantizeq8kavx2_found
	ADDQ      $32, OFF
	CMPQ      OFF, $1024
	JB        quantizeq8kavx2_find
	XORQ      OFF, OFF                    // unreachable for finite input
	MOVL      $1, DX

quantizeq8kavx2_found:
	BSFL   DX, DX
	LEAQ   (OFF)(DX*4), OFF
	VMOVSS (SRC)(OFF*1), X1
	JMP    quantizeq8kavx2_scale

quantizeq8kavx2_inf:
	// iscale = ±Inf: qs = 0, bsums = 0, d = 1/iscale = ±0.
	VMOVSS ·qOne<>(SB), X1
	VDIVSS X2, X1, X0
	JMP    quantizeq8kavx2_fill

quantizeq8kavx2_zero:
	VXORPS X0, X0, X0                     // d = 0

quantizeq8kavx2_fill:
	VMOVSS  X0, blockQ8K_d(DST)
	VPXOR   Y1, Y1, Y1
	VMOVDQU Y1, blockQ8K_qs+0(DST)
	VMOVDQU Y1, blockQ8K_qs+32(DST)
	VMOVDQU Y1, blockQ8K_qs+64(DST)
	VMOVDQU Y1, blockQ8K_qs+96(DST)
	VMOVDQU Y1, blockQ8K_qs+128(DST)
	VMOVDQU Y1, blockQ8K_qs+160(DST)
	VMOVDQU Y1, blockQ8K_qs+192(DST)
	VMOVDQU Y1, blockQ8K_qs+224(DST)
	VMOVDQU Y1, blockQ8K_bsums(DST)

quantizeq8kavx2_next:
	ADDQ $1024, SRC
	ADDQ $blockQ8K__size, DST
	DECQ NB
	JNZ  quantizeq8kavx2_block

quantizeq8kavx2_done:
	VZEROUPPER
	RET

// Q8K_QUANT64_AVX512(off, D) quantizes the 64 values at SRC+4·off into
// qs[off..off+63] and sets D to 16 dword sums of 4 quants (lane L: group
// off/16+L). Z14 holds iscale, Z12 the pack order, Z11 1 in each
// byte, Z10 1 in each word. Clobbers Z0..Z3.
#define Q8K_QUANT64_AVX512(off, D) \
	VMULPS     4*off(SRC), Z14, Z0 ; \
	VMULPS     4*off+64(SRC), Z14, Z1 ; \
	VMULPS     4*off+128(SRC), Z14, Z2 ; \
	VMULPS     4*off+192(SRC), Z14, Z3 ; \
	VCVTPS2DQ  Z0, Z0 ; \
	VCVTPS2DQ  Z1, Z1 ; \
	VCVTPS2DQ  Z2, Z2 ; \
	VCVTPS2DQ  Z3, Z3 ; \
	VPACKSSDW  Z1, Z0, Z0 ; \
	VPACKSSDW  Z3, Z2, Z2 ; \
	VPACKSSWB  Z2, Z0, Z0 ; \
	VPERMD     Z0, Z12, Z0 ; \
	VMOVDQU32  Z0, blockQ8K_qs+off(DST) ; \
	VPMADDUBSW Z0, Z11, Z0 ; \
	VPMADDWD   Z10, Z0, D

// func QuantizeQ8KAVX512(dst unsafe.Pointer, src *float32, nb int)
TEXT ·QuantizeQ8KAVX512(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), DST
	MOVQ         src+8(FP), SRC
	MOVQ         nb+16(FP), NB
	TESTQ        NB, NB
	JZ           quantizeq8kavx512_done
	VPBROADCASTD ·qOnes8<>(SB), Z11
	VPBROADCASTD ·qOnes16<>(SB), Z10
	VMOVDQU32    ·qPackIdx16<>(SB), Z12

	PCALIGN $32

quantizeq8kavx512_block:
	VMOVUPS       0(SRC), Z0
	VMOVUPS       64(SRC), Z1
	VMOVUPS       128(SRC), Z2
	VMOVUPS       192(SRC), Z3
	VMOVAPS       Z0, Z4
	VMOVAPS       Z1, Z5
	VMOVAPS       Z2, Z6
	VMOVAPS       Z3, Z7
	MOVQ          $256, OFF

quantizeq8kavx512_maxmin:
	VMOVUPS       0(SRC)(OFF*1), Z8
	VMOVUPS       64(SRC)(OFF*1), Z9
	VMAXPS        Z8, Z0, Z0
	VMINPS        Z8, Z4, Z4
	VMAXPS        Z9, Z1, Z1
	VMINPS        Z9, Z5, Z5
	VMOVUPS       128(SRC)(OFF*1), Z8
	VMOVUPS       192(SRC)(OFF*1), Z9
	VMAXPS        Z8, Z2, Z2
	VMINPS        Z8, Z6, Z6
	VMAXPS        Z9, Z3, Z3
	VMINPS        Z9, Z7, Z7
	ADDQ          $256, OFF
	CMPQ          OFF, $1024
	JB            quantizeq8kavx512_maxmin
	VMAXPS        Z1, Z0, Z0
	VMAXPS        Z3, Z2, Z2
	VMINPS        Z5, Z4, Z4
	VMINPS        Z7, Z6, Z6
	VMAXPS        Z2, Z0, Z0
	VMINPS        Z6, Z4, Z2
	VEXTRACTF64X4 $1, Z0, Y1
	VEXTRACTF64X4 $1, Z2, Y3
	VMAXPS        Y1, Y0, Y0
	VMINPS        Y3, Y2, Y2
	VEXTRACTF128  $1, Y0, X1
	VEXTRACTF128  $1, Y2, X3
	VMAXPS        X1, X0, X0
	VMINPS        X3, X2, X2
	VMOVHLPS      X0, X0, X1
	VMOVHLPS      X2, X2, X3
	VMAXPS        X1, X0, X0
	VMINPS        X3, X2, X2
	VMOVSHDUP     X0, X1
	VMOVSHDUP     X2, X3
	VMAXSS        X1, X0, X0              // max x
	VMINSS        X3, X2, X2              // min x
	Q8K_PICKMAX(quantizeq8kavx512_zero, quantizeq8kavx512_both)

quantizeq8kavx512_scale:
	Q8K_SCALE(quantizeq8kavx512_inf)
	VBROADCASTSS X2, Z14
	Q8K_QUANT64_AVX512(0, Z4)
	Q8K_QUANT64_AVX512(64, Z5)
	Q8K_QUANT64_AVX512(128, Z6)
	Q8K_QUANT64_AVX512(192, Z7)
	// bsums: Z4..Z7 lane L hold 4-quant sums of groups L, 4+L, 8+L, 12+L.
	VPACKSSDW Z5, Z4, Z4
	VPACKSSDW Z7, Z6, Z6
	VPMADDWD  Z10, Z4, Z4                 // 8-quant sums
	VPMADDWD  Z10, Z6, Z6
	VPACKSSDW Z6, Z4, Z4
	VPMADDWD  Z10, Z4, Z4                 // lane L: groups L, 4+L, 8+L, 12+L
	VPERMD    Z4, Z12, Z4                 // groups 0..15
	VPMOVDW   Z4, blockQ8K_bsums(DST)
	JMP       quantizeq8kavx512_next

quantizeq8kavx512_both:
	VBROADCASTSS X1, Z9
	VPBROADCASTD ·qAbs<>(SB), Z8
	XORQ         OFF, OFF

quantizeq8kavx512_find:
	VPANDD 0(SRC)(OFF*1), Z8, Z4
	VCMPPS $0, Z9, Z4, K1                 // EQ_OQ
	KMOVW  K1, DX
	TESTL  DX, DX
	JNZ    quantizeq8kavx512_found
	ADDQ   $64, OFF
	CMPQ   OFF, $1024
	JB     quantizeq8kavx512_find
	XORQ   OFF, OFF                       // unreachable for finite input
	MOVL   $1, DX

quantizeq8kavx512_found:
	BSFL   DX, DX
	LEAQ   (OFF)(DX*4), OFF
	VMOVSS (SRC)(OFF*1), X1
	JMP    quantizeq8kavx512_scale

quantizeq8kavx512_inf:
	VMOVSS ·qOne<>(SB), X1
	VDIVSS X2, X1, X0
	JMP    quantizeq8kavx512_fill

quantizeq8kavx512_zero:
	VXORPS X0, X0, X0

quantizeq8kavx512_fill:
	VMOVSS    X0, blockQ8K_d(DST)
	VPXORD    Z1, Z1, Z1
	VMOVDQU32 Z1, blockQ8K_qs+0(DST)
	VMOVDQU32 Z1, blockQ8K_qs+64(DST)
	VMOVDQU32 Z1, blockQ8K_qs+128(DST)
	VMOVDQU32 Z1, blockQ8K_qs+192(DST)
	VMOVDQU   Y1, blockQ8K_bsums(DST)

quantizeq8kavx512_next:
	ADDQ $1024, SRC
	ADDQ $blockQ8K__size, DST
	DECQ NB
	JNZ  quantizeq8kavx512_block

quantizeq8kavx512_done:
	VZEROUPPER
	RET
