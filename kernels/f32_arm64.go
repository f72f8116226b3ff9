//go:build !purego

package kernels

import "github.com/corelane/corelane/kernels/internal/arm64"

// The float32 kernels of kernels/internal/arm64, adapted to Ops. neon and dotprod
// share them (the dot-product extension has nothing to add to float32
// work). Every adapter checks its lengths (a mismatch panics, as the
// generic kernels do) before the assembly touches memory.
var _ = addARM64(func(variant string, o *Ops) {
	switch variant {
	case "neon", "dotprod":
		o.DotF32 = func(a, b []float32) float32 { return arm64.DotF32NEON(a, b[:len(a)]) }
		o.Axpy = func(alpha float32, x, y []float32) { arm64.AxpyNEON(alpha, x, y[:len(x)]) }
		o.Scale = arm64.ScaleNEON
		o.Max = arm64.MaxNEON
		o.ExpSum = expSumNEON
	}
})

// expSumNEON runs the assembly on the whole 4-lane groups and Exp32, the
// kernel's twin, on the last len(x) mod 4 elements.
func expSumNEON(dst, x []float32, sub float32) float32 {
	dst = dst[:len(x)]
	n := len(x) &^ 3
	s := arm64.ExpSumNEON(dst[:n], x[:n], sub)
	for i := n; i < len(x); i++ {
		e := Exp32(x[i] - sub)
		dst[i] = e
		s += e
	}
	return s
}
