#include "textflag.h"

// func zzRead(p *byte, n int): a plain read, four zmm loads a 256-byte step
TEXT ·zzRead(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
zzloop:
	VPADDD 0(SI), Z0, Z0
	VPADDD 64(SI), Z1, Z1
	VPADDD 128(SI), Z0, Z0
	VPADDD 192(SI), Z1, Z1
	ADDQ $256, SI
	SUBQ $256, CX
	JGT zzloop
	VPADDD Z1, Z0, Z0
	VMOVDQU32 Z0, zzsink<>(SB)
	VZEROUPPER
	RET

GLOBL zzsink<>(SB), NOPTR, $64
