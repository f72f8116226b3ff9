//go:build !purego

package kernels

import (
	"github.com/corelane/corelane/kernels/internal/arm64"
	"github.com/corelane/corelane/quant"
)

// The attention kernels of kernels/internal/arm64 (attn_arm64.s), adapted
// to Ops (register_arm64.go lists them); neon and dotprod share them. Every adapter checks its lengths
// (attn_check.go) before the assembly runs and hands the shapes the
// assembly does not take to the generic twin, which returns the same bits.
// DotRows runs the float32 dot kernel key by key (reassociated, as
// DotF32NEON is).

func widenF16NEON(dst []float32, src []quant.F16) {
	if len(dst) != len(src) {
		panic("kernels: WidenF16: len(dst) != len(src)")
	}
	n := len(src) &^ 7
	if n > 0 {
		arm64.WidenF16NEON(&dst[0], (*uint16)(&src[0]), n)
	}
	widenF16Generic(dst[n:], src[n:])
}

func exactScoresNEON(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores("ExactScores", st, qt, rs, len(k), ldk)
	if rs == 1 && hd%4 == 0 && hd > 0 && n >= 4 {
		// One query: one lane per key, four keys at a time.
		m := n &^ 3
		arm64.ExactScoresRowNEON(&st[0], &qt[0], &k[0], ldk, hd, m)
		if m < n {
			exactScoresGeneric(st[m:], qt, 1, k[m*ldk:], ldk)
		}
		return
	}
	if rs%4 != 0 || hd%4 != 0 || n == 0 || hd == 0 {
		exactScoresGeneric(st, qt, rs, k, ldk)
		return
	}
	arm64.ExactScoresNEON(&st[0], &qt[0], rs, &k[0], ldk, hd, n)
}

func exactWeightedNEON(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	rows, n := checkWeighted("ExactWeighted", o, hd, pt, rs, len(v), ldv)
	if hd%16 != 0 || rows == 0 || n == 0 {
		exactWeightedGeneric(o, hd, pt, rs, v, ldv)
		return
	}
	arm64.ExactWeightedNEON(&o[0], rows, hd, &pt[0], rs, &v[0], ldv, n)
}

func exactExpNEON(dst, x, m []float32) {
	checkPeriodic("ExactExp", len(x), len(dst), len(m))
	switch p := len(m); {
	case len(x) == 0:
	case p%4 == 0:
		arm64.ExactExpNEON(&dst[0], &x[0], &m[0], len(x), p)
	case p == 1:
		m4 := [4]float32{m[0], m[0], m[0], m[0]}
		n := len(x) &^ 3
		if n > 0 {
			arm64.ExactExpNEON(&dst[0], &x[0], &m4[0], n, 4)
		}
		exactExpGeneric(dst[n:], x[n:], m)
	default:
		exactExpGeneric(dst, x, m)
	}
}

func exactSoftmaxNEON(st []float32, lim []int32, scale float32) {
	n := checkSoftmax("ExactSoftmax", st, lim)
	if len(lim)%4 != 0 || n == 0 {
		exactSoftmaxGeneric(st, lim, scale)
		return
	}
	arm64.ExactSoftmaxNEON(&st[0], len(lim), &lim[0], scale, n)
}

func exactDivNEON(x, d []float32) {
	checkPeriodic("ExactDiv", len(x), len(x), len(d))
	switch p := len(d); {
	case len(x) == 0:
	case p%4 == 0:
		arm64.ExactDivNEON(&x[0], &d[0], len(x), p)
	case p == 1:
		d4 := [4]float32{d[0], d[0], d[0], d[0]}
		n := len(x) &^ 3
		if n > 0 {
			arm64.ExactDivNEON(&x[0], &d4[0], n, 4)
		}
		exactDivGeneric(x[n:], d)
	default:
		exactDivGeneric(x, d)
	}
}

func dotRowsNEON(dst, q, k []float32, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	hd := len(q)
	for j := range dst {
		dst[j] = arm64.DotF32NEON(q, k[j*ldk:j*ldk+hd])
	}
}

// dotRowsF16NEON runs DotF16NEON key by key: dotRowsNEON's bits on the
// widened K (AttentionF16 in Fast mode promises Attention's bits on the
// widened K/V), with K widened in registers as it is read.
func dotRowsF16NEON(dst, q []float32, k []quant.F16, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	hd := len(q)
	if hd == 0 {
		clear(dst)
		return
	}
	for j := range dst {
		dst[j] = arm64.DotF16NEON(q, (*uint16)(&k[j*ldk]))
	}
}

// matVecF16NEON is MatVecF16: DotF16NEON row by row, so each dst[r] is
// DotF32NEON's result on the widened row.
func matVecF16NEON(dst []float32, w []quant.F16, x []float32) {
	n := len(x)
	if len(w) != len(dst)*n {
		panic("kernels: MatVecF16: len(w) != len(dst)·len(x)")
	}
	if n == 0 {
		clear(dst)
		return
	}
	for r := range dst {
		dst[r] = arm64.DotF16NEON(x, (*uint16)(&w[r*n]))
	}
}

// f16Chunk is the number of binary16 K/V values exactScoresF16NEON and
// exactWeightedF16NEON widen at a time (WidenF16NEON, exact) into a stack
// buffer for the float32 kernels: whole key rows, so each score and each
// output element keeps its key order across the chunks.
const f16Chunk = 2048

func exactScoresF16NEON(st, qt []float32, rs int, k []quant.F16, ldk int) {
	n, hd := checkScores("ExactScoresF16", st, qt, rs, len(k), ldk)
	if (rs%4 != 0 && rs != 1) || hd%4 != 0 || n == 0 || hd == 0 || hd > f16Chunk {
		exactScoresF16Generic(st, qt, rs, k, ldk)
		return
	}
	var buf [f16Chunk]float32
	per := f16Chunk / hd
	for j0 := 0; j0 < n; j0 += per {
		kb := min(per, n-j0)
		for j := range kb {
			widenF16NEON(buf[j*hd:(j+1)*hd], k[(j0+j)*ldk:(j0+j)*ldk+hd])
		}
		// exactScoresNEON: the row kernel for rs = 1, the tile kernel else.
		exactScoresNEON(st[j0*rs:(j0+kb)*rs], qt, rs, buf[:kb*hd], hd)
	}
}

func exactWeightedF16NEON(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
	rows, n := checkWeighted("ExactWeightedF16", o, hd, pt, rs, len(v), ldv)
	if hd%16 != 0 || rows == 0 || n == 0 || hd > f16Chunk {
		exactWeightedF16Generic(o, hd, pt, rs, v, ldv)
		return
	}
	var buf [f16Chunk]float32
	per := f16Chunk / hd
	for j0 := 0; j0 < n; j0 += per {
		kb := min(per, n-j0)
		for j := range kb {
			widenF16NEON(buf[j*hd:(j+1)*hd], v[(j0+j)*ldv:(j0+j)*ldv+hd])
		}
		arm64.ExactWeightedNEON(&o[0], rows, hd, &pt[j0*rs], rs, &buf[0], hd, kb)
	}
}

func swiGLUNEON(dst, gate, up []float32) {
	checkSwiGLU(dst, gate, up)
	n := len(gate) &^ 3
	if n > 0 {
		arm64.SwiGLUNEON(&dst[0], &gate[0], &up[0], n)
	}
	swiGLUGeneric(dst[n:], gate[n:], up[n:])
}
