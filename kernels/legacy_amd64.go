//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/quant"
)

// The legacy Q4_0 and Q5_0 kernels of kernels/internal/amd64 (one AVX2
// matvec each, for every amd64 variant), adapted to Ops: dot = one row,
// matmul = one matvec per activation column (the kernels wait on the
// ordered float sum, not on the weights' bytes, so a column tile would not
// pay). Every element has the generic kernel's bits.

// legacyKernel is a MatVecQ4_0AVX2-shaped kernel for weight blocks W.
type legacyKernel[W any] func(dst *float32, w, x unsafe.Pointer, rows, nb int)

func (k legacyKernel[W]) dot(w []W, x []quant.BlockQ8_0) float32 {
	if len(w) != len(x) {
		panic("kernels: legacy dot: len(w) != len(x)")
	}
	var out float32
	k(&out, q8Blocks(w), q8Blocks(x), 1, len(x))
	return canonNaN(out)
}

func (k legacyKernel[W]) matVec(dst []float32, w []W, x []quant.BlockQ8_0) {
	if len(w) != len(dst)*len(x) {
		panic("kernels: legacy matvec: len(w) != len(dst)·len(x)")
	}
	if len(dst) == 0 {
		return
	}
	k(&dst[0], q8Blocks(w), q8Blocks(x), len(dst), len(x))
	canonNaNsAVX2(dst)
}

func (k legacyKernel[W]) matMul(dst []float32, ldd int, w []W, x []quant.BlockQ8_0, cols int, _ *Prep) {
	rows, nb := matMulShape("legacy MatMul", len(dst), ldd, len(w), len(x), cols)
	if rows == 0 {
		return
	}
	for c := 0; c < cols; c++ {
		k(&dst[c*ldd], q8Blocks(w), q8Blocks(x[c*nb:]), rows, nb)
	}
	canonNaNColsAVX2(dst, ldd, rows, cols)
}
