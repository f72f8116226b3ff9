package main

import "fmt"

// The Q6_K · Q8_K kernels (q6k_amd64.s).

// q6TileCols is the number of activation columns of a MatMulQ6K tile.
const q6TileCols = 4

func q6File(g *gen) {
	g.p(`// Q6_K · Q8_K products: the matrix-vector kernel MatVecQ6K* (one weight row
// at a time; also the dot of one row) and the matrix-matrix tile MatMulQ6K*
// (one weight row by four activation columns), for AVX2, AVX-VNNI, AVX-512
// and AVX-512 VNNI.
//
// Every routine mirrors kernels.dotQ6KGeneric and returns its bits: per
// super-block eight exact int32 lane sums A[l] = Σ_g sc_g Σ_{i in group g,
// lane l} q_i·y_i (lane l = values 4l..4l+3 of each 32-value chunk), dd =
// f16(d)·D as one float32 multiply, acc[l] += dd·float32(A[l]) as a
// multiply then an add (never FMA), and at the end hsum(acc). Integer sums
// are exact in any order; nothing else is reordered. A NaN result may carry
// any payload; the Go side makes it the canonical NaN.
//
// q = q6 − 32 with q6 in 0..63 (4 bits from ql, 2 from qh): value i of
// chunk k (0..3) of half h (0, 1) of a super-block is
//
//	ql[64h + 32(k&1) + i] >> 4(k>>1) & 15  |  (qh[32h + i] >> 2k & 3) << 4
//
// The products use q6 as the unsigned operand of VPMADDUBSW against the
// activation quants y (any int8: |q6·y| pair sums ≤ 16128, exact), minus
// 32·(y_a + y_b) per pair (VPMADDUBSW of bytes 32 with y in MatVec; a table
// prepared once per product in MatMul, see kernels.q6kPairSums32), which
// leaves the exact int16 pair sums of q·y (|·| ≤ 8192); VPMADDWD + VPADDD
// (VNNI: VPDPWSSD) with the group scales as int16 words sums the pairs into
// the lanes. The zmm VNNI MatMul tile skips the subtraction and adds the
// −32·y part once per block and column instead: two VPDPWSSD of the
// activations' quad sums (kernels.q6kQuadCorr32) against the block's scale
// words (VPERMW by q6CorrIdx); the lanes get the same exact integers.
//
// MatVecQ6KAVX512VNNIGFNI takes a table of the activations' quad sums
// −32·(y_4i + … + y_4i+3), prepared once per product (kernels.q6kQuadSums32),
// as the starting value of VPDPBUSD (q6 unsigned × y signed, four products
// into an int32): that leaves the exact sum of (q6 − 32)·y over each
// four-value quad (|·| ≤ 16384, so it fits the low int16 of the int32), and
// VPDPWSSD with the quad's scale in the low word (VPERMW, the high word
// zeroed by the mask) adds sc·that into the lanes. Its q6 decode uses
// GFNI: VGF2P8AFFINEQB moves a qh register's 2-bit parts to bits 4..5 of
// two chunks at once (one bit matrix per 256-bit half) and splits the ql
// nibbles.
//
// MatVec: one row at a time, so that the weights stream from memory in one
// sequential run. The ymm routines decode a 32-value chunk per register;
// the zmm ones 64 values (two chunks: the low nibbles of 64 ql bytes, or
// their high nibbles, with the 2-bit parts of a qh register broadcast to
// both halves and shifted by VPSLLVW/VPSRLVW), and fold the two 256-bit
// halves of the int32 sums before converting.

#include "go_asm.h"
#include "textflag.h"
#include "vex_amd64.h"
`)
	g.p(`#define Q6QL blockQ6K_ql
#define Q6QH blockQ6K_qh
#define Q6SC blockQ6K_scales
#define YQ blockQ8K_qs

// General-purpose registers, common to every routine in this file.
#define DST  DI  // dst: the next output (MatMul: row r of column 0)
#define WP   SI  // current weight block
#define XROW DX  // first activation block (MatMul: of column 0)
#define XP   BX  // current activation block (column 0)
#define ROWS R8  // rows left
#define NB   R9  // blocks per row
#define N    CX  // blocks left in the row
#define LDDB R12 // MatMul: bytes from one output column to the next
#define XS   R13 // MatMul: bytes from one activation column to the next
#define XS3  R11 // MatMul: 3·XS
#define TP   R10 // MatMul: the current block's pair-sum tables; MatVec GFNI: its quad sums
#define TROW R11 // MatVec GFNI: the first block's quad sums (MatMul: R11 is XS3)
#define PF   R12 // MatVec GFNI: how many bytes ahead to prefetch (MatMul: R12 is LDDB)
// AX: scratch.
`)
	g.data("q6C0F", []uint32{0x0f0f0f0f})
	g.data("q6C30", []uint32{0x30303030})
	g.data("q6C20", []uint32{0x20202020})
	g.data("q6M0F", rep(0x0f0f0f0f, 8)) // the same, 32 bytes, for memory operands
	g.data("q6M30", rep(0x30303030, 8))
	// VPSHUFB controls. q6ShufY: per chunk k (32 bytes), for a ymm
	// register holding the 8 scale words of a half in both 128-bit lanes:
	// word 2k in the low lane, 2k+1 in the high lane. q6ShufZ: per 64-value
	// register j (64 bytes), for a zmm register holding the 8 words in every
	// lane: word 4j+i in lane i.
	var sy, sz []uint32
	word := func(w int) uint32 { b := uint32(2*w) | uint32(2*w+1)<<8; return b | b<<16 }
	for k := 0; k < 4; k++ {
		sy = append(sy, rep(word(2*k), 4)...)
		sy = append(sy, rep(word(2*k+1), 4)...)
	}
	for j := 0; j < 2; j++ {
		for i := 0; i < 4; i++ {
			sz = append(sz, rep(word(4*j+i), 4)...)
		}
	}
	g.data("q6ShufY", sy)
	g.data("q6ShufZ", sz)
	// VPSLLVW / VPSRLVW counts for the qh bits of the low (chunks 0, 1) and
	// high (2, 3) 64-value registers: << 4 | << 2, and >> 0 | >> 2.
	g.data("q6CntL", append(rep(0x00040004, 8), rep(0x00020002, 8)...))
	g.data("q6CntH", append(rep(0, 8), rep(0x00020002, 8)...))
	q6CorrData(g)
	for _, v := range allISAs {
		g.v = v
		q6MatVec(g)
	}
	q6GFNIData(g)
	g.v = avx512gfni
	q6MatVecGFNI(g, false)
	q6MatVecGFNI(g, true)
	for _, v := range allISAs {
		g.v = v
		q6MatMul(g)
	}
}

// avx512gfni is avx512vnni with GFNI (MatVecQ6KAVX512VNNIGFNI and its
// Inline twin only).
var avx512gfni = isa{name: "AVX512VNNIGFNI", zmm: true, vnni: true, req: "AVX512F, AVX512BW, AVX512VL, AVX512VNNI, GFNI, F16C"}

// q6GFNIData writes the tables of MatVecQ6KAVX512VNNIGFNI.
func q6GFNIData(g *gen) {
	// VGF2P8AFFINEQB sets bit k of each byte to the parity of the byte AND
	// byte 7−k of its qword's matrix. gfm gives a qword whose matrix moves
	// source bits from[0], from[1], … to bits to, to+1, ….
	gfm := func(to int, from ...int) []uint32 {
		var q uint64
		for i, f := range from {
			q |= uint64(1<<f) << (8 * (7 - (to + i)))
		}
		return []uint32{uint32(q), uint32(q >> 32)}
	}
	qwords := func(lo, hi []uint32) []uint32 {
		var out []uint32
		for i := 0; i < 4; i++ {
			out = append(out, lo...)
		}
		for i := 0; i < 4; i++ {
			out = append(out, hi...)
		}
		return out
	}
	// The qh bits of the low register (chunk 0: bits 0, 1; chunk 1: bits 2,
	// 3) and of the high one (chunks 2, 3: bits 4, 5 and 6, 7), to bits 4, 5.
	g.data("q6GfLO", qwords(gfm(4, 0, 1), gfm(4, 2, 3)))
	g.data("q6GfHI", qwords(gfm(4, 4, 5), gfm(4, 6, 7)))
	g.data("q6GfSR", qwords(gfm(0, 4, 5, 6, 7), gfm(0, 4, 5, 6, 7))) // x >> 4
	// VPERMW indices: for 64-value register r, word 2p = the scale of quad
	// p (values 64r+4p..+3: group 4r + p/4); the odd words are masked off.
	var ix []uint32
	for r := 0; r < 4; r++ {
		for p := 0; p < 16; p++ {
			ix = append(ix, uint32(4*r+p/4))
		}
	}
	g.data("q6Quad", ix)
}

// q6MatVecGFNI writes MatVecQ6KAVX512VNNIGFNI, or with inline
// MatVecQ6KAVX512VNNIGFNIInline, which takes no table: it sums each quad of
// y itself (VPDPBUSD of bytes 32 with y, subtracted from q6·y), more
// instructions per block but 256 fewer bytes of activations to keep near,
// which pays on long rows (kernels.q6kInlineFor).
func q6MatVecGFNI(g *gen, inline bool) {
	if inline {
		g.text("MatVecQ6KAVX512VNNIGFNIInline", "$0-48", "(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)", `
dst[r] = dot(row r of w, x) for r < rows: w holds rows·nb Q6_K blocks, x
nb Q8_K blocks; the weights are prefetched pf bytes ahead. The bits of
MatVecQ6KAVX512VNNIGFNI, without its table.`)
	} else {
		g.text("MatVecQ6KAVX512VNNIGFNI", "$0-56", "(dst *float32, w, x, t unsafe.Pointer, rows, nb, pf int)", `
dst[r] = dot(row r of w, x) for r < rows: w holds rows·nb Q6_K blocks, x
nb Q8_K blocks, t their quad sums (kernels.q6kQuadSums32: nb·256 bytes);
the weights are prefetched pf bytes ahead.`)
	}
	regs := []reg{
		{"ACC", 0, "float sums (ymm)"},
		{"A", 1, "int32 lane sums of the block"},
		{"QL", 2, "64 ql bytes"},
		{"QH", 3, "32 qh bytes, in both halves"},
		{"LO", 4, "q6, values 0..63 of the half"},
		{"HI", 5, "q6, values 64..127"},
		{"T", 6, "qh bits of HI; scratch"},
		{"S", 7, "scale words of the register's quads"},
		{"SCW", 8, "the block's 16 scales as words"},
		{"DW", 9, "f16(d)"},
		{"C0F", 16, "bytes 0x0f"},
		{"GLO", 17, "bit matrices: qh bits of LO"},
		{"GHI", 18, "bit matrices: qh bits of HI"},
		{"GSR", 19, "bit matrices: x >> 4"},
		{"IX0", 20, "VPERMW: the scales of register 0's quads"},
		{"IX1", 21, "register 1"},
		{"IX2", 22, "register 2"},
		{"IX3", 23, "register 3"},
		{"Q0", 24, "quad sums of register 0"},
		{"Q1", 25, "register 1"},
		{"Q2", 26, "register 2"},
		{"Q3", 27, "register 3"},
	}
	if inline {
		regs = append(regs,
			reg{"C20", 28, "bytes 32"},
			reg{"YR", 29, "64 quants of y"},
			reg{"YS", 30, "32·(quad sums of y)"},
		)
	}
	g.named(regs...)
	args := []string{"dst", "w", "x", "t", "rows", "nb", "pf"}
	if inline {
		args = []string{"dst", "w", "x", "rows", "nb", "pf"}
	}
	dsts := map[string]string{"dst": "DST", "w": "WP", "x": "XROW", "t": "TROW", "rows": "ROWS", "nb": "NB", "pf": "PF"}
	for i, a := range args {
		g.i("MOVQ", fmt.Sprintf("%s+%d(FP), %s", a, 8*i, dsts[a]))
	}
	g.i("VPBROADCASTD", "q6C0F<>(SB), C0F")
	if inline {
		g.i("VPBROADCASTD", "q6C20<>(SB), C20")
	}
	g.i("VMOVDQU64", "q6GfLO<>(SB), GLO")
	g.i("VMOVDQU64", "q6GfHI<>(SB), GHI")
	g.i("VMOVDQU64", "q6GfSR<>(SB), GSR")
	for r := 0; r < 4; r++ {
		g.i("VMOVDQU64", fmt.Sprintf("q6Quad<>+%d(SB), IX%d", 64*r, r))
	}
	g.i("MOVL", "$0x55555555, AX")
	g.ic("KMOVD", "AX, K1", "the even words")
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	tp := "TP"
	if inline {
		tp = ""
		q6MatVecStart(g, "")
	} else {
		q6MatVecStart(g, "TROW, TP")
	}
	g.pageTouch("(WP)(PF*1)")
	for off := 0; off < 210; off += 64 {
		g.i("PREFETCHT0", fmt.Sprintf("%d(WP)(PF*1)", off))
	}
	g.i("VPXORD", "A, A, A")
	g.ic("VPMOVSXBW", "Q6SC(WP), "+g.y("SCW"), "the 16 scales as words")
	for h := 0; h < 2; h++ {
		g.c("half %d", h)
		g.i("VMOVDQU64", fmt.Sprintf("Q6QL+%d(WP), QL", 64*h))
		g.ic("VBROADCASTI64X4", fmt.Sprintf("Q6QH+%d(WP), QH", 32*h), "qh | qh")
		g.ic("VGF2P8AFFINEQB", "$0, GLO, QH, LO", "(qh & 3) << 4 | (qh >> 2 & 3) << 4")
		g.ic("VPTERNLOGD", "$0xf8, C0F, QL, LO", "LO |= QL & 0x0f: chunks 0, 1")
		g.ic("VGF2P8AFFINEQB", "$0, GHI, QH, T", "(qh >> 4 & 3) << 4 | (qh >> 6) << 4")
		g.ic("VGF2P8AFFINEQB", "$0, GSR, QL, HI", "QL >> 4")
		g.ic("VPORD", "T, HI, HI", "chunks 2, 3")
		for j, q := range []string{"LO", "HI"} {
			r := 2*h + j
			if inline {
				g.i("VMOVDQU64", fmt.Sprintf("YQ+%d(XP), YR", 64*r))
				g.i("VPXORD", "YS, YS, YS")
				g.ic("VPDPBUSD", "YR, C20, YS", "32·(quad sums of y)")
				g.i("VPXORD", fmt.Sprintf("Q%d, Q%d, Q%d", r, r, r))
				g.ic("VPDPBUSD", fmt.Sprintf("YR, %s, Q%d", q, r), "q6·y per quad")
				g.ic("VPSUBD", fmt.Sprintf("YS, Q%d, Q%d", r, r), "Σ (q6 − 32)·y per quad")
			} else {
				g.ic("VMOVDQU64", fmt.Sprintf("%d(TP), Q%d", 64*r, r), "−32·(quad sums of y)")
				g.ic("VPDPBUSD", fmt.Sprintf("YQ+%d(XP), %s, Q%d", 64*r, q, r), "+ q6·y: Σ (q6 − 32)·y per quad")
			}
			g.ic("VPERMW.Z", fmt.Sprintf("SCW, IX%d, K1, S", r), "the quads' scales, high words 0")
			g.i("VPDPWSSD", fmt.Sprintf("Q%d, S, A", r))
		}
	}
	q6MatVecEnd(g, tp)
}

// q6Consts loads the constants of the decode (zmm: into registers).
func q6Consts(g *gen, mul bool) {
	g.i("VPBROADCASTD", "q6C0F<>(SB), C0F")
	g.i("VPBROADCASTD", "q6C30<>(SB), C30")
	if !mul {
		g.i("VPBROADCASTD", "q6C20<>(SB), C20")
	}
	if g.v.zmm {
		g.i("VMOVDQU32", "q6CntL<>(SB), CNTL")
		g.i("VMOVDQU32", "q6CntH<>(SB), CNTH")
		g.i("VMOVDQU32", "q6ShufZ<>(SB), SH0")
		g.i("VMOVDQU32", "q6ShufZ<>+64(SB), SH1")
	}
}

// q6mac: acc = sc·p summed in pairs (first) or acc += sc·p; p may be
// clobbered.
func q6mac(g *gen, first bool, sc, p, acc string) {
	switch {
	case g.v.vnni:
		g.dpwssd(p, sc, acc)
	case first:
		g.i("VPMADDWD", sc+", "+p+", "+acc)
	default:
		g.i("VPMADDWD", sc+", "+p+", "+p)
		g.i("VPADDD", p+", "+acc+", "+acc)
	}
}

// q6DecodeZ decodes half h of the block at WP into LO (values 0..63 of the
// half) and HI (64..127).
func q6DecodeZ(g *gen, h int) {
	g.i("VMOVDQU64", fmt.Sprintf("Q6QL+%d(WP), QL", 64*h))
	g.ic("VBROADCASTI64X4", fmt.Sprintf("Q6QH+%d(WP), QH", 32*h), "qh | qh")
	g.ic("VPANDD", "C0F, QL, LO", "low nibbles: chunks 0, 1")
	g.i("VPSRLW", "$4, QL, HI")
	g.ic("VPANDD", "C0F, HI, HI", "high nibbles: chunks 2, 3")
	g.ic("VPSLLVW", "CNTL, QH, T1", "qh << 4 | qh << 2")
	g.ic("VPSRLVW", "CNTH, QH, T2", "qh | qh >> 2")
	g.ic("VPTERNLOGD", "$0xf8, C30, T1, LO", "LO |= T1 & 0x30")
	g.ic("VPTERNLOGD", "$0xf8, C30, T2, HI", "HI |= T2 & 0x30")
}

// q6DecodeY decodes chunk k of the current half (QL0, QL1, QH loaded) into
// Q; T scratch.
func q6DecodeY(g *gen, k int) {
	ql := []string{"QL0", "QL1"}[k&1]
	if k < 2 {
		g.i("VPAND", "C0F, "+ql+", Q")
	} else {
		g.i("VPSRLW", "$4, "+ql+", Q")
		g.i("VPAND", "C0F, Q, Q")
	}
	switch k {
	case 0:
		g.i("VPSLLW", "$4, QH, T")
		g.i("VPAND", "C30, T, T")
	case 1:
		g.i("VPSLLW", "$2, QH, T")
		g.i("VPAND", "C30, T, T")
	case 2:
		g.i("VPAND", "C30, QH, T")
	case 3:
		g.i("VPSRLW", "$2, QH, T")
		g.i("VPAND", "C30, T, T")
	}
	g.ic("VPOR", "T, Q, Q", fmt.Sprintf("q6 of chunk %d", k))
}

// q6Scales loads the scale words of half h: zmm: SCH = words 8h..8h+7 in
// every 128-bit lane (from SCW); ymm: SC = those words in both lanes.
func q6Scales(g *gen, h int) {
	if g.v.zmm {
		g.i("VSHUFI32X4", fmt.Sprintf("$0x%02x, SCW, SCW, SCH", 0x55*h))
		return
	}
	g.i("VPMOVSXBW", fmt.Sprintf("Q6SC+%d(WP), %s", 8*h, g.x("SC")))
	g.i("VPERMQ", "$0x44, SC, SC")
}

// q6EndBlock folds the int32 sums a (a role) into the float accumulator acc
// (a ymm register name): acc += dd·float32(A), dd = f16(d)·D with D at
// dmem; dw, t scratch roles. dw may already hold f16(d) in every lane
// (haveDW).
func q6EndBlock(g *gen, a, acc, dmem, dw, t string, haveDW bool) {
	if g.v.zmm {
		g.i("VEXTRACTI64X4", "$1, "+a+", "+g.y(t))
		g.ic("VPADDD", g.y(t)+", "+g.y(a)+", "+g.y(a), "A[l]: both halves of the 64-value registers")
	}
	g.i("VCVTDQ2PS", g.y(a)+", "+g.y(a))
	if !haveDW {
		q6DW(g, dw)
	}
	g.i("VBROADCASTSS", dmem+", "+g.y(t))
	g.ic("VMULPS", g.y(t)+", "+g.y(dw)+", "+g.y(t), "dd = f16(d)·D")
	g.i("VMULPS", g.y(t)+", "+g.y(a)+", "+g.y(a))
	g.i("VADDPS", g.y(a)+", "+acc+", "+acc)
}

// q6DW sets the ymm of role dw to f16(d) of the block at WP in every lane.
func q6DW(g *gen, dw string) {
	g.i("VPBROADCASTW", "blockQ6K_d(WP), "+g.x(dw))
	g.ic("VCVTPH2PS", g.x(dw)+", "+g.y(dw), "f16(d)")
}

// q6MatVec writes MatVecQ6K<isa>.
func q6MatVec(g *gen) {
	v := g.v
	g.text("MatVecQ6K"+v.name, "$0-40", "(dst *float32, w, x unsafe.Pointer, rows, nb int)", `
dst[r] = dot(row r of w, x) for r < rows: w holds rows·nb Q6_K blocks, x
nb Q8_K blocks.`)
	if v.zmm {
		g.named(
			reg{"ACC", 0, "float sums (ymm)"},
			reg{"A", 1, "int32 lane sums of the block"},
			reg{"QL", 2, "64 ql bytes"},
			reg{"QH", 3, "32 qh bytes, in both halves"},
			reg{"LO", 4, "q6, values 0..63 of the half"},
			reg{"HI", 5, "q6, values 64..127"},
			reg{"T1", 6, "qh bits of LO; scratch"},
			reg{"T2", 7, "qh bits of HI; scratch"},
			reg{"P", 8, "pair sums"},
			reg{"YP", 9, "32·(y pair sums)"},
			reg{"S", 10, "scale words of the register's groups"},
			reg{"SCW", 11, "the block's 16 scales as words"},
			reg{"SCH", 12, "the half's 8 scale words in every lane"},
			reg{"DW", 13, "f16(d)"},
			reg{"T", 14, "scratch"},
			reg{"C0F", 16, "bytes 0x0f"},
			reg{"C30", 17, "bytes 0x30"},
			reg{"C20", 18, "bytes 32"},
			reg{"CNTL", 19, "qh shift counts, low register"},
			reg{"CNTH", 20, "qh shift counts, high register"},
			reg{"SH0", 21, "VPSHUFB: scale word i in lane i"},
			reg{"SH1", 22, "VPSHUFB: scale word 4+i in lane i"},
			reg{"A2", 23, "VNNI: int32 lane sums of the HI registers"},
		)
	} else {
		g.named(
			reg{"ACC", 0, "float sums"},
			reg{"A", 1, "int32 lane sums of the block"},
			reg{"QH", 2, "the half's 32 qh bytes"},
			reg{"QL0", 3, "ql bytes 0..31 of the half"},
			reg{"QL1", 4, "ql bytes 32..63"},
			reg{"Q", 5, "q6 of a chunk"},
			reg{"T", 6, "scratch"},
			reg{"P", 7, "pair sums"},
			reg{"YP", 8, "32·(y pair sums)"},
			reg{"S", 9, "scale words of the chunk"},
			reg{"SC", 10, "the half's 8 scale words, in both lanes"},
			reg{"C0F", 11, "bytes 0x0f"},
			reg{"C30", 12, "bytes 0x30"},
			reg{"C20", 13, "bytes 32"},
			reg{"DW", 14, "f16(d)"},
		)
	}
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "w+8(FP), WP")
	g.i("MOVQ", "x+16(FP), XROW")
	g.i("MOVQ", "rows+24(FP), ROWS")
	g.i("MOVQ", "nb+32(FP), NB")
	q6Consts(g, false)
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	q6MatVecStart(g, "")
	g.prefetch("WP", mvPrefetch, 210)
	first := !v.vnni
	if v.vnni {
		g.i("VPXORD", "A, A, A")
		if v.zmm {
			g.i("VPXORD", "A2, A2, A2")
		}
	}
	if v.zmm {
		g.ic("VPMOVSXBW", "Q6SC(WP), "+g.y("SCW"), "the 16 scales as words")
		for h := 0; h < 2; h++ {
			g.c("half %d", h)
			q6Scales(g, h)
			q6DecodeZ(g, h)
			for j, q := range []string{"LO", "HI"} {
				y := fmt.Sprintf("YQ+%d(XP)", 128*h+64*j)
				g.ic("VPMADDUBSW", y+", "+q+", P", "q6·y in pairs")
				g.ic("VPMADDUBSW", y+", C20, YP", "32·y in pairs")
				g.i("VPSUBW", "YP, P, P")
				g.i("VPSHUFB", fmt.Sprintf("SH%d, SCH, S", j))
				acc := "A"
				if v.vnni && j == 1 {
					acc = "A2" // two chains of VPDPWSSD, not one
				}
				q6mac(g, first, "S", "P", acc)
				first = false
			}
		}
		if v.vnni {
			g.i("VPADDD", "A2, A, A")
		}
	} else {
		for h := 0; h < 2; h++ {
			g.c("half %d", h)
			q6Scales(g, h)
			g.i("VMOVDQU", fmt.Sprintf("Q6QH+%d(WP), QH", 32*h))
			g.i("VMOVDQU", fmt.Sprintf("Q6QL+%d(WP), QL0", 64*h))
			g.i("VMOVDQU", fmt.Sprintf("Q6QL+%d(WP), QL1", 64*h+32))
			for k := 0; k < 4; k++ {
				q6DecodeY(g, k)
				y := fmt.Sprintf("YQ+%d(XP)", 128*h+32*k)
				g.ic("VPMADDUBSW", y+", Q, P", "q6·y in pairs")
				g.ic("VPMADDUBSW", y+", C20, YP", "32·y in pairs")
				g.i("VPSUBW", "YP, P, P")
				g.i("VPSHUFB", fmt.Sprintf("q6ShufY<>+%d(SB), SC, S", 32*k))
				q6mac(g, first, "S", "P", "A")
				first = false
			}
		}
	}
	q6MatVecEnd(g, "")
}

// q6MatVecStart opens a MatVec routine's row loop (XP back at the first
// activation block, and one more MOVQ with the operands mov unless mov is
// "") and its block loop.
func q6MatVecStart(g *gen, mov string) {
	g.label("row")
	g.i("MOVQ", "XROW, XP")
	if mov != "" {
		g.i("MOVQ", mov)
	}
	g.i("MOVQ", "NB, N")
	g.i("VXORPS", g.y("ACC")+", "+g.y("ACC")+", "+g.y("ACC"))
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "sum")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("block")
}

// q6MatVecEnd closes a MatVec routine's block loop (the block's float
// terms, the pointers to the next block, tp too if not "") and its row
// loop (the row's sum into dst), and ends the routine.
func q6MatVecEnd(g *gen, tp string) {
	q6EndBlock(g, "A", g.y("ACC"), "blockQ8K_d(XP)", "DW", "T", false)
	g.i("ADDQ", "$blockQ6K__size, WP")
	g.i("ADDQ", "$blockQ8K__size, XP")
	if tp != "" {
		g.i("ADDQ", "$256, "+tp)
	}
	g.i("DECQ", "N")
	g.jmp("JNZ", "block")
	g.blank()
	g.label("sum")
	g.hsum8(g.num("ACC"), g.num("T"))
	g.i("VMOVSS", g.x("ACC")+", (DST)")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.jmp("JNZ", "row")
	g.blank()
	g.end()
}

// q6MatMul writes MatMulQ6K<isa>: rows weight rows against four columns.
func q6MatMul(g *gen) {
	v := g.v
	// corr: the zmm VNNI tile takes −32·Σy per quad as a correction added
	// once per block and column (two VPDPWSSD from a table of the quads'
	// sums, against the block's scale words permuted to match) instead of
	// a VPSUBW of the pairs' sums before every product.
	corr := v.zmm && v.vnni
	g.text("MatMulQ6K"+v.name, "$0-88", "(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)", `
dst[c·ldd + r] = dot(row r of w, column c of x) for r < rows and c < 4,
over a segment of nb blocks of each row: row r's blocks start at w +
r·(nb·size + wskip) bytes, column c's at x + c·xstride bytes, and t holds
the segment's pair-sum tables (kernels.q6kPairSums32: 256 bytes per block
and column, at (4b+c)·256). mode bit 0 (SegResume): start each row's eight
float lane sums per column from acc[32r:32r+32] instead of zero; bit 1
(SegFinish): sum the lanes into dst, else store them back into acc. A row
split into segments so gets the bits of one pass over the whole row.`+q6CorrDoc(corr))
	if v.zmm {
		g.named(
			reg{"ACC0", 0, "float sums, column 0 (ymm)"},
			reg{"ACC1", 1, "column 1"},
			reg{"ACC2", 2, "column 2"},
			reg{"ACC3", 3, "column 3"},
			reg{"A0", 4, "int32 lane sums of the block, column 0"},
			reg{"A1", 5, "column 1"},
			reg{"A2", 6, "column 2"},
			reg{"A3", 7, "column 3"},
			reg{"QL", 8, "64 ql bytes"},
			reg{"QH", 9, "32 qh bytes, in both halves"},
			reg{"LO", 10, "q6, values 0..63 of the half"},
			reg{"HI", 11, "q6, values 64..127"},
			reg{"T1", 12, "qh bits of LO; scratch"},
			reg{"T2", 13, "qh bits of HI; f16(d)"},
			reg{"P", 14, "pair sums"},
			reg{"S", 15, "scale words of the register's groups"},
			reg{"SCW", 16, "the block's 16 scales as words"},
			reg{"SCH", 17, "the half's 8 scale words in every lane"},
			reg{"C0F", 19, "bytes 0x0f"},
			reg{"C30", 20, "bytes 0x30"},
			reg{"CNTL", 21, "qh shift counts, low register"},
			reg{"CNTH", 22, "qh shift counts, high register"},
			reg{"SH0", 23, "VPSHUFB: scale word i in lane i"},
			reg{"SH1", 24, "VPSHUFB: scale word 4+i in lane i"},
		)
		if corr {
			g.p("#define IDX0 Z25 // VPERMW: the scale words of registers 0, 1 (see q6CorrIdx)")
			g.p("#define IDX1 Z26 // registers 2, 3")
			g.p("#define SC0  Z27 // the block's scale words for its correction, registers 0, 1")
			g.p("#define SC1  Z28 // registers 2, 3")
			g.blank()
		}
	} else {
		g.named(
			reg{"ACC0", 0, "float sums, column 0"},
			reg{"ACC1", 1, "column 1"},
			reg{"ACC2", 2, "column 2"},
			reg{"ACC3", 3, "column 3"},
			reg{"A0", 4, "int32 lane sums of the block, column 0"},
			reg{"A1", 5, "column 1"},
			reg{"A2", 6, "column 2"},
			reg{"A3", 7, "column 3"},
			reg{"SC", 8, "the half's 8 scale words, in both lanes"},
			reg{"QH", 9, "the half's 32 qh bytes"},
			reg{"QL0", 10, "ql bytes 0..31 of the half"},
			reg{"QL1", 11, "ql bytes 32..63"},
			reg{"Q", 12, "q6 of a chunk"},
			reg{"S", 13, "scale words of the chunk; scratch"},
			reg{"P", 14, "pair sums; scratch"},
			reg{"T", 15, "scratch; f16(d)"},
		)
	}
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "ldd+8(FP), LDDB")
	g.i("SHLQ", "$2, LDDB")
	g.i("MOVQ", "w+16(FP), WP")
	g.i("MOVQ", "x+24(FP), XROW")
	g.i("MOVQ", "rows+40(FP), ROWS")
	g.i("MOVQ", "nb+48(FP), NB")
	g.i("MOVQ", "xstride+64(FP), XS")
	g.i("LEAQ", "(XS)(XS*2), XS3")
	if v.zmm {
		q6Consts(g, true)
	}
	if corr {
		g.i("VMOVDQU32", "q6CorrIdx<>(SB), IDX0")
		g.i("VMOVDQU32", "q6CorrIdx<>+64(SB), IDX1")
	}
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("row")
	g.i("MOVQ", "XROW, XP")
	g.i("MOVQ", "t+32(FP), TP")
	g.i("MOVQ", "NB, N")
	g.i("TESTQ", "$1, mode+80(FP)")
	g.jmp("JNZ", "resume")
	for c := 0; c < 4; c++ {
		a := g.y(fmt.Sprint("ACC", c))
		g.i("VXORPS", a+", "+a+", "+a)
	}
	g.jmp("JMP", "start")
	g.label("resume")
	g.i("MOVQ", "acc+72(FP), AX")
	for c := 0; c < 4; c++ {
		g.ic("VMOVUPS", fmt.Sprintf("%d(AX), %s", 32*c, g.y(fmt.Sprint("ACC", c))), fmt.Sprintf("column %d's lane sums so far", c))
	}
	g.label("start")
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "sum")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("block")
	col := func(c int, off string) string { // activation column c at byte off of its block
		switch c {
		case 0:
			return off + "(XP)"
		case 3:
			return off + "(XP)(XS3*1)"
		}
		return fmt.Sprintf("%s(XP)(XS*%d)", off, c)
	}
	first := !v.vnni
	if v.vnni {
		for c := 0; c < 4; c++ {
			a := fmt.Sprint("A", c)
			g.i("VPXORD", a+", "+a+", "+a)
		}
	}
	products := func(q, s string, yoff, toff int) {
		for c := 0; c < 4; c++ {
			a := fmt.Sprint("A", c)
			g.ic("VPMADDUBSW", col(c, fmt.Sprintf("YQ+%d", yoff))+", "+q+", P", fmt.Sprintf("column %d: q6·y in pairs", c))
			if !corr {
				g.ic("VPSUBW", fmt.Sprintf("%d(TP), P, P", toff+256*c), "minus 32·y in pairs")
			}
			if !v.vnni && first {
				g.i("VPMADDWD", s+", P, "+a)
			} else {
				q6mac(g, false, s, "P", a)
			}
		}
		first = false
	}
	if v.zmm {
		g.ic("VPMOVSXBW", "Q6SC(WP), "+g.y("SCW"), "the 16 scales as words")
		if corr {
			g.c("The correction: A[i] += sc·(−32·quad sum) for the 64 quads, two VPDPWSSD a column.")
			g.i("VPERMW", "SCW, IDX0, SC0")
			g.i("VPERMW", "SCW, IDX1, SC1")
			for c := 0; c < 4; c++ {
				a := fmt.Sprint("A", c)
				g.ic("VPDPWSSD", fmt.Sprintf("%d(TP), SC0, %s", 128*c, a), fmt.Sprintf("column %d: registers 0, 1", c))
				g.ic("VPDPWSSD", fmt.Sprintf("%d(TP), SC1, %s", 128*c+64, a), "registers 2, 3")
			}
		}
		for h := 0; h < 2; h++ {
			g.c("half %d", h)
			q6Scales(g, h)
			q6DecodeZ(g, h)
			for j, q := range []string{"LO", "HI"} {
				g.i("VPSHUFB", fmt.Sprintf("SH%d, SCH, S", j))
				products(q, "S", 128*h+64*j, 128*h+64*j)
			}
		}
	} else {
		for h := 0; h < 2; h++ {
			g.c("half %d", h)
			q6Scales(g, h)
			g.i("VMOVDQU", fmt.Sprintf("Q6QH+%d(WP), QH", 32*h))
			g.i("VMOVDQU", fmt.Sprintf("Q6QL+%d(WP), QL0", 64*h))
			g.i("VMOVDQU", fmt.Sprintf("Q6QL+%d(WP), QL1", 64*h+32))
			for k := 0; k < 4; k++ {
				q6DecodeYMem(g, k)
				g.i("VPSHUFB", fmt.Sprintf("q6ShufY<>+%d(SB), SC, S", 32*k))
				products("Q", "S", 128*h+32*k, 128*h+32*k)
			}
		}
	}
	dw, t := "T2", "T1"
	if !v.zmm {
		dw, t = "T", "S"
	}
	q6DW(g, dw)
	for c := 0; c < 4; c++ {
		q6EndBlock(g, fmt.Sprint("A", c), g.y(fmt.Sprint("ACC", c)), col(c, "blockQ8K_d"), dw, t, true)
	}
	g.i("ADDQ", "$blockQ6K__size, WP")
	g.i("ADDQ", "$blockQ8K__size, XP")
	if corr {
		g.i("ADDQ", "$512, TP")
	} else {
		g.i("ADDQ", "$1024, TP")
	}
	g.i("DECQ", "N")
	g.jmp("JNZ", "block")
	g.blank()
	g.label("sum")
	g.i("TESTQ", "$2, mode+80(FP)")
	g.jmp("JNZ", "finish")
	g.i("MOVQ", "acc+72(FP), AX")
	for c := 0; c < 4; c++ {
		g.i("VMOVUPS", fmt.Sprintf("%s, %d(AX)", g.y(fmt.Sprint("ACC", c)), 32*c))
	}
	g.jmp("JMP", "next")
	g.label("finish")
	g.i("MOVQ", "DST, AX")
	var scratch int
	if v.zmm {
		scratch = g.num("T1")
	} else {
		scratch = g.num("Q")
	}
	for c := 0; c < 4; c++ {
		acc := g.num(fmt.Sprint("ACC", c))
		g.hsum8(acc, scratch)
		g.i("VMOVSS", fmt.Sprint("X", acc)+", (AX)")
		g.i("ADDQ", "LDDB, AX")
	}
	g.label("next")
	g.ic("ADDQ", "$128, acc+72(FP)", "the next row's lane sums (never read past the last)")
	g.ic("ADDQ", "wskip+56(FP), WP", "the next row's segment")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.jmp("JNZ", "row")
	g.blank()
	g.end()
	if corr {
		for _, r := range []string{"IDX0", "IDX1", "SC0", "SC1"} {
			g.p("#undef %s", r)
		}
		g.blank()
	}
}

// q6CorrDoc is the MatMul doc's note on the correction tables (corr).
func q6CorrDoc(corr bool) string {
	if !corr {
		return ""
	}
	return `
This one reads other tables (kernels.q6kQuadCorr32: 128 bytes per block and
column, at (4b+c)·128): no VPSUBW; per block and column two VPDPWSSD add
Σ sc·(−32·(y_4i + … + y_4i+3)) over the quads of the block's four 64-value
registers into the lanes (words q6CorrIdx picks the scales).`
}

// q6CorrData writes q6CorrIdx: the VPERMW indices of the correction's scale
// words. Quad i (i < 16) of 64-value register r (r < 4: value 64r+4i) is in
// group 4r + i/4 of the block; dword i of the first table register pairs
// registers 0 and 1 (words 4·0 + i/4, 4·1 + i/4), of the second 2 and 3.
func q6CorrData(g *gen) {
	var w []uint32
	for half := 0; half < 2; half++ {
		for i := 0; i < 16; i++ {
			lo, hi := uint32(4*(2*half)+i/4), uint32(4*(2*half+1)+i/4)
			w = append(w, lo|hi<<16)
		}
	}
	g.data("q6CorrIdx", w)
}

// q6DecodeYMem is q6DecodeY with the masks from memory and P as scratch
// (the ymm tile has no registers for constants).
func q6DecodeYMem(g *gen, k int) {
	ql := []string{"QL0", "QL1"}[k&1]
	if k < 2 {
		g.i("VPAND", "q6M0F<>(SB), "+ql+", Q")
	} else {
		g.i("VPSRLW", "$4, "+ql+", Q")
		g.i("VPAND", "q6M0F<>(SB), Q, Q")
	}
	switch k {
	case 0:
		g.i("VPSLLW", "$4, QH, P")
		g.i("VPAND", "q6M30<>(SB), P, P")
	case 1:
		g.i("VPSLLW", "$2, QH, P")
		g.i("VPAND", "q6M30<>(SB), P, P")
	case 2:
		g.i("VPAND", "q6M30<>(SB), QH, P")
	case 3:
		g.i("VPSRLW", "$2, QH, P")
		g.i("VPAND", "q6M30<>(SB), P, P")
	}
	g.ic("VPOR", "P, Q, Q", fmt.Sprintf("q6 of chunk %d", k))
}
