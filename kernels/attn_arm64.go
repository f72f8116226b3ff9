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

func exactScoresNEON(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores(st, qt, rs, len(k), ldk)
	if rs%4 != 0 || hd%4 != 0 || n == 0 || hd == 0 {
		exactScoresGeneric(st, qt, rs, k, ldk)
		return
	}
	arm64.ExactScoresNEON(&st[0], &qt[0], rs, &k[0], ldk, hd, n)
}

func exactWeightedNEON(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	rows, n := checkWeighted(o, hd, pt, rs, len(v), ldv)
	if hd%16 != 0 || rows == 0 || n == 0 {
		exactWeightedGeneric(o, hd, pt, rs, v, ldv)
		return
	}
	arm64.ExactWeightedNEON(&o[0], rows, hd, &pt[0], rs, &v[0], ldv, n)
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

// dotRowsF16NEON widens each key row and runs DotF32NEON on it, so that it
// returns dotRowsNEON's bits on the widened K (AttentionF16 in Fast mode
// promises Attention's bits on the widened K/V).
func dotRowsF16NEON(dst, q []float32, k []quant.F16, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	hd := len(q)
	var stack [256]float32
	row := stack[:0]
	if hd <= len(stack) {
		row = stack[:hd]
	} else {
		row = make([]float32, hd)
	}
	for j := range dst {
		widenF16Generic(row, k[j*ldk:j*ldk+hd])
		dst[j] = arm64.DotF32NEON(q, row)
	}
}
