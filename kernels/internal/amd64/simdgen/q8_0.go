package main

import "fmt"

// The Q8_0 · Q8_0 kernels (q8_0_amd64.s).

// q8TileCols is the number of activation columns of a MatMulQ8_0 tile.
func q8TileCols(v isa) int {
	if v.zmm {
		return 8
	}
	return 2
}

func q8File(g *gen) {
	g.p(`// Q8_0 · Q8_0 products: the matrix-vector kernel MatVecQ8_0* (one weight
// row at a time; also the dot of one row) and the matrix-matrix tile
// MatMulQ8_0* (one weight row by 2 packed activation columns on ymm, by 8
// on zmm), for AVX2, AVX-VNNI, AVX-512 and AVX-512 VNNI (AVX-512 without
// VNNI has no MatMul of its own: the variant uses MatMulQ8_0AVX2).
//
// Every routine mirrors kernels.dotQ8_0Generic and returns its bits: per
// 32-value block b the exact int32 lane sums A[l] (lane l = values
// 4l..4l+3), dd = f16(dw)·f16(dx) as one float32 multiply, acc[b mod 4][l]
// += dd·float32(A[l]) as a multiply then an add (never FMA), and at the end
// hsum((acc0+acc1) + (acc2+acc3)). A NaN result may carry any payload; the
// Go side makes it the canonical NaN.
//
// Every byte is a valid quant on either side, -128 included, and the
// integer products are exact for all of them:
//   - with VNNI, u = w XOR 0x80 (w + 128 as an unsigned byte) and s = x:
//     VPDPBUSD adds Σ w·x + 128·Σ x to an accumulator seeded with
//     -128·Σ x (VPMADDUBSW of bytes 1 with x, then VPMADDWD with -128);
//   - without VNNI both operands are sign-extended to int16 in place (the
//     even byte of each word shifted up and back down, the odd byte shifted
//     down), and VPMADDWD of the even halves plus VPMADDWD of the odd halves
//     is the lane sum (|·| ≤ 4·128², no saturation anywhere).
//
// MatVec: one row at a time (on raw activations, or on activations packed
// once per call: PackQ8_0*), so that the weights stream from memory in one
// sequential run (two or four rows read side by side run at half the DRAM
// bandwidth or less on the machines we measured). The ymm routines take a
// block per step; the zmm ones a pair of blocks per register (block 4k+j
// in the low half for j even, the high half for j odd), with two
// accumulators [acc0 | acc1] and [acc2 | acc3]. The fp16 scales of four
// blocks are gathered with scalar code (the vector ports stay free) and
// converted at once.
//
// MatMul: one weight row against the columns of a packed group (see
// kernels.packQ8_0): per block, for each of the group's columns, VNNI: x +
// 128 as unsigned bytes, against the weight as the signed operand, from a
// seed of -128·Σ w made once per weight block for all the columns; else
// the even and the odd quants as int16 words; then dx as 8 float32. The
// ymm tile holds a column per register, the zmm tile a pair of columns per
// register (the weight block broadcast to both halves).

#include "go_asm.h"
#include "textflag.h"
#include "vex_amd64.h"
`)
	g.p(`#define Q8B blockQ8_0__size
#define Q8D blockQ8_0_d
#define Q8Q blockQ8_0_qs

// General-purpose registers, common to every routine in this file.
#define DST  DI  // dst: the next output (MatMul: row r of column 0)
#define WP   SI  // current weight block
#define XROW DX  // first activation block of the row (MatMul: of the packed group)
#define XP   BX  // current activation block
#define ROWS R8  // rows left
#define NB   R9  // blocks per row
#define N    CX  // blocks left in the row
#define LDDB R12 // MatMul: bytes from one output column to the next
#define NB32 R13 // MatVec: 32·nb, from packed array P0 to P1
#define XD   R11 // MatVec: the current block's packed dx (raw: scratch)
#define XDROW R12 // MatVec: the first block's packed dx
// AX, R10: scratch.
`)
	g.data("q8C80", []uint32{0x80808080})
	g.data("q8C01", []uint32{0x01010101})
	g.data("q8CM128", []uint32{0xff80ff80})
	g.data("q8Idx01", append(rep(0, 8), rep(1, 8)...))
	g.data("q8Idx23", append(rep(2, 8), rep(3, 8)...))
	for _, packed := range []bool{false, true} {
		for _, v := range allISAs {
			g.v = v
			q8MatVec(g, packed)
		}
	}
	// The avx512 variant runs MatMulQ8_0AVX2: a zmm tile on sign-extended
	// words moves 3 bytes of packed x per quant through L2 and was slower.
	for _, v := range []isa{avx2, avxvnni, avx512vnni} {
		g.v = v
		q8MatMul(g)
	}
	q8Pack(g, true)
	q8Pack(g, false)
}

// q8Gather4 sets the GPR r to the fp16 scales of the four blocks at p,
// block j in bits 16j..16j+15 (R10 scratch).
func q8Gather4(g *gen, p, r string) {
	for j := 3; j >= 0; j-- {
		src := fmt.Sprintf("%d*Q8B+Q8D(%s)", j, p)
		if j == 3 {
			g.i("MOVWQZX", src+", "+r)
			continue
		}
		g.i("SHLQ", "$16, "+r)
		g.i("MOVWQZX", src+", R10")
		g.i("ORQ", "R10, "+r)
	}
}

// The matrix-vector kernel comes in two forms of one body: on raw Q8_0
// activations (MatVecQ8_0*, for a dot or a few rows) and on activations
// packed once per call (MatVecQ8_0Packed*, PackQ8_0*): the packed form
// reads x's quants (or their sign-extended halves), seeds and float scales
// instead of deriving them again for every row.

// q8DD4 leaves dd of the four blocks at WP and XP, or XD when packed,
// (dw·dx, float32) in lanes 0..3 of X(DD); T scratch.
func q8DD4(g *gen, packed bool) {
	q8Gather4(g, "WP", "AX")
	g.i("VMOVQ", "AX, "+g.x("DD"))
	if packed {
		g.ic("VCVTPH2PS", g.x("DD")+", "+g.x("DD"), "dw0..3")
		g.ic("VMULPS", "(XD), "+g.x("DD")+", "+g.x("DD"), "dd0..3 = dw·dx")
		return
	}
	q8Gather4(g, "XP", "R11")
	g.i("VPINSRQ", "$1, R11, "+g.x("DD")+", "+g.x("DD"))
	g.ic("VCVTPH2PS", g.x("DD")+", "+g.y("DD"), "dw0..3, dx0..3")
	g.i("VEXTRACTF128", "$1, "+g.y("DD")+", "+g.x("T"))
	g.ic("VMULPS", g.x("T")+", "+g.x("DD")+", "+g.x("DD"), "dd0..3 = dw·dx")
}

// q8Product sets the int32 lane sums of the weight block(s) at off(WP)
// against x into A, at width w ("Y": one block; "Z": the pair of blocks at
// off and off+Q8B, the second in the high half). x is the raw blocks at
// off(XP), or the packed arrays at xoff(XP) (a packed pair is contiguous).
func q8Product(g *gen, w, off, xoff string, packed bool) {
	r := func(role string) string { return fmt.Sprint(w, g.num(role)) }
	mov := "VMOVDQU"
	if w == "Z" {
		mov = "VMOVDQU32"
	}
	load := func(p, dst string) {
		g.i("VMOVDQU", fmt.Sprintf("Q8Q+%s(%s), %s", off, p, g.y(dst)))
		if w == "Z" {
			g.i("VINSERTI64X4", fmt.Sprintf("$1, Q8Q+%s+Q8B(%s), %s, %s", off, p, r(dst), r(dst)))
		}
	}
	p0, p1 := xoff+"(XP)", xoff+"(XP)(NB32*1)"
	if g.v.vnni {
		if packed {
			g.ic(mov, p1+", "+r("A"), "seed: -128 · lane sums of x")
		} else {
			load("XP", "X")
			g.ic("VPMADDUBSW", r("X")+", "+r("C01")+", "+r("A"), "pair sums of x")
			g.ic("VPMADDWD", r("CM128")+", "+r("A")+", "+r("A"), "seed: -128 · lane sums of x")
		}
		load("WP", "W")
		if w == "Z" {
			g.ic("VPXORD", r("C80")+", "+r("W")+", "+r("W"), "w + 128, unsigned")
		} else {
			g.ic("VPXOR", r("C80")+", "+r("W")+", "+r("W"), "w + 128, unsigned")
		}
		xs := r("X")
		switch {
		case w == "Y" && !g.v.zmm:
			if packed {
				g.i("VMOVDQU", p0+", "+r("X"))
			}
			g.dpbusd("X", "W", "A")
			return
		case packed:
			xs = p0
		}
		g.i("VPDPBUSD", xs+", "+r("W")+", "+r("A"))
		return
	}
	sext := func(q, e string) {
		g.i("VPSLLW", "$8, "+r(q)+", "+r(e))
		g.ic("VPSRAW", "$8, "+r(e)+", "+r(e), "even bytes, sign-extended")
		g.ic("VPSRAW", "$8, "+r(q)+", "+r(q), "odd bytes, sign-extended")
	}
	xe, xo := p0, p1
	if !packed {
		load("XP", "X")
		sext("X", "XE")
		xe, xo = r("XE"), r("X")
	}
	load("WP", "W")
	sext("W", "WE")
	g.ic("VPMADDWD", xe+", "+r("WE")+", "+r("A"), "even products")
	g.ic("VPMADDWD", xo+", "+r("W")+", "+r("W"), "odd products")
	g.i("VPADDD", r("W")+", "+r("A")+", "+r("A"))
}

// q8Float adds dd·float32(A) to acc at width w; dd a register.
func q8Float(g *gen, w, dd, acc string) {
	a := fmt.Sprint(w, g.num("A"))
	g.i("VCVTDQ2PS", a+", "+a)
	g.i("VMULPS", dd+", "+a+", "+a)
	g.i("VADDPS", a+", "+acc+", "+acc)
}

// q8TailBlock is one block at WP (x at XP, and XD when packed) into the
// ymm accumulator acc, then the pointers step past it.
func q8TailBlock(g *gen, acc string, packed bool) {
	g.i("MOVWQZX", "Q8D(WP), AX")
	if !packed {
		g.i("MOVWQZX", "Q8D(XP), R10")
		g.i("SHLL", "$16, R10")
		g.i("ORL", "R10, AX")
	}
	g.i("VMOVD", "AX, "+g.x("DD"))
	if packed {
		g.ic("VCVTPH2PS", g.x("DD")+", "+g.x("DD"), "dw")
		g.ic("VMULSS", "(XD), "+g.x("DD")+", "+g.x("DD"), "dd")
	} else {
		g.ic("VCVTPH2PS", g.x("DD")+", "+g.x("DD"), "dw, dx")
		g.i("VMOVSHDUP", g.x("DD")+", "+g.x("T"))
		g.ic("VMULSS", g.x("T")+", "+g.x("DD")+", "+g.x("DD"), "dd")
	}
	g.i("VBROADCASTSS", g.x("DD")+", "+g.y("DD"))
	q8Product(g, "Y", "0", "0", packed)
	q8Float(g, "Y", g.y("DD"), acc)
	g.i("ADDQ", "$Q8B, WP")
	if packed {
		g.i("ADDQ", "$32, XP")
		g.i("ADDQ", "$4, XD")
	} else {
		g.i("ADDQ", "$Q8B, XP")
	}
}

// q8MatVec writes MatVecQ8_0<isa> or MatVecQ8_0Packed<isa>.
func q8MatVec(g *gen, packed bool) {
	v := g.v
	frame := "$16-40"
	if v.zmm {
		frame = "$0-40"
	}
	name, sig, doc := "MatVecQ8_0"+v.name, "(dst *float32, w, x unsafe.Pointer, rows, nb int)", `
dst[r] = dot(row r of w, x) for r < rows: w holds rows·nb blocks, x nb.`
	if packed {
		name, sig, doc = "MatVecQ8_0Packed"+v.name, "(dst *float32, w, xp unsafe.Pointer, rows, nb int)", `
dst[r] = dot(row r of w, x) for r < rows: w holds rows·nb blocks, xp the
nb blocks of x packed by PackQ8_0`+q8PackName(v)+`.`
	}
	g.text(name, frame, sig, doc)
	rs := []reg{}
	if v.zmm {
		rs = append(rs,
			reg{"ACC01", 0, "float sums, sets 0 | 1 (tail: set 0)"},
			reg{"ACC23", 1, "float sums, sets 2 | 3 (tail: set 2)"},
			reg{"ACC1", 2, "tail: set 1"},
			reg{"ACC3", 3, "tail: set 3"},
			reg{"DDA", 5, "dd of blocks 0 | 1, each in 8 lanes"},
			reg{"DDB", 6, "dd of blocks 2 | 3"},
			reg{"IDX01", 16, "VPERMPS indices: lanes 0 | 1"},
			reg{"IDX23", 17, "VPERMPS indices: lanes 2 | 3"},
		)
	} else {
		rs = append(rs,
			reg{"ACC0", 0, "float sums, set 0"},
			reg{"ACC1", 1, "set 1"},
			reg{"ACC2", 2, "set 2"},
			reg{"ACC3", 3, "set 3"},
		)
	}
	rs = append(rs,
		reg{"DD", 4, "dd (quad: dd0..3 in the low lanes)"},
		reg{"A", 7, "int32 lane sums, then their float terms"},
		reg{"W", 10, "w quants (VNNI: XOR 0x80; else odd bytes as words)"},
		reg{"T", 15, "scratch"},
	)
	if v.vnni || !packed {
		rs = append(rs, reg{"X", 8, "x quants (sign-extended: odd bytes)"})
	}
	if v.vnni {
		rs = append(rs, reg{"C80", 12, "bytes 0x80"})
		if !packed {
			rs = append(rs, reg{"C01", 13, "bytes 1"}, reg{"CM128", 14, "words -128"})
		}
	} else {
		rs = append(rs, reg{"WE", 11, "w even bytes as words"})
		if !packed {
			rs = append(rs, reg{"XE", 9, "x even bytes as words"})
		}
	}
	g.named(rs...)
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "w+8(FP), WP")
	if packed {
		g.i("MOVQ", "xp+16(FP), XROW")
	} else {
		g.i("MOVQ", "x+16(FP), XROW")
	}
	g.i("MOVQ", "rows+24(FP), ROWS")
	g.i("MOVQ", "nb+32(FP), NB")
	if packed {
		g.ic("MOVQ", "NB, NB32", "the packed arrays: P0, P1 at +32·nb, dx at +64·nb")
		g.i("SHLQ", "$5, NB32")
		g.i("LEAQ", "(XROW)(NB32*2), XDROW")
	}
	if v.vnni {
		g.i("VPBROADCASTD", "q8C80<>(SB), C80")
		if !packed {
			g.i("VPBROADCASTD", "q8C01<>(SB), C01")
			g.i("VPBROADCASTD", "q8CM128<>(SB), CM128")
		}
	}
	if v.zmm {
		g.i("VMOVDQU32", "q8Idx01<>(SB), IDX01")
		g.i("VMOVDQU32", "q8Idx23<>(SB), IDX23")
	}
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("row")
	g.i("MOVQ", "XROW, XP")
	if packed {
		g.i("MOVQ", "XDROW, XD")
	}
	g.i("MOVQ", "NB, N")
	acc := []string{"ACC0", "ACC1", "ACC2", "ACC3"}
	if v.zmm {
		g.i("VPXORD", "ACC01, ACC01, ACC01")
		g.i("VPXORD", "ACC23, ACC23, ACC23")
		acc = []string{g.y("ACC01"), g.y("ACC1"), g.y("ACC23"), g.y("ACC3")}
	} else {
		for _, a := range acc {
			g.i("VXORPS", a+", "+a+", "+a)
		}
	}
	g.i("CMPQ", "N, $4")
	g.jmp("JB", "tail")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("quad")
	g.prefetch("WP", mvPrefetch, 136)
	g.c("dd of four blocks: f16(dw)·dx")
	q8DD4(g, packed)
	xoff := func(j int) string { // packed x of block j of the quad
		if !packed {
			return fmt.Sprintf("%d*Q8B", j)
		}
		return fmt.Sprint(32 * j)
	}
	if v.zmm {
		g.ic("VPERMPS", "DD, IDX01, DDA", "dd0 ×8 | dd1 ×8")
		g.ic("VPERMPS", "DD, IDX23, DDB", "dd2 ×8 | dd3 ×8")
		g.c("blocks 0 and 1 into sets 0 | 1")
		q8Product(g, "Z", "0", xoff(0), packed)
		q8Float(g, "Z", "DDA", "ACC01")
		g.c("blocks 2 and 3 into sets 2 | 3")
		q8Product(g, "Z", "2*Q8B", xoff(2), packed)
		q8Float(g, "Z", "DDB", "ACC23")
	} else {
		g.i("VMOVUPS", g.x("DD")+", 0(SP)")
		for j := 0; j < 4; j++ {
			g.c("block %d into set %d", j, j)
			g.i("VBROADCASTSS", fmt.Sprintf("%d(SP), DD", 4*j))
			q8Product(g, "Y", fmt.Sprintf("%d*Q8B", j), xoff(j), packed)
			q8Float(g, "Y", "DD", acc[j])
		}
	}
	g.i("ADDQ", "$4*Q8B, WP")
	if packed {
		g.i("ADDQ", "$128, XP")
		g.i("ADDQ", "$16, XD")
	} else {
		g.i("ADDQ", "$4*Q8B, XP")
	}
	g.i("SUBQ", "$4, N")
	g.i("CMPQ", "N, $4")
	g.jmp("JAE", "quad")
	g.blank()
	g.label("tail")
	if v.zmm {
		g.c("the four sets in ymm registers")
		g.i("VEXTRACTF64X4", "$1, ACC01, "+g.y("ACC1"))
		g.i("VEXTRACTF64X4", "$1, ACC23, "+g.y("ACC3"))
	}
	g.c("0..3 blocks left, into sets 0, 1, 2")
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "sum")
	for j := 0; j < 3; j++ {
		q8TailBlock(g, acc[j], packed)
		if j < 2 {
			g.i("DECQ", "N")
			g.jmp("JZ", "sum")
		}
	}
	g.blank()
	g.label("sum")
	g.ic("VADDPS", acc[1]+", "+acc[0]+", "+acc[0], "acc0 + acc1")
	g.ic("VADDPS", acc[3]+", "+acc[2]+", "+acc[2], "acc2 + acc3")
	g.i("VADDPS", acc[2]+", "+acc[0]+", "+acc[0])
	g.hsum8(0, g.num("T"))
	g.i("VMOVSS", "X0, (DST)")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.jmp("JNZ", "row")
	g.blank()
	g.end()
}

// q8PackName is the suffix of the activation packer a variant's MatVec
// reads: the VNNI layout (quants, seeds) or the sign-extended one.
func q8PackName(v isa) string {
	if v.vnni {
		return "VNNI"
	}
	return "Sext"
}

// q8Pack writes PackQ8_0VNNI or PackQ8_0Sext (AVX2 code; every variant
// runs it).
func q8Pack(g *gen, vnni bool) {
	g.v = avx2
	name := "PackQ8_0Sext"
	doc := `
Packs the nb Q8_0 blocks at x for MatVecQ8_0PackedAVX2 and MatVecQ8_0PackedAVX512 into
xp (68·nb bytes): P0 (32 bytes a block: the even quants q[2k] as int16
words), P1 at 32·nb (the odd quants as words), dx at 64·nb (float32).`
	if vnni {
		name = "PackQ8_0VNNI"
		doc = `
Packs the nb Q8_0 blocks at x for MatVecQ8_0PackedAVXVNNI and MatVecQ8_0PackedAVX512VNNI
into xp (68·nb bytes): P0 (32 bytes a block: the quants), P1 at 32·nb (8
int32 seeds -128·(q[4l] + … + q[4l+3])), dx at 64·nb (float32).`
	}
	g.text(name, "$0-24", "(xp, x unsafe.Pointer, nb int)", doc)
	g.named(
		reg{"Q", 0, "quants"},
		reg{"E", 1, "seeds or even words"},
		reg{"D", 2, "dx"},
		reg{"C01", 3, "bytes 1"},
		reg{"CM128", 4, "words -128"},
	)
	g.i("MOVQ", "xp+0(FP), XP")
	g.i("MOVQ", "x+8(FP), WP")
	g.i("MOVQ", "nb+16(FP), N")
	g.ic("MOVQ", "N, NB32", "P1 - P0")
	g.i("SHLQ", "$5, NB32")
	g.i("LEAQ", "(XP)(NB32*2), XD")
	if vnni {
		g.i("VPBROADCASTD", "q8C01<>(SB), C01")
		g.i("VPBROADCASTD", "q8CM128<>(SB), CM128")
	}
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("block")
	g.i("VMOVDQU", "Q8Q(WP), Q")
	if vnni {
		g.i("VMOVDQU", "Q, (XP)")
		g.ic("VPMADDUBSW", "Q, C01, E", "pair sums")
		g.ic("VPMADDWD", "CM128, E, E", "-128 · lane sums")
		g.i("VMOVDQU", "E, (XP)(NB32*1)")
	} else {
		g.i("VPSLLW", "$8, Q, E")
		g.ic("VPSRAW", "$8, E, E", "even bytes, sign-extended")
		g.ic("VPSRAW", "$8, Q, Q", "odd bytes, sign-extended")
		g.i("VMOVDQU", "E, (XP)")
		g.i("VMOVDQU", "Q, (XP)(NB32*1)")
	}
	g.i("MOVWQZX", "Q8D(WP), AX")
	g.i("VMOVD", "AX, "+g.x("D"))
	g.i("VCVTPH2PS", g.x("D")+", "+g.x("D"))
	g.i("VMOVSS", g.x("D")+", (XD)")
	g.i("ADDQ", "$Q8B, WP")
	g.i("ADDQ", "$32, XP")
	g.i("ADDQ", "$4, XD")
	g.i("DECQ", "N")
	g.jmp("JNZ", "block")
	g.blank()
	g.end()
}

// q8PackedBlock is the bytes of one column's block in packQ8_0's layout
// for v: x + 128 and dx (VNNI), or the even words, the odd words and dx.
func q8PackedBlock(v isa) int {
	if v.vnni {
		return 64
	}
	return 96
}

// q8MatMul writes MatMulQ8_0<isa>: rows weight rows against one packed
// group of q8TileCols columns.
func q8MatMul(g *gen) {
	v := g.v
	cols := q8TileCols(v)
	units := cols // accumulator registers per set: a column, or a column pair on zmm
	w := "Y"
	if v.zmm {
		units, w = cols/2, "Z"
	}
	g.text("MatMulQ8_0"+v.name, "$0-48", "(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)", fmt.Sprintf(`
dst[c·ldd + r] = dot(row r of w, column c of the packed group xp) for
r < rows and c < %d: w holds rows·nb blocks; xp is %d columns of nb blocks
packed by kernels.packQ8_0 (%d bytes a block).`, cols, cols, q8PackedBlock(v)*cols))
	base := 0
	if v.zmm {
		base = 16
	}
	var rs []reg
	accRole := func(s, u int) string { return fmt.Sprintf("ACC%d%d", s, u) }
	for s := 0; s < 4; s++ {
		for u := 0; u < units; u++ {
			what := fmt.Sprintf("column %d", u)
			if v.zmm {
				what = fmt.Sprintf("columns %d | %d", 2*u, 2*u+1)
			}
			rs = append(rs, reg{accRole(s, u), base + s*units + u, fmt.Sprintf("float sums, set %d, %s", s, what)})
		}
	}
	o := 8
	if v.zmm {
		o = 0
	}
	rs = append(rs,
		reg{"W", o, "the weight block (zmm: in both halves; sign-extended: odd bytes as words)"},
		reg{"DW", o + 2, "f16(dw) in every lane"},
		reg{"A", o + 3, "int32 lane sums, then their float terms"},
		reg{"T", o + 4, "scratch"},
		reg{"DD", o + 5, "dd = dw·dx"},
	)
	if v.vnni {
		rs = append(rs, reg{"C80", o + 1, "bytes 0x80"}, reg{"X", o + 6, "x + 128"}, reg{"NC", o + 7, "-128 · lane sums of w, the seed"})
	} else {
		rs = append(rs, reg{"WE", o + 1, "w even bytes as words"})
	}
	g.named(rs...)
	// Byte offsets in a packed block: P0 (x + 128, or the even words), P1
	// (the odd words), P2 (dx), 32 bytes a column each.
	p0, p1, p2 := 0, 32*cols, 64*cols
	if v.vnni {
		p2 = 32 * cols
	}
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "ldd+8(FP), LDDB")
	g.i("SHLQ", "$2, LDDB")
	g.i("MOVQ", "w+16(FP), WP")
	g.i("MOVQ", "xp+24(FP), XROW")
	g.i("MOVQ", "rows+32(FP), ROWS")
	g.i("MOVQ", "nb+40(FP), NB")
	if v.vnni {
		g.i("VPBROADCASTD", "q8C80<>(SB), C80")
	}
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("row")
	g.i("MOVQ", "XROW, XP")
	g.i("MOVQ", "NB, N")
	for s := 0; s < 4; s++ {
		for u := 0; u < units; u++ {
			a := accRole(s, u)
			if v.zmm {
				g.i("VPXORD", a+", "+a+", "+a)
			} else {
				g.i("VXORPS", a+", "+a+", "+a)
			}
		}
	}
	step := func(s int) {
		g.c("one block into set %d", s)
		if v.zmm {
			g.ic("VBROADCASTI64X4", "Q8Q(WP), W", "w | w")
			g.ic("VPBROADCASTW", "Q8D(WP), "+g.y("DW"), "dw ×16")
			g.i("VCVTPH2PS", g.y("DW")+", DW")
		} else {
			g.i("VMOVDQU", "Q8Q(WP), W")
			g.ic("VPBROADCASTW", "Q8D(WP), "+g.x("DW"), "dw ×8")
			g.i("VCVTPH2PS", g.x("DW")+", DW")
		}
		if v.vnni {
			g.c("seed: x·w = (x + 128)·w - 128·w")
			if v.zmm {
				g.i("VPXORD", "T, T, T")
				g.i("VPDPBUSD", "W, C80, T")
				g.i("VPXORD", "NC, NC, NC")
				g.i("VPSUBD", "T, NC, NC")
			} else {
				g.i("VPXOR", "T, T, T")
				g.dpbusd("W", "C80", "T")
				g.i("VPXOR", "NC, NC, NC")
				g.i("VPSUBD", "T, NC, NC")
			}
		} else {
			g.i("VPSLLW", "$8, W, WE")
			g.ic("VPSRAW", "$8, WE, WE", "even bytes, sign-extended")
			g.ic("VPSRAW", "$8, W, W", "odd bytes, sign-extended")
		}
		size := 32
		if v.zmm {
			size = 64
		}
		for u := 0; u < units; u++ {
			off := u * size
			if v.vnni {
				g.i(vmovdqu(v), fmt.Sprintf("%d(XP), X", p0+off))
				if v.zmm {
					g.i("VMOVDQA32", "NC, A")
					g.i("VPDPBUSD", "W, X, A")
				} else {
					g.i("VMOVDQA", "NC, A")
					g.dpbusd("W", "X", "A")
				}
			} else {
				g.i("VPMADDWD", fmt.Sprintf("%d(XP), WE, A", p0+off))
				g.i("VPMADDWD", fmt.Sprintf("%d(XP), W, T", p1+off))
				g.i("VPADDD", "T, A, A")
			}
			g.ic("VMULPS", fmt.Sprintf("%d(XP), DW, DD", p2+off), "dd = dw·dx")
			q8Float(g, w, "DD", accRole(s, u))
		}
		g.i("ADDQ", "$Q8B, WP")
		g.i("ADDQ", fmt.Sprintf("$%d, XP", q8PackedBlock(v)*cols))
	}
	g.i("CMPQ", "N, $4")
	g.jmp("JB", "tail")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("quad")
	for s := 0; s < 4; s++ {
		step(s)
	}
	g.i("SUBQ", "$4, N")
	g.i("CMPQ", "N, $4")
	g.jmp("JAE", "quad")
	g.blank()
	g.label("tail")
	g.c("0..3 blocks left, into sets 0, 1, 2")
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "sum")
	for s := 0; s < 3; s++ {
		step(s)
		if s < 2 {
			g.i("DECQ", "N")
			g.jmp("JZ", "sum")
		}
	}
	g.blank()
	g.label("sum")
	g.i("MOVQ", "DST, AX")
	// Sums of the four sets into A and T (registers below 16, for the
	// VEX hsum).
	s0, s1 := g.num("A"), g.num("T")
	r0, r1 := fmt.Sprint(w, s0), fmt.Sprint(w, s1)
	for u := 0; u < units; u++ {
		g.ic("VADDPS", accRole(1, u)+", "+accRole(0, u)+", "+r0, "acc0 + acc1")
		g.ic("VADDPS", accRole(3, u)+", "+accRole(2, u)+", "+r1, "acc2 + acc3")
		g.i("VADDPS", r1+", "+r0+", "+r0)
		store := func(reg int) {
			g.hsum8(reg, g.num("DD"))
			g.i("VMOVSS", fmt.Sprint("X", reg)+", (AX)")
			g.i("ADDQ", "LDDB, AX")
		}
		if v.zmm {
			g.ic("VEXTRACTF64X4", fmt.Sprintf("$1, %s, Y%d", r0, s1), "the second column")
			store(s0)
			store(s1)
		} else {
			store(s0)
		}
	}
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.jmp("JNZ", "row")
	g.blank()
	g.end()
}
