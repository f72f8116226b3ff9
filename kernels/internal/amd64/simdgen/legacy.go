package main

import "fmt"

// The legacy Q4_0 · Q8_0 and Q5_0 · Q8_0 kernels (legacy_amd64.s).

func legacyFile(g *gen) {
	g.p(`// Q4_0 · Q8_0 and Q5_0 · Q8_0 matrix-vector kernels (also the dot of one
// row), one weight row at a time, AVX2 code for every amd64 variant.
//
// Every routine returns the bits of its Go twin, kernels.dotQ4_0Generic or
// dotQ5_0Generic, which follow ggml's generic order: per block b the exact
// int32 sum s_b = Σ (q_i − 8)·x_i (Q5_0: q_i − 16 with the fifth bit from
// qh), then one float32 sum over the blocks in order,
//
//	Q4_0: sum += (float32(s_b)·dw)·dx      Q5_0: sum += (dw·dx)·float32(s_b)
//
// every product and sum rounded on its own (no FMA). The integer sums of
// eight blocks are made side by side (VPMADDUBSW of the unsigned quants
// with x, minus that of 8 or 16 with x, exact for every byte; VPMADDWD to
// int32; a VPHADDD tree to one sum a block), their float terms in one
// vector, and the eight terms are then added to the sum one by one: the
// order of the sum is the contract, so that chain of adds is what the
// kernel waits for (the lanes are moved down with register shuffles: a
// scalar load from a vector just stored to the frame waits for the store).

#include "go_asm.h"
#include "textflag.h"

#define Q8B blockQ8_0__size
#define Q8D blockQ8_0_d
#define Q8Q blockQ8_0_qs

#define DST  DI // dst: the next output
#define WP   SI // current weight block
#define XROW DX // first activation block of the row
#define XP   BX // current activation block
#define ROWS R8 // rows left
#define NB   R9 // blocks per row
#define N    CX // blocks left in the row
// AX, R10, R11: scratch.
`)
	g.data("lgC0F", []uint32{0x0f0f0f0f})
	g.data("lgC08", []uint32{0x08080808})
	g.data("lgC10", []uint32{0x10101010})
	g.data("lgOnes", []uint32{0x00010001})
	// Q5_0: VPSHUFB control that gives byte j the qh byte holding bit j
	// (qh broadcast to every dword), and the bit of each byte.
	g.data("lgQhIdx", []uint32{0, 0, 0x01010101, 0x01010101, 0x02020202, 0x02020202, 0x03030303, 0x03030303})
	g.data("lgQhBit", rep2(0x08040201, 0x80402010, 8))
	g.v = avx2
	legacyMatVec(g, false)
	legacyMatVec(g, true)
}

// rep2 returns n words alternating a, b.
func rep2(a, b uint32, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = a
		if i%2 == 1 {
			out[i] = b
		}
	}
	return out
}

// legacyMatVec writes MatVecQ4_0AVX2 or MatVecQ5_0AVX2.
func legacyMatVec(g *gen, q5 bool) {
	typ, blk, bias := "Q4_0", "blockQ4_0", "C08"
	if q5 {
		typ, blk, bias = "Q5_0", "blockQ5_0", "C10"
	}
	wb := "$" + blk + "__size"
	g.text("MatVec"+typ+"AVX2", "$0-40", "(dst *float32, w, x unsafe.Pointer, rows, nb int)", fmt.Sprintf(`
dst[r] = dot(row r of w, x) for r < rows: w holds rows·nb %s blocks, x nb
Q8_0 blocks. Twin: kernels.dot%sGeneric.`, typ, typ))
	rs := []reg{
		{"P0", 0, "int32 lane sums of block 0 of the group (then the group's sums)"},
		{"P1", 1, "block 1"}, {"P2", 2, "block 2"}, {"P3", 3, "block 3"},
		{"P4", 4, "block 4"}, {"P5", 5, "block 5"}, {"P6", 6, "block 6"}, {"P7", 7, "block 7"},
		{"Q", 8, "unsigned quants of a block, in value order"},
		{"T", 9, "scratch"},
		{"U", 10, "scratch"},
		{"C0F", 11, "bytes 0x0f"},
		{"CB", 12, "bytes 8 (Q5_0: 16), the bias"},
		{"ONES", 13, "words 1"},
		{"SUM", 14, "the float sum (lane 0)"},
	}
	if q5 {
		rs = append(rs, reg{"QHI", 15, "VPSHUFB control: qh byte of each value"})
	}
	g.named(rs...)
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "w+8(FP), WP")
	g.i("MOVQ", "x+16(FP), XROW")
	g.i("MOVQ", "rows+24(FP), ROWS")
	g.i("MOVQ", "nb+32(FP), NB")
	g.i("VPBROADCASTD", "lgC0F<>(SB), C0F")
	g.i("VPBROADCASTD", "lg"+bias+"<>(SB), CB")
	g.i("VPBROADCASTD", "lgOnes<>(SB), ONES")
	if q5 {
		g.i("VMOVDQU", "lgQhIdx<>(SB), QHI")
	}
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("row")
	g.i("MOVQ", "XROW, XP")
	g.i("MOVQ", "NB, N")
	g.i("VXORPS", "X14, X14, X14")
	g.i("CMPQ", "N, $8")
	g.jmp("JB", "tail")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("group")
	g.prefetch("WP", mvPrefetch, 8*map[bool]int{false: 18, true: 22}[q5])
	for b := 0; b < 8; b++ {
		legacyBlock(g, q5, fmt.Sprintf("%d*%s__size", b, blk), fmt.Sprintf("%d*Q8B", b), fmt.Sprint("P", b))
	}
	g.c("one int32 sum per block: s0..s7")
	g.i("VPHADDD", "P1, P0, P0")
	g.i("VPHADDD", "P3, P2, P2")
	g.i("VPHADDD", "P5, P4, P4")
	g.i("VPHADDD", "P7, P6, P6")
	g.ic("VPHADDD", "P2, P0, P0", "s0..3 in halves: low lane + high lane")
	g.ic("VPHADDD", "P6, P4, P4", "s4..7 likewise")
	g.i("VPERM2I128", "$0x20, P4, P0, P1")
	g.i("VPERM2I128", "$0x31, P4, P0, P2")
	g.i("VPADDD", "P2, P1, P1")
	g.ic("VCVTDQ2PS", "P1, P1", "float32(s_b)")
	g.c("the scales of the eight blocks")
	for half := 0; half < 2; half++ {
		for _, side := range []struct{ p, r, size string }{{"WP", "AX", blk + "__size"}, {"XP", "R11", "Q8B"}} {
			for j := 3; j >= 0; j-- {
				src := fmt.Sprintf("%d*%s+%s_d(%s)", 4*half+j, side.size, map[string]string{"WP": blk, "XP": "blockQ8_0"}[side.p], side.p)
				if j == 3 {
					g.i("MOVWQZX", src+", "+side.r)
					continue
				}
				g.i("SHLQ", "$16, "+side.r)
				g.i("MOVWQZX", src+", R10")
				g.i("ORQ", "R10, "+side.r)
			}
		}
		if half == 0 {
			g.i("VMOVQ", "AX, X2")
			g.i("VMOVQ", "R11, X3")
		} else {
			g.i("VPINSRQ", "$1, AX, X2, X2")
			g.i("VPINSRQ", "$1, R11, X3, X3")
		}
	}
	g.ic("VCVTPH2PS", "X2, P2", "dw0..7")
	g.ic("VCVTPH2PS", "X3, P3", "dx0..7")
	if q5 {
		g.ic("VMULPS", "P3, P2, P2", "dw·dx")
		g.ic("VMULPS", "P2, P1, P1", "(dw·dx)·float32(s)")
	} else {
		g.ic("VMULPS", "P2, P1, P1", "float32(s)·dw")
		g.ic("VMULPS", "P3, P1, P1", "·dx")
	}
	g.c("the sum, block by block (lanes moved down in registers, off the chain)")
	g.i("VEXTRACTF128", "$1, P1, X2")
	for b := 0; b < 8; b++ {
		src := []string{"X1", "X2"}[b/4]
		if b%4 == 0 {
			g.i("VADDSS", src+", X14, X14")
			continue
		}
		g.i("VPERMILPS", fmt.Sprintf("$%d, %s, X3", b%4, src))
		g.i("VADDSS", "X3, X14, X14")
	}
	g.i("ADDQ", "$8*"+blk+"__size, WP")
	g.i("ADDQ", "$8*Q8B, XP")
	g.i("SUBQ", "$8, N")
	g.i("CMPQ", "N, $8")
	g.jmp("JAE", "group")
	g.blank()
	g.label("tail")
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "store")
	legacyBlock(g, q5, "0", "0", "P0")
	g.i("VEXTRACTI128", "$1, P0, X1")
	g.i("VPADDD", "X1, X0, X0")
	g.i("VPHADDD", "X0, X0, X0")
	g.i("VPHADDD", "X0, X0, X0")
	g.ic("VCVTDQ2PS", "X0, X0", "float32(s)")
	g.i("MOVWQZX", blk+"_d(WP), AX")
	g.i("VMOVD", "AX, X2")
	g.ic("VCVTPH2PS", "X2, X2", "dw")
	g.i("MOVWQZX", "Q8D(XP), AX")
	g.i("VMOVD", "AX, X3")
	g.ic("VCVTPH2PS", "X3, X3", "dx")
	if q5 {
		g.i("VMULSS", "X3, X2, X2")
		g.i("VMULSS", "X2, X0, X0")
	} else {
		g.i("VMULSS", "X2, X0, X0")
		g.i("VMULSS", "X3, X0, X0")
	}
	g.i("VADDSS", "X0, X14, X14")
	g.i("ADDQ", wb+", WP")
	g.i("ADDQ", "$Q8B, XP")
	g.i("DECQ", "N")
	g.jmp("JMP", "tail")
	g.blank()
	g.label("store")
	g.i("VMOVSS", "X14, (DST)")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.jmp("JNZ", "row")
	g.blank()
	g.end()
}

// legacyBlock sets the eight int32 lane sums of (q − bias)·x for the
// weight block at woff(WP) and the Q8_0 block at xoff(XP) into p.
func legacyBlock(g *gen, q5 bool, woff, xoff, p string) {
	blk := "blockQ4_0"
	if q5 {
		blk = "blockQ5_0"
	}
	g.i("VMOVDQU", fmt.Sprintf("%s_qs+%s(WP), %s", blk, woff, g.x("Q")))
	g.i("VPSRLW", "$4, "+g.x("Q")+", "+g.x("T"))
	g.ic("VINSERTI128", "$1, "+g.x("T")+", Q, Q", "low nibbles: values 0..15, high: 16..31")
	g.i("VPAND", "C0F, Q, Q")
	if q5 {
		g.ic("VPBROADCASTD", fmt.Sprintf("%s_qh+%s(WP), T", blk, woff), "the fifth bits")
		g.i("VPSHUFB", "QHI, T, T")
		g.i("VPAND", "lgQhBit<>(SB), T, T")
		g.i("VPCMPEQB", "lgQhBit<>(SB), T, T")
		g.i("VPAND", "CB, T, T")
		g.ic("VPOR", "T, Q, Q", "q in 0..31")
	}
	x := fmt.Sprintf("Q8Q+%s(XP)", xoff)
	g.ic("VPMADDUBSW", x+", Q, Q", "q·x in pairs")
	g.ic("VPMADDUBSW", x+", CB, U", "bias·x in pairs")
	g.ic("VPSUBW", "U, Q, Q", "(q − bias)·x in pairs, exact")
	g.i("VPMADDWD", "ONES, Q, "+p)
}
