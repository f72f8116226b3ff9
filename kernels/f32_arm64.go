//go:build !purego

package kernels

import "github.com/corelane/corelane/kernels/arm64"

// The float32 kernels of kernels/arm64, adapted to Ops. neon and dotprod
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
	}
})
