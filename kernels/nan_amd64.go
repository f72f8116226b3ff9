//go:build !purego

package kernels

import "github.com/corelane/corelane/kernels/internal/amd64"

// canonNaNsAVX2 is canonNaNs for the Go side of the amd64 kernels (every
// one of which needs AVX2): the same result, eight values a step.
func canonNaNsAVX2(dst []float32) {
	if len(dst) > 0 {
		amd64.CanonNaNsAVX2(&dst[0], len(dst))
	}
}

// canonNaNColsAVX2 runs canonNaNsAVX2 over the rows elements of each of
// cols columns of dst with leading dimension ldd.
func canonNaNColsAVX2(dst []float32, ldd, rows, cols int) {
	for c := 0; c < cols; c++ {
		canonNaNsAVX2(dst[c*ldd : c*ldd+rows])
	}
}
