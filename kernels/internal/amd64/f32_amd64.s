//go:build !purego

// Float32 vector kernels: dot product, axpy, scale, max, exp-and-sum.
//
// Each routine mirrors a generic kernel in package kernels (f32.go):
//
//	DotF32{AVX2,AVX512}  dotF32Generic   !!! reassociated: 8 vector
//	                                     accumulators, fused multiply-add
//	Axpy{AVX2,AVX512}    axpyGeneric     !!! fused: y = fma(alpha, x, y)
//	Scale{AVX2,AVX512}   scaleGeneric    exact, same bits
//	Max{AVX2,AVX512}     maxGeneric      exact (no NaN in x)
//	ExpSum{AVX2,AVX512}  expSumGeneric   every dst[i] has the bits of
//	                                     Exp32(x[i]-sub); !!! the sum is
//	                                     reassociated (vector accumulators)
//
// The exp follows Exp32 step by step with separate multiplies and adds (no
// FMA): clamp, n = floor(x·log2e + 0.5), r = (x − n·ln2Hi) − n·ln2Lo, the
// degree-5 Horner polynomial, p·r² + r + 1, scaling by 2^n. Exp32 computes
// floor(t + 0.5) in float64; in float32 the add can round up to the next
// integer (t = 0.5 − 2^-25), so AVX2 adds the 0.5 as a comparison on the
// exact fraction t − floor(t), and AVX-512 adds it rounding down (RD_SAE),
// both of which give the float64 result. Exp32 scales by 2^n with one
// rounding (ldexp32 splits n so that the first multiply is exact); AVX2 does
// the same with n = (n>>1) + (n − n>>1), AVX-512 with VSCALEFPS, which
// rounds once too. So the values match Exp32 bit for bit.
//
// Tails: AVX2 finishes the last len%8 elements with scalar instructions
// (ExpSum runs them through the vector code from a stack buffer); AVX-512
// uses a lane mask, whose masked-off lanes never touch memory.
//
// Requires: AVX2, FMA3 (…AVX2 routines); AVX512F (…AVX512 routines). No
// AVX512DQ: bitwise ops on Z registers use the D-suffixed integer forms.

#include "textflag.h"

// f32Tab: one 32-byte row (eight copies) per constant, for ymm memory
// operands; the AVX-512 code reads a row's first four bytes with .BCST.
#define F32ROW(off, q) DATA ·f32Tab<>+off(SB)/8, $q; DATA ·f32Tab<>+off+8(SB)/8, $q; DATA ·f32Tab<>+off+16(SB)/8, $q; DATA ·f32Tab<>+off+24(SB)/8, $q

F32ROW(0, 0x3fb8aa3b3fb8aa3b)   // log2e      1.442695
F32ROW(32, 0x3f0000003f000000)  // 0.5
F32ROW(64, 0x3f8000003f800000)  // 1.0
F32ROW(96, 0x3f3180003f318000)  // ln2Hi      0.693359375
F32ROW(128, 0xb95e8083b95e8083) // ln2Lo     -2.1219444e-4
F32ROW(160, 0x3950696739506967) // c0         1.9875691e-4
F32ROW(192, 0x3ab743ce3ab743ce) // c1         1.3981999e-3
F32ROW(224, 0x3c0889083c088908) // c2         8.333452e-3
F32ROW(256, 0x3d2aa9c13d2aa9c1) // c3         4.1665796e-2
F32ROW(288, 0x3e2aaaaa3e2aaaaa) // c4         0.16666666
F32ROW(320, 0x3f0000003f000000) // c5         0.5 (5.0000001201e-1 rounded)
F32ROW(352, 0x42b1721842b17218) // expMaxArg  88.72283935546875
F32ROW(384, 0xc2cff1b5c2cff1b5) // expMinArg -103.97208404541015625
F32ROW(416, 0x7f8000007f800000) // +Inf
F32ROW(448, 0xff800000ff800000) // -Inf
F32ROW(480, 0x0000007f0000007f) // 127 (int32 exponent bias)
F32ROW(512, 0xffffffffffffffff) // lane mask: 8 lanes on …
F32ROW(544, 0x0000000000000000) // … then 8 off (tail masks at 512+4·(8−k))
GLOBL ·f32Tab<>(SB), RODATA|NOPTR, $576

#define LOG2E ·f32Tab<>+0(SB)
#define HALF ·f32Tab<>+32(SB)
#define ONE ·f32Tab<>+64(SB)
#define LN2HI ·f32Tab<>+96(SB)
#define LN2LO ·f32Tab<>+128(SB)
#define C0 ·f32Tab<>+160(SB)
#define C1 ·f32Tab<>+192(SB)
#define C2 ·f32Tab<>+224(SB)
#define C3 ·f32Tab<>+256(SB)
#define C4 ·f32Tab<>+288(SB)
#define C5 ·f32Tab<>+320(SB)
#define MAXARG ·f32Tab<>+352(SB)
#define MINARG ·f32Tab<>+384(SB)
#define POSINF ·f32Tab<>+416(SB)
#define NEGINF ·f32Tab<>+448(SB)
#define BIAS ·f32Tab<>+480(SB)

// Registers shared by the routines below.
#define A_PTR SI // dot: a; axpy, scale, max, expsum: x
#define B_PTR DI // dot: b; axpy: y; expsum: dst
#define N CX     // elements left
#define TMP AX

// ---------------------------------------------------------------------------
// func DotF32AVX2(a, b []float32) float32
TEXT ·DotF32AVX2(SB), NOSPLIT, $0-52
	MOVQ   a_base+0(FP), A_PTR
	MOVQ   b_base+24(FP), B_PTR
	MOVQ   a_len+8(FP), N
	VXORPS Y0, Y0, Y0 // eight independent accumulators hide the FMA latency
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	CMPQ   N, $64
	JB     dotf32avx2_by8

	PCALIGN $32

dotf32avx2_loop64:
	VMOVUPS     0(A_PTR), Y8
	VMOVUPS     32(A_PTR), Y9
	VMOVUPS     64(A_PTR), Y10
	VMOVUPS     96(A_PTR), Y11
	VMOVUPS     128(A_PTR), Y12
	VMOVUPS     160(A_PTR), Y13
	VMOVUPS     192(A_PTR), Y14
	VMOVUPS     224(A_PTR), Y15
	VFMADD231PS 0(B_PTR), Y8, Y0 // Y0 += a[i:i+8]·b[i:i+8]
	VFMADD231PS 32(B_PTR), Y9, Y1
	VFMADD231PS 64(B_PTR), Y10, Y2
	VFMADD231PS 96(B_PTR), Y11, Y3
	VFMADD231PS 128(B_PTR), Y12, Y4
	VFMADD231PS 160(B_PTR), Y13, Y5
	VFMADD231PS 192(B_PTR), Y14, Y6
	VFMADD231PS 224(B_PTR), Y15, Y7
	ADDQ        $256, A_PTR
	ADDQ        $256, B_PTR
	SUBQ        $64, N
	CMPQ        N, $64
	JAE         dotf32avx2_loop64

dotf32avx2_by8:
	CMPQ        N, $8
	JB          dotf32avx2_reduce
	VMOVUPS     (A_PTR), Y8
	VFMADD231PS (B_PTR), Y8, Y0
	ADDQ        $32, A_PTR
	ADDQ        $32, B_PTR
	SUBQ        $8, N
	JMP         dotf32avx2_by8

dotf32avx2_reduce:
	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y5, Y4, Y4
	VADDPS       Y7, Y6, Y6
	VADDPS       Y2, Y0, Y0
	VADDPS       Y6, Y4, Y4
	VADDPS       Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0

dotf32avx2_tail:
	TESTQ       N, N
	JZ          dotf32avx2_done
	VMOVSS      (A_PTR), X1
	VFMADD231SS (B_PTR), X1, X0
	ADDQ        $4, A_PTR
	ADDQ        $4, B_PTR
	DECQ        N
	JMP         dotf32avx2_tail

dotf32avx2_done:
	VMOVSS     X0, ret+48(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func DotF32AVX512(a, b []float32) float32
TEXT ·DotF32AVX512(SB), NOSPLIT, $0-52
	MOVQ    a_base+0(FP), A_PTR
	MOVQ    b_base+24(FP), B_PTR
	MOVQ    a_len+8(FP), N
	VPXORD  Z0, Z0, Z0
	VPXORD  Z1, Z1, Z1
	VPXORD  Z2, Z2, Z2
	VPXORD  Z3, Z3, Z3
	VPXORD  Z4, Z4, Z4
	VPXORD  Z5, Z5, Z5
	VPXORD  Z6, Z6, Z6
	VPXORD  Z7, Z7, Z7
	CMPQ    N, $128
	JB      dotf32avx512_by16

	PCALIGN $32

dotf32avx512_loop128:
	VMOVUPS     0(A_PTR), Z8
	VMOVUPS     64(A_PTR), Z9
	VMOVUPS     128(A_PTR), Z10
	VMOVUPS     192(A_PTR), Z11
	VMOVUPS     256(A_PTR), Z12
	VMOVUPS     320(A_PTR), Z13
	VMOVUPS     384(A_PTR), Z14
	VMOVUPS     448(A_PTR), Z15
	VFMADD231PS 0(B_PTR), Z8, Z0
	VFMADD231PS 64(B_PTR), Z9, Z1
	VFMADD231PS 128(B_PTR), Z10, Z2
	VFMADD231PS 192(B_PTR), Z11, Z3
	VFMADD231PS 256(B_PTR), Z12, Z4
	VFMADD231PS 320(B_PTR), Z13, Z5
	VFMADD231PS 384(B_PTR), Z14, Z6
	VFMADD231PS 448(B_PTR), Z15, Z7
	ADDQ        $512, A_PTR
	ADDQ        $512, B_PTR
	SUBQ        $128, N
	CMPQ        N, $128
	JAE         dotf32avx512_loop128

dotf32avx512_by16:
	CMPQ        N, $16
	JB          dotf32avx512_tail
	VMOVUPS     (A_PTR), Z8
	VFMADD231PS (B_PTR), Z8, Z0
	ADDQ        $64, A_PTR
	ADDQ        $64, B_PTR
	SUBQ        $16, N
	JMP         dotf32avx512_by16

dotf32avx512_tail:
	TESTQ       N, N
	JZ          dotf32avx512_reduce
	MOVL        $1, TMP
	SHLL        CX, TMP
	DECL        TMP
	KMOVW       TMP, K1            // K1 = the N low lanes
	VMOVUPS.Z   (A_PTR), K1, Z8
	VMOVUPS.Z   (B_PTR), K1, Z9
	VFMADD231PS Z9, Z8, Z1

dotf32avx512_reduce:
	VADDPS       Z1, Z0, Z0
	VADDPS       Z3, Z2, Z2
	VADDPS       Z5, Z4, Z4
	VADDPS       Z7, Z6, Z6
	VADDPS       Z2, Z0, Z0
	VADDPS       Z6, Z4, Z4
	VADDPS       Z4, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VMOVSS       X0, ret+48(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func AxpyAVX2(alpha float32, x, y []float32)
TEXT ·AxpyAVX2(SB), NOSPLIT, $0-56
	VBROADCASTSS alpha+0(FP), Y15
	MOVQ         x_base+8(FP), A_PTR
	MOVQ         y_base+32(FP), B_PTR
	MOVQ         x_len+16(FP), N
	CMPQ         N, $32
	JB           axpyavx2_by8

	PCALIGN $32

axpyavx2_loop32:
	VMOVUPS     0(A_PTR), Y0
	VMOVUPS     32(A_PTR), Y1
	VMOVUPS     64(A_PTR), Y2
	VMOVUPS     96(A_PTR), Y3
	VFMADD213PS 0(B_PTR), Y15, Y0  // Y0 = alpha·x + y
	VFMADD213PS 32(B_PTR), Y15, Y1
	VFMADD213PS 64(B_PTR), Y15, Y2
	VFMADD213PS 96(B_PTR), Y15, Y3
	VMOVUPS     Y0, 0(B_PTR)
	VMOVUPS     Y1, 32(B_PTR)
	VMOVUPS     Y2, 64(B_PTR)
	VMOVUPS     Y3, 96(B_PTR)
	ADDQ        $128, A_PTR
	ADDQ        $128, B_PTR
	SUBQ        $32, N
	CMPQ        N, $32
	JAE         axpyavx2_loop32

axpyavx2_by8:
	CMPQ        N, $8
	JB          axpyavx2_tail
	VMOVUPS     (A_PTR), Y0
	VFMADD213PS (B_PTR), Y15, Y0
	VMOVUPS     Y0, (B_PTR)
	ADDQ        $32, A_PTR
	ADDQ        $32, B_PTR
	SUBQ        $8, N
	JMP         axpyavx2_by8

axpyavx2_tail:
	TESTQ       N, N
	JZ          axpyavx2_done
	VMOVSS      (A_PTR), X0
	VFMADD213SS (B_PTR), X15, X0
	VMOVSS      X0, (B_PTR)
	ADDQ        $4, A_PTR
	ADDQ        $4, B_PTR
	DECQ        N
	JMP         axpyavx2_tail

axpyavx2_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func AxpyAVX512(alpha float32, x, y []float32)
TEXT ·AxpyAVX512(SB), NOSPLIT, $0-56
	VBROADCASTSS alpha+0(FP), Z15
	MOVQ         x_base+8(FP), A_PTR
	MOVQ         y_base+32(FP), B_PTR
	MOVQ         x_len+16(FP), N
	CMPQ         N, $64
	JB           axpyavx512_by16

	PCALIGN $32

axpyavx512_loop64:
	VMOVUPS     0(A_PTR), Z0
	VMOVUPS     64(A_PTR), Z1
	VMOVUPS     128(A_PTR), Z2
	VMOVUPS     192(A_PTR), Z3
	VFMADD213PS 0(B_PTR), Z15, Z0
	VFMADD213PS 64(B_PTR), Z15, Z1
	VFMADD213PS 128(B_PTR), Z15, Z2
	VFMADD213PS 192(B_PTR), Z15, Z3
	VMOVUPS     Z0, 0(B_PTR)
	VMOVUPS     Z1, 64(B_PTR)
	VMOVUPS     Z2, 128(B_PTR)
	VMOVUPS     Z3, 192(B_PTR)
	ADDQ        $256, A_PTR
	ADDQ        $256, B_PTR
	SUBQ        $64, N
	CMPQ        N, $64
	JAE         axpyavx512_loop64

axpyavx512_by16:
	CMPQ        N, $16
	JB          axpyavx512_tail
	VMOVUPS     (A_PTR), Z0
	VFMADD213PS (B_PTR), Z15, Z0
	VMOVUPS     Z0, (B_PTR)
	ADDQ        $64, A_PTR
	ADDQ        $64, B_PTR
	SUBQ        $16, N
	JMP         axpyavx512_by16

axpyavx512_tail:
	TESTQ       N, N
	JZ          axpyavx512_done
	MOVL        $1, TMP
	SHLL        CX, TMP
	DECL        TMP
	KMOVW       TMP, K1
	VMOVUPS.Z   (A_PTR), K1, Z0
	VMOVUPS.Z   (B_PTR), K1, Z1
	VFMADD213PS Z1, Z15, Z0
	VMOVUPS     Z0, K1, (B_PTR)

axpyavx512_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ScaleAVX2(alpha float32, x []float32)
TEXT ·ScaleAVX2(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Y15
	MOVQ         x_base+8(FP), A_PTR
	MOVQ         x_len+16(FP), N
	CMPQ         N, $32
	JB           scaleavx2_by8

	PCALIGN $32

scaleavx2_loop32:
	VMULPS  0(A_PTR), Y15, Y0
	VMULPS  32(A_PTR), Y15, Y1
	VMULPS  64(A_PTR), Y15, Y2
	VMULPS  96(A_PTR), Y15, Y3
	VMOVUPS Y0, 0(A_PTR)
	VMOVUPS Y1, 32(A_PTR)
	VMOVUPS Y2, 64(A_PTR)
	VMOVUPS Y3, 96(A_PTR)
	ADDQ    $128, A_PTR
	SUBQ    $32, N
	CMPQ    N, $32
	JAE     scaleavx2_loop32

scaleavx2_by8:
	CMPQ    N, $8
	JB      scaleavx2_tail
	VMULPS  (A_PTR), Y15, Y0
	VMOVUPS Y0, (A_PTR)
	ADDQ    $32, A_PTR
	SUBQ    $8, N
	JMP     scaleavx2_by8

scaleavx2_tail:
	TESTQ  N, N
	JZ     scaleavx2_done
	VMULSS (A_PTR), X15, X0
	VMOVSS X0, (A_PTR)
	ADDQ   $4, A_PTR
	DECQ   N
	JMP    scaleavx2_tail

scaleavx2_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func ScaleAVX512(alpha float32, x []float32)
TEXT ·ScaleAVX512(SB), NOSPLIT, $0-32
	VBROADCASTSS alpha+0(FP), Z15
	MOVQ         x_base+8(FP), A_PTR
	MOVQ         x_len+16(FP), N
	CMPQ         N, $64
	JB           scaleavx512_by16

	PCALIGN $32

scaleavx512_loop64:
	VMULPS  0(A_PTR), Z15, Z0
	VMULPS  64(A_PTR), Z15, Z1
	VMULPS  128(A_PTR), Z15, Z2
	VMULPS  192(A_PTR), Z15, Z3
	VMOVUPS Z0, 0(A_PTR)
	VMOVUPS Z1, 64(A_PTR)
	VMOVUPS Z2, 128(A_PTR)
	VMOVUPS Z3, 192(A_PTR)
	ADDQ    $256, A_PTR
	SUBQ    $64, N
	CMPQ    N, $64
	JAE     scaleavx512_loop64

scaleavx512_by16:
	CMPQ    N, $16
	JB      scaleavx512_tail
	VMULPS  (A_PTR), Z15, Z0
	VMOVUPS Z0, (A_PTR)
	ADDQ    $64, A_PTR
	SUBQ    $16, N
	JMP     scaleavx512_by16

scaleavx512_tail:
	TESTQ     N, N
	JZ        scaleavx512_done
	MOVL      $1, TMP
	SHLL      CX, TMP
	DECL      TMP
	KMOVW     TMP, K1
	VMOVUPS.Z (A_PTR), K1, Z0
	VMULPS    Z0, Z15, Z0
	VMOVUPS   Z0, K1, (A_PTR)

scaleavx512_done:
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func MaxAVX2(x []float32) float32
TEXT ·MaxAVX2(SB), NOSPLIT, $0-28
	MOVQ         x_base+0(FP), A_PTR
	MOVQ         x_len+8(FP), N
	VBROADCASTSS NEGINF, Y0
	VMOVAPS      Y0, Y1
	VMOVAPS      Y0, Y2
	VMOVAPS      Y0, Y3
	CMPQ         N, $32
	JB           maxavx2_by8

	PCALIGN $32

maxavx2_loop32:
	VMAXPS 0(A_PTR), Y0, Y0
	VMAXPS 32(A_PTR), Y1, Y1
	VMAXPS 64(A_PTR), Y2, Y2
	VMAXPS 96(A_PTR), Y3, Y3
	ADDQ   $128, A_PTR
	SUBQ   $32, N
	CMPQ   N, $32
	JAE    maxavx2_loop32

maxavx2_by8:
	CMPQ   N, $8
	JB     maxavx2_reduce
	VMAXPS (A_PTR), Y0, Y0
	ADDQ   $32, A_PTR
	SUBQ   $8, N
	JMP    maxavx2_by8

maxavx2_reduce:
	VMAXPS       Y1, Y0, Y0
	VMAXPS       Y3, Y2, Y2
	VMAXPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VMAXPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VMAXSS       X1, X0, X0

maxavx2_tail:
	TESTQ  N, N
	JZ     maxavx2_done
	VMAXSS (A_PTR), X0, X0
	ADDQ   $4, A_PTR
	DECQ   N
	JMP    maxavx2_tail

maxavx2_done:
	VMOVSS     X0, ret+24(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// func MaxAVX512(x []float32) float32
TEXT ·MaxAVX512(SB), NOSPLIT, $0-28
	MOVQ         x_base+0(FP), A_PTR
	MOVQ         x_len+8(FP), N
	VBROADCASTSS NEGINF, Z0
	VMOVAPS      Z0, Z1
	VMOVAPS      Z0, Z2
	VMOVAPS      Z0, Z3
	CMPQ         N, $64
	JB           maxavx512_by16

	PCALIGN $32

maxavx512_loop64:
	VMAXPS 0(A_PTR), Z0, Z0
	VMAXPS 64(A_PTR), Z1, Z1
	VMAXPS 128(A_PTR), Z2, Z2
	VMAXPS 192(A_PTR), Z3, Z3
	ADDQ   $256, A_PTR
	SUBQ   $64, N
	CMPQ   N, $64
	JAE    maxavx512_loop64

maxavx512_by16:
	CMPQ   N, $16
	JB     maxavx512_tail
	VMAXPS (A_PTR), Z0, Z0
	ADDQ   $64, A_PTR
	SUBQ   $16, N
	JMP    maxavx512_by16

maxavx512_tail:
	TESTQ  N, N
	JZ     maxavx512_reduce
	MOVL   $1, TMP
	SHLL   CX, TMP
	DECL   TMP
	KMOVW  TMP, K1
	VMAXPS (A_PTR), Z1, K1, Z1 // masked-off lanes keep Z1 and read nothing

maxavx512_reduce:
	VMAXPS        Z1, Z0, Z0
	VMAXPS        Z3, Z2, Z2
	VMAXPS        Z2, Z0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VMAXPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VMAXPS        X1, X0, X0
	VMOVHLPS      X0, X0, X1
	VMAXPS        X1, X0, X0
	VMOVSHDUP     X0, X1
	VMAXSS        X1, X0, X0
	VMOVSS        X0, ret+24(FP)
	VZEROUPPER
	RET

// ---------------------------------------------------------------------------
// ExpSum. EXP8 sets P = Exp32(V) lane by lane for 8 lanes; R, N and T are
// scratch. V is left unchanged.
#define EXP8(V, R, P, N, T) \
	VMAXPS    MINARG, V, R  /* R = max(v, minArg); a NaN v gives minArg */ ; \
	VMINPS    MAXARG, R, R  /* clamped, so n stays in −150..128 */ ; \
	VMULPS    LOG2E, R, P   /* t = v·log2e */ ; \
	VROUNDPS  $1, P, N      /* floor(t) */ ; \
	VSUBPS    N, P, P       /* t − floor(t), exact */ ; \
	VCMPPS    $0x0d, HALF, P, P /* ≥ 0.5 (GE_OS) */ ; \
	VANDPS    ONE, P, P ; \
	VADDPS    P, N, N       /* n = floor(t + 0.5) */ ; \
	VMULPS    LN2HI, N, T   /* exact */ ; \
	VSUBPS    T, R, R       /* r = v − n·ln2Hi */ ; \
	VMULPS    LN2LO, N, T ; \
	VSUBPS    T, R, R       /* r −= n·ln2Lo */ ; \
	VMULPS    C0, R, P ; \
	VADDPS    C1, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C2, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C3, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C4, P, P ; \
	VMULPS    R, P, P ; \
	VADDPS    C5, P, P      /* P(r), Horner */ ; \
	VMULPS    R, R, T ; \
	VMULPS    T, P, P       /* P(r)·r² */ ; \
	VADDPS    R, P, P ; \
	VADDPS    ONE, P, P     /* e^r */ ; \
	VCVTPS2DQ N, N          /* n, exact */ ; \
	VPSRAD    $1, N, T      /* a = n>>1 */ ; \
	VPSUBD    T, N, N       /* b = n − a; both in −75..64 */ ; \
	VPADDD    BIAS, T, T ; \
	VPSLLD    $23, T, T     /* 2^a */ ; \
	VPADDD    BIAS, N, N ; \
	VPSLLD    $23, N, N     /* 2^b */ ; \
	VMULPS    T, P, P       /* exact: a normal result */ ; \
	VMULPS    N, P, P       /* the one rounding of p·2^n */ ; \
	VCMPPS    $0x1e, MAXARG, V, T /* v > maxArg (GT_OQ) */ ; \
	VBLENDVPS T, POSINF, P, P ; \
	VCMPPS    $0x11, MINARG, V, T /* v < minArg (LT_OQ) */ ; \
	VANDNPS   P, T, P ; \
	VCMPPS    $0x03, V, V, T /* NaN */ ; \
	VBLENDVPS T, V, P, P

#define ES_SUB Y15
#define ES_ACC0 Y14
#define ES_ACC1 Y13

// func ExpSumAVX2(dst, x []float32, sub float32) float32
TEXT ·ExpSumAVX2(SB), NOSPLIT, $32-60
	MOVQ         dst_base+0(FP), B_PTR
	MOVQ         x_base+24(FP), A_PTR
	MOVQ         x_len+32(FP), N
	VBROADCASTSS sub+48(FP), ES_SUB
	VXORPS       ES_ACC0, ES_ACC0, ES_ACC0
	VXORPS       ES_ACC1, ES_ACC1, ES_ACC1
	CMPQ         N, $16
	JB           expsumavx2_by8

	PCALIGN $32

expsumavx2_loop16:
	VMOVUPS (A_PTR), Y0
	VMOVUPS 32(A_PTR), Y6
	VSUBPS  ES_SUB, Y0, Y0
	VSUBPS  ES_SUB, Y6, Y6
	EXP8(Y0, Y1, Y2, Y3, Y4)
	EXP8(Y6, Y7, Y8, Y9, Y10)
	VMOVUPS Y2, (B_PTR)
	VMOVUPS Y8, 32(B_PTR)
	VADDPS  Y2, ES_ACC0, ES_ACC0
	VADDPS  Y8, ES_ACC1, ES_ACC1
	ADDQ    $64, A_PTR
	ADDQ    $64, B_PTR
	SUBQ    $16, N
	CMPQ    N, $16
	JAE     expsumavx2_loop16

expsumavx2_by8:
	CMPQ    N, $8
	JB      expsumavx2_tail
	VMOVUPS (A_PTR), Y0
	VSUBPS  ES_SUB, Y0, Y0
	EXP8(Y0, Y1, Y2, Y3, Y4)
	VMOVUPS Y2, (B_PTR)
	VADDPS  Y2, ES_ACC0, ES_ACC0
	ADDQ    $32, A_PTR
	ADDQ    $32, B_PTR
	SUBQ    $8, N

expsumavx2_tail:
	// The last N < 8 values go through the same vector code from a
	// zeroed stack buffer; the lanes past N are masked out of the sum and
	// not copied back.
	TESTQ   N, N
	JZ      expsumavx2_reduce
	VXORPS  Y0, Y0, Y0
	VMOVUPS Y0, 0(SP)
	XORQ    TMP, TMP

expsumavx2_tailin:
	MOVL    (A_PTR)(TMP*4), DX
	MOVL    DX, 0(SP)(TMP*4)
	INCQ    TMP
	CMPQ    TMP, N
	JB      expsumavx2_tailin
	VMOVUPS 0(SP), Y0
	VSUBPS  ES_SUB, Y0, Y0
	EXP8(Y0, Y1, Y2, Y3, Y4)
	LEAQ    ·f32Tab<>+544(SB), DX
	MOVQ    N, TMP
	SHLQ    $2, TMP
	SUBQ    TMP, DX             // the mask row shifted so that lanes < N are on
	VANDPS  (DX), Y2, Y2
	VADDPS  Y2, ES_ACC0, ES_ACC0
	VMOVUPS Y2, 0(SP)
	XORQ    TMP, TMP

expsumavx2_tailout:
	MOVL 0(SP)(TMP*4), DX
	MOVL DX, (B_PTR)(TMP*4)
	INCQ TMP
	CMPQ TMP, N
	JB   expsumavx2_tailout

expsumavx2_reduce:
	VADDPS       ES_ACC1, ES_ACC0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VMOVHLPS     X0, X0, X1
	VADDPS       X1, X0, X0
	VMOVSHDUP    X0, X1
	VADDSS       X1, X0, X0
	VMOVSS       X0, ret+56(FP)
	VZEROUPPER
	RET

// EXP16 is EXP8 for 16 lanes (R, N, T scratch); ZHALF must hold 0.5 in
// every lane, and K2 is scratch. n = floor(t + 0.5) comes from an add rounded down, which never
// crosses an integer; VSCALEFPS scales with one rounding.
#define EXP16(V, R, P, N, T, ZHALF) \
	VMAXPS.BCST     MINARG, V, R ; \
	VMINPS.BCST     MAXARG, R, R ; \
	VMULPS.BCST     LOG2E, R, P   /* t */ ; \
	VADDPS.RD_SAE   ZHALF, P, P   /* t + 0.5, rounded down */ ; \
	VRNDSCALEPS     $1, P, N      /* n = floor(t + 0.5) */ ; \
	VMULPS.BCST     LN2HI, N, P ; \
	VSUBPS          P, R, R ; \
	VMULPS.BCST     LN2LO, N, P ; \
	VSUBPS          P, R, R       /* r */ ; \
	VBROADCASTSS    C0, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C1, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C2, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C3, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C4, P, P ; \
	VMULPS          R, P, P ; \
	VADDPS.BCST     C5, P, P ; \
	VMULPS          R, R, T ; \
	VMULPS          T, P, P       /* P(r)·r² */ ; \
	VADDPS          R, P, P ; \
	VADDPS.BCST     ONE, P, P ; \
	VSCALEFPS       N, P, P       /* p·2^n, one rounding */ ; \
	VCMPPS.BCST     $0x1e, MAXARG, V, K2 ; \
	VBROADCASTSS    POSINF, K2, P ; \
	VCMPPS.BCST     $0x11, MINARG, V, K2 ; \
	VPXORD          P, P, K2, P ; \
	VCMPPS          $0x03, V, V, K2 ; \
	VMOVAPS         V, K2, P

#define ES5_SUB Z15
#define ES5_HALF Z14
#define ES5_ACC0 Z13
#define ES5_ACC1 Z12

// func ExpSumAVX512(dst, x []float32, sub float32) float32
TEXT ·ExpSumAVX512(SB), NOSPLIT, $0-60
	MOVQ         dst_base+0(FP), B_PTR
	MOVQ         x_base+24(FP), A_PTR
	MOVQ         x_len+32(FP), N
	VBROADCASTSS sub+48(FP), ES5_SUB
	VBROADCASTSS HALF, ES5_HALF
	VPXORD       ES5_ACC0, ES5_ACC0, ES5_ACC0
	VPXORD       ES5_ACC1, ES5_ACC1, ES5_ACC1
	CMPQ         N, $32
	JB           expsumavx512_by16

	PCALIGN $32

expsumavx512_loop32:
	VMOVUPS (A_PTR), Z0
	VMOVUPS 64(A_PTR), Z4
	VSUBPS  ES5_SUB, Z0, Z0
	VSUBPS  ES5_SUB, Z4, Z4
	EXP16(Z0, Z1, Z2, Z3, Z8, ES5_HALF)
	EXP16(Z4, Z5, Z6, Z7, Z9, ES5_HALF)
	VMOVUPS Z2, (B_PTR)
	VMOVUPS Z6, 64(B_PTR)
	VADDPS  Z2, ES5_ACC0, ES5_ACC0
	VADDPS  Z6, ES5_ACC1, ES5_ACC1
	ADDQ    $128, A_PTR
	ADDQ    $128, B_PTR
	SUBQ    $32, N
	CMPQ    N, $32
	JAE     expsumavx512_loop32

expsumavx512_by16:
	CMPQ    N, $16
	JB      expsumavx512_tail
	VMOVUPS (A_PTR), Z0
	VSUBPS  ES5_SUB, Z0, Z0
	EXP16(Z0, Z1, Z2, Z3, Z8, ES5_HALF)
	VMOVUPS Z2, (B_PTR)
	VADDPS  Z2, ES5_ACC0, ES5_ACC0
	ADDQ    $64, A_PTR
	ADDQ    $64, B_PTR
	SUBQ    $16, N

expsumavx512_tail:
	TESTQ     N, N
	JZ        expsumavx512_reduce
	MOVL      $1, TMP
	SHLL      CX, TMP
	DECL      TMP
	KMOVW     TMP, K1
	VMOVUPS.Z (A_PTR), K1, Z0
	VSUBPS    ES5_SUB, Z0, Z0
	EXP16(Z0, Z1, Z2, Z3, Z8, ES5_HALF)
	VMOVUPS   Z2, K1, (B_PTR)
	VADDPS    Z2, ES5_ACC1, K1, ES5_ACC1

expsumavx512_reduce:
	VADDPS        ES5_ACC1, ES5_ACC0, Z0
	VEXTRACTF64X4 $1, Z0, Y1
	VADDPS        Y1, Y0, Y0
	VEXTRACTF128  $1, Y0, X1
	VADDPS        X1, X0, X0
	VMOVHLPS      X0, X0, X1
	VADDPS        X1, X0, X0
	VMOVSHDUP     X0, X1
	VADDSS        X1, X0, X0
	VMOVSS        X0, ret+56(FP)
	VZEROUPPER
	RET
