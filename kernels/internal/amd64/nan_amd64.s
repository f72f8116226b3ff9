//go:build !purego

// CanonNaNsAVX2: the canonical-NaN pass the Go side of the quantized
// kernels runs over what they wrote (kernels.canonNaNs is its twin). Eight
// values per step: VCMPPS (unordered with itself) marks the NaN lanes, and
// only a group with one is blended with 0x7fc00000 and stored back; the
// last n mod 8 values go one at a time (VUCOMISS), so nothing past dst[n-1]
// is read or written.
//
// Hand-written, not generated: one routine, one width.
//
// Requires: AVX2.

#include "textflag.h"

DATA nanCanon<>+0(SB)/4, $0x7fc00000
GLOBL nanCanon<>(SB), RODATA|NOPTR, $4

// func CanonNaNsAVX2(dst *float32, n int)
TEXT ·CanonNaNsAVX2(SB), NOSPLIT, $0-16
	MOVQ         dst+0(FP), DI
	MOVQ         n+8(FP), CX
	VBROADCASTSS nanCanon<>(SB), Y2 // the canonical NaN in every lane
	CMPQ         CX, $8
	JB           tail

group:
	VMOVUPS   (DI), Y0
	VCMPPS    $3, Y0, Y0, Y1 // unordered: all ones in the NaN lanes
	VPTEST    Y1, Y1
	JZ        next
	VBLENDVPS Y1, Y2, Y0, Y0 // the NaN lanes from Y2
	VMOVUPS   Y0, (DI)

next:
	ADDQ $32, DI
	SUBQ $8, CX
	CMPQ CX, $8
	JAE  group

tail:
	TESTQ CX, CX
	JZ    done

one:
	VMOVSS   (DI), X0
	VUCOMISS X0, X0
	JPC      skip    // parity clear: ordered, not a NaN
	VMOVSS   X2, (DI)

skip:
	ADDQ $4, DI
	DECQ CX
	JNZ  one

done:
	VZEROUPPER
	RET
