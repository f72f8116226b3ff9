package main

import "fmt"

// The fused binary16-weight · float32 matrix-vector kernels (f16_amd64.s).

func f16File(g *gen) {
	g.p(`// Binary16 weights times float32 activations, fused: MatVecF16* widens
// each weight with VCVTPH2PS as it multiplies (no float32 copy of the row)
// and accumulates with VFMADD231PS in four vector accumulators, one weight
// row at a time. Reassociated and fused like DotF32: the Go twin
// kernels.matVecF16Generic is the same dot on the widened row; results
// agree within DotF32's tolerance, not bit for bit.
//
// Tails: ymm routines finish the last n%8 values one at a time (scalar
// widening and VFMADD231SS); zmm routines with a lane mask, whose masked-off
// lanes never touch memory.

#include "textflag.h"

#define DST  DI // dst: the next output
#define WP   SI // current weight
#define XROW DX // x
#define XP   BX // current x
#define ROWS R8 // rows left
#define NN   R9 // values per row
#define N    CX // values left in the row
// AX: scratch.
`)
	for _, v := range []isa{{name: "AVX2", req: "AVX2, FMA3, F16C"}, {name: "AVX512", zmm: true, req: "AVX512F"}} {
		g.v = v
		f16MatVec(g)
	}
}

func f16MatVec(g *gen) {
	v := g.v
	name := "MatVecF16AVX2"
	lanes := 8
	if v.zmm {
		name, lanes = "MatVecF16AVX512", 16
	}
	step := 4 * lanes
	g.text(name, "$0-40", "(dst *float32, w *uint16, x *float32, rows, n int)", `
dst[r] = Σ_i f16(w[r·n + i])·x[i] for r < rows and i < n, reassociated and
fused. Twin: kernels.matVecF16Generic.`)
	g.named(
		reg{"ACC0", 0, "sums"}, reg{"ACC1", 1, "sums"}, reg{"ACC2", 2, "sums"}, reg{"ACC3", 3, "sums"},
		reg{"W0", 4, "widened weights"}, reg{"W1", 5, "widened weights"},
		reg{"W2", 6, "widened weights"}, reg{"W3", 7, "widened weights"},
		reg{"T", 8, "scratch"},
	)
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "w+8(FP), WP")
	g.i("MOVQ", "x+16(FP), XROW")
	g.i("MOVQ", "rows+24(FP), ROWS")
	g.i("MOVQ", "n+32(FP), NN")
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("row")
	g.i("MOVQ", "XROW, XP")
	g.i("MOVQ", "NN, N")
	zero := "VXORPS"
	if v.zmm {
		zero = "VPXORD"
	}
	for a := 0; a < 4; a++ {
		r := fmt.Sprint("ACC", a)
		g.i(zero, r+", "+r+", "+r)
	}
	g.i("CMPQ", fmt.Sprintf("N, $%d", step))
	g.jmp("JB", "by1")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("loop")
	g.prefetch("WP", mvPrefetch, 2*step)
	for a := 0; a < 4; a++ {
		w := fmt.Sprint("W", a)
		g.i("VCVTPH2PS", fmt.Sprintf("%d(WP), %s", 2*lanes*a, w))
	}
	for a := 0; a < 4; a++ {
		g.i("VFMADD231PS", fmt.Sprintf("%d(XP), W%d, ACC%d", 4*lanes*a, a, a))
	}
	g.i("ADDQ", fmt.Sprintf("$%d, WP", 2*step))
	g.i("ADDQ", fmt.Sprintf("$%d, XP", 4*step))
	g.i("SUBQ", fmt.Sprintf("$%d, N", step))
	g.i("CMPQ", fmt.Sprintf("N, $%d", step))
	g.jmp("JAE", "loop")
	g.blank()
	g.label("by1")
	g.c("blocks of %d, then the tail", lanes)
	g.i("CMPQ", fmt.Sprintf("N, $%d", lanes))
	g.jmp("JB", "tail")
	g.i("VCVTPH2PS", "(WP), W0")
	g.i("VFMADD231PS", "(XP), W0, ACC0")
	g.i("ADDQ", fmt.Sprintf("$%d, WP", 2*lanes))
	g.i("ADDQ", fmt.Sprintf("$%d, XP", 4*lanes))
	g.i("SUBQ", fmt.Sprintf("$%d, N", lanes))
	g.jmp("JMP", "by1")
	g.blank()
	g.label("tail")
	if v.zmm {
		g.i("TESTQ", "N, N")
		g.jmp("JZ", "sum")
		g.i("MOVL", "$1, AX")
		g.i("SHLL", "CX, AX")
		g.i("DECL", "AX")
		g.ic("KMOVW", "AX, K1", "the N low lanes")
		g.i("VCVTPH2PS.Z", "(WP), K1, W0")
		g.i("VMOVUPS.Z", "(XP), K1, W1")
		g.i("VFMADD231PS", "W1, W0, ACC1")
		g.ic("LEAQ", "(WP)(N*2), WP", "the next row")
		g.label("sum")
	}
	g.i("VADDPS", "ACC1, ACC0, ACC0")
	g.i("VADDPS", "ACC3, ACC2, ACC2")
	g.i("VADDPS", "ACC2, ACC0, ACC0")
	if v.zmm {
		g.i("VEXTRACTF64X4", "$1, ACC0, Y1")
		g.i("VADDPS", "Y1, Y0, Y0")
	}
	g.hsum8(0, 1)
	if !v.zmm {
		g.c("the last n%%8 values, one at a time")
		g.label("scalar")
		g.i("TESTQ", "N, N")
		g.jmp("JZ", "store")
		g.i("MOVWQZX", "(WP), AX")
		g.i("VMOVD", "AX, X4")
		g.i("VCVTPH2PS", "X4, X4")
		g.i("VFMADD231SS", "(XP), X4, X0")
		g.i("ADDQ", "$2, WP")
		g.i("ADDQ", "$4, XP")
		g.i("DECQ", "N")
		g.jmp("JMP", "scalar")
	}
	g.label("store")
	g.i("VMOVSS", "X0, (DST)")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.jmp("JNZ", "row")
	g.blank()
	g.end()
}
