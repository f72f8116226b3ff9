//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/kernels/internal/arm64"
	"github.com/corelane/corelane/quant"
)

// The arm64 quantized dot kernels. One assembly routine per (type,
// variant) computes whole rows (see package kernels/internal/arm64); Dot is one row,
// MatVec all rows in one call, MatMul one call per activation column. The
// lengths are checked here, before any assembly touches memory.
var _ = addARM64(func(variant string, o *Ops) {
	switch variant {
	case "neon":
		setQuantRows(o, arm64.DotQ4KNEON, arm64.DotQ5KNEON, arm64.DotQ6KNEON, arm64.DotQ8_0NEON)
	case "dotprod":
		setQuantRows(o, arm64.DotQ4KSDOT, arm64.DotQ5KSDOT, arm64.DotQ6KSDOT, arm64.DotQ8_0SDOT)
	}
})

// rowsKernel is the signature of every arm64 quantized dot routine.
type rowsKernel func(dst *float32, w, x unsafe.Pointer, rows, nb int)

func setQuantRows(o *Ops, q4k, q5k, q6k, q8_0 rowsKernel) {
	o.DotQ4K = dotRows[quant.BlockQ4K, quant.BlockQ8K](q4k)
	o.MatVecQ4K = matVecRows[quant.BlockQ4K, quant.BlockQ8K](q4k)
	o.MatMulQ4K = matMulRows[quant.BlockQ4K, quant.BlockQ8K](q4k)

	o.DotQ5K = dotRows[quant.BlockQ5K, quant.BlockQ8K](q5k)
	o.MatVecQ5K = matVecRows[quant.BlockQ5K, quant.BlockQ8K](q5k)
	o.MatMulQ5K = matMulRows[quant.BlockQ5K, quant.BlockQ8K](q5k)

	o.DotQ6K = dotRows[quant.BlockQ6K, quant.BlockQ8K](q6k)
	o.MatVecQ6K = matVecRows[quant.BlockQ6K, quant.BlockQ8K](q6k)
	o.MatMulQ6K = matMulRows[quant.BlockQ6K, quant.BlockQ8K](q6k)

	o.DotQ8_0 = dotRows[quant.BlockQ8_0, quant.BlockQ8_0](q8_0)
	o.MatVecQ8_0 = matVecRows[quant.BlockQ8_0, quant.BlockQ8_0](q8_0)
	o.MatMulQ8_0 = matMulRows[quant.BlockQ8_0, quant.BlockQ8_0](q8_0)
}

// dotRows adapts a rows kernel to Ops' Dot shape: one row of len(w) blocks.
func dotRows[W, X any](k rowsKernel) func(w []W, x []X) float32 {
	return func(w []W, x []X) float32 {
		nb := len(w)
		if nb == 0 {
			return 0
		}
		x = x[:nb] // bounds check: the kernel reads nb activation blocks
		var out float32
		k(&out, unsafe.Pointer(&w[0]), unsafe.Pointer(&x[0]), 1, nb)
		return canonNaN(out)
	}
}

// matVecRows adapts a rows kernel to Ops' MatVec shape: dst[r] = Dot(row r
// of w, x) for r < len(dst), all rows in one call.
func matVecRows[W, X any](k rowsKernel) func(dst []float32, w []W, x []X) {
	return func(dst []float32, w []W, x []X) {
		rows, nb := len(dst), len(x)
		if rows == 0 {
			return
		}
		if nb == 0 {
			clear(dst)
			return
		}
		w = w[:rows*nb] // bounds check: the kernel reads rows·nb weight blocks
		k(&dst[0], unsafe.Pointer(&w[0]), unsafe.Pointer(&x[0]), rows, nb)
		canonNaNs(dst)
	}
}

// matMulRows adapts a rows kernel to Ops' MatMul shape: one call per
// activation column c computes dst[c·ldd : c·ldd+rows].
func matMulRows[W, X any](k rowsKernel) func(dst []float32, ldd int, w []W, x []X, cols int, _ *Prep) {
	return func(dst []float32, ldd int, w []W, x []X, cols int, _ *Prep) {
		if cols <= 0 {
			return
		}
		nb := len(x) / cols
		if nb == 0 {
			return
		}
		rows := len(w) / nb
		if rows == 0 {
			return
		}
		_ = dst[(cols-1)*ldd+rows-1] // bounds check: the last element written
		if ldd < rows {
			panic("kernels: MatMul: ldd < rows")
		}
		for c := 0; c < cols; c++ {
			k(&dst[c*ldd], unsafe.Pointer(&w[0]), unsafe.Pointer(&x[c*nb]), rows, nb)
			canonNaNs(dst[c*ldd : c*ldd+rows])
		}
	}
}
