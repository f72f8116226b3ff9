package main

// vexMacros are the VEX (AVX-VNNI) encodings the Go assembler lacks, as
// register-parameterized macros. Every use carries its instruction as the
// comment; scripts/asmcheck-amd64 re-encodes it and compares.
const vexMacros = `// VEX (AVX-VNNI) forms of VPDPBUSD and VPDPWSSD on ymm registers, which
// the Go assembler does not encode (it has only the EVEX forms). Arguments
// are register numbers 0..15 in Go operand order (source 2, source 1,
// destination). Bytes: C4, R̄X̄B̄ m-mmmm=0F38 (R̄ from the destination, B̄
// from source 2), W=0 v̄v̄v̄v̄ (source 1) L=1 pp=66, opcode, ModRM 11 reg rm.
#define VEX_0F38_256_66(op, s, u, d) BYTE $0xC4; BYTE $(0xE2 ^ (((d)>>3)<<7) ^ (((s)>>3)<<5)); BYTE $(0x05 | ((15-(u))<<3)); BYTE $(op); BYTE $(0xC0 | (((d)&7)<<3) | ((s)&7))

// VPDPBUSD_Y(s, u, d): d.int32[i] += Σ_{k<4} u.uint8[4i+k] · s.int8[4i+k].
#define VPDPBUSD_Y(s, u, d) VEX_0F38_256_66(0x50, s, u, d)

// VPDPWSSD_Y(s, u, d): d.int32[i] += u.int16[2i]·s.int16[2i] +
// u.int16[2i+1]·s.int16[2i+1].
#define VPDPWSSD_Y(s, u, d) VEX_0F38_256_66(0x52, s, u, d)
`
