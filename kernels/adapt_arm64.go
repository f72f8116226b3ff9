//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/kernels/internal/arm64"
)

// Adapters from the unchecked routines of kernels/internal/arm64 to Ops'
// shapes. Each checks the lengths its routine relies on (a mismatch
// panics, as the generic kernels do) before the assembly touches memory.

// rowsKernel is the signature of every arm64 quantized dot routine.
type rowsKernel func(dst *float32, w, x unsafe.Pointer, rows, nb int)

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

func quantizeRows[B any](k func(dst unsafe.Pointer, src *float32, nb int), per int) func(dst []B, src []float32) {
	return func(dst []B, src []float32) {
		if len(src) != len(dst)*per {
			panic("kernels: Quantize: len(src) is not len(dst) blocks")
		}
		if len(dst) == 0 {
			return
		}
		k(unsafe.Pointer(&dst[0]), &src[0], len(dst))
	}
}

func dequantRows[B any](k func(dst *float32, src unsafe.Pointer, nb int), per int) func(dst []float32, src []B) {
	return func(dst []float32, src []B) {
		if len(dst) != len(src)*per {
			panic("kernels: Dequant: len(dst) is not the values of len(src) blocks")
		}
		if len(src) == 0 {
			return
		}
		k(&dst[0], unsafe.Pointer(&src[0]), len(src))
	}
}

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
