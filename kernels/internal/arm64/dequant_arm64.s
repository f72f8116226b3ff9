//go:build !purego

#include "textflag.h"
#include "go_asm.h"
#include "asimd_arm64.h"

// Dequantizers (ASIMD), bit-exact with their Go twins in package quant
// (DequantizeRowQ4K, ...Q5K, ...Q6K, ...Q8_0, themselves bit-exact with
// ggml): the same float32 operations in the same order, each rounded on its
// own (fmul then fsub, never fused):
//
//	Q4_K, Q5_K  y = (d·sc_j)·q − dmin·m_j
//	Q6_K        y = (d·sc_g)·q
//	Q8_0        y = q·d
//
// All take (dst *float32, src unsafe.Pointer, nb int): nb blocks from src,
// nb·256 (nb·32 for Q8_0) values to dst. They check nothing.

// Register table.
#define DST R0 // output cursor
#define SRC R1 // the current block
#define N R2 // blocks left
#define Q R7 // quant cursor within the block

// func DequantQ8_0NEON(dst *float32, src unsafe.Pointer, nb int)
// Requires: ASIMD
TEXT ·DequantQ8_0NEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), DST
	MOVD src+8(FP), SRC
	MOVD nb+16(FP), N
	CBZ  N, DequantQ8_0NEON_done
	PCALIGN $32
DequantQ8_0NEON_block:
	MOVHU blockQ8_0_d(SRC), R3
	FMOVS R3, F24
	FCVTHS F24, F24
	ADD  $blockQ8_0_qs, SRC, Q
	VLD1 (Q), [V0.B16, V1.B16]
	SXTL8H(0, 4) // sxtl v4.8h, v0.8b
	SXTL28H(0, 5) // sxtl2 v5.8h, v0.16b
	SXTL24S(4, 9) // sxtl2 v9.4s, v4.8h
	SXTL4S(4, 8) // sxtl v8.4s, v4.4h
	SXTL24S(5, 11) // sxtl2 v11.4s, v5.8h
	SXTL4S(5, 10) // sxtl v10.4s, v5.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(24, 0, 8, 8) // fmul v8.4s, v8.4s, v24.s[0]
	FMUL4SE(24, 0, 9, 9) // fmul v9.4s, v9.4s, v24.s[0]
	FMUL4SE(24, 0, 10, 10) // fmul v10.4s, v10.4s, v24.s[0]
	FMUL4SE(24, 0, 11, 11) // fmul v11.4s, v11.4s, v24.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(1, 4) // sxtl v4.8h, v1.8b
	SXTL28H(1, 5) // sxtl2 v5.8h, v1.16b
	SXTL24S(4, 9) // sxtl2 v9.4s, v4.8h
	SXTL4S(4, 8) // sxtl v8.4s, v4.4h
	SXTL24S(5, 11) // sxtl2 v11.4s, v5.8h
	SXTL4S(5, 10) // sxtl v10.4s, v5.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(24, 0, 8, 8) // fmul v8.4s, v8.4s, v24.s[0]
	FMUL4SE(24, 0, 9, 9) // fmul v9.4s, v9.4s, v24.s[0]
	FMUL4SE(24, 0, 10, 10) // fmul v10.4s, v10.4s, v24.s[0]
	FMUL4SE(24, 0, 11, 11) // fmul v11.4s, v11.4s, v24.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	ADD  $blockQ8_0__size, SRC
	SUBS $1, N
	BNE  DequantQ8_0NEON_block
DequantQ8_0NEON_done:
	RET

// func DequantQ4KNEON(dst *float32, src unsafe.Pointer, nb int)
// V30, V31 d·sc_0..3, d·sc_4..7;  V14, V15 dmin·m_0..3, dmin·m_4..7;
// V0, V1 high nibbles;  V2, V3 low nibbles;  V12 dmin·m_j in every lane;
// V8..V11 16 outputs;  V4, V5 temporaries
// Requires: ASIMD
TEXT ·DequantQ4KNEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), DST
	MOVD src+8(FP), SRC
	MOVD nb+16(FP), N
	VMOVI $15, V20.B16
	CBZ  N, DequantQ4KNEON_done
	PCALIGN $32
DequantQ4KNEON_block:
	// the 6-bit scales and mins (layout: quant.KScaleMin) as int32 lanes
	MOVWU blockQ4K_scales(SRC), R9 // u0: sc0..3 | hi bits of sc4..7
	MOVWU blockQ4K_scales+4(SRC), R10 // u1: m0..3 | hi bits of m4..7
	MOVWU blockQ4K_scales+8(SRC), R11 // u2: lo nibbles of sc4..7 | of m4..7
	ANDW  $0x3f3f3f3f, R9, R12 // sc0..3
	LSRW  $6, R9, R14
	ANDW  $0x03030303, R14, R14
	ANDW  $0x0f0f0f0f, R11, R13
	ORRW  R14<<4, R13, R13 // sc4..7
	ORR   R13<<32, R12, R12 // sc0..7, a byte each
	ANDW  $0x3f3f3f3f, R10, R13 // m0..3
	LSRW  $6, R10, R14
	ANDW  $0x03030303, R14, R14
	LSRW  $4, R11, R15
	ANDW  $0x0f0f0f0f, R15, R15
	ORRW  R14<<4, R15, R15 // m4..7
	ORR   R15<<32, R13, R13 // m0..7
	VMOV  R12, V30.D[0]
	VMOV  R13, V14.D[0]
	VUXTL V30.B8, V30.H8
	VUXTL V14.B8, V14.H8
	VUXTL2 V30.H8, V31.S4 // sc4..7
	VUXTL V30.H4, V30.S4 // sc0..3
	VUXTL2 V14.H8, V15.S4 // m4..7
	VUXTL V14.H4, V14.S4 // m0..3
	MOVHU blockQ4K_d(SRC), R9
	MOVHU blockQ4K_dmin(SRC), R10
	FMOVS R9, F24
	FMOVS R10, F25
	FCVTHS F24, F24 // d
	FCVTHS F25, F25 // dmin
	// d·sc and dmin·m as float32 (the small integers convert exactly)
	SCVTF4S(30, 30) // scvtf v30.4s, v30.4s
	SCVTF4S(31, 31) // scvtf v31.4s, v31.4s
	SCVTF4S(14, 14) // scvtf v14.4s, v14.4s
	SCVTF4S(15, 15) // scvtf v15.4s, v15.4s
	FMUL4SE(24, 0, 30, 30) // fmul v30.4s, v30.4s, v24.s[0]
	FMUL4SE(24, 0, 31, 31) // fmul v31.4s, v31.4s, v24.s[0]
	FMUL4SE(25, 0, 14, 14) // fmul v14.4s, v14.4s, v25.s[0]
	FMUL4SE(25, 0, 15, 15) // fmul v15.4s, v15.4s, v25.s[0]
	ADD  $blockQ4K_qs, SRC, Q
	// chunk 0: sub-blocks 0 (low nibbles) and 1 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VDUP  V14.S[0], V12.S4 // dmin·m_0
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 0, 8, 8) // fmul v8.4s, v8.4s, v30.s[0]
	FMUL4SE(30, 0, 9, 9) // fmul v9.4s, v9.4s, v30.s[0]
	FMUL4SE(30, 0, 10, 10) // fmul v10.4s, v10.4s, v30.s[0]
	FMUL4SE(30, 0, 11, 11) // fmul v11.4s, v11.4s, v30.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 0, 8, 8) // fmul v8.4s, v8.4s, v30.s[0]
	FMUL4SE(30, 0, 9, 9) // fmul v9.4s, v9.4s, v30.s[0]
	FMUL4SE(30, 0, 10, 10) // fmul v10.4s, v10.4s, v30.s[0]
	FMUL4SE(30, 0, 11, 11) // fmul v11.4s, v11.4s, v30.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V14.S[1], V12.S4 // dmin·m_1
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 1, 8, 8) // fmul v8.4s, v8.4s, v30.s[1]
	FMUL4SE(30, 1, 9, 9) // fmul v9.4s, v9.4s, v30.s[1]
	FMUL4SE(30, 1, 10, 10) // fmul v10.4s, v10.4s, v30.s[1]
	FMUL4SE(30, 1, 11, 11) // fmul v11.4s, v11.4s, v30.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 1, 8, 8) // fmul v8.4s, v8.4s, v30.s[1]
	FMUL4SE(30, 1, 9, 9) // fmul v9.4s, v9.4s, v30.s[1]
	FMUL4SE(30, 1, 10, 10) // fmul v10.4s, v10.4s, v30.s[1]
	FMUL4SE(30, 1, 11, 11) // fmul v11.4s, v11.4s, v30.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// chunk 1: sub-blocks 2 (low nibbles) and 3 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VDUP  V14.S[2], V12.S4 // dmin·m_2
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 2, 8, 8) // fmul v8.4s, v8.4s, v30.s[2]
	FMUL4SE(30, 2, 9, 9) // fmul v9.4s, v9.4s, v30.s[2]
	FMUL4SE(30, 2, 10, 10) // fmul v10.4s, v10.4s, v30.s[2]
	FMUL4SE(30, 2, 11, 11) // fmul v11.4s, v11.4s, v30.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 2, 8, 8) // fmul v8.4s, v8.4s, v30.s[2]
	FMUL4SE(30, 2, 9, 9) // fmul v9.4s, v9.4s, v30.s[2]
	FMUL4SE(30, 2, 10, 10) // fmul v10.4s, v10.4s, v30.s[2]
	FMUL4SE(30, 2, 11, 11) // fmul v11.4s, v11.4s, v30.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V14.S[3], V12.S4 // dmin·m_3
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 3, 8, 8) // fmul v8.4s, v8.4s, v30.s[3]
	FMUL4SE(30, 3, 9, 9) // fmul v9.4s, v9.4s, v30.s[3]
	FMUL4SE(30, 3, 10, 10) // fmul v10.4s, v10.4s, v30.s[3]
	FMUL4SE(30, 3, 11, 11) // fmul v11.4s, v11.4s, v30.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 3, 8, 8) // fmul v8.4s, v8.4s, v30.s[3]
	FMUL4SE(30, 3, 9, 9) // fmul v9.4s, v9.4s, v30.s[3]
	FMUL4SE(30, 3, 10, 10) // fmul v10.4s, v10.4s, v30.s[3]
	FMUL4SE(30, 3, 11, 11) // fmul v11.4s, v11.4s, v30.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// chunk 2: sub-blocks 4 (low nibbles) and 5 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VDUP  V15.S[0], V12.S4 // dmin·m_4
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 0, 8, 8) // fmul v8.4s, v8.4s, v31.s[0]
	FMUL4SE(31, 0, 9, 9) // fmul v9.4s, v9.4s, v31.s[0]
	FMUL4SE(31, 0, 10, 10) // fmul v10.4s, v10.4s, v31.s[0]
	FMUL4SE(31, 0, 11, 11) // fmul v11.4s, v11.4s, v31.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 0, 8, 8) // fmul v8.4s, v8.4s, v31.s[0]
	FMUL4SE(31, 0, 9, 9) // fmul v9.4s, v9.4s, v31.s[0]
	FMUL4SE(31, 0, 10, 10) // fmul v10.4s, v10.4s, v31.s[0]
	FMUL4SE(31, 0, 11, 11) // fmul v11.4s, v11.4s, v31.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V15.S[1], V12.S4 // dmin·m_5
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 1, 8, 8) // fmul v8.4s, v8.4s, v31.s[1]
	FMUL4SE(31, 1, 9, 9) // fmul v9.4s, v9.4s, v31.s[1]
	FMUL4SE(31, 1, 10, 10) // fmul v10.4s, v10.4s, v31.s[1]
	FMUL4SE(31, 1, 11, 11) // fmul v11.4s, v11.4s, v31.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 1, 8, 8) // fmul v8.4s, v8.4s, v31.s[1]
	FMUL4SE(31, 1, 9, 9) // fmul v9.4s, v9.4s, v31.s[1]
	FMUL4SE(31, 1, 10, 10) // fmul v10.4s, v10.4s, v31.s[1]
	FMUL4SE(31, 1, 11, 11) // fmul v11.4s, v11.4s, v31.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// chunk 3: sub-blocks 6 (low nibbles) and 7 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VDUP  V15.S[2], V12.S4 // dmin·m_6
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 2, 8, 8) // fmul v8.4s, v8.4s, v31.s[2]
	FMUL4SE(31, 2, 9, 9) // fmul v9.4s, v9.4s, v31.s[2]
	FMUL4SE(31, 2, 10, 10) // fmul v10.4s, v10.4s, v31.s[2]
	FMUL4SE(31, 2, 11, 11) // fmul v11.4s, v11.4s, v31.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 2, 8, 8) // fmul v8.4s, v8.4s, v31.s[2]
	FMUL4SE(31, 2, 9, 9) // fmul v9.4s, v9.4s, v31.s[2]
	FMUL4SE(31, 2, 10, 10) // fmul v10.4s, v10.4s, v31.s[2]
	FMUL4SE(31, 2, 11, 11) // fmul v11.4s, v11.4s, v31.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V15.S[3], V12.S4 // dmin·m_7
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 3, 8, 8) // fmul v8.4s, v8.4s, v31.s[3]
	FMUL4SE(31, 3, 9, 9) // fmul v9.4s, v9.4s, v31.s[3]
	FMUL4SE(31, 3, 10, 10) // fmul v10.4s, v10.4s, v31.s[3]
	FMUL4SE(31, 3, 11, 11) // fmul v11.4s, v11.4s, v31.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 3, 8, 8) // fmul v8.4s, v8.4s, v31.s[3]
	FMUL4SE(31, 3, 9, 9) // fmul v9.4s, v9.4s, v31.s[3]
	FMUL4SE(31, 3, 10, 10) // fmul v10.4s, v10.4s, v31.s[3]
	FMUL4SE(31, 3, 11, 11) // fmul v11.4s, v11.4s, v31.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	ADD  $blockQ4K__size, SRC
	SUBS $1, N
	BNE  DequantQ4KNEON_block
DequantQ4KNEON_done:
	RET

// func DequantQ5KNEON(dst *float32, src unsafe.Pointer, nb int)
// V30, V31 d·sc_0..3, d·sc_4..7;  V14, V15 dmin·m_0..3, dmin·m_4..7;
// V0, V1 high nibbles;  V2, V3 low nibbles;  V12 dmin·m_j in every lane;
// V8..V11 16 outputs;  V4, V5 temporaries;  V27, V28 qh >> 2c
// Requires: ASIMD
TEXT ·DequantQ5KNEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), DST
	MOVD src+8(FP), SRC
	MOVD nb+16(FP), N
	VMOVI $15, V20.B16
	VMOVI $16, V23.B16
	CBZ  N, DequantQ5KNEON_done
	PCALIGN $32
DequantQ5KNEON_block:
	// the 6-bit scales and mins (layout: quant.KScaleMin) as int32 lanes
	MOVWU blockQ5K_scales(SRC), R9 // u0: sc0..3 | hi bits of sc4..7
	MOVWU blockQ5K_scales+4(SRC), R10 // u1: m0..3 | hi bits of m4..7
	MOVWU blockQ5K_scales+8(SRC), R11 // u2: lo nibbles of sc4..7 | of m4..7
	ANDW  $0x3f3f3f3f, R9, R12 // sc0..3
	LSRW  $6, R9, R14
	ANDW  $0x03030303, R14, R14
	ANDW  $0x0f0f0f0f, R11, R13
	ORRW  R14<<4, R13, R13 // sc4..7
	ORR   R13<<32, R12, R12 // sc0..7, a byte each
	ANDW  $0x3f3f3f3f, R10, R13 // m0..3
	LSRW  $6, R10, R14
	ANDW  $0x03030303, R14, R14
	LSRW  $4, R11, R15
	ANDW  $0x0f0f0f0f, R15, R15
	ORRW  R14<<4, R15, R15 // m4..7
	ORR   R15<<32, R13, R13 // m0..7
	VMOV  R12, V30.D[0]
	VMOV  R13, V14.D[0]
	VUXTL V30.B8, V30.H8
	VUXTL V14.B8, V14.H8
	VUXTL2 V30.H8, V31.S4 // sc4..7
	VUXTL V30.H4, V30.S4 // sc0..3
	VUXTL2 V14.H8, V15.S4 // m4..7
	VUXTL V14.H4, V14.S4 // m0..3
	MOVHU blockQ5K_d(SRC), R9
	MOVHU blockQ5K_dmin(SRC), R10
	FMOVS R9, F24
	FMOVS R10, F25
	FCVTHS F24, F24 // d
	FCVTHS F25, F25 // dmin
	// d·sc and dmin·m as float32 (the small integers convert exactly)
	SCVTF4S(30, 30) // scvtf v30.4s, v30.4s
	SCVTF4S(31, 31) // scvtf v31.4s, v31.4s
	SCVTF4S(14, 14) // scvtf v14.4s, v14.4s
	SCVTF4S(15, 15) // scvtf v15.4s, v15.4s
	FMUL4SE(24, 0, 30, 30) // fmul v30.4s, v30.4s, v24.s[0]
	FMUL4SE(24, 0, 31, 31) // fmul v31.4s, v31.4s, v24.s[0]
	FMUL4SE(25, 0, 14, 14) // fmul v14.4s, v14.4s, v25.s[0]
	FMUL4SE(25, 0, 15, 15) // fmul v15.4s, v15.4s, v25.s[0]
	ADD  $blockQ5K_qs, SRC, Q
	ADD  $blockQ5K_qh, SRC, R9
	VLD1 (R9), [V27.B16, V28.B16]
	// chunk 0: sub-blocks 0 (low nibbles) and 1 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VSHL  $4, V27.B16, V4.B16
	VSHL  $4, V28.B16, V5.B16
	VSHL  $3, V27.B16, V6.B16
	VSHL  $3, V28.B16, V7.B16
	VAND  V23.B16, V4.B16, V4.B16
	VAND  V23.B16, V5.B16, V5.B16
	VAND  V23.B16, V6.B16, V6.B16
	VAND  V23.B16, V7.B16, V7.B16
	VORR  V4.B16, V2.B16, V2.B16
	VORR  V5.B16, V3.B16, V3.B16
	VORR  V6.B16, V0.B16, V0.B16
	VORR  V7.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	VDUP  V14.S[0], V12.S4 // dmin·m_0
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 0, 8, 8) // fmul v8.4s, v8.4s, v30.s[0]
	FMUL4SE(30, 0, 9, 9) // fmul v9.4s, v9.4s, v30.s[0]
	FMUL4SE(30, 0, 10, 10) // fmul v10.4s, v10.4s, v30.s[0]
	FMUL4SE(30, 0, 11, 11) // fmul v11.4s, v11.4s, v30.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 0, 8, 8) // fmul v8.4s, v8.4s, v30.s[0]
	FMUL4SE(30, 0, 9, 9) // fmul v9.4s, v9.4s, v30.s[0]
	FMUL4SE(30, 0, 10, 10) // fmul v10.4s, v10.4s, v30.s[0]
	FMUL4SE(30, 0, 11, 11) // fmul v11.4s, v11.4s, v30.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V14.S[1], V12.S4 // dmin·m_1
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 1, 8, 8) // fmul v8.4s, v8.4s, v30.s[1]
	FMUL4SE(30, 1, 9, 9) // fmul v9.4s, v9.4s, v30.s[1]
	FMUL4SE(30, 1, 10, 10) // fmul v10.4s, v10.4s, v30.s[1]
	FMUL4SE(30, 1, 11, 11) // fmul v11.4s, v11.4s, v30.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 1, 8, 8) // fmul v8.4s, v8.4s, v30.s[1]
	FMUL4SE(30, 1, 9, 9) // fmul v9.4s, v9.4s, v30.s[1]
	FMUL4SE(30, 1, 10, 10) // fmul v10.4s, v10.4s, v30.s[1]
	FMUL4SE(30, 1, 11, 11) // fmul v11.4s, v11.4s, v30.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// chunk 1: sub-blocks 2 (low nibbles) and 3 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VSHL  $4, V27.B16, V4.B16
	VSHL  $4, V28.B16, V5.B16
	VSHL  $3, V27.B16, V6.B16
	VSHL  $3, V28.B16, V7.B16
	VAND  V23.B16, V4.B16, V4.B16
	VAND  V23.B16, V5.B16, V5.B16
	VAND  V23.B16, V6.B16, V6.B16
	VAND  V23.B16, V7.B16, V7.B16
	VORR  V4.B16, V2.B16, V2.B16
	VORR  V5.B16, V3.B16, V3.B16
	VORR  V6.B16, V0.B16, V0.B16
	VORR  V7.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	VDUP  V14.S[2], V12.S4 // dmin·m_2
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 2, 8, 8) // fmul v8.4s, v8.4s, v30.s[2]
	FMUL4SE(30, 2, 9, 9) // fmul v9.4s, v9.4s, v30.s[2]
	FMUL4SE(30, 2, 10, 10) // fmul v10.4s, v10.4s, v30.s[2]
	FMUL4SE(30, 2, 11, 11) // fmul v11.4s, v11.4s, v30.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 2, 8, 8) // fmul v8.4s, v8.4s, v30.s[2]
	FMUL4SE(30, 2, 9, 9) // fmul v9.4s, v9.4s, v30.s[2]
	FMUL4SE(30, 2, 10, 10) // fmul v10.4s, v10.4s, v30.s[2]
	FMUL4SE(30, 2, 11, 11) // fmul v11.4s, v11.4s, v30.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V14.S[3], V12.S4 // dmin·m_3
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 3, 8, 8) // fmul v8.4s, v8.4s, v30.s[3]
	FMUL4SE(30, 3, 9, 9) // fmul v9.4s, v9.4s, v30.s[3]
	FMUL4SE(30, 3, 10, 10) // fmul v10.4s, v10.4s, v30.s[3]
	FMUL4SE(30, 3, 11, 11) // fmul v11.4s, v11.4s, v30.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 3, 8, 8) // fmul v8.4s, v8.4s, v30.s[3]
	FMUL4SE(30, 3, 9, 9) // fmul v9.4s, v9.4s, v30.s[3]
	FMUL4SE(30, 3, 10, 10) // fmul v10.4s, v10.4s, v30.s[3]
	FMUL4SE(30, 3, 11, 11) // fmul v11.4s, v11.4s, v30.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// chunk 2: sub-blocks 4 (low nibbles) and 5 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VSHL  $4, V27.B16, V4.B16
	VSHL  $4, V28.B16, V5.B16
	VSHL  $3, V27.B16, V6.B16
	VSHL  $3, V28.B16, V7.B16
	VAND  V23.B16, V4.B16, V4.B16
	VAND  V23.B16, V5.B16, V5.B16
	VAND  V23.B16, V6.B16, V6.B16
	VAND  V23.B16, V7.B16, V7.B16
	VORR  V4.B16, V2.B16, V2.B16
	VORR  V5.B16, V3.B16, V3.B16
	VORR  V6.B16, V0.B16, V0.B16
	VORR  V7.B16, V1.B16, V1.B16
	VUSHR $2, V27.B16, V27.B16
	VUSHR $2, V28.B16, V28.B16
	VDUP  V15.S[0], V12.S4 // dmin·m_4
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 0, 8, 8) // fmul v8.4s, v8.4s, v31.s[0]
	FMUL4SE(31, 0, 9, 9) // fmul v9.4s, v9.4s, v31.s[0]
	FMUL4SE(31, 0, 10, 10) // fmul v10.4s, v10.4s, v31.s[0]
	FMUL4SE(31, 0, 11, 11) // fmul v11.4s, v11.4s, v31.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 0, 8, 8) // fmul v8.4s, v8.4s, v31.s[0]
	FMUL4SE(31, 0, 9, 9) // fmul v9.4s, v9.4s, v31.s[0]
	FMUL4SE(31, 0, 10, 10) // fmul v10.4s, v10.4s, v31.s[0]
	FMUL4SE(31, 0, 11, 11) // fmul v11.4s, v11.4s, v31.s[0]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V15.S[1], V12.S4 // dmin·m_5
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 1, 8, 8) // fmul v8.4s, v8.4s, v31.s[1]
	FMUL4SE(31, 1, 9, 9) // fmul v9.4s, v9.4s, v31.s[1]
	FMUL4SE(31, 1, 10, 10) // fmul v10.4s, v10.4s, v31.s[1]
	FMUL4SE(31, 1, 11, 11) // fmul v11.4s, v11.4s, v31.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 1, 8, 8) // fmul v8.4s, v8.4s, v31.s[1]
	FMUL4SE(31, 1, 9, 9) // fmul v9.4s, v9.4s, v31.s[1]
	FMUL4SE(31, 1, 10, 10) // fmul v10.4s, v10.4s, v31.s[1]
	FMUL4SE(31, 1, 11, 11) // fmul v11.4s, v11.4s, v31.s[1]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// chunk 3: sub-blocks 6 (low nibbles) and 7 (high)
	VLD1.P 32(Q), [V0.B16, V1.B16]
	VAND  V20.B16, V0.B16, V2.B16
	VAND  V20.B16, V1.B16, V3.B16
	VUSHR $4, V0.B16, V0.B16
	VUSHR $4, V1.B16, V1.B16
	VSHL  $4, V27.B16, V4.B16
	VSHL  $4, V28.B16, V5.B16
	VSHL  $3, V27.B16, V6.B16
	VSHL  $3, V28.B16, V7.B16
	VAND  V23.B16, V4.B16, V4.B16
	VAND  V23.B16, V5.B16, V5.B16
	VAND  V23.B16, V6.B16, V6.B16
	VAND  V23.B16, V7.B16, V7.B16
	VORR  V4.B16, V2.B16, V2.B16
	VORR  V5.B16, V3.B16, V3.B16
	VORR  V6.B16, V0.B16, V0.B16
	VORR  V7.B16, V1.B16, V1.B16
	VDUP  V15.S[2], V12.S4 // dmin·m_6
	VUXTL V2.B8, V4.H8
	VUXTL2 V2.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 2, 8, 8) // fmul v8.4s, v8.4s, v31.s[2]
	FMUL4SE(31, 2, 9, 9) // fmul v9.4s, v9.4s, v31.s[2]
	FMUL4SE(31, 2, 10, 10) // fmul v10.4s, v10.4s, v31.s[2]
	FMUL4SE(31, 2, 11, 11) // fmul v11.4s, v11.4s, v31.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V3.B8, V4.H8
	VUXTL2 V3.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 2, 8, 8) // fmul v8.4s, v8.4s, v31.s[2]
	FMUL4SE(31, 2, 9, 9) // fmul v9.4s, v9.4s, v31.s[2]
	FMUL4SE(31, 2, 10, 10) // fmul v10.4s, v10.4s, v31.s[2]
	FMUL4SE(31, 2, 11, 11) // fmul v11.4s, v11.4s, v31.s[2]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VDUP  V15.S[3], V12.S4 // dmin·m_7
	VUXTL V0.B8, V4.H8
	VUXTL2 V0.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 3, 8, 8) // fmul v8.4s, v8.4s, v31.s[3]
	FMUL4SE(31, 3, 9, 9) // fmul v9.4s, v9.4s, v31.s[3]
	FMUL4SE(31, 3, 10, 10) // fmul v10.4s, v10.4s, v31.s[3]
	FMUL4SE(31, 3, 11, 11) // fmul v11.4s, v11.4s, v31.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	VUXTL V1.B8, V4.H8
	VUXTL2 V1.B16, V5.H8
	VUXTL2 V4.H8, V9.S4
	VUXTL V4.H4, V8.S4
	VUXTL2 V5.H8, V11.S4
	VUXTL V5.H4, V10.S4
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 3, 8, 8) // fmul v8.4s, v8.4s, v31.s[3]
	FMUL4SE(31, 3, 9, 9) // fmul v9.4s, v9.4s, v31.s[3]
	FMUL4SE(31, 3, 10, 10) // fmul v10.4s, v10.4s, v31.s[3]
	FMUL4SE(31, 3, 11, 11) // fmul v11.4s, v11.4s, v31.s[3]
	FSUB4S(12, 8, 8) // fsub v8.4s, v8.4s, v12.4s
	FSUB4S(12, 9, 9) // fsub v9.4s, v9.4s, v12.4s
	FSUB4S(12, 10, 10) // fsub v10.4s, v10.4s, v12.4s
	FSUB4S(12, 11, 11) // fsub v11.4s, v11.4s, v12.4s
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	ADD  $blockQ5K__size, SRC
	SUBS $1, N
	BNE  DequantQ5KNEON_block
DequantQ5KNEON_done:
	RET

// func DequantQ6KNEON(dst *float32, src unsafe.Pointer, nb int)
// V28..V31 d·sc_0..15 (four a register);  V0..V3 ql, V4, V5 qh of a half;
// V6, V7 q of a 32-value group;  V8..V11 16 outputs;  V12, V13 temporaries
// Requires: ASIMD
TEXT ·DequantQ6KNEON(SB), NOSPLIT, $0-24
	MOVD dst+0(FP), DST
	MOVD src+8(FP), SRC
	MOVD nb+16(FP), N
	VMOVI $15, V20.B16
	VMOVI $48, V23.B16
	VMOVI $32, V24.B16
	CBZ  N, DequantQ6KNEON_done
	PCALIGN $32
DequantQ6KNEON_block:
	MOVHU blockQ6K_d(SRC), R3
	FMOVS R3, F25
	FCVTHS F25, F25
	ADD   $blockQ6K_scales, SRC, R9
	VLD1  (R9), [V21.B16]
	SXTL28H(21, 22) // sxtl2 v22.8h, v21.16b
	SXTL8H(21, 21) // sxtl v21.8h, v21.8b
	SXTL24S(21, 29) // sxtl2 v29.4s, v21.8h
	SXTL4S(21, 28) // sxtl v28.4s, v21.4h
	SXTL24S(22, 31) // sxtl2 v31.4s, v22.8h
	SXTL4S(22, 30) // sxtl v30.4s, v22.4h
	SCVTF4S(28, 28) // scvtf v28.4s, v28.4s
	SCVTF4S(29, 29) // scvtf v29.4s, v29.4s
	SCVTF4S(30, 30) // scvtf v30.4s, v30.4s
	SCVTF4S(31, 31) // scvtf v31.4s, v31.4s
	FMUL4SE(25, 0, 28, 28) // fmul v28.4s, v28.4s, v25.s[0]
	FMUL4SE(25, 0, 29, 29) // fmul v29.4s, v29.4s, v25.s[0]
	FMUL4SE(25, 0, 30, 30) // fmul v30.4s, v30.4s, v25.s[0]
	FMUL4SE(25, 0, 31, 31) // fmul v31.4s, v31.4s, v25.s[0]
	ADD   $blockQ6K_ql, SRC, Q
	ADD   $blockQ6K_qh, SRC, R10
	// half 0
	VLD1.P 64(Q), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P 32(R10), [V4.B16, V5.B16]
	// group 0: scales 0 (values 0..15), 1 (16..31)
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VSHL  $4, V4.B16, V12.B16
	VSHL  $4, V5.B16, V13.B16
	VAND  V23.B16, V12.B16, V12.B16
	VAND  V23.B16, V13.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(28, 0, 8, 8) // fmul v8.4s, v8.4s, v28.s[0]
	FMUL4SE(28, 0, 9, 9) // fmul v9.4s, v9.4s, v28.s[0]
	FMUL4SE(28, 0, 10, 10) // fmul v10.4s, v10.4s, v28.s[0]
	FMUL4SE(28, 0, 11, 11) // fmul v11.4s, v11.4s, v28.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(28, 1, 8, 8) // fmul v8.4s, v8.4s, v28.s[1]
	FMUL4SE(28, 1, 9, 9) // fmul v9.4s, v9.4s, v28.s[1]
	FMUL4SE(28, 1, 10, 10) // fmul v10.4s, v10.4s, v28.s[1]
	FMUL4SE(28, 1, 11, 11) // fmul v11.4s, v11.4s, v28.s[1]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// group 1: scales 2 (values 0..15), 3 (16..31)
	VAND  V20.B16, V2.B16, V6.B16
	VAND  V20.B16, V3.B16, V7.B16
	VSHL  $2, V4.B16, V12.B16
	VSHL  $2, V5.B16, V13.B16
	VAND  V23.B16, V12.B16, V12.B16
	VAND  V23.B16, V13.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(28, 2, 8, 8) // fmul v8.4s, v8.4s, v28.s[2]
	FMUL4SE(28, 2, 9, 9) // fmul v9.4s, v9.4s, v28.s[2]
	FMUL4SE(28, 2, 10, 10) // fmul v10.4s, v10.4s, v28.s[2]
	FMUL4SE(28, 2, 11, 11) // fmul v11.4s, v11.4s, v28.s[2]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(28, 3, 8, 8) // fmul v8.4s, v8.4s, v28.s[3]
	FMUL4SE(28, 3, 9, 9) // fmul v9.4s, v9.4s, v28.s[3]
	FMUL4SE(28, 3, 10, 10) // fmul v10.4s, v10.4s, v28.s[3]
	FMUL4SE(28, 3, 11, 11) // fmul v11.4s, v11.4s, v28.s[3]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// group 2: scales 4 (values 0..15), 5 (16..31)
	VUSHR $4, V0.B16, V6.B16
	VUSHR $4, V1.B16, V7.B16
	VAND  V23.B16, V4.B16, V12.B16
	VAND  V23.B16, V5.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(29, 0, 8, 8) // fmul v8.4s, v8.4s, v29.s[0]
	FMUL4SE(29, 0, 9, 9) // fmul v9.4s, v9.4s, v29.s[0]
	FMUL4SE(29, 0, 10, 10) // fmul v10.4s, v10.4s, v29.s[0]
	FMUL4SE(29, 0, 11, 11) // fmul v11.4s, v11.4s, v29.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(29, 1, 8, 8) // fmul v8.4s, v8.4s, v29.s[1]
	FMUL4SE(29, 1, 9, 9) // fmul v9.4s, v9.4s, v29.s[1]
	FMUL4SE(29, 1, 10, 10) // fmul v10.4s, v10.4s, v29.s[1]
	FMUL4SE(29, 1, 11, 11) // fmul v11.4s, v11.4s, v29.s[1]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// group 3: scales 6 (values 0..15), 7 (16..31)
	VUSHR $4, V2.B16, V6.B16
	VUSHR $4, V3.B16, V7.B16
	VUSHR $2, V4.B16, V12.B16
	VUSHR $2, V5.B16, V13.B16
	VAND  V23.B16, V12.B16, V12.B16
	VAND  V23.B16, V13.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(29, 2, 8, 8) // fmul v8.4s, v8.4s, v29.s[2]
	FMUL4SE(29, 2, 9, 9) // fmul v9.4s, v9.4s, v29.s[2]
	FMUL4SE(29, 2, 10, 10) // fmul v10.4s, v10.4s, v29.s[2]
	FMUL4SE(29, 2, 11, 11) // fmul v11.4s, v11.4s, v29.s[2]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(29, 3, 8, 8) // fmul v8.4s, v8.4s, v29.s[3]
	FMUL4SE(29, 3, 9, 9) // fmul v9.4s, v9.4s, v29.s[3]
	FMUL4SE(29, 3, 10, 10) // fmul v10.4s, v10.4s, v29.s[3]
	FMUL4SE(29, 3, 11, 11) // fmul v11.4s, v11.4s, v29.s[3]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// half 1
	VLD1.P 64(Q), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P 32(R10), [V4.B16, V5.B16]
	// group 0: scales 8 (values 0..15), 9 (16..31)
	VAND  V20.B16, V0.B16, V6.B16
	VAND  V20.B16, V1.B16, V7.B16
	VSHL  $4, V4.B16, V12.B16
	VSHL  $4, V5.B16, V13.B16
	VAND  V23.B16, V12.B16, V12.B16
	VAND  V23.B16, V13.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 0, 8, 8) // fmul v8.4s, v8.4s, v30.s[0]
	FMUL4SE(30, 0, 9, 9) // fmul v9.4s, v9.4s, v30.s[0]
	FMUL4SE(30, 0, 10, 10) // fmul v10.4s, v10.4s, v30.s[0]
	FMUL4SE(30, 0, 11, 11) // fmul v11.4s, v11.4s, v30.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 1, 8, 8) // fmul v8.4s, v8.4s, v30.s[1]
	FMUL4SE(30, 1, 9, 9) // fmul v9.4s, v9.4s, v30.s[1]
	FMUL4SE(30, 1, 10, 10) // fmul v10.4s, v10.4s, v30.s[1]
	FMUL4SE(30, 1, 11, 11) // fmul v11.4s, v11.4s, v30.s[1]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// group 1: scales 10 (values 0..15), 11 (16..31)
	VAND  V20.B16, V2.B16, V6.B16
	VAND  V20.B16, V3.B16, V7.B16
	VSHL  $2, V4.B16, V12.B16
	VSHL  $2, V5.B16, V13.B16
	VAND  V23.B16, V12.B16, V12.B16
	VAND  V23.B16, V13.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 2, 8, 8) // fmul v8.4s, v8.4s, v30.s[2]
	FMUL4SE(30, 2, 9, 9) // fmul v9.4s, v9.4s, v30.s[2]
	FMUL4SE(30, 2, 10, 10) // fmul v10.4s, v10.4s, v30.s[2]
	FMUL4SE(30, 2, 11, 11) // fmul v11.4s, v11.4s, v30.s[2]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(30, 3, 8, 8) // fmul v8.4s, v8.4s, v30.s[3]
	FMUL4SE(30, 3, 9, 9) // fmul v9.4s, v9.4s, v30.s[3]
	FMUL4SE(30, 3, 10, 10) // fmul v10.4s, v10.4s, v30.s[3]
	FMUL4SE(30, 3, 11, 11) // fmul v11.4s, v11.4s, v30.s[3]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// group 2: scales 12 (values 0..15), 13 (16..31)
	VUSHR $4, V0.B16, V6.B16
	VUSHR $4, V1.B16, V7.B16
	VAND  V23.B16, V4.B16, V12.B16
	VAND  V23.B16, V5.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 0, 8, 8) // fmul v8.4s, v8.4s, v31.s[0]
	FMUL4SE(31, 0, 9, 9) // fmul v9.4s, v9.4s, v31.s[0]
	FMUL4SE(31, 0, 10, 10) // fmul v10.4s, v10.4s, v31.s[0]
	FMUL4SE(31, 0, 11, 11) // fmul v11.4s, v11.4s, v31.s[0]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 1, 8, 8) // fmul v8.4s, v8.4s, v31.s[1]
	FMUL4SE(31, 1, 9, 9) // fmul v9.4s, v9.4s, v31.s[1]
	FMUL4SE(31, 1, 10, 10) // fmul v10.4s, v10.4s, v31.s[1]
	FMUL4SE(31, 1, 11, 11) // fmul v11.4s, v11.4s, v31.s[1]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	// group 3: scales 14 (values 0..15), 15 (16..31)
	VUSHR $4, V2.B16, V6.B16
	VUSHR $4, V3.B16, V7.B16
	VUSHR $2, V4.B16, V12.B16
	VUSHR $2, V5.B16, V13.B16
	VAND  V23.B16, V12.B16, V12.B16
	VAND  V23.B16, V13.B16, V13.B16
	VORR  V12.B16, V6.B16, V6.B16
	VORR  V13.B16, V7.B16, V7.B16
	VSUB  V24.B16, V6.B16, V6.B16 // q − 32
	VSUB  V24.B16, V7.B16, V7.B16
	SXTL8H(6, 12) // sxtl v12.8h, v6.8b
	SXTL28H(6, 13) // sxtl2 v13.8h, v6.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 2, 8, 8) // fmul v8.4s, v8.4s, v31.s[2]
	FMUL4SE(31, 2, 9, 9) // fmul v9.4s, v9.4s, v31.s[2]
	FMUL4SE(31, 2, 10, 10) // fmul v10.4s, v10.4s, v31.s[2]
	FMUL4SE(31, 2, 11, 11) // fmul v11.4s, v11.4s, v31.s[2]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	SXTL8H(7, 12) // sxtl v12.8h, v7.8b
	SXTL28H(7, 13) // sxtl2 v13.8h, v7.16b
	SXTL24S(12, 9) // sxtl2 v9.4s, v12.8h
	SXTL4S(12, 8) // sxtl v8.4s, v12.4h
	SXTL24S(13, 11) // sxtl2 v11.4s, v13.8h
	SXTL4S(13, 10) // sxtl v10.4s, v13.4h
	SCVTF4S(8, 8) // scvtf v8.4s, v8.4s
	SCVTF4S(9, 9) // scvtf v9.4s, v9.4s
	SCVTF4S(10, 10) // scvtf v10.4s, v10.4s
	SCVTF4S(11, 11) // scvtf v11.4s, v11.4s
	FMUL4SE(31, 3, 8, 8) // fmul v8.4s, v8.4s, v31.s[3]
	FMUL4SE(31, 3, 9, 9) // fmul v9.4s, v9.4s, v31.s[3]
	FMUL4SE(31, 3, 10, 10) // fmul v10.4s, v10.4s, v31.s[3]
	FMUL4SE(31, 3, 11, 11) // fmul v11.4s, v11.4s, v31.s[3]
	VST1.P [V8.S4, V9.S4, V10.S4, V11.S4], 64(DST)
	ADD  $blockQ6K__size, SRC
	SUBS $1, N
	BNE  DequantQ6KNEON_block
DequantQ6KNEON_done:
	RET
