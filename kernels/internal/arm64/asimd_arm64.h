// A64 vector instructions that the Go assembler does not know, one macro
// per instruction form. Arguments are register numbers (0..31 for V0..V31)
// and, for by-element forms, the lane index i (0..3; h, 0..1, for 64-bit
// lanes). Operands are in Go
// order: sources first, destination last, as in VADD Vm, Vn, Vd.
//
// The comment that ends each #define is the instruction in GNU syntax with
// the arguments in braces. scripts/asmcheck-arm64 assembles every macro
// with the Go assembler for every value of its arguments and the comment,
// filled in, with llvm-mc and GNU as, and fails on any difference; it also
// fails on a raw WORD outside this file. A use is just the macro:
//
//	SDOT(xa, wl, s0)
//
// with the registers named by role (see dot_arm64.h for the convention).
//
// Fields (Arm ARM, "Advanced SIMD" encodings): Rd bits 4:0, Rn bits 9:5,
// Rm bits 20:16. A 32-bit by-element index i is H:L, H bit 11 and L bit 21,
// with M:Rm (bits 20:16) naming any of V0..V31.

// FEAT_DotProd: four adjacent signed byte products summed into each
// 32-bit lane, Vd.S[l] += Σ_{i<4} Vn.B[4l+i]·Vm.B[4l+i].
#define SDOT(m, n, d) WORD $(0x4e809400 | ((m)<<16) | ((n)<<5) | (d)) // sdot v{d}.4s, v{n}.16b, v{m}.16b

// ASIMD integer.
// Signed 8×8→16-bit products of the low halves, of the high halves; and
// the same added to Vd.
#define SMULL(m, n, d) WORD $(0x0e20c000 | ((m)<<16) | ((n)<<5) | (d)) // smull v{d}.8h, v{n}.8b, v{m}.8b
#define SMULL2(m, n, d) WORD $(0x4e20c000 | ((m)<<16) | ((n)<<5) | (d)) // smull2 v{d}.8h, v{n}.16b, v{m}.16b
#define SMLAL(m, n, d) WORD $(0x0e208000 | ((m)<<16) | ((n)<<5) | (d)) // smlal v{d}.8h, v{n}.8b, v{m}.8b
#define SMLAL2(m, n, d) WORD $(0x4e208000 | ((m)<<16) | ((n)<<5) | (d)) // smlal2 v{d}.8h, v{n}.16b, v{m}.16b
// Signed pairwise add long, 16→32 bits; signed add long across the eight
// halfwords into a 32-bit scalar.
#define SADDLP(n, d) WORD $(0x4e602800 | ((n)<<5) | (d)) // saddlp v{d}.4s, v{n}.8h
#define SADDLV(n, d) WORD $(0x4e703800 | ((n)<<5) | (d)) // saddlv s{d}, v{n}.8h
// Vd = Vn·Vm, and Vd += Vn·Vm.S[i], 32-bit lanes.
#define MUL4S(m, n, d) WORD $(0x4ea09c00 | ((m)<<16) | ((n)<<5) | (d)) // mul v{d}.4s, v{n}.4s, v{m}.4s
#define MLA4SE(m, i, n, d) WORD $(0x6f800000 | (((i)&1)<<21) | ((m)<<16) | (((i)>>1)<<11) | ((n)<<5) | (d)) // mla v{d}.4s, v{n}.4s, v{m}.s[{i}]
// Sign-extend the low and the high bytes to halfwords, and halfwords to
// words (sshll, sshll2 by 0).
#define SXTL8H(n, d) WORD $(0x0f08a400 | ((n)<<5) | (d)) // sxtl v{d}.8h, v{n}.8b
#define SXTL28H(n, d) WORD $(0x4f08a400 | ((n)<<5) | (d)) // sxtl2 v{d}.8h, v{n}.16b
#define SXTL4S(n, d) WORD $(0x0f10a400 | ((n)<<5) | (d)) // sxtl v{d}.4s, v{n}.4h
#define SXTL24S(n, d) WORD $(0x4f10a400 | ((n)<<5) | (d)) // sxtl2 v{d}.4s, v{n}.8h
// All ones where Vn > Vm, signed 16-bit and 32-bit lanes.
#define CMGT8H(m, n, d) WORD $(0x4e603400 | ((m)<<16) | ((n)<<5) | (d)) // cmgt v{d}.8h, v{n}.8h, v{m}.8h
#define CMGT4S(m, n, d) WORD $(0x4ea03400 | ((m)<<16) | ((n)<<5) | (d)) // cmgt v{d}.4s, v{n}.4s, v{m}.4s

// ASIMD floating point, single precision, four lanes unless named scalar.
// Each rounds on its own; nothing here fuses a multiply with an add.
// int32 → float32, round to nearest even: four lanes, and the scalar in
// lane 0.
#define SCVTF4S(n, d) WORD $(0x4e21d800 | ((n)<<5) | (d)) // scvtf v{d}.4s, v{n}.4s
#define SCVTFS(n, d) WORD $(0x5e21d800 | ((n)<<5) | (d)) // scvtf s{d}, s{n}
#define FADD4S(m, n, d) WORD $(0x4e20d400 | ((m)<<16) | ((n)<<5) | (d)) // fadd v{d}.4s, v{n}.4s, v{m}.4s
#define FSUB4S(m, n, d) WORD $(0x4ea0d400 | ((m)<<16) | ((n)<<5) | (d)) // fsub v{d}.4s, v{n}.4s, v{m}.4s
#define FNEG4S(n, d) WORD $(0x6ea0f800 | ((n)<<5) | (d)) // fneg v{d}.4s, v{n}.4s
// fdiv vd.4s, vn.4s, vm.4s: Vd = Vn / Vm, correctly rounded.
#define FDIV4S(m, n, d) WORD $(0x6e20fc00 | ((m)<<16) | ((n)<<5) | (d)) // fdiv v{d}.4s, v{n}.4s, v{m}.4s
#define FMUL4S(m, n, d) WORD $(0x6e20dc00 | ((m)<<16) | ((n)<<5) | (d)) // fmul v{d}.4s, v{n}.4s, v{m}.4s
#define FMUL4SE(m, i, n, d) WORD $(0x4f809000 | (((i)&1)<<21) | ((m)<<16) | (((i)>>1)<<11) | ((n)<<5) | (d)) // fmul v{d}.4s, v{n}.4s, v{m}.s[{i}]
// Vn.S[0] + Vn.S[1] into a scalar.
#define FADDP2S(n, d) WORD $(0x7e30d800 | ((n)<<5) | (d)) // faddp s{d}, v{n}.2s
#define FMAX4S(m, n, d) WORD $(0x4e20f400 | ((m)<<16) | ((n)<<5) | (d)) // fmax v{d}.4s, v{n}.4s, v{m}.4s
#define FMAXV4S(n, d) WORD $(0x6e30f800 | ((n)<<5) | (d)) // fmaxv s{d}, v{n}.4s
#define FABS4S(n, d) WORD $(0x4ea0f800 | ((n)<<5) | (d)) // fabs v{d}.4s, v{n}.4s
// binary16 → float32, exact: the low four halfwords, the high four.
#define FCVTL4S(n, d) WORD $(0x0e217800 | ((n)<<5) | (d)) // fcvtl v{d}.4s, v{n}.4h
#define FCVTL24S(n, d) WORD $(0x4e217800 | ((n)<<5) | (d)) // fcvtl2 v{d}.4s, v{n}.8h
// fmin: the smaller of Vn, Vm (NaN if either is).
#define FMIN4S(m, n, d) WORD $(0x4ea0f400 | ((m)<<16) | ((n)<<5) | (d)) // fmin v{d}.4s, v{n}.4s, v{m}.4s
// float32 ↔ float64: the low two lanes widened, the high two; narrowed into
// the low half (the high half cleared), into the high half (rounded to
// nearest even, as Go's float32 conversion).
#define FCVTL2D(n, d) WORD $(0x0e617800 | ((n)<<5) | (d)) // fcvtl v{d}.2d, v{n}.2s
#define FCVTL22D(n, d) WORD $(0x4e617800 | ((n)<<5) | (d)) // fcvtl2 v{d}.2d, v{n}.4s
#define FCVTN2S(n, d) WORD $(0x0e616800 | ((n)<<5) | (d)) // fcvtn v{d}.2s, v{n}.2d
#define FCVTN24S(n, d) WORD $(0x4e616800 | ((n)<<5) | (d)) // fcvtn2 v{d}.4s, v{n}.2d

// ASIMD floating point, double precision, two lanes; each rounds on its
// own. Vd = Vn·Vm, Vn + Vm, Vn − Vm, Vn·Vm.D[h]; round toward −∞ to an
// integral value; to int64 toward zero.
#define FMUL2D(m, n, d) WORD $(0x6e60dc00 | ((m)<<16) | ((n)<<5) | (d)) // fmul v{d}.2d, v{n}.2d, v{m}.2d
#define FADD2D(m, n, d) WORD $(0x4e60d400 | ((m)<<16) | ((n)<<5) | (d)) // fadd v{d}.2d, v{n}.2d, v{m}.2d
#define FSUB2D(m, n, d) WORD $(0x4ee0d400 | ((m)<<16) | ((n)<<5) | (d)) // fsub v{d}.2d, v{n}.2d, v{m}.2d
#define FMUL2DE(m, h, n, d) WORD $(0x4fc09000 | ((h)<<11) | ((m)<<16) | ((n)<<5) | (d)) // fmul v{d}.2d, v{n}.2d, v{m}.d[{h}]
#define FRINTM2D(n, d) WORD $(0x4e619800 | ((n)<<5) | (d)) // frintm v{d}.2d, v{n}.2d
#define FCVTZS2D(n, d) WORD $(0x4ee1b800 | ((n)<<5) | (d)) // fcvtzs v{d}.2d, v{n}.2d

// float32 → int32: nearest, ties to even; nearest, ties away from zero;
// toward zero. Round toward −∞ to an integral float.
#define FCVTNS4S(n, d) WORD $(0x4e21a800 | ((n)<<5) | (d)) // fcvtns v{d}.4s, v{n}.4s
#define FCVTAS4S(n, d) WORD $(0x4e21c800 | ((n)<<5) | (d)) // fcvtas v{d}.4s, v{n}.4s
#define FCVTZS4S(n, d) WORD $(0x4ea1b800 | ((n)<<5) | (d)) // fcvtzs v{d}.4s, v{n}.4s
#define FRINTM4S(n, d) WORD $(0x4e219800 | ((n)<<5) | (d)) // frintm v{d}.4s, v{n}.4s
// All ones where Vn > Vm, where Vn = Vm (both false for NaN).
#define FCMGT4S(m, n, d) WORD $(0x6ea0e400 | ((m)<<16) | ((n)<<5) | (d)) // fcmgt v{d}.4s, v{n}.4s, v{m}.4s
#define FCMEQ4S(m, n, d) WORD $(0x4e20e400 | ((m)<<16) | ((n)<<5) | (d)) // fcmeq v{d}.4s, v{n}.4s, v{m}.4s
