// Encodings the Go assembler lacks, one register-parameterized macro each.
//
// AVX-VNNI (VEX.256) forms of VPDPBUSD and VPDPWSSD: the Go assembler only
// encodes their AVX-512 VNNI (EVEX) forms, which need AVX512VL on ymm and
// do not run on an AVX-VNNI CPU without AVX-512. Arguments are register
// numbers 0..15 in Go operand order (source 2, source 1, destination), as
// for the mnemonic they stand for:
//
//	VPDPWSSD_Y(3, 1, 12) // {vex} vpdpwssd ymm12, ymm1, ymm3
//
// Every use carries the instruction it encodes, in Intel syntax, as its
// comment; scripts/asmcheck-amd64 (make asmcheck) assembles that comment
// with llvm-mc and fails on any difference from the bytes the Go assembler
// emitted for the line.
//
// Layout: C4 (three-byte VEX), then R̄ X̄ B̄ m-mmmm = 0F38 with R̄ the
// inverted bit 3 of the destination (ModRM.reg) and B̄ that of source 2
// (ModRM.rm), then W=0 v̄v̄v̄v̄ (source 1, inverted) L=1 pp=66, the opcode,
// and ModRM = 11 reg rm.

#define VEX_0F38_256_66(op, s, u, d) \
	BYTE $0xC4; BYTE $(0xE2 ^ (((d)>>3)<<7) ^ (((s)>>3)<<5)); BYTE $(0x05 | ((15-(u))<<3)); BYTE $(op); BYTE $(0xC0 | (((d)&7)<<3) | ((s)&7))

// VPDPBUSD_Y(s, u, d): d.int32[i] += Σ_{k<4} u.uint8[4i+k] · s.int8[4i+k].
// Requires AVX-VNNI.
#define VPDPBUSD_Y(s, u, d) VEX_0F38_256_66(0x50, s, u, d)

// VPDPWSSD_Y(s, u, d): d.int32[i] += u.int16[2i]·s.int16[2i] +
// u.int16[2i+1]·s.int16[2i+1] (wrapping). Requires AVX-VNNI.
#define VPDPWSSD_Y(s, u, d) VEX_0F38_256_66(0x52, s, u, d)
