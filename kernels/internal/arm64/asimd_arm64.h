// A64 vector instructions that the Go assembler does not know, one macro
// per instruction form. Arguments are register numbers (0..31 for V0..V31)
// and, for by-element forms, the lane index. Operands are in Go order:
// sources first, destination last, as in VADD Vm, Vn, Vd.
//
// Every use must carry the instruction in GNU syntax as its trailing
// comment, e.g.
//
//	SDOT(2, 6, 8) // sdot v8.4s, v6.16b, v2.16b
//
// scripts/asmcheck-arm64 assembles each use with the Go assembler and each
// comment with an A64 assembler and fails on any difference.
//
// Fields (Arm ARM, "Advanced SIMD" encodings): Rd bits 4:0, Rn bits 9:5,
// Rm bits 20:16. A 32-bit by-element index i is H:L, H bit 11 and L bit 21,
// with M:Rm (bits 20:16) naming any of V0..V31.

// FEAT_DotProd: four adjacent signed byte products summed into each
// 32-bit lane, Vd.S[l] += Σ_{i<4} Vn.B[4l+i]·Vm.B[4l+i].
#define SDOT(m, n, d) WORD $(0x4e809400 | ((m)<<16) | ((n)<<5) | (d))

// ASIMD integer.
// smull vd.8h, vn.8b, vm.8b: signed 8×8→16-bit products of the low halves.
#define SMULL(m, n, d) WORD $(0x0e20c000 | ((m)<<16) | ((n)<<5) | (d))
// smull2 vd.8h, vn.16b, vm.16b: the same for the high halves.
#define SMULL2(m, n, d) WORD $(0x4e20c000 | ((m)<<16) | ((n)<<5) | (d))
// saddlp vd.4s, vn.8h: signed pairwise add long, 16→32 bits.
#define SADDLP(n, d) WORD $(0x4e602800 | ((n)<<5) | (d))
// mul vd.4s, vn.4s, vm.4s.
#define MUL4S(m, n, d) WORD $(0x4ea09c00 | ((m)<<16) | ((n)<<5) | (d))
// mla vd.4s, vn.4s, vm.s[i]: Vd += Vn · Vm.S[i].
#define MLA4SE(m, i, n, d) WORD $(0x6f800000 | (((i)&1)<<21) | ((m)<<16) | (((i)>>1)<<11) | ((n)<<5) | (d))
// sxtl vd.8h, vn.8b (sshll #0) and sxtl2 vd.8h, vn.16b: sign-extend bytes.
#define SXTL8H(n, d) WORD $(0x0f08a400 | ((n)<<5) | (d))
#define SXTL28H(n, d) WORD $(0x4f08a400 | ((n)<<5) | (d))
// sxtl vd.4s, vn.4h and sxtl2 vd.4s, vn.8h: sign-extend halfwords.
#define SXTL4S(n, d) WORD $(0x0f10a400 | ((n)<<5) | (d))
#define SXTL24S(n, d) WORD $(0x4f10a400 | ((n)<<5) | (d))

// ASIMD floating point, single precision, four lanes. Each rounds on its
// own; nothing here fuses a multiply with an add.
// scvtf vd.4s, vn.4s: int32 → float32, round to nearest even.
#define SCVTF4S(n, d) WORD $(0x4e21d800 | ((n)<<5) | (d))
// fadd vd.4s, vn.4s, vm.4s.
#define FADD4S(m, n, d) WORD $(0x4e20d400 | ((m)<<16) | ((n)<<5) | (d))
// fmul vd.4s, vn.4s, vm.4s.
#define FMUL4S(m, n, d) WORD $(0x6e20dc00 | ((m)<<16) | ((n)<<5) | (d))
// fmul vd.4s, vn.4s, vm.s[i].
#define FMUL4SE(m, i, n, d) WORD $(0x4f809000 | (((i)&1)<<21) | ((m)<<16) | (((i)>>1)<<11) | ((n)<<5) | (d))
// faddp sd, vn.2s: Vn.S[0] + Vn.S[1] into a scalar.
#define FADDP2S(n, d) WORD $(0x7e30d800 | ((n)<<5) | (d))
// fmax vd.4s, vn.4s, vm.4s and fmaxv sd, vn.4s.
#define FMAX4S(m, n, d) WORD $(0x4e20f400 | ((m)<<16) | ((n)<<5) | (d))
#define FMAXV4S(n, d) WORD $(0x6e30f800 | ((n)<<5) | (d))
// fabs vd.4s, vn.4s.
#define FABS4S(n, d) WORD $(0x4ea0f800 | ((n)<<5) | (d))
// fcvtns vd.4s, vn.4s: float32 → int32, round to nearest, ties to even.
#define FCVTNS4S(n, d) WORD $(0x4e21a800 | ((n)<<5) | (d))
// fcvtas vd.4s, vn.4s: float32 → int32, round to nearest, ties away from zero.
#define FCVTAS4S(n, d) WORD $(0x4e21c800 | ((n)<<5) | (d))
// fsub vd.4s, vn.4s, vm.4s.
#define FSUB4S(m, n, d) WORD $(0x4ea0d400 | ((m)<<16) | ((n)<<5) | (d))
// frintm vd.4s, vn.4s: round toward −∞ to an integral float.
#define FRINTM4S(n, d) WORD $(0x4e219800 | ((n)<<5) | (d))
// fcvtzs vd.4s, vn.4s: float32 → int32, toward zero.
#define FCVTZS4S(n, d) WORD $(0x4ea1b800 | ((n)<<5) | (d))
// fcmgt vd.4s, vn.4s, vm.4s: all ones where Vn > Vm (false for NaN).
#define FCMGT4S(m, n, d) WORD $(0x6ea0e400 | ((m)<<16) | ((n)<<5) | (d))
// fcmeq vd.4s, vn.4s, vm.4s: all ones where Vn = Vm (false for NaN).
#define FCMEQ4S(m, n, d) WORD $(0x4e20e400 | ((m)<<16) | ((n)<<5) | (d))
// cmgt vd.4s, vn.4s, vm.4s: all ones where Vn > Vm, signed.
#define CMGT4S(m, n, d) WORD $(0x4ea03400 | ((m)<<16) | ((n)<<5) | (d))
