//go:build !purego

// Attention kernels of package sdpa: binary16 widening, Exact mode's
// scores, exponential, division and weighted sum, and Fast mode's
// one-query-many-keys dot products.
//
// Each routine mirrors a generic kernel in package kernels (attn.go):
//
//	WidenF16AVX512       widenF16Generic       same bits (signalling NaNs
//	                                           keep their payload: the quiet
//	                                           bit VCVTPH2PS sets is cleared)
//	ExactScoresAVX512    exactScoresGeneric    same bits: lane r is query
//	                                           row r, summed over d in order
//	ExactExpAVX512       exactExpGeneric       same bits: ExactExp32 in
//	                                           float64 lanes, op for op
//	ExactDivAVX512       exactDivGeneric       same bits (IEEE division)
//	SwiGLUAVX512         swiGLUGeneric         same bits: EXP16, then the
//	                                           add, division and product
//	ExactWeightedAVX512  exactWeightedGeneric  same bits: lane c is output
//	                                           column c, summed over keys
//	                                           in order; a zero weight
//	                                           masks the add off
//	DotRowsAVX512        dotRowsGeneric        !!! reassociated and fused
//	FastWeightedRowAVX512 exactWeightedGeneric !!! fused, keys summed in
//	                                           two chains (Fast only)
//
// The Exact routines never fuse: every product is a VMULPS/VMULPD and
// every sum a separate VADDPS/VADDPD, with the operands in the twin's
// order, so each lane rounds exactly as the scalar code does.
//
// ExactExpAVX512 follows ExactExp32: x − m in float32, the special cases
// (NaN, x ≥ 88.72283935546875, x < −104) by lane masks at the end, the rest
// widened to two float64 halves: n = floor(x·log2e + 0.5) (VRNDSCALEPD),
// r = (x − n·ln2Hi) − n·ln2Lo, the degree-13 Taylor polynomial in the
// twin's Estrin order, 2^n from n's bits (n + 1.5·2^52 puts n in the low
// bits; adding 1023 and shifting left by 52 leaves the exponent field),
// p·2^n, and one rounding to float32 (VCVTPD2PS).
//
// Requires: AVX512F (every routine); F16C's conversion in its AVX-512 form
// (VCVTPH2PS zmm, AVX512F).

#include "textflag.h"

DATA ·attnTab<>+0(SB)/8, $0x3ff71547652b82fe   // log2e
DATA ·attnTab<>+8(SB)/8, $0x3fe0000000000000   // 0.5
DATA ·attnTab<>+16(SB)/8, $0x3ff0000000000000  // 1.0
DATA ·attnTab<>+24(SB)/8, $0x3fe62e42fee00000  // ln2Hi
DATA ·attnTab<>+32(SB)/8, $0x3dea39ef35793c76  // ln2Lo
DATA ·attnTab<>+40(SB)/8, $0x3fe0000000000000  // 1/2!
DATA ·attnTab<>+48(SB)/8, $0x3fc5555555555555  // 1/3!
DATA ·attnTab<>+56(SB)/8, $0x3fa5555555555555  // 1/4!
DATA ·attnTab<>+64(SB)/8, $0x3f81111111111111  // 1/5!
DATA ·attnTab<>+72(SB)/8, $0x3f56c16c16c16c17  // 1/6!
DATA ·attnTab<>+80(SB)/8, $0x3f2a01a01a01a01a  // 1/7!
DATA ·attnTab<>+88(SB)/8, $0x3efa01a01a01a01a  // 1/8!
DATA ·attnTab<>+96(SB)/8, $0x3ec71de3a556c734  // 1/9!
DATA ·attnTab<>+104(SB)/8, $0x3e927e4fb7789f5c // 1/10!
DATA ·attnTab<>+112(SB)/8, $0x3e5ae64567f544e4 // 1/11!
DATA ·attnTab<>+120(SB)/8, $0x3e21eed8eff8d898 // 1/12!
DATA ·attnTab<>+128(SB)/8, $0x3de6124613a86d09 // 1/13!
DATA ·attnTab<>+136(SB)/8, $0x4338000000000000 // 1.5·2^52
DATA ·attnTab<>+144(SB)/8, $1023               // float64 exponent bias (int64)
DATA ·attnTab<>+152(SB)/4, $0x42b17218         // 88.72283935546875: e^x rounds to +Inf from here
DATA ·attnTab<>+156(SB)/4, $0xc2d00000         // -104: e^x rounds to +0 below
DATA ·attnTab<>+160(SB)/4, $0x7f800000         // +Inf
DATA ·attnTab<>+164(SB)/4, $0x00007fff         // binary16 |h| mask
DATA ·attnTab<>+168(SB)/4, $0x00007c00         // binary16 +Inf
DATA ·attnTab<>+172(SB)/4, $0x00007e00         // binary16 smallest quiet NaN
DATA ·attnTab<>+176(SB)/4, $0xffbfffff         // float32 quiet bit, cleared
GLOBL ·attnTab<>(SB), RODATA|NOPTR, $184

#define LOG2E ·attnTab<>+0(SB)
#define HALF ·attnTab<>+8(SB)
#define ONE ·attnTab<>+16(SB)
#define LN2HI ·attnTab<>+24(SB)
#define LN2LO ·attnTab<>+32(SB)
#define C2 ·attnTab<>+40(SB)
#define C3 ·attnTab<>+48(SB)
#define C4 ·attnTab<>+56(SB)
#define C5 ·attnTab<>+64(SB)
#define C6 ·attnTab<>+72(SB)
#define C7 ·attnTab<>+80(SB)
#define C8 ·attnTab<>+88(SB)
#define C9 ·attnTab<>+96(SB)
#define C10 ·attnTab<>+104(SB)
#define C11 ·attnTab<>+112(SB)
#define C12 ·attnTab<>+120(SB)
#define C13 ·attnTab<>+128(SB)
#define MAGIC ·attnTab<>+136(SB)
#define BIAS ·attnTab<>+144(SB)
#define OVERFLOW ·attnTab<>+152(SB)
#define UNDERFLOW ·attnTab<>+156(SB)
#define POSINF ·attnTab<>+160(SB)
#define H16ABS ·attnTab<>+164(SB)
#define H16INF ·attnTab<>+168(SB)
#define H16QNAN ·attnTab<>+172(SB)
#define NOQUIET ·attnTab<>+176(SB)

// ---------------------------------------------------------------------------
// func WidenF16AVX512(dst *float32, src *uint16, n int)
#define W_DST DI
#define W_SRC SI
#define W_N CX
#define W_VAL Z0 // the converted values
#define W_ABS Z1 // |h| as 32-bit lanes
#define W_MASK Z28
#define W_INF Z29
#define W_QNAN Z30
#define W_NOQ Z31

TEXT ·WidenF16AVX512(SB), NOSPLIT, $0-24
	MOVQ         dst+0(FP), W_DST
	MOVQ         src+8(FP), W_SRC
	MOVQ         n+16(FP), W_N
	SHRQ         $4, W_N
	JZ           widenf16_done
	VPBROADCASTD H16ABS, W_MASK
	VPBROADCASTD H16INF, W_INF
	VPBROADCASTD H16QNAN, W_QNAN
	VPBROADCASTD NOQUIET, W_NOQ

	PCALIGN $32

widenf16_loop:
	VCVTPH2PS (W_SRC), W_VAL
	VPMOVZXWD (W_SRC), W_ABS
	VPANDD    W_MASK, W_ABS, W_ABS
	VPCMPGTD  W_INF, W_ABS, K1         // |h| > 0x7c00: NaN
	VPCMPGTD  W_ABS, W_QNAN, K1, K1    // and |h| < 0x7e00: signalling
	VPANDD    W_NOQ, W_VAL, K1, W_VAL  // keep the payload as it was
	VMOVUPS   W_VAL, (W_DST)
	ADDQ      $32, W_SRC
	ADDQ      $64, W_DST
	DECQ      W_N
	JNZ       widenf16_loop

widenf16_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ExactScoresAVX512(st, qt *float32, rs int, k *float32, ldk, hd, n int)
//
// Eight keys at a time (then one): for each 16-row lane group of qt, eight
// accumulators (one per key) over d, a qt row load and a broadcast key
// value per product. The eight key rows stay in L1 while every lane group
// uses them.
#define S_ST DI  // st row of the current keys
#define S_QT SI  // qt
#define S_RS R8  // rs·4: bytes per st / qt row
#define S_K R9   // key row of the current keys
#define S_LDK R10 // ldk·4
#define S_HD R11
#define S_N R12  // keys left
#define S_QP R13 // walks qt down a lane group; then the st store pointer
#define S_KP R14 // walks the key rows along d
#define S_D R15  // d left
#define S_L3 BX  // 3·ldk·4
#define S_L5 AX  // 5·ldk·4
#define S_L7 DX  // 7·ldk·4
#define S_G CX   // lane group byte offset
#define S_Q Z16  // qt[d, group]

TEXT ·ExactScoresAVX512(SB), NOSPLIT, $0-56
	MOVQ st+0(FP), S_ST
	MOVQ qt+8(FP), S_QT
	MOVQ rs+16(FP), S_RS
	SHLQ $2, S_RS
	MOVQ k+24(FP), S_K
	MOVQ ldk+32(FP), S_LDK
	SHLQ $2, S_LDK
	MOVQ hd+40(FP), S_HD
	MOVQ n+48(FP), S_N
	LEAQ (S_LDK)(S_LDK*2), S_L3
	LEAQ (S_LDK)(S_LDK*4), S_L5
	LEAQ (S_L3)(S_LDK*4), S_L7

scores_keys8:
	CMPQ S_N, $8
	JB   scores_keys1
	XORQ S_G, S_G

scores_group8:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	LEAQ   (S_QT)(S_G*1), S_QP
	MOVQ   S_K, S_KP
	MOVQ   S_HD, S_D

	PCALIGN $32

scores_d8:
	VMOVUPS     (S_QP), S_Q
	VMULPS.BCST (S_KP), S_Q, Z8            // q[d]·k[j, d]
	VMULPS.BCST (S_KP)(S_LDK*1), S_Q, Z9
	VMULPS.BCST (S_KP)(S_LDK*2), S_Q, Z10
	VMULPS.BCST (S_KP)(S_L3*1), S_Q, Z11
	VMULPS.BCST (S_KP)(S_LDK*4), S_Q, Z12
	VMULPS.BCST (S_KP)(S_L5*1), S_Q, Z13
	VMULPS.BCST (S_KP)(S_L3*2), S_Q, Z14
	VMULPS.BCST (S_KP)(S_L7*1), S_Q, Z15
	VADDPS      Z8, Z0, Z0                 // s[j] += that, rounded
	VADDPS      Z9, Z1, Z1
	VADDPS      Z10, Z2, Z2
	VADDPS      Z11, Z3, Z3
	VADDPS      Z12, Z4, Z4
	VADDPS      Z13, Z5, Z5
	VADDPS      Z14, Z6, Z6
	VADDPS      Z15, Z7, Z7
	ADDQ        S_RS, S_QP
	ADDQ        $4, S_KP
	DECQ        S_D
	JNZ         scores_d8

	LEAQ    (S_ST)(S_G*1), S_QP
	VMOVUPS Z0, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z1, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z2, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z3, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z4, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z5, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z6, (S_QP)
	ADDQ    S_RS, S_QP
	VMOVUPS Z7, (S_QP)
	ADDQ    $64, S_G
	CMPQ    S_G, S_RS
	JB      scores_group8

	LEAQ (S_K)(S_LDK*8), S_K
	LEAQ (S_ST)(S_RS*8), S_ST
	SUBQ $8, S_N
	JMP  scores_keys8

scores_keys1:
	TESTQ S_N, S_N
	JZ    scores_done
	XORQ  S_G, S_G

scores_group1:
	VPXORD Z0, Z0, Z0
	LEAQ   (S_QT)(S_G*1), S_QP
	MOVQ   S_K, S_KP
	MOVQ   S_HD, S_D

scores_d1:
	VMOVUPS     (S_QP), S_Q
	VMULPS.BCST (S_KP), S_Q, Z8
	VADDPS      Z8, Z0, Z0
	ADDQ        S_RS, S_QP
	ADDQ        $4, S_KP
	DECQ        S_D
	JNZ         scores_d1
	VMOVUPS     Z0, (S_ST)(S_G*1)
	ADDQ        $64, S_G
	CMPQ        S_G, S_RS
	JB          scores_group1

	ADDQ S_LDK, S_K
	ADDQ S_RS, S_ST
	DECQ S_N
	JMP  scores_keys1

scores_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// EXPPD sets H to p·2^n for the float64 lanes of H (ExactExp32's steps
// between the special cases and the final rounding); N, R, R2, R4, R8 and
// A0-A3 are scratch.
#define EXPPD(H, N, R, R2, R4, R8, A0, A1, A2, A3) \
	VMULPD.BCST LOG2E, H, N      \ // x·log2e
	VADDPD.BCST HALF, N, N       \ // + 0.5
	VRNDSCALEPD $1, N, N         \ // n = floor(...)
	VMULPD.BCST LN2HI, N, R      \ // n·ln2Hi
	VSUBPD      R, H, R          \ // x − n·ln2Hi
	VMULPD.BCST LN2LO, N, A0     \ // n·ln2Lo
	VSUBPD      A0, R, R         \ // r
	VMULPD      R, R, R2         \ // r²
	VMULPD      R2, R2, R4       \ // r⁴
	VMULPD      R4, R4, R8       \ // r⁸
	VADDPD.BCST ONE, R, A0       \ // a0 = 1 + r
	VMULPD.BCST C3, R, A1        \
	VADDPD.BCST C2, A1, A1       \ // a1 = c3·r + c2
	VMULPD      A1, R2, A1       \
	VADDPD      A0, A1, A0       \ // b0 = a1·r² + a0
	VMULPD.BCST C5, R, A1        \
	VADDPD.BCST C4, A1, A1       \ // a2 = c5·r + c4
	VMULPD.BCST C7, R, A2        \
	VADDPD.BCST C6, A2, A2       \ // a3 = c7·r + c6
	VMULPD      A2, R2, A2       \
	VADDPD      A1, A2, A1       \ // b1 = a3·r² + a2
	VMULPD.BCST C9, R, A2        \
	VADDPD.BCST C8, A2, A2       \ // a4 = c9·r + c8
	VMULPD.BCST C11, R, A3       \
	VADDPD.BCST C10, A3, A3      \ // a5 = c11·r + c10
	VMULPD      A3, R2, A3       \
	VADDPD      A2, A3, A2       \ // b2 = a5·r² + a4
	VMULPD.BCST C13, R, A3       \
	VADDPD.BCST C12, A3, A3      \ // a6 = c13·r + c12
	VMULPD      A1, R4, A1       \
	VADDPD      A0, A1, A0       \ // c0 = b1·r⁴ + b0
	VMULPD      A3, R4, A3       \
	VADDPD      A2, A3, A3       \ // c1 = a6·r⁴ + b2
	VMULPD      A3, R8, A3       \
	VADDPD      A0, A3, A0       \ // p = c1·r⁸ + c0
	VADDPD.BCST MAGIC, N, N      \ // n + 1.5·2^52: n in the low bits
	VPADDQ.BCST BIAS, N, N       \ // + 1023
	VPSLLQ      $52, N, N        \ // 2^n
	VMULPD      N, A0, H           // p·2^n, exact

#define E_INF Z22
#define E_ZERO Z23

// EXP16 sets Z2 to ExactExp32 of the 16 float32 lanes of Z0: the special
// cases by the masks K1 (NaN: Z0 itself), K2 (+Inf) and K3 (+0), the rest
// by EXPPD on two float64 halves. It needs +Inf in E_INF (Z22) and zeros
// in E_ZERO (Z23), and uses Z1-Z21 and K1-K3.
#define EXP16 \
	VCMPPS        $3, Z0, Z0, K1              \ // NaN: the result is the argument
	VCMPPS.BCST   $0x1d, OVERFLOW, Z0, K2     \ // ≥ 88.72283935546875: +Inf
	VCMPPS.BCST   $0x11, UNDERFLOW, Z0, K3    \ // < −104: +0
	VEXTRACTF64X4 $1, Z0, Y1                  \
	VCVTPS2PD     Y0, Z2                      \
	VCVTPS2PD     Y1, Z12                     \
	EXPPD(Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11) \
	EXPPD(Z12, Z13, Z14, Z15, Z16, Z17, Z18, Z19, Z20, Z21) \
	VCVTPD2PS     Z2, Y2                      \ // the one rounding to float32
	VCVTPD2PS     Z12, Y12                    \
	VINSERTF64X4  $1, Y12, Z2, Z2             \
	VMOVAPS       E_INF, K2, Z2               \
	VMOVAPS       E_ZERO, K3, Z2              \
	VMOVAPS       Z0, K1, Z2

// ---------------------------------------------------------------------------
// func ExactExpAVX512(dst, x, m *float32, n, period int)
#define E_DST DI
#define E_X SI
#define E_M DX
#define E_N CX  // elements left
#define E_P R8  // period·4
#define E_G R9  // byte offset in the period

TEXT ·ExactExpAVX512(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), E_DST
	MOVQ         x+8(FP), E_X
	MOVQ         m+16(FP), E_M
	MOVQ         n+24(FP), E_N
	MOVQ         period+32(FP), E_P
	SHLQ         $2, E_P
	TESTQ        E_N, E_N
	JZ           exactexp_done
	VPBROADCASTD POSINF, E_INF
	VPXORD       E_ZERO, E_ZERO, E_ZERO

exactexp_row:
	XORQ E_G, E_G

	PCALIGN $32

exactexp_loop:
	VMOVUPS          (E_X)(E_G*1), Z0
	VSUBPS           (E_M)(E_G*1), Z0, Z0 // x − m, rounded
	EXP16
	VMOVUPS          Z2, (E_DST)(E_G*1)
	ADDQ             $64, E_G
	CMPQ             E_G, E_P
	JB               exactexp_loop

	ADDQ E_P, E_X
	ADDQ E_P, E_DST
	MOVQ E_P, AX
	SHRQ $2, AX
	SUBQ AX, E_N
	JNZ  exactexp_row

exactexp_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func SwiGLUAVX512(dst, gate, up *float32, n int)
//
// dst[i] = SiLU(gate[i])·up[i] for i < n, n a multiple of 16, SwiGLUAVX2's
// steps on 16 lanes: e = Exp(−g) by EXP16, g / (1 + e), then · up (each
// rounded to float32), and the canonical NaN for a NaN result (dst may be
// gate or up).
#define G_DST DI
#define G_GATE SI
#define G_UP DX
#define G_N CX          // elements left
#define G_SIGN Z24      // 0x80000000 in every lane
#define G_ONE Z25       // 1.0
#define G_QNAN Z26      // the canonical NaN
#define G_G Z27         // gate

DATA swigluTab<>+0(SB)/4, $0x80000000
DATA swigluTab<>+4(SB)/4, $0x3f800000
DATA swigluTab<>+8(SB)/4, $0x7fc00000
GLOBL swigluTab<>(SB), RODATA|NOPTR, $12

TEXT ·SwiGLUAVX512(SB), NOSPLIT, $0-32
	MOVQ         dst+0(FP), G_DST
	MOVQ         gate+8(FP), G_GATE
	MOVQ         up+16(FP), G_UP
	MOVQ         n+24(FP), G_N
	TESTQ        G_N, G_N
	JZ           swiglu_done
	VPBROADCASTD POSINF, E_INF
	VPXORD       E_ZERO, E_ZERO, E_ZERO
	VPBROADCASTD swigluTab<>+0(SB), G_SIGN
	VPBROADCASTD swigluTab<>+4(SB), G_ONE
	VPBROADCASTD swigluTab<>+8(SB), G_QNAN

	PCALIGN $32

swiglu_loop:
	VMOVUPS (G_GATE), G_G
	VXORPS  G_SIGN, G_G, Z0 // −g
	EXP16                   // Z2 = Exp(−g)
	VADDPS  G_ONE, Z2, Z2   // 1 + e
	VDIVPS  Z2, G_G, Z2     // g / (1 + e)
	VMULPS  (G_UP), Z2, Z2  // · up
	VCMPPS  $3, Z2, Z2, K4  // NaN lanes
	VMOVAPS G_QNAN, K4, Z2  // the canonical NaN
	VMOVUPS Z2, (G_DST)
	ADDQ    $64, G_GATE
	ADDQ    $64, G_UP
	ADDQ    $64, G_DST
	SUBQ    $16, G_N
	JNZ     swiglu_loop

swiglu_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ExactDivAVX512(x, d *float32, n, period int)
#define D_X DI
#define D_D SI
#define D_N CX
#define D_P R8
#define D_G R9

TEXT ·ExactDivAVX512(SB), NOSPLIT, $0-32
	MOVQ  x+0(FP), D_X
	MOVQ  d+8(FP), D_D
	MOVQ  n+16(FP), D_N
	MOVQ  period+24(FP), D_P
	SHLQ  $2, D_P
	TESTQ D_N, D_N
	JZ    exactdiv_done

exactdiv_row:
	XORQ D_G, D_G

exactdiv_loop:
	VMOVUPS (D_X)(D_G*1), Z0
	VDIVPS  (D_D)(D_G*1), Z0, Z0 // x / d
	VMOVUPS Z0, (D_X)(D_G*1)
	ADDQ    $64, D_G
	CMPQ    D_G, D_P
	JB      exactdiv_loop

	ADDQ D_P, D_X
	MOVQ D_P, AX
	SHRQ $2, AX
	SUBQ AX, D_N
	JNZ  exactdiv_row

exactdiv_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ExactWeightedAVX512(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n int)
//
// Column chunks of 64 (four zmm a row) while they last, then of 16; in
// each, four rows at a time (then one), the accumulators held in registers
// over every key: per key one V load per zmm, shared by the rows, and per
// row a broadcast weight, a comparison with 0 (the add's mask), and a
// multiply and a masked add per zmm.
#define O_O DI   // o
#define O_ROWS BX
#define O_HD4 R8 // hd·4
#define O_PT SI  // pt
#define O_RS4 R9 // rs·4
#define O_V R10  // v
#define O_LDV R11 // ldv·4
#define O_N R12
#define O_C R13  // column byte offset
#define O_R R14  // rows done in this chunk
#define O_OP R15 // o row pointer
#define O_PP AX  // pt pointer
#define O_VP DX  // v pointer
#define O_J CX   // keys left
#define O_ZERO Z31

// WROW4 applies the weight at off(O_PP) to the four V zmm Z16-Z19 and
// adds the products to A0-A3 unless the weight is 0.
#define WROW4(off, P, K, A0, A1, A2, A3) \
	VBROADCASTSS off(O_PP), P   \
	VCMPPS       $4, O_ZERO, P, K \ // p != 0
	VMULPS       Z16, P, Z24    \ // p·v[j, c]
	VMULPS       Z17, P, Z25    \
	VMULPS       Z18, P, Z26    \
	VMULPS       Z19, P, Z27    \
	VADDPS       Z24, A0, K, A0 \ // o[c] += that, rounded
	VADDPS       Z25, A1, K, A1 \
	VADDPS       Z26, A2, K, A2 \
	VADDPS       Z27, A3, K, A3

// WROW1 is WROW4 for one zmm of V (Z16).
#define WROW1(off, P, K, A0) \
	VBROADCASTSS off(O_PP), P   \
	VCMPPS       $4, O_ZERO, P, K \
	VMULPS       Z16, P, Z24    \
	VADDPS       Z24, A0, K, A0

TEXT ·ExactWeightedAVX512(SB), NOSPLIT, $0-72
	MOVQ   o+0(FP), O_O
	MOVQ   rows+8(FP), O_ROWS
	MOVQ   hd+16(FP), O_HD4
	SHLQ   $2, O_HD4
	MOVQ   pt+24(FP), O_PT
	MOVQ   rs+32(FP), O_RS4
	SHLQ   $2, O_RS4
	MOVQ   v+40(FP), O_V
	MOVQ   ldv+48(FP), O_LDV
	SHLQ   $2, O_LDV
	MOVQ   n+56(FP), O_N
	VPXORD O_ZERO, O_ZERO, O_ZERO
	XORQ   O_C, O_C

weighted_chunk:
	MOVQ O_HD4, AX
	SUBQ O_C, AX
	JZ   weighted_done
	CMPQ AX, $256
	JB   weighted_c16
	XORQ O_R, O_R

weighted_c64_rows4:
	MOVQ    O_ROWS, AX
	SUBQ    O_R, AX
	CMPQ    AX, $4
	JB      weighted_c64_rows1
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	VMOVUPS 64(O_OP), Z1
	VMOVUPS 128(O_OP), Z2
	VMOVUPS 192(O_OP), Z3
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z4
	VMOVUPS 64(O_OP), Z5
	VMOVUPS 128(O_OP), Z6
	VMOVUPS 192(O_OP), Z7
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z8
	VMOVUPS 64(O_OP), Z9
	VMOVUPS 128(O_OP), Z10
	VMOVUPS 192(O_OP), Z11
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z12
	VMOVUPS 64(O_OP), Z13
	VMOVUPS 128(O_OP), Z14
	VMOVUPS 192(O_OP), Z15
	LEAQ    (O_PT)(O_R*4), O_PP
	LEAQ    (O_V)(O_C*1), O_VP
	MOVQ    O_N, O_J

	PCALIGN $32

weighted_c64_r4_keys:
	VMOVUPS (O_VP), Z16
	VMOVUPS 64(O_VP), Z17
	VMOVUPS 128(O_VP), Z18
	VMOVUPS 192(O_VP), Z19
	WROW4(0, Z20, K1, Z0, Z1, Z2, Z3)
	WROW4(4, Z21, K2, Z4, Z5, Z6, Z7)
	WROW4(8, Z22, K3, Z8, Z9, Z10, Z11)
	WROW4(12, Z23, K4, Z12, Z13, Z14, Z15)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weighted_c64_r4_keys

	VMOVUPS Z15, 192(O_OP)
	VMOVUPS Z14, 128(O_OP)
	VMOVUPS Z13, 64(O_OP)
	VMOVUPS Z12, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z11, 192(O_OP)
	VMOVUPS Z10, 128(O_OP)
	VMOVUPS Z9, 64(O_OP)
	VMOVUPS Z8, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z7, 192(O_OP)
	VMOVUPS Z6, 128(O_OP)
	VMOVUPS Z5, 64(O_OP)
	VMOVUPS Z4, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z3, 192(O_OP)
	VMOVUPS Z2, 128(O_OP)
	VMOVUPS Z1, 64(O_OP)
	VMOVUPS Z0, (O_OP)
	ADDQ    $4, O_R
	JMP     weighted_c64_rows4

weighted_c64_rows1:
	CMPQ    O_R, O_ROWS
	JAE     weighted_c64_next
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	VMOVUPS 64(O_OP), Z1
	VMOVUPS 128(O_OP), Z2
	VMOVUPS 192(O_OP), Z3
	LEAQ    (O_PT)(O_R*4), O_PP
	LEAQ    (O_V)(O_C*1), O_VP
	MOVQ    O_N, O_J
	CMPQ    pf+64(FP), $0 // not 0: prefetch V 8 KiB ahead
	JNE     weighted_c64_r1_keyspf

weighted_c64_r1_keys:
	VMOVUPS (O_VP), Z16
	VMOVUPS 64(O_VP), Z17
	VMOVUPS 128(O_VP), Z18
	VMOVUPS 192(O_VP), Z19
	WROW4(0, Z20, K1, Z0, Z1, Z2, Z3)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weighted_c64_r1_keys
	JMP     weighted_c64_r1_store

weighted_c64_r1_keyspf:
	PREFETCHT0 8192(O_VP)
	PREFETCHT0 8256(O_VP)
	PREFETCHT0 8320(O_VP)
	PREFETCHT0 8384(O_VP)
	VMOVUPS (O_VP), Z16
	VMOVUPS 64(O_VP), Z17
	VMOVUPS 128(O_VP), Z18
	VMOVUPS 192(O_VP), Z19
	WROW4(0, Z20, K1, Z0, Z1, Z2, Z3)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weighted_c64_r1_keyspf

weighted_c64_r1_store:
	VMOVUPS Z0, (O_OP)
	VMOVUPS Z1, 64(O_OP)
	VMOVUPS Z2, 128(O_OP)
	VMOVUPS Z3, 192(O_OP)
	INCQ    O_R
	JMP     weighted_c64_rows1

weighted_c64_next:
	ADDQ $256, O_C
	JMP  weighted_chunk

weighted_c16:
	XORQ O_R, O_R

weighted_c16_rows4:
	MOVQ    O_ROWS, AX
	SUBQ    O_R, AX
	CMPQ    AX, $4
	JB      weighted_c16_rows1
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z4
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z8
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z12
	LEAQ    (O_PT)(O_R*4), O_PP
	LEAQ    (O_V)(O_C*1), O_VP
	MOVQ    O_N, O_J

weighted_c16_r4_keys:
	VMOVUPS (O_VP), Z16
	WROW1(0, Z20, K1, Z0)
	WROW1(4, Z21, K2, Z4)
	WROW1(8, Z22, K3, Z8)
	WROW1(12, Z23, K4, Z12)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weighted_c16_r4_keys

	VMOVUPS Z12, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z8, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z4, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z0, (O_OP)
	ADDQ    $4, O_R
	JMP     weighted_c16_rows4

weighted_c16_rows1:
	CMPQ    O_R, O_ROWS
	JAE     weighted_c16_next
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	LEAQ    (O_PT)(O_R*4), O_PP
	LEAQ    (O_V)(O_C*1), O_VP
	MOVQ    O_N, O_J

weighted_c16_r1_keys:
	VMOVUPS (O_VP), Z16
	WROW1(0, Z20, K1, Z0)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weighted_c16_r1_keys

	VMOVUPS Z0, (O_OP)
	INCQ    O_R
	JMP     weighted_c16_rows1

weighted_c16_next:
	ADDQ $64, O_C
	JMP  weighted_chunk

weighted_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func DotRowsAVX512(dst, q *float32, hd int, k *float32, ldk, n int)
//
// Four keys at a time (then one): one 16-lane FMA accumulator per key over
// d, then a horizontal sum (!!! reassociated).
#define R_DST DI
#define R_Q SI
#define R_HD R8  // hd/16
#define R_K R9
#define R_LDK R10 // ldk·4
#define R_N R11
#define R_QP R12
#define R_KP R13
#define R_D R14
#define R_L3 R15 // 3·ldk·4
#define R_PF AX  // not 0: prefetch K 8 KiB ahead (a stream from beyond the caches)
#define R_P4 BX  // the 16-key loop's rows 4, 8 and 12
#define R_P8 CX
#define R_P12 DX

// HSUM4 reduces the 16 lanes of the accumulator Z (Y, X its halves) to
// four, in X.
#define HSUM4(Z, Y, X) \
	VEXTRACTF64X4 $1, Z, Y8 \
	VADDPS        Y8, Y, Y  \
	VEXTRACTF128  $1, Y, X8 \
	VADDPS        X8, X, X

// RED16 sums the 16 lanes of each accumulator Z0-Z15 into one lane of
// Z0, in HSUM4's order for every key: (l_i + l_i+8) + (l_i+4 + l_i+12),
// then lanes (0+1) + (2+3). Lane p of Z0 holds accumulator 4·(p mod 4) +
// p/4 (the loops load key 4L+m into accumulator 4m+L, so lane p is key p).
// Level 1 adds the 256-bit halves of pairs, level 2 the 128-bit quarters,
// levels 3 and 4 the elements within each quarter.
#define RED16 \
	VSHUFF64X2 $0x44, Z1, Z0, Z24 \
	VSHUFF64X2 $0xEE, Z1, Z0, Z25 \
	VADDPS     Z25, Z24, Z0 \
	VSHUFF64X2 $0x44, Z3, Z2, Z24 \
	VSHUFF64X2 $0xEE, Z3, Z2, Z25 \
	VADDPS     Z25, Z24, Z1 \
	VSHUFF64X2 $0x44, Z5, Z4, Z24 \
	VSHUFF64X2 $0xEE, Z5, Z4, Z25 \
	VADDPS     Z25, Z24, Z2 \
	VSHUFF64X2 $0x44, Z7, Z6, Z24 \
	VSHUFF64X2 $0xEE, Z7, Z6, Z25 \
	VADDPS     Z25, Z24, Z3 \
	VSHUFF64X2 $0x44, Z9, Z8, Z24 \
	VSHUFF64X2 $0xEE, Z9, Z8, Z25 \
	VADDPS     Z25, Z24, Z4 \
	VSHUFF64X2 $0x44, Z11, Z10, Z24 \
	VSHUFF64X2 $0xEE, Z11, Z10, Z25 \
	VADDPS     Z25, Z24, Z5 \
	VSHUFF64X2 $0x44, Z13, Z12, Z24 \
	VSHUFF64X2 $0xEE, Z13, Z12, Z25 \
	VADDPS     Z25, Z24, Z6 \
	VSHUFF64X2 $0x44, Z15, Z14, Z24 \
	VSHUFF64X2 $0xEE, Z15, Z14, Z25 \
	VADDPS     Z25, Z24, Z7 \
	VSHUFF64X2 $0x88, Z1, Z0, Z24 \
	VSHUFF64X2 $0xDD, Z1, Z0, Z25 \
	VADDPS     Z25, Z24, Z0 \
	VSHUFF64X2 $0x88, Z3, Z2, Z24 \
	VSHUFF64X2 $0xDD, Z3, Z2, Z25 \
	VADDPS     Z25, Z24, Z1 \
	VSHUFF64X2 $0x88, Z5, Z4, Z24 \
	VSHUFF64X2 $0xDD, Z5, Z4, Z25 \
	VADDPS     Z25, Z24, Z2 \
	VSHUFF64X2 $0x88, Z7, Z6, Z24 \
	VSHUFF64X2 $0xDD, Z7, Z6, Z25 \
	VADDPS     Z25, Z24, Z3 \
	VSHUFPS    $0x88, Z1, Z0, Z24 \
	VSHUFPS    $0xDD, Z1, Z0, Z25 \
	VADDPS     Z25, Z24, Z0 \
	VSHUFPS    $0x88, Z3, Z2, Z24 \
	VSHUFPS    $0xDD, Z3, Z2, Z25 \
	VADDPS     Z25, Z24, Z1 \
	VSHUFPS    $0x88, Z1, Z0, Z24 \
	VSHUFPS    $0xDD, Z1, Z0, Z25 \
	VADDPS     Z25, Z24, Z0

// The sixteen-key blocks of DotRowsAVX512 and DotRowsF16AVX512 share
// these steps. Accumulator 4m+L (Z0-Z15) holds key 4L+m of the block, so
// that RED16 leaves key p in lane p; key 4L+m is read at P_4L + m·ldk,
// with R_KP, R_P4, R_P8, R_P12 the block's rows 0, 4, 8 and 12.
//
// DOT16_START zeroes the accumulators and points R_QP at q, the four row
// pointers at the block and R_D at the count of 16-value steps.
#define DOT16_START \
	VPXORD Z0, Z0, Z0 \
	VPXORD Z1, Z1, Z1 \
	VPXORD Z2, Z2, Z2 \
	VPXORD Z3, Z3, Z3 \
	VPXORD Z4, Z4, Z4 \
	VPXORD Z5, Z5, Z5 \
	VPXORD Z6, Z6, Z6 \
	VPXORD Z7, Z7, Z7 \
	VPXORD Z8, Z8, Z8 \
	VPXORD Z9, Z9, Z9 \
	VPXORD Z10, Z10, Z10 \
	VPXORD Z11, Z11, Z11 \
	VPXORD Z12, Z12, Z12 \
	VPXORD Z13, Z13, Z13 \
	VPXORD Z14, Z14, Z14 \
	VPXORD Z15, Z15, Z15 \
	MOVQ   R_Q, R_QP \
	MOVQ   R_K, R_KP \
	LEAQ   (R_K)(R_LDK*4), R_P4 \
	LEAQ   (R_K)(R_LDK*8), R_P8 \
	LEAQ   (R_P4)(R_LDK*8), R_P12 \
	MOVQ   R_HD, R_D

// DOT16_PF prefetches the sixteen rows 8 KiB ahead of the current step.
#define DOT16_PF \
	PREFETCHT0  8192(R_KP) \
	PREFETCHT0  8192(R_P4) \
	PREFETCHT0  8192(R_P8) \
	PREFETCHT0  8192(R_P12) \
	PREFETCHT0  8192(R_KP)(R_LDK*1) \
	PREFETCHT0  8192(R_P4)(R_LDK*1) \
	PREFETCHT0  8192(R_P8)(R_LDK*1) \
	PREFETCHT0  8192(R_P12)(R_LDK*1) \
	PREFETCHT0  8192(R_KP)(R_LDK*2) \
	PREFETCHT0  8192(R_P4)(R_LDK*2) \
	PREFETCHT0  8192(R_P8)(R_LDK*2) \
	PREFETCHT0  8192(R_P12)(R_LDK*2) \
	PREFETCHT0  8192(R_KP)(R_L3*1) \
	PREFETCHT0  8192(R_P4)(R_L3*1) \
	PREFETCHT0  8192(R_P8)(R_L3*1) \
	PREFETCHT0  8192(R_P12)(R_L3*1)

// DOT16_F32 adds one 16-value step of q times each of the sixteen float32
// rows to its accumulator.
#define DOT16_F32 \
	VMOVUPS     (R_QP), Z16 \
	VFMADD231PS (R_KP), Z16, Z0 \
	VFMADD231PS (R_P4), Z16, Z1 \
	VFMADD231PS (R_P8), Z16, Z2 \
	VFMADD231PS (R_P12), Z16, Z3 \
	VFMADD231PS (R_KP)(R_LDK*1), Z16, Z4 \
	VFMADD231PS (R_P4)(R_LDK*1), Z16, Z5 \
	VFMADD231PS (R_P8)(R_LDK*1), Z16, Z6 \
	VFMADD231PS (R_P12)(R_LDK*1), Z16, Z7 \
	VFMADD231PS (R_KP)(R_LDK*2), Z16, Z8 \
	VFMADD231PS (R_P4)(R_LDK*2), Z16, Z9 \
	VFMADD231PS (R_P8)(R_LDK*2), Z16, Z10 \
	VFMADD231PS (R_P12)(R_LDK*2), Z16, Z11 \
	VFMADD231PS (R_KP)(R_L3*1), Z16, Z12 \
	VFMADD231PS (R_P4)(R_L3*1), Z16, Z13 \
	VFMADD231PS (R_P8)(R_L3*1), Z16, Z14 \
	VFMADD231PS (R_P12)(R_L3*1), Z16, Z15

// DOT16_F16 is DOT16_F32 for binary16 rows, widened exactly in registers.
#define DOT16_F16 \
	VMOVUPS     (R_QP), Z16 \
	VCVTPH2PS   (R_KP), Z17 \
	VCVTPH2PS   (R_P4), Z18 \
	VCVTPH2PS   (R_P8), Z19 \
	VCVTPH2PS   (R_P12), Z20 \
	VFMADD231PS Z17, Z16, Z0 \
	VFMADD231PS Z18, Z16, Z1 \
	VFMADD231PS Z19, Z16, Z2 \
	VFMADD231PS Z20, Z16, Z3 \
	VCVTPH2PS   (R_KP)(R_LDK*1), Z21 \
	VCVTPH2PS   (R_P4)(R_LDK*1), Z22 \
	VCVTPH2PS   (R_P8)(R_LDK*1), Z23 \
	VCVTPH2PS   (R_P12)(R_LDK*1), Z24 \
	VFMADD231PS Z21, Z16, Z4 \
	VFMADD231PS Z22, Z16, Z5 \
	VFMADD231PS Z23, Z16, Z6 \
	VFMADD231PS Z24, Z16, Z7 \
	VCVTPH2PS   (R_KP)(R_LDK*2), Z17 \
	VCVTPH2PS   (R_P4)(R_LDK*2), Z18 \
	VCVTPH2PS   (R_P8)(R_LDK*2), Z19 \
	VCVTPH2PS   (R_P12)(R_LDK*2), Z20 \
	VFMADD231PS Z17, Z16, Z8 \
	VFMADD231PS Z18, Z16, Z9 \
	VFMADD231PS Z19, Z16, Z10 \
	VFMADD231PS Z20, Z16, Z11 \
	VCVTPH2PS   (R_KP)(R_L3*1), Z21 \
	VCVTPH2PS   (R_P4)(R_L3*1), Z22 \
	VCVTPH2PS   (R_P8)(R_L3*1), Z23 \
	VCVTPH2PS   (R_P12)(R_L3*1), Z24 \
	VFMADD231PS Z21, Z16, Z12 \
	VFMADD231PS Z22, Z16, Z13 \
	VFMADD231PS Z23, Z16, Z14 \
	VFMADD231PS Z24, Z16, Z15

// DOT16_NEXT moves q and the four row pointers one step on (step: the
// bytes of 16 values of K).
#define DOT16_NEXT(step) \
	ADDQ        $64, R_QP \
	ADDQ        $step, R_KP \
	ADDQ        $step, R_P4 \
	ADDQ        $step, R_P8 \
	ADDQ        $step, R_P12

// DOT16_STORE writes the sixteen dots and moves dst and k to the next block.
#define DOT16_STORE \
	RED16 \
	VMOVUPS Z0, (R_DST) \
	ADDQ    $64, R_DST \
	LEAQ    (R_K)(R_LDK*8), R_K \
	LEAQ    (R_K)(R_LDK*8), R_K \
	SUBQ    $16, R_N



TEXT ·DotRowsAVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), R_DST
	MOVQ q+8(FP), R_Q
	MOVQ hd+16(FP), R_HD
	SHRQ $4, R_HD
	MOVQ k+24(FP), R_K
	MOVQ ldk+32(FP), R_LDK
	SHLQ $2, R_LDK
	MOVQ n+40(FP), R_N
	MOVQ pf+48(FP), R_PF
	LEAQ (R_LDK)(R_LDK*2), R_L3

dotrows_keys16:
	CMPQ R_N, $16
	JB   dotrows_keys4
	DOT16_START
	CMPQ R_PF, $0
	JNE  dotrows_d16pf

	PCALIGN $32

dotrows_d16:
	DOT16_F32
	DOT16_NEXT(64)
	DECQ R_D
	JNZ  dotrows_d16
	JMP  dotrows_sum16

	PCALIGN $32

dotrows_d16pf:
	DOT16_PF
	DOT16_F32
	DOT16_NEXT(64)
	DECQ R_D
	JNZ  dotrows_d16pf

dotrows_sum16:
	DOT16_STORE
	JMP dotrows_keys16

dotrows_keys4:
	CMPQ   R_N, $4
	JB     dotrows_keys1
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	MOVQ   R_Q, R_QP
	MOVQ   R_K, R_KP
	MOVQ   R_HD, R_D
	CMPQ   R_PF, $0
	JNE    dotrows_d4pf

	PCALIGN $32

dotrows_d4:
	VMOVUPS     (R_QP), Z16
	VFMADD231PS (R_KP), Z16, Z0
	VFMADD231PS (R_KP)(R_LDK*1), Z16, Z1
	VFMADD231PS (R_KP)(R_LDK*2), Z16, Z2
	VFMADD231PS (R_KP)(R_L3*1), Z16, Z3
	ADDQ        $64, R_QP
	ADDQ        $64, R_KP
	DECQ        R_D
	JNZ         dotrows_d4
	JMP         dotrows_sum4

	PCALIGN $32

dotrows_d4pf:
	PREFETCHT0  8192(R_KP)
	PREFETCHT0  8192(R_KP)(R_LDK*1)
	PREFETCHT0  8192(R_KP)(R_LDK*2)
	PREFETCHT0  8192(R_KP)(R_L3*1)
	VMOVUPS     (R_QP), Z16
	VFMADD231PS (R_KP), Z16, Z0
	VFMADD231PS (R_KP)(R_LDK*1), Z16, Z1
	VFMADD231PS (R_KP)(R_LDK*2), Z16, Z2
	VFMADD231PS (R_KP)(R_L3*1), Z16, Z3
	ADDQ        $64, R_QP
	ADDQ        $64, R_KP
	DECQ        R_D
	JNZ         dotrows_d4pf

dotrows_sum4:
	HSUM4(Z0, Y0, X0)
	HSUM4(Z1, Y1, X1)
	HSUM4(Z2, Y2, X2)
	HSUM4(Z3, Y3, X3)
	VHADDPS X1, X0, X0
	VHADDPS X3, X2, X2
	VHADDPS X2, X0, X0 // the four dots
	VMOVUPS X0, (R_DST)
	ADDQ    $16, R_DST
	LEAQ    (R_K)(R_LDK*4), R_K
	SUBQ    $4, R_N
	JMP     dotrows_keys4

dotrows_keys1:
	TESTQ  R_N, R_N
	JZ     dotrows_done
	VPXORD Z0, Z0, Z0
	MOVQ   R_Q, R_QP
	MOVQ   R_K, R_KP
	MOVQ   R_HD, R_D

dotrows_d1:
	VMOVUPS     (R_QP), Z16
	VFMADD231PS (R_KP), Z16, Z0
	ADDQ        $64, R_QP
	ADDQ        $64, R_KP
	DECQ        R_D
	JNZ         dotrows_d1

	HSUM4(Z0, Y0, X0)
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS  X0, (R_DST)
	ADDQ    $4, R_DST
	ADDQ    R_LDK, R_K
	DECQ    R_N
	JMP     dotrows_keys1

dotrows_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ExactSoftmaxAVX512(st *float32, rs int, lim *int32, scale float32, n int)
//
// Per group of 16 lanes (rows), three passes over the n keys: scaled
// scores with the keys from lim[r] on set to −Inf, their max (VMAXPS with
// the new score first: a NaN or an equal score keeps the max, as the
// twin's strict >) and whether any is not −Inf; e = Exp(s − max)
// and the sum in key order; e / sum, or 0 past lim[r] and in rows without
// a key.
#define X_ST DI   // st of the lane group
#define X_RS4 R8  // rs·4
#define X_LIM SI
#define X_N R9
#define X_G R10   // lane group byte offset
#define X_P R11   // walks st down the keys
#define X_J R12   // keys left
#define X_SCALE Z24
#define X_NEGINF Z25
#define X_SUM Z26
#define X_ONEI Z27 // int32 1
#define X_JV Z28   // int32 j
#define X_MAX Z29
#define X_LIMV Z30 // int32 lim[r]
// K5: rows with a key that is not −Inf (live).

TEXT ·ExactSoftmaxAVX512(SB), NOSPLIT, $0-40
	MOVQ         st+0(FP), X_ST
	MOVQ         rs+8(FP), X_RS4
	SHLQ         $2, X_RS4
	MOVQ         lim+16(FP), X_LIM
	VBROADCASTSS scale+24(FP), X_SCALE
	MOVQ         n+32(FP), X_N
	TESTQ        X_N, X_N
	JZ           softmax_done
	VPBROADCASTD POSINF, E_INF
	VPXORD       E_ZERO, E_ZERO, E_ZERO
	VSUBPS       E_INF, E_ZERO, X_NEGINF
	MOVL         $1, AX
	VPBROADCASTD AX, X_ONEI
	XORQ         X_G, X_G

softmax_group:
	VMOVDQU32 (X_LIM)(X_G*1), X_LIMV
	VPXORD    X_JV, X_JV, X_JV
	VMOVAPS   X_NEGINF, X_MAX
	KXORW     K5, K5, K5
	LEAQ      (X_ST)(X_G*1), X_P
	MOVQ      X_N, X_J

softmax_scores:
	VMOVUPS   (X_P), Z0
	VMULPS    X_SCALE, Z0, Z0           // s·scale
	VPCMPGTD  X_JV, X_LIMV, K1          // j < lim[r]
	VBLENDMPS Z0, X_NEGINF, K1, Z0      // else −Inf
	VMOVUPS   Z0, (X_P)
	VMAXPS    X_MAX, Z0, X_MAX          // s > max ? s : max
	VCMPPS    $4, X_NEGINF, Z0, K6      // s != −Inf (NaN too)
	KORW      K6, K5, K5
	VPADDD    X_ONEI, X_JV, X_JV
	ADDQ      X_RS4, X_P
	DECQ      X_J
	JNZ       softmax_scores

	VBLENDMPS X_MAX, E_ZERO, K5, X_MAX  // rows without a key: 0, to stay finite
	VPXORD    X_SUM, X_SUM, X_SUM
	LEAQ      (X_ST)(X_G*1), X_P
	MOVQ      X_N, X_J

	PCALIGN $32

softmax_exp:
	VMOVUPS (X_P), Z0
	VSUBPS  X_MAX, Z0, Z0               // s − max
	EXP16
	VMOVUPS Z2, (X_P)
	VADDPS  Z2, X_SUM, X_SUM            // sum += e, in key order
	ADDQ    X_RS4, X_P
	DECQ    X_J
	JNZ     softmax_exp

	VPXORD X_JV, X_JV, X_JV
	LEAQ   (X_ST)(X_G*1), X_P
	MOVQ   X_N, X_J

softmax_div:
	VMOVUPS   (X_P), Z0
	VDIVPS    X_SUM, Z0, Z0             // e / sum
	VPCMPGTD  X_JV, X_LIMV, K1
	KANDW     K5, K1, K1
	VBLENDMPS Z0, E_ZERO, K1, Z0        // 0 past lim[r] and in rows without a key
	VMOVUPS   Z0, (X_P)
	VPADDD    X_ONEI, X_JV, X_JV
	ADDQ      X_RS4, X_P
	DECQ      X_J
	JNZ       softmax_div

	ADDQ $64, X_G
	CMPQ X_G, X_RS4
	JB   softmax_group

softmax_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ExactScoresRowAVX512(s, q *float32, k *float32, ldk, hd, n int)
//
// One query, lanes = keys: sixteen key rows at a time, d in blocks of 16.
// A block is loaded as sixteen zmm (one per key), transposed in registers
// (VUNPCKLPS/HPS, VUNPCKLPD/HPD, then two rounds of VSHUFF32X4), so that
// zmm c holds k[j..j+15, d+c]; then acc += q[d+c]·that for c = 0..15 in
// order, separately rounded: each lane is the twin's sequential sum.
#define Q_S DI
#define Q_Q SI
#define Q_K R8   // key row j
#define Q_LDK R9 // ldk·4
#define Q_HD R10 // hd/16
#define Q_N R11  // keys left (a multiple of 16)
#define Q_KP R12 // k[j, d]
#define Q_QP R13 // q[d]
#define Q_D R14
#define Q_L3 R15 // 3·ldk·4
#define Q_ROW AX // row pointer while loading
#define Q_ACC Z31

// TSTEP applies column c of the transposed block (register T) to the
// accumulator: acc += q[d+c]·T.
#define TSTEP(c, T) \
	VMULPS.BCST (c*4)(Q_QP), T, T \
	VADDPS      T, Q_ACC, Q_ACC

// HALVES takes the 64-bit interleaves U0 (rows 0-3), U1 (rows 4-7), U2
// (rows 8-11) and U3 (rows 12-15) of one column position m and sets V, V2
// to their 128-bit lanes 0 and 1 (rows 0-7, rows 8-15) and W, W2 to lanes
// 2 and 3; a VSHUFF32X4 of V and V2 (or W and W2) then gives a column.
#define HALVES(U0, U1, U2, U3, V, V2, W, W2) \
	VSHUFF32X4 $0x44, U1, U0, V  \ // lanes 0,1 of rows 0-3 and 4-7
	VSHUFF32X4 $0x44, U3, U2, V2 \ // lanes 0,1 of rows 8-11 and 12-15
	VSHUFF32X4 $0xee, U1, U0, W  \ // lanes 2,3
	VSHUFF32X4 $0xee, U3, U2, W2

TEXT ·ExactScoresRowAVX512(SB), NOSPLIT, $0-48
	MOVQ s+0(FP), Q_S
	MOVQ q+8(FP), Q_Q
	MOVQ k+16(FP), Q_K
	MOVQ ldk+24(FP), Q_LDK
	SHLQ $2, Q_LDK
	MOVQ hd+32(FP), Q_HD
	SHRQ $4, Q_HD
	MOVQ n+40(FP), Q_N
	LEAQ (Q_LDK)(Q_LDK*2), Q_L3

scorerow_keys:
	TESTQ  Q_N, Q_N
	JZ     scorerow_done
	VPXORD Q_ACC, Q_ACC, Q_ACC
	MOVQ   Q_K, Q_KP
	MOVQ   Q_Q, Q_QP
	MOVQ   Q_HD, Q_D

scorerow_block:
	// Sixteen key rows, d .. d+15.
	MOVQ    Q_KP, Q_ROW
	VMOVUPS (Q_ROW), Z0
	VMOVUPS (Q_ROW)(Q_LDK*1), Z1
	VMOVUPS (Q_ROW)(Q_LDK*2), Z2
	VMOVUPS (Q_ROW)(Q_L3*1), Z3
	LEAQ    (Q_ROW)(Q_LDK*4), Q_ROW
	VMOVUPS (Q_ROW), Z4
	VMOVUPS (Q_ROW)(Q_LDK*1), Z5
	VMOVUPS (Q_ROW)(Q_LDK*2), Z6
	VMOVUPS (Q_ROW)(Q_L3*1), Z7
	LEAQ    (Q_ROW)(Q_LDK*4), Q_ROW
	VMOVUPS (Q_ROW), Z8
	VMOVUPS (Q_ROW)(Q_LDK*1), Z9
	VMOVUPS (Q_ROW)(Q_LDK*2), Z10
	VMOVUPS (Q_ROW)(Q_L3*1), Z11
	LEAQ    (Q_ROW)(Q_LDK*4), Q_ROW
	VMOVUPS (Q_ROW), Z12
	VMOVUPS (Q_ROW)(Q_LDK*1), Z13
	VMOVUPS (Q_ROW)(Q_LDK*2), Z14
	VMOVUPS (Q_ROW)(Q_L3*1), Z15

	// 32-bit interleaves of row pairs: Z16+2i = lo(r2i, r2i+1), Z17+2i = hi.
	VUNPCKLPS Z1, Z0, Z16
	VUNPCKHPS Z1, Z0, Z17
	VUNPCKLPS Z3, Z2, Z18
	VUNPCKHPS Z3, Z2, Z19
	VUNPCKLPS Z5, Z4, Z20
	VUNPCKHPS Z5, Z4, Z21
	VUNPCKLPS Z7, Z6, Z22
	VUNPCKHPS Z7, Z6, Z23
	VUNPCKLPS Z9, Z8, Z24
	VUNPCKHPS Z9, Z8, Z25
	VUNPCKLPS Z11, Z10, Z26
	VUNPCKHPS Z11, Z10, Z27
	VUNPCKLPS Z13, Z12, Z28
	VUNPCKHPS Z13, Z12, Z29
	VUNPCKLPS Z15, Z14, Z30
	VUNPCKHPS Z15, Z14, Z0

	// 64-bit interleaves: for rows 4g..4g+3, column position m (of each
	// 128-bit lane) in Z(1+4g+m)... laid out as U[g][m]:
	//   rows 0-3:  m0 Z1, m1 Z2, m2 Z3, m3 Z4
	//   rows 4-7:  m0 Z5, m1 Z6, m2 Z7, m3 Z8
	//   rows 8-11: m0 Z9, m1 Z10, m2 Z11, m3 Z12
	//   rows 12-15: m0 Z13, m1 Z14, m2 Z15, m3 Z16
	VUNPCKLPD Z18, Z16, Z1
	VUNPCKHPD Z18, Z16, Z2
	VUNPCKLPD Z19, Z17, Z3
	VUNPCKHPD Z19, Z17, Z4
	VUNPCKLPD Z22, Z20, Z5
	VUNPCKHPD Z22, Z20, Z6
	VUNPCKLPD Z23, Z21, Z7
	VUNPCKHPD Z23, Z21, Z8
	VUNPCKLPD Z26, Z24, Z9
	VUNPCKHPD Z26, Z24, Z10
	VUNPCKLPD Z27, Z25, Z11
	VUNPCKHPD Z27, Z25, Z12
	VUNPCKLPD Z30, Z28, Z13
	VUNPCKHPD Z30, Z28, Z14
	VUNPCKLPD Z0, Z29, Z15
	VUNPCKHPD Z0, Z29, Z16

	// For each m: halves V (lanes 0,1) and W (lanes 2,3) of rows 0-7 and
	// 8-15, then column c = 4ℓ + m is lane ℓ of each: ℓ = 0, 1 from V
	// (VSHUFF32X4 $0x88, $0xdd), ℓ = 2, 3 from W.
	HALVES(Z1, Z5, Z9, Z13, Z17, Z18, Z19, Z20)   // m = 0
	HALVES(Z2, Z6, Z10, Z14, Z21, Z22, Z23, Z24)  // m = 1
	HALVES(Z3, Z7, Z11, Z15, Z25, Z26, Z27, Z28)  // m = 2
	HALVES(Z4, Z8, Z12, Z16, Z29, Z30, Z0, Z1)    // m = 3

	// Columns 0-3 (ℓ = 0): lane 0 of the V halves.
	VSHUFF32X4 $0x88, Z18, Z17, Z2
	TSTEP(0, Z2)
	VSHUFF32X4 $0x88, Z22, Z21, Z2
	TSTEP(1, Z2)
	VSHUFF32X4 $0x88, Z26, Z25, Z2
	TSTEP(2, Z2)
	VSHUFF32X4 $0x88, Z30, Z29, Z2
	TSTEP(3, Z2)
	// Columns 4-7 (ℓ = 1).
	VSHUFF32X4 $0xdd, Z18, Z17, Z2
	TSTEP(4, Z2)
	VSHUFF32X4 $0xdd, Z22, Z21, Z2
	TSTEP(5, Z2)
	VSHUFF32X4 $0xdd, Z26, Z25, Z2
	TSTEP(6, Z2)
	VSHUFF32X4 $0xdd, Z30, Z29, Z2
	TSTEP(7, Z2)
	// Columns 8-11 (ℓ = 2): the W halves.
	VSHUFF32X4 $0x88, Z20, Z19, Z2
	TSTEP(8, Z2)
	VSHUFF32X4 $0x88, Z24, Z23, Z2
	TSTEP(9, Z2)
	VSHUFF32X4 $0x88, Z28, Z27, Z2
	TSTEP(10, Z2)
	VSHUFF32X4 $0x88, Z1, Z0, Z2
	TSTEP(11, Z2)
	// Columns 12-15 (ℓ = 3).
	VSHUFF32X4 $0xdd, Z20, Z19, Z2
	TSTEP(12, Z2)
	VSHUFF32X4 $0xdd, Z24, Z23, Z2
	TSTEP(13, Z2)
	VSHUFF32X4 $0xdd, Z28, Z27, Z2
	TSTEP(14, Z2)
	VSHUFF32X4 $0xdd, Z1, Z0, Z2
	TSTEP(15, Z2)

	ADDQ $64, Q_KP
	ADDQ $64, Q_QP
	DECQ Q_D
	JNZ  scorerow_block

	VMOVUPS Q_ACC, (Q_S)
	ADDQ    $64, Q_S
	SHLQ    $4, Q_LDK
	ADDQ    Q_LDK, Q_K  // sixteen rows on
	SHRQ    $4, Q_LDK
	SUBQ    $16, Q_N
	JMP     scorerow_keys

scorerow_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// The binary16 forms: the same routines with K or V widened in registers
// (VCVTPH2PS from memory) instead of loaded as float32. Widening is exact,
// so each computes what its float32 form computes on the widened values
// (a NaN input is quieted first, which only changes which NaN a NaN result
// is). Twins: the generic F16 kernels.

// func ExactWeightedF16AVX512(o *float32, rows, hd int, pt *float32, rs int, v *uint16, ldv, n int)
TEXT ·ExactWeightedF16AVX512(SB), NOSPLIT, $0-72
	MOVQ   o+0(FP), O_O
	MOVQ   rows+8(FP), O_ROWS
	MOVQ   hd+16(FP), O_HD4
	SHLQ   $2, O_HD4
	MOVQ   pt+24(FP), O_PT
	MOVQ   rs+32(FP), O_RS4
	SHLQ   $2, O_RS4
	MOVQ   v+40(FP), O_V
	MOVQ   ldv+48(FP), O_LDV
	SHLQ   $1, O_LDV // binary16: 2 bytes a value
	MOVQ   n+56(FP), O_N
	VPXORD O_ZERO, O_ZERO, O_ZERO
	XORQ   O_C, O_C

weightedf16_chunk:
	MOVQ O_HD4, AX
	SUBQ O_C, AX
	JZ   weightedf16_done
	CMPQ AX, $256
	JB   weightedf16_c16
	XORQ O_R, O_R

weightedf16_c64_rows4:
	MOVQ    O_ROWS, AX
	SUBQ    O_R, AX
	CMPQ    AX, $4
	JB      weightedf16_c64_rows1
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	VMOVUPS 64(O_OP), Z1
	VMOVUPS 128(O_OP), Z2
	VMOVUPS 192(O_OP), Z3
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z4
	VMOVUPS 64(O_OP), Z5
	VMOVUPS 128(O_OP), Z6
	VMOVUPS 192(O_OP), Z7
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z8
	VMOVUPS 64(O_OP), Z9
	VMOVUPS 128(O_OP), Z10
	VMOVUPS 192(O_OP), Z11
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z12
	VMOVUPS 64(O_OP), Z13
	VMOVUPS 128(O_OP), Z14
	VMOVUPS 192(O_OP), Z15
	LEAQ    (O_PT)(O_R*4), O_PP
	MOVQ    O_C, O_VP
	SHRQ    $1, O_VP // the column's byte offset in v
	ADDQ    O_V, O_VP
	MOVQ    O_N, O_J

	PCALIGN $32

weightedf16_c64_r4_keys:
	VCVTPH2PS (O_VP), Z16
	VCVTPH2PS 32(O_VP), Z17
	VCVTPH2PS 64(O_VP), Z18
	VCVTPH2PS 96(O_VP), Z19
	WROW4(0, Z20, K1, Z0, Z1, Z2, Z3)
	WROW4(4, Z21, K2, Z4, Z5, Z6, Z7)
	WROW4(8, Z22, K3, Z8, Z9, Z10, Z11)
	WROW4(12, Z23, K4, Z12, Z13, Z14, Z15)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weightedf16_c64_r4_keys

	VMOVUPS Z15, 192(O_OP)
	VMOVUPS Z14, 128(O_OP)
	VMOVUPS Z13, 64(O_OP)
	VMOVUPS Z12, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z11, 192(O_OP)
	VMOVUPS Z10, 128(O_OP)
	VMOVUPS Z9, 64(O_OP)
	VMOVUPS Z8, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z7, 192(O_OP)
	VMOVUPS Z6, 128(O_OP)
	VMOVUPS Z5, 64(O_OP)
	VMOVUPS Z4, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z3, 192(O_OP)
	VMOVUPS Z2, 128(O_OP)
	VMOVUPS Z1, 64(O_OP)
	VMOVUPS Z0, (O_OP)
	ADDQ    $4, O_R
	JMP     weightedf16_c64_rows4

weightedf16_c64_rows1:
	CMPQ    O_R, O_ROWS
	JAE     weightedf16_c64_next
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	VMOVUPS 64(O_OP), Z1
	VMOVUPS 128(O_OP), Z2
	VMOVUPS 192(O_OP), Z3
	LEAQ    (O_PT)(O_R*4), O_PP
	MOVQ    O_C, O_VP
	SHRQ    $1, O_VP // the column's byte offset in v
	ADDQ    O_V, O_VP
	MOVQ    O_N, O_J
	CMPQ    pf+64(FP), $0 // not 0: prefetch V 8 KiB ahead
	JNE     weightedf16_c64_r1_keyspf

weightedf16_c64_r1_keys:
	VCVTPH2PS (O_VP), Z16
	VCVTPH2PS 32(O_VP), Z17
	VCVTPH2PS 64(O_VP), Z18
	VCVTPH2PS 96(O_VP), Z19
	WROW4(0, Z20, K1, Z0, Z1, Z2, Z3)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weightedf16_c64_r1_keys
	JMP     weightedf16_c64_r1_store

weightedf16_c64_r1_keyspf:
	PREFETCHT0 8192(O_VP)
	PREFETCHT0 8256(O_VP)
	VCVTPH2PS (O_VP), Z16
	VCVTPH2PS 32(O_VP), Z17
	VCVTPH2PS 64(O_VP), Z18
	VCVTPH2PS 96(O_VP), Z19
	WROW4(0, Z20, K1, Z0, Z1, Z2, Z3)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weightedf16_c64_r1_keyspf

weightedf16_c64_r1_store:
	VMOVUPS Z0, (O_OP)
	VMOVUPS Z1, 64(O_OP)
	VMOVUPS Z2, 128(O_OP)
	VMOVUPS Z3, 192(O_OP)
	INCQ    O_R
	JMP     weightedf16_c64_rows1

weightedf16_c64_next:
	ADDQ $256, O_C
	JMP  weightedf16_chunk

weightedf16_c16:
	XORQ O_R, O_R

weightedf16_c16_rows4:
	MOVQ    O_ROWS, AX
	SUBQ    O_R, AX
	CMPQ    AX, $4
	JB      weightedf16_c16_rows1
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z4
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z8
	ADDQ    O_HD4, O_OP
	VMOVUPS (O_OP), Z12
	LEAQ    (O_PT)(O_R*4), O_PP
	MOVQ    O_C, O_VP
	SHRQ    $1, O_VP // the column's byte offset in v
	ADDQ    O_V, O_VP
	MOVQ    O_N, O_J

weightedf16_c16_r4_keys:
	VCVTPH2PS (O_VP), Z16
	WROW1(0, Z20, K1, Z0)
	WROW1(4, Z21, K2, Z4)
	WROW1(8, Z22, K3, Z8)
	WROW1(12, Z23, K4, Z12)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weightedf16_c16_r4_keys

	VMOVUPS Z12, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z8, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z4, (O_OP)
	SUBQ    O_HD4, O_OP
	VMOVUPS Z0, (O_OP)
	ADDQ    $4, O_R
	JMP     weightedf16_c16_rows4

weightedf16_c16_rows1:
	CMPQ    O_R, O_ROWS
	JAE     weightedf16_c16_next
	MOVQ    O_R, O_OP
	IMULQ   O_HD4, O_OP
	ADDQ    O_O, O_OP
	ADDQ    O_C, O_OP
	VMOVUPS (O_OP), Z0
	LEAQ    (O_PT)(O_R*4), O_PP
	MOVQ    O_C, O_VP
	SHRQ    $1, O_VP // the column's byte offset in v
	ADDQ    O_V, O_VP
	MOVQ    O_N, O_J

weightedf16_c16_r1_keys:
	VCVTPH2PS (O_VP), Z16
	WROW1(0, Z20, K1, Z0)
	ADDQ    O_RS4, O_PP
	ADDQ    O_LDV, O_VP
	DECQ    O_J
	JNZ     weightedf16_c16_r1_keys

	VMOVUPS Z0, (O_OP)
	INCQ    O_R
	JMP     weightedf16_c16_rows1

weightedf16_c16_next:
	ADDQ $64, O_C
	JMP  weightedf16_chunk

weightedf16_done:
	VZEROUPPER
	RET


// func DotRowsF16AVX512(dst, q *float32, hd int, k *uint16, ldk, n int)
TEXT ·DotRowsF16AVX512(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), R_DST
	MOVQ q+8(FP), R_Q
	MOVQ hd+16(FP), R_HD
	SHRQ $4, R_HD
	MOVQ k+24(FP), R_K
	MOVQ ldk+32(FP), R_LDK
	SHLQ $1, R_LDK // binary16: 2 bytes a value
	MOVQ n+40(FP), R_N
	MOVQ pf+48(FP), R_PF
	LEAQ (R_LDK)(R_LDK*2), R_L3

dotrowsf16_keys16:
	CMPQ R_N, $16
	JB   dotrowsf16_keys4
	DOT16_START
	CMPQ R_PF, $0
	JNE  dotrowsf16_d16pf

	PCALIGN $32

dotrowsf16_d16:
	DOT16_F16
	DOT16_NEXT(32)
	DECQ R_D
	JNZ  dotrowsf16_d16
	JMP  dotrowsf16_sum16

	PCALIGN $32

dotrowsf16_d16pf:
	DOT16_PF
	DOT16_F16
	DOT16_NEXT(32)
	DECQ R_D
	JNZ  dotrowsf16_d16pf

dotrowsf16_sum16:
	DOT16_STORE
	JMP dotrowsf16_keys16

dotrowsf16_keys4:
	CMPQ   R_N, $4
	JB     dotrowsf16_keys1
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	MOVQ   R_Q, R_QP
	MOVQ   R_K, R_KP
	MOVQ   R_HD, R_D
	CMPQ   R_PF, $0
	JNE    dotrowsf16_d4pf

	PCALIGN $32

dotrowsf16_d4:
	VMOVUPS     (R_QP), Z16
	VCVTPH2PS   (R_KP), Z20
	VCVTPH2PS   (R_KP)(R_LDK*1), Z21
	VCVTPH2PS   (R_KP)(R_LDK*2), Z22
	VCVTPH2PS   (R_KP)(R_L3*1), Z23
	VFMADD231PS Z20, Z16, Z0
	VFMADD231PS Z21, Z16, Z1
	VFMADD231PS Z22, Z16, Z2
	VFMADD231PS Z23, Z16, Z3
	ADDQ        $64, R_QP
	ADDQ        $32, R_KP
	DECQ        R_D
	JNZ         dotrowsf16_d4
	JMP         dotrowsf16_sum4

	PCALIGN $32

dotrowsf16_d4pf:
	PREFETCHT0  8192(R_KP)
	PREFETCHT0  8192(R_KP)(R_LDK*1)
	PREFETCHT0  8192(R_KP)(R_LDK*2)
	PREFETCHT0  8192(R_KP)(R_L3*1)
	VMOVUPS     (R_QP), Z16
	VCVTPH2PS   (R_KP), Z20
	VCVTPH2PS   (R_KP)(R_LDK*1), Z21
	VCVTPH2PS   (R_KP)(R_LDK*2), Z22
	VCVTPH2PS   (R_KP)(R_L3*1), Z23
	VFMADD231PS Z20, Z16, Z0
	VFMADD231PS Z21, Z16, Z1
	VFMADD231PS Z22, Z16, Z2
	VFMADD231PS Z23, Z16, Z3
	ADDQ        $64, R_QP
	ADDQ        $32, R_KP
	DECQ        R_D
	JNZ         dotrowsf16_d4pf

dotrowsf16_sum4:
	HSUM4(Z0, Y0, X0)
	HSUM4(Z1, Y1, X1)
	HSUM4(Z2, Y2, X2)
	HSUM4(Z3, Y3, X3)
	VHADDPS X1, X0, X0
	VHADDPS X3, X2, X2
	VHADDPS X2, X0, X0 // the four dots
	VMOVUPS X0, (R_DST)
	ADDQ    $16, R_DST
	LEAQ    (R_K)(R_LDK*4), R_K
	SUBQ    $4, R_N
	JMP     dotrowsf16_keys4

dotrowsf16_keys1:
	TESTQ  R_N, R_N
	JZ     dotrowsf16_done
	VPXORD Z0, Z0, Z0
	MOVQ   R_Q, R_QP
	MOVQ   R_K, R_KP
	MOVQ   R_HD, R_D

dotrowsf16_d1:
	VMOVUPS     (R_QP), Z16
	VCVTPH2PS   (R_KP), Z20
	VFMADD231PS Z20, Z16, Z0
	ADDQ        $64, R_QP
	ADDQ        $32, R_KP
	DECQ        R_D
	JNZ         dotrowsf16_d1

	HSUM4(Z0, Y0, X0)
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS  X0, (R_DST)
	ADDQ    $4, R_DST
	ADDQ    R_LDK, R_K
	DECQ    R_N
	JMP     dotrowsf16_keys1

dotrowsf16_done:
	VZEROUPPER
	RET


// func ExactScoresRowF16AVX512(s, q *float32, k *uint16, ldk, hd, n int)
//
// ExactScoresRowAVX512 with k binary16, but the block is transposed before
// it is widened: 16-bit words take half the shuffles of float32 lanes.
// Register i (i = 0..7) holds key rows i and i+8, d .. d+15, with 128-bit
// lanes (row i, d..d+7), (row i+8, d..d+7), (row i, d+8..), (row i+8, d+8..)
// (one VPERMT2Q); three rounds of in-lane unpacks (words, dwords, qwords)
// transpose each lane's 8×8 words, so that register c holds column d+c of
// keys 0..15 in its low half and column d+8+c in its high half; each half
// is widened (VCVTPH2PS, exact) and applied in column order as
// ExactScoresRowAVX512 does. Two groups of sixteen keys run interleaved, a
// block at a time, so that neither accumulator's chain of additions waits on
// the other's: every lane is still the twin's sequential sum.

#define F_ROW BX  // rows i of the block
#define F_ROW8 CX // rows i+8
#define F_IDX Z29 // the VPERMT2Q index

// FTSTEP applies column c (register T, float32) to the accumulator ACC.
#define FTSTEP(c, T, ACC) \
	VMULPS.BCST (c*4)(Q_QP), T, T \
	VADDPS      T, ACC, ACC

// FBLOCK runs one 16×16 block: sixteen key rows from KP, d .. d+15 with q at
// Q_QP, into ACC. It uses Z0-Z23.
#define FBLOCK(KP, ACC) \
	MOVQ        KP, F_ROW                    \
	LEAQ        (KP)(Q_LDK*8), F_ROW8        \
	VMOVDQU     (F_ROW), Y0                  \
	VMOVDQU     (F_ROW8), Y8                 \
	VMOVDQU     (F_ROW)(Q_LDK*1), Y1         \
	VMOVDQU     (F_ROW8)(Q_LDK*1), Y9        \
	VMOVDQU     (F_ROW)(Q_LDK*2), Y2         \
	VMOVDQU     (F_ROW8)(Q_LDK*2), Y10       \
	VMOVDQU     (F_ROW)(Q_L3*1), Y3          \
	VMOVDQU     (F_ROW8)(Q_L3*1), Y11        \
	LEAQ        (F_ROW)(Q_LDK*4), F_ROW      \
	LEAQ        (F_ROW8)(Q_LDK*4), F_ROW8    \
	VMOVDQU     (F_ROW), Y4                  \
	VMOVDQU     (F_ROW8), Y12                \
	VMOVDQU     (F_ROW)(Q_LDK*1), Y5         \
	VMOVDQU     (F_ROW8)(Q_LDK*1), Y13       \
	VMOVDQU     (F_ROW)(Q_LDK*2), Y6         \
	VMOVDQU     (F_ROW8)(Q_LDK*2), Y14       \
	VMOVDQU     (F_ROW)(Q_L3*1), Y7          \
	VMOVDQU     (F_ROW8)(Q_L3*1), Y15        \
	VPERMT2Q    Z8, F_IDX, Z0                \
	VPERMT2Q    Z9, F_IDX, Z1                \
	VPERMT2Q    Z10, F_IDX, Z2               \
	VPERMT2Q    Z11, F_IDX, Z3               \
	VPERMT2Q    Z12, F_IDX, Z4               \
	VPERMT2Q    Z13, F_IDX, Z5               \
	VPERMT2Q    Z14, F_IDX, Z6               \
	VPERMT2Q    Z15, F_IDX, Z7               \
	VPUNPCKLWD  Z1, Z0, Z16                  \ // rows 0,1 columns 0-3
	VPUNPCKHWD  Z1, Z0, Z17                  \ // rows 0,1 columns 4-7
	VPUNPCKLWD  Z3, Z2, Z18                  \
	VPUNPCKHWD  Z3, Z2, Z19                  \
	VPUNPCKLWD  Z5, Z4, Z20                  \
	VPUNPCKHWD  Z5, Z4, Z21                  \
	VPUNPCKLWD  Z7, Z6, Z22                  \
	VPUNPCKHWD  Z7, Z6, Z23                  \
	VPUNPCKLDQ  Z18, Z16, Z0                 \ // rows 0-3 columns 0,1
	VPUNPCKHDQ  Z18, Z16, Z1                 \ // columns 2,3
	VPUNPCKLDQ  Z19, Z17, Z2                 \ // columns 4,5
	VPUNPCKHDQ  Z19, Z17, Z3                 \ // columns 6,7
	VPUNPCKLDQ  Z22, Z20, Z4                 \ // rows 4-7
	VPUNPCKHDQ  Z22, Z20, Z5                 \
	VPUNPCKLDQ  Z23, Z21, Z6                 \
	VPUNPCKHDQ  Z23, Z21, Z7                 \
	VPUNPCKLQDQ Z4, Z0, Z16                  \ // column 0 (and 8)
	VPUNPCKHQDQ Z4, Z0, Z17                  \ // column 1 (and 9)
	VPUNPCKLQDQ Z5, Z1, Z18                  \
	VPUNPCKHQDQ Z5, Z1, Z19                  \
	VPUNPCKLQDQ Z6, Z2, Z20                  \
	VPUNPCKHQDQ Z6, Z2, Z21                  \
	VPUNPCKLQDQ Z7, Z3, Z22                  \
	VPUNPCKHQDQ Z7, Z3, Z23                  \
	VCVTPH2PS   Y16, Z0                      \
	VCVTPH2PS   Y17, Z1                      \
	VCVTPH2PS   Y18, Z2                      \
	VCVTPH2PS   Y19, Z3                      \
	VCVTPH2PS   Y20, Z4                      \
	VCVTPH2PS   Y21, Z5                      \
	VCVTPH2PS   Y22, Z6                      \
	VCVTPH2PS   Y23, Z7                      \
	FTSTEP(0, Z0, ACC)                       \
	FTSTEP(1, Z1, ACC)                       \
	FTSTEP(2, Z2, ACC)                       \
	FTSTEP(3, Z3, ACC)                       \
	FTSTEP(4, Z4, ACC)                       \
	FTSTEP(5, Z5, ACC)                       \
	FTSTEP(6, Z6, ACC)                       \
	FTSTEP(7, Z7, ACC)                       \
	VEXTRACTI64X4 $1, Z16, Y8                \
	VEXTRACTI64X4 $1, Z17, Y9                \
	VEXTRACTI64X4 $1, Z18, Y10               \
	VEXTRACTI64X4 $1, Z19, Y11               \
	VEXTRACTI64X4 $1, Z20, Y12               \
	VEXTRACTI64X4 $1, Z21, Y13               \
	VEXTRACTI64X4 $1, Z22, Y14               \
	VEXTRACTI64X4 $1, Z23, Y15               \
	VCVTPH2PS   Y8, Z8                       \
	VCVTPH2PS   Y9, Z9                       \
	VCVTPH2PS   Y10, Z10                     \
	VCVTPH2PS   Y11, Z11                     \
	VCVTPH2PS   Y12, Z12                     \
	VCVTPH2PS   Y13, Z13                     \
	VCVTPH2PS   Y14, Z14                     \
	VCVTPH2PS   Y15, Z15                     \
	FTSTEP(8, Z8, ACC)                       \
	FTSTEP(9, Z9, ACC)                       \
	FTSTEP(10, Z10, ACC)                     \
	FTSTEP(11, Z11, ACC)                     \
	FTSTEP(12, Z12, ACC)                     \
	FTSTEP(13, Z13, ACC)                     \
	FTSTEP(14, Z14, ACC)                     \
	FTSTEP(15, Z15, ACC)

// VPERMT2Q index: qwords 0,1 of row i, 0,1 of row i+8, 2,3 of row i, 2,3
// of row i+8.
DATA ·f16RowPairIdx<>+0(SB)/8, $0
DATA ·f16RowPairIdx<>+8(SB)/8, $1
DATA ·f16RowPairIdx<>+16(SB)/8, $8
DATA ·f16RowPairIdx<>+24(SB)/8, $9
DATA ·f16RowPairIdx<>+32(SB)/8, $2
DATA ·f16RowPairIdx<>+40(SB)/8, $3
DATA ·f16RowPairIdx<>+48(SB)/8, $10
DATA ·f16RowPairIdx<>+56(SB)/8, $11
GLOBL ·f16RowPairIdx<>(SB), RODATA|NOPTR, $64

#define F_K2 DX  // the second group's rows (sixteen rows on)
#define F_ACC2 Z30

TEXT ·ExactScoresRowF16AVX512(SB), NOSPLIT, $0-48
	MOVQ    s+0(FP), Q_S
	MOVQ    q+8(FP), Q_Q
	MOVQ    k+16(FP), Q_K
	MOVQ    ldk+24(FP), Q_LDK
	SHLQ    $1, Q_LDK // binary16: 2 bytes a value
	MOVQ    hd+32(FP), Q_HD
	SHRQ    $4, Q_HD
	MOVQ    n+40(FP), Q_N
	LEAQ    (Q_LDK)(Q_LDK*2), Q_L3
	VMOVDQU64 ·f16RowPairIdx<>(SB), F_IDX

scorerowf16_pairs:
	CMPQ   Q_N, $32
	JB     scorerowf16_keys
	VPXORD Q_ACC, Q_ACC, Q_ACC
	VPXORD F_ACC2, F_ACC2, F_ACC2
	MOVQ   Q_K, Q_KP
	MOVQ   Q_LDK, F_K2
	SHLQ   $4, F_K2
	ADDQ   Q_K, F_K2
	MOVQ   Q_Q, Q_QP
	MOVQ   Q_HD, Q_D

scorerowf16_pairblock:
	FBLOCK(Q_KP, Q_ACC)
	FBLOCK(F_K2, F_ACC2)
	ADDQ $32, Q_KP
	ADDQ $32, F_K2
	ADDQ $64, Q_QP
	DECQ Q_D
	JNZ  scorerowf16_pairblock

	VMOVUPS Q_ACC, (Q_S)
	VMOVUPS F_ACC2, 64(Q_S)
	ADDQ    $128, Q_S
	SHLQ    $5, Q_LDK
	ADDQ    Q_LDK, Q_K  // 32 rows on
	SHRQ    $5, Q_LDK
	SUBQ    $32, Q_N
	JMP     scorerowf16_pairs

scorerowf16_keys:
	TESTQ  Q_N, Q_N
	JZ     scorerowf16_done
	VPXORD Q_ACC, Q_ACC, Q_ACC
	MOVQ   Q_K, Q_KP
	MOVQ   Q_Q, Q_QP
	MOVQ   Q_HD, Q_D

scorerowf16_block:
	FBLOCK(Q_KP, Q_ACC)
	ADDQ $32, Q_KP
	ADDQ $64, Q_QP
	DECQ Q_D
	JNZ  scorerowf16_block

	VMOVUPS Q_ACC, (Q_S) // the last sixteen keys (n is a multiple of 16)

scorerowf16_done:
	VZEROUPPER
	RET

// FWROW_PAIR adds the next two keys (weights at (AX) and (AX)(R9*1), V rows
// at (DX) and (DX)(R11*1)) to the two accumulator sets Z0-Z3 and Z4-Z7, a
// key with a 0 weight masked off (VCMPPS: w != 0, or NaN), and moves AX, DX
// and CX on; FWROW_PAIR16 is the same for binary16 V. The _PF forms
// prefetch both V rows 8 KiB ahead.
#define FWROW_PAIR \
	VBROADCASTSS (AX), Z20 \
	VBROADCASTSS (AX)(R9*1), Z21 \
	VCMPPS       $4, Z31, Z20, K1 \
	VCMPPS       $4, Z31, Z21, K2 \
	VFMADD231PS  0(DX), Z20, K1, Z0 \
	VFMADD231PS  64(DX), Z20, K1, Z1 \
	VFMADD231PS  128(DX), Z20, K1, Z2 \
	VFMADD231PS  192(DX), Z20, K1, Z3 \
	VFMADD231PS  0(DX)(R11*1), Z21, K2, Z4 \
	VFMADD231PS  64(DX)(R11*1), Z21, K2, Z5 \
	VFMADD231PS  128(DX)(R11*1), Z21, K2, Z6 \
	VFMADD231PS  192(DX)(R11*1), Z21, K2, Z7 \
	LEAQ         (AX)(R9*2), AX \
	LEAQ         (DX)(R11*2), DX \
	SUBQ         $2, CX
#define FWROW_PAIR_PF \
	PREFETCHT0   8192(DX) \
	PREFETCHT0   8256(DX) \
	PREFETCHT0   8320(DX) \
	PREFETCHT0   8384(DX) \
	PREFETCHT0   8192(DX)(R11*1) \
	PREFETCHT0   8256(DX)(R11*1) \
	PREFETCHT0   8320(DX)(R11*1) \
	PREFETCHT0   8384(DX)(R11*1)
#define FWROW_PAIR16 \
	VBROADCASTSS (AX), Z20 \
	VBROADCASTSS (AX)(R9*1), Z21 \
	VCMPPS       $4, Z31, Z20, K1 \
	VCMPPS       $4, Z31, Z21, K2 \
	VCVTPH2PS    0(DX), Z22 \
	VFMADD231PS  Z22, Z20, K1, Z0 \
	VCVTPH2PS    32(DX), Z23 \
	VFMADD231PS  Z23, Z20, K1, Z1 \
	VCVTPH2PS    64(DX), Z24 \
	VFMADD231PS  Z24, Z20, K1, Z2 \
	VCVTPH2PS    96(DX), Z25 \
	VFMADD231PS  Z25, Z20, K1, Z3 \
	VCVTPH2PS    0(DX)(R11*1), Z22 \
	VFMADD231PS  Z22, Z21, K2, Z4 \
	VCVTPH2PS    32(DX)(R11*1), Z23 \
	VFMADD231PS  Z23, Z21, K2, Z5 \
	VCVTPH2PS    64(DX)(R11*1), Z24 \
	VFMADD231PS  Z24, Z21, K2, Z6 \
	VCVTPH2PS    96(DX)(R11*1), Z25 \
	VFMADD231PS  Z25, Z21, K2, Z7 \
	LEAQ         (AX)(R9*2), AX \
	LEAQ         (DX)(R11*2), DX \
	SUBQ         $2, CX
#define FWROW_PAIR16_PF \
	PREFETCHT0   8192(DX) \
	PREFETCHT0   8256(DX) \
	PREFETCHT0   8192(DX)(R11*1) \
	PREFETCHT0   8256(DX)(R11*1)

// ---------------------------------------------------------------------------
// func FastWeightedRowAVX512(o *float32, hd int, pt *float32, rs int, v *float32, ldv, n, pf int)
// func FastWeightedRowF16AVX512(o *float32, hd int, pt *float32, rs int, v *uint16, ldv, n, pf int)
//
// Fast's weighted sum for one output row: o[c] += Σ_j pt[j·rs]·v[j·ldv + c]
// for c < hd (a multiple of 64), in column chunks of 64 (four zmm). Keys
// go in pairs: the even key of a pair adds to the four accumulators that
// start from o, the odd key to four that start from 0, one masked
// VFMADD231PS per product and sum (a 0 weight masks its key off); the two
// are added at the end of the chunk. Two chains of additions instead of
// one: each is a dependency of one FMA per key pair, not per key.

TEXT ·FastWeightedRowAVX512(SB), NOSPLIT, $0-64
	MOVQ   o+0(FP), DI
	MOVQ   hd+8(FP), R8
	MOVQ   pt+16(FP), SI
	MOVQ   rs+24(FP), R9
	SHLQ   $2, R9
	MOVQ   v+32(FP), R10
	MOVQ   ldv+40(FP), R11
	SHLQ   $2, R11
	MOVQ   n+48(FP), R12
	MOVQ   pf+56(FP), BX
	VPXORD Z31, Z31, Z31
	XORQ   R13, R13 // column

fwrow_chunk:
	CMPQ    R13, R8
	JAE     fwrow_done
	LEAQ    (DI)(R13*4), R14
	VMOVUPS 0(R14), Z0
	VMOVUPS 64(R14), Z1
	VMOVUPS 128(R14), Z2
	VMOVUPS 192(R14), Z3
	VPXORD  Z4, Z4, Z4
	VPXORD  Z5, Z5, Z5
	VPXORD  Z6, Z6, Z6
	VPXORD  Z7, Z7, Z7
	MOVQ    SI, AX
	LEAQ    (R10)(R13*4), DX
	MOVQ    R12, CX
	TESTQ   BX, BX
	JNZ     fwrow_pairspf

	PCALIGN $32

fwrow_pairs:
	CMPQ         CX, $2
	JB           fwrow_tail
	FWROW_PAIR
	JMP          fwrow_pairs

	PCALIGN $32

fwrow_pairspf:
	CMPQ         CX, $2
	JB           fwrow_tail
	FWROW_PAIR_PF
	FWROW_PAIR
	JMP          fwrow_pairspf

fwrow_tail:
	TESTQ        CX, CX
	JZ           fwrow_sum
	VBROADCASTSS (AX), Z20
	VCMPPS       $4, Z31, Z20, K1
	VFMADD231PS  0(DX), Z20, K1, Z0
	VFMADD231PS  64(DX), Z20, K1, Z1
	VFMADD231PS  128(DX), Z20, K1, Z2
	VFMADD231PS  192(DX), Z20, K1, Z3

fwrow_sum:
	VADDPS  Z4, Z0, Z0
	VADDPS  Z5, Z1, Z1
	VADDPS  Z6, Z2, Z2
	VADDPS  Z7, Z3, Z3
	VMOVUPS Z0, 0(R14)
	VMOVUPS Z1, 64(R14)
	VMOVUPS Z2, 128(R14)
	VMOVUPS Z3, 192(R14)
	ADDQ    $64, R13
	JMP     fwrow_chunk

fwrow_done:
	VZEROUPPER
	RET

TEXT ·FastWeightedRowF16AVX512(SB), NOSPLIT, $0-64
	MOVQ   o+0(FP), DI
	MOVQ   hd+8(FP), R8
	MOVQ   pt+16(FP), SI
	MOVQ   rs+24(FP), R9
	SHLQ   $2, R9
	MOVQ   v+32(FP), R10
	MOVQ   ldv+40(FP), R11
	SHLQ   $1, R11
	MOVQ   n+48(FP), R12
	MOVQ   pf+56(FP), BX
	VPXORD Z31, Z31, Z31
	XORQ   R13, R13 // column

fwrowf16_chunk:
	CMPQ    R13, R8
	JAE     fwrowf16_done
	LEAQ    (DI)(R13*4), R14
	VMOVUPS 0(R14), Z0
	VMOVUPS 64(R14), Z1
	VMOVUPS 128(R14), Z2
	VMOVUPS 192(R14), Z3
	VPXORD  Z4, Z4, Z4
	VPXORD  Z5, Z5, Z5
	VPXORD  Z6, Z6, Z6
	VPXORD  Z7, Z7, Z7
	MOVQ    SI, AX
	LEAQ    (R10)(R13*2), DX
	MOVQ    R12, CX
	TESTQ   BX, BX
	JNZ     fwrowf16_pairspf

	PCALIGN $32

fwrowf16_pairs:
	CMPQ         CX, $2
	JB           fwrowf16_tail
	FWROW_PAIR16
	JMP          fwrowf16_pairs

	PCALIGN $32

fwrowf16_pairspf:
	CMPQ         CX, $2
	JB           fwrowf16_tail
	FWROW_PAIR16_PF
	FWROW_PAIR16
	JMP          fwrowf16_pairspf

fwrowf16_tail:
	TESTQ        CX, CX
	JZ           fwrowf16_sum
	VBROADCASTSS (AX), Z20
	VCMPPS       $4, Z31, Z20, K1
	VCVTPH2PS    0(DX), Z22
	VFMADD231PS  Z22, Z20, K1, Z0
	VCVTPH2PS    32(DX), Z23
	VFMADD231PS  Z23, Z20, K1, Z1
	VCVTPH2PS    64(DX), Z24
	VFMADD231PS  Z24, Z20, K1, Z2
	VCVTPH2PS    96(DX), Z25
	VFMADD231PS  Z25, Z20, K1, Z3

fwrowf16_sum:
	VADDPS  Z4, Z0, Z0
	VADDPS  Z5, Z1, Z1
	VADDPS  Z6, Z2, Z2
	VADDPS  Z7, Z3, Z3
	VMOVUPS Z0, 0(R14)
	VMOVUPS Z1, 64(R14)
	VMOVUPS Z2, 128(R14)
	VMOVUPS Z3, 192(R14)
	ADDQ    $64, R13
	JMP     fwrowf16_chunk

fwrowf16_done:
	VZEROUPPER
	RET

