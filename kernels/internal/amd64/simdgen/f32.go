package main

import "fmt"

// The float32 stream kernels (f32_amd64.s): DotF32, Axpy, Scale and Max,
// one body each for AVX2 (ymm, scalar tails) and AVX-512 (zmm, masked
// tails). ExpSum, whose two forms differ in how they round (see
// expsum_amd64.s), stays hand-written.

func f32File(g *gen) {
	g.p(`// Float32 vector kernels: dot product, axpy, scale and max, for AVX2 and
// AVX-512. Each mirrors a generic kernel in package kernels (f32.go):
//
//	DotF32{AVX2,AVX512}  dotF32Generic   !!! reassociated: 8 vector
//	                                     accumulators, fused multiply-add
//	Axpy{AVX2,AVX512}    axpyGeneric     !!! fused: y = fma(alpha, x, y)
//	Scale{AVX2,AVX512}   scaleGeneric    exact, same bits
//	Max{AVX2,AVX512}     maxGeneric      exact (no NaN in x)
//
// Every routine is one stream loop: an unrolled body over several vectors,
// then one vector at a time, then the tail — the last len%8 elements with
// scalar instructions on AVX2, a lane mask on AVX-512 (masked-off lanes
// never touch memory).

#include "textflag.h"

DATA f32NegInf<>+0(SB)/4, $0xff800000
GLOBL f32NegInf<>(SB), RODATA|NOPTR, $4

#define A_PTR SI // dot: a; axpy, scale, max: x
#define B_PTR DI // dot: b; axpy: y
#define N     CX // elements left
#define TMP   AX
`)
	for _, k := range []f32Kernel{f32Dot, f32Axpy, f32Scale, f32Max} {
		for _, v := range []isa{fmaAVX2, fmaAVX512} {
			g.v = v
			f32Stream(g, k)
		}
	}
}

// f32Kernel describes one stream kernel. vec(i, off) handles the vector at
// byte offset off with accumulator or scratch register number i; masked is
// the AVX-512 tail (K1 holds the lanes); scalar handles one element
// (AVX2); reduce folds the accumulators into X0 (nil: none).
type f32Kernel struct {
	name, sig, frame, doc string
	unroll                int
	args                  func(g *gen)
	vec                   func(g *gen, i int, off string)
	masked                func(g *gen)
	scalar                func(g *gen)
	reduce                func(g *gen)
	ret                   string // the result's frame slot ("" for none)
	regs                  []reg
}

// vr is vector register i at the routine's width.
func vr(g *gen, i int) string { return fmt.Sprint(g.w(), i) }

// lanes is the number of float32 lanes of the routine's width.
func lanes(g *gen) int {
	if g.v.zmm {
		return 16
	}
	return 8
}

// f32Fold folds registers 0..k-1 into 0 with op (pairwise), then the
// vector into lane 0 of X0 with op and its scalar form.
func f32Fold(g *gen, op, sop string, k int) {
	for step := 1; step < k; step *= 2 {
		for i := 0; i+step < k; i += 2 * step {
			g.i(op, vr(g, i+step)+", "+vr(g, i)+", "+vr(g, i))
		}
	}
	if g.v.zmm {
		g.i("VEXTRACTF64X4", "$1, Z0, Y1")
		g.i(op, "Y1, Y0, Y0")
	}
	g.i("VEXTRACTF128", "$1, Y0, X1")
	g.i(op, "X1, X0, X0")
	g.i("VMOVHLPS", "X0, X0, X1")
	g.i(op, "X1, X0, X0")
	g.i("VMOVSHDUP", "X0, X1")
	g.i(sop, "X1, X0, X0")
}

func f32Stream(g *gen, k f32Kernel) {
	v := g.v
	name := k.name + v.name
	g.text(name, k.frame, k.sig, k.doc)
	g.named(k.regs...)
	l := lanes(g)
	k.args(g)
	step := k.unroll * l
	g.i("CMPQ", fmt.Sprintf("N, $%d", step))
	g.jmp("JB", "by1")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("loop")
	for i := 0; i < k.unroll; i++ {
		k.vec(g, i, fmt.Sprint(4*l*i))
	}
	g.i("ADDQ", fmt.Sprintf("$%d, A_PTR", 4*step))
	if k.name == "DotF32" || k.name == "Axpy" {
		g.i("ADDQ", fmt.Sprintf("$%d, B_PTR", 4*step))
	}
	g.i("SUBQ", fmt.Sprintf("$%d, N", step))
	g.i("CMPQ", fmt.Sprintf("N, $%d", step))
	g.jmp("JAE", "loop")
	g.blank()
	g.label("by1")
	g.i("CMPQ", fmt.Sprintf("N, $%d", l))
	g.jmp("JB", "tail")
	k.vec(g, 0, "0")
	g.i("ADDQ", fmt.Sprintf("$%d, A_PTR", 4*l))
	if k.name == "DotF32" || k.name == "Axpy" {
		g.i("ADDQ", fmt.Sprintf("$%d, B_PTR", 4*l))
	}
	g.i("SUBQ", fmt.Sprintf("$%d, N", l))
	g.jmp("JMP", "by1")
	g.blank()
	g.label("tail")
	if v.zmm {
		g.i("TESTQ", "N, N")
		g.jmp("JZ", "done")
		g.i("MOVL", "$1, TMP")
		g.i("SHLL", "CX, TMP")
		g.i("DECL", "TMP")
		g.ic("KMOVW", "TMP, K1", "K1 = the N low lanes")
		k.masked(g)
		g.label("done")
		if k.reduce != nil {
			k.reduce(g)
		}
	} else {
		if k.reduce != nil {
			k.reduce(g)
		}
		g.label("scalar")
		g.i("TESTQ", "N, N")
		g.jmp("JZ", "done")
		k.scalar(g)
		g.i("ADDQ", "$4, A_PTR")
		if k.name == "DotF32" || k.name == "Axpy" {
			g.i("ADDQ", "$4, B_PTR")
		}
		g.i("DECQ", "N")
		g.jmp("JMP", "scalar")
		g.label("done")
	}
	if k.ret != "" {
		g.i("VMOVSS", "X0, "+k.ret)
	}
	g.end()
}

var (
	f32Dot = f32Kernel{
		name: "DotF32", sig: "(a, b []float32) float32", frame: "$0-52", unroll: 8,
		regs: append(roles("ACC", 0, 8, "sums (ACC0: the result)"), roles("A", 8, 8, "a")...),
		doc:  "Returns Σ a[i]·b[i] over i < len(a) (len(b) ≥ len(a)), in eight vector\naccumulators of fused multiply-adds. Twin: dotF32Generic (reassociated).",
		args: func(g *gen) {
			g.i("MOVQ", "a_base+0(FP), A_PTR")
			g.i("MOVQ", "b_base+24(FP), B_PTR")
			g.i("MOVQ", "a_len+8(FP), N")
			for i := 0; i < 8; i++ {
				a := fmt.Sprint("ACC", i)
				if g.v.zmm {
					g.i("VPXORD", a+", "+a+", "+a)
				} else {
					g.i("VXORPS", a+", "+a+", "+a)
				}
			}
		},
		vec: func(g *gen, i int, off string) {
			g.i("VMOVUPS", fmt.Sprintf("%s(A_PTR), A%d", off, i))
			g.ic("VFMADD231PS", fmt.Sprintf("%s(B_PTR), A%d, ACC%d", off, i, i), "acc += a·b")
		},
		masked: func(g *gen) {
			g.i("VMOVUPS.Z", "(A_PTR), K1, Z8")
			g.i("VMOVUPS.Z", "(B_PTR), K1, Z9")
			g.i("VFMADD231PS", "Z9, Z8, Z1")
		},
		scalar: func(g *gen) {
			g.i("VMOVSS", "(A_PTR), X1")
			g.i("VFMADD231SS", "(B_PTR), X1, X0")
		},
		reduce: func(g *gen) { f32Fold(g, "VADDPS", "VADDSS", 8) },
		ret:    "ret+48(FP)",
	}
	f32Axpy = f32Kernel{
		name: "Axpy", sig: "(alpha float32, x, y []float32)", frame: "$0-56", unroll: 4,
		regs: append(roles("V", 0, 4, "x, then alpha·x + y"), reg{"ALPHA", 15, "alpha in every lane"}),
		doc:  "Sets y[i] = fma(alpha, x[i], y[i]) for i < len(x) (len(y) ≥ len(x)).\nTwin: axpyGeneric (which rounds the product; this fuses it).",
		args: func(g *gen) {
			g.i("VBROADCASTSS", "alpha+0(FP), ALPHA")
			g.i("MOVQ", "x_base+8(FP), A_PTR")
			g.i("MOVQ", "y_base+32(FP), B_PTR")
			g.i("MOVQ", "x_len+16(FP), N")
		},
		vec: func(g *gen, i int, off string) {
			g.i("VMOVUPS", fmt.Sprintf("%s(A_PTR), V%d", off, i))
			g.ic("VFMADD213PS", fmt.Sprintf("%s(B_PTR), ALPHA, V%d", off, i), "alpha·x + y")
			g.i("VMOVUPS", fmt.Sprintf("V%d, %s(B_PTR)", i, off))
		},
		masked: func(g *gen) {
			g.i("VMOVUPS.Z", "(A_PTR), K1, Z0")
			g.i("VMOVUPS.Z", "(B_PTR), K1, Z1")
			g.i("VFMADD213PS", "Z1, Z15, Z0")
			g.i("VMOVUPS", "Z0, K1, (B_PTR)")
		},
		scalar: func(g *gen) {
			g.i("VMOVSS", "(A_PTR), X0")
			g.i("VFMADD213SS", "(B_PTR), X15, X0")
			g.i("VMOVSS", "X0, (B_PTR)")
		},
	}
	f32Scale = f32Kernel{
		name: "Scale", sig: "(alpha float32, x []float32)", frame: "$0-32", unroll: 4,
		regs: append(roles("V", 0, 4, "alpha·x"), reg{"ALPHA", 15, "alpha in every lane"}),
		doc:  "Sets x[i] *= alpha. Twin: scaleGeneric (same bits).",
		args: func(g *gen) {
			g.i("VBROADCASTSS", "alpha+0(FP), ALPHA")
			g.i("MOVQ", "x_base+8(FP), A_PTR")
			g.i("MOVQ", "x_len+16(FP), N")
		},
		vec: func(g *gen, i int, off string) {
			g.i("VMULPS", fmt.Sprintf("%s(A_PTR), ALPHA, V%d", off, i))
			g.i("VMOVUPS", fmt.Sprintf("V%d, %s(A_PTR)", i, off))
		},
		masked: func(g *gen) {
			g.i("VMOVUPS.Z", "(A_PTR), K1, Z0")
			g.i("VMULPS", "Z0, Z15, Z0")
			g.i("VMOVUPS", "Z0, K1, (A_PTR)")
		},
		scalar: func(g *gen) {
			g.i("VMULSS", "(A_PTR), X15, X0")
			g.i("VMOVSS", "X0, (A_PTR)")
		},
	}
	f32Max = f32Kernel{
		name: "Max", sig: "(x []float32) float32", frame: "$0-28", unroll: 4,
		regs: roles("M", 0, 4, "running maxima (M0: the result)"),
		doc:  "Returns the largest element of x (len(x) ≥ 1, no NaN; −Inf for an\nempty x). Twin: maxGeneric.",
		args: func(g *gen) {
			g.i("MOVQ", "x_base+0(FP), A_PTR")
			g.i("MOVQ", "x_len+8(FP), N")
			g.i("VBROADCASTSS", "f32NegInf<>(SB), M0")
			for i := 1; i < 4; i++ {
				g.i("VMOVAPS", fmt.Sprintf("M0, M%d", i))
			}
		},
		vec: func(g *gen, i int, off string) {
			g.i("VMAXPS", fmt.Sprintf("%s(A_PTR), M%d, M%d", off, i, i))
		},
		masked: func(g *gen) {
			g.ic("VMAXPS", "(A_PTR), Z1, K1, Z1", "masked-off lanes keep Z1 and read nothing")
		},
		scalar: func(g *gen) {
			g.i("VMAXSS", "(A_PTR), X0, X0")
		},
		reduce: func(g *gen) { f32Fold(g, "VMAXPS", "VMAXSS", 4) },
		ret:    "ret+24(FP)",
	}
)

// roles returns n registers role0..role(n-1) from number first.
func roles(role string, first, n int, doc string) []reg {
	var rs []reg
	for i := 0; i < n; i++ {
		rs = append(rs, reg{fmt.Sprint(role, i), first + i, doc})
	}
	return rs
}
