//go:build !purego

package arm64

// Float32 kernels (ASIMD). Every function reads and writes exactly the
// elements its contract names (16, then 4, then 1 element a step, never a
// wider access), checks nothing, and trusts the caller for lengths. Their
// Go twins are the generic kernels in package kernels (f32.go).

// DotF16NEON returns Σ a[i]·f16(b[i]) over i < len(a), with b's len(a)
// binary16 values widened exactly as they are read: DotF32NEON's bits on
// the widened b. Twin: dotF16RowGeneric.
//
//go:noescape
func DotF16NEON(a []float32, b *uint16) float32

// DotF32NEON returns Σ a[i]·b[i] over i < len(a); len(b) ≥ len(a).
// Twin: dotF32Generic. Reassociated: four 4-lane FMA accumulators, a
// scalar FMA tail.
//
//go:noescape
func DotF32NEON(a, b []float32) float32

// AxpyNEON sets y[i] = fma(alpha, x[i], y[i]) for i < len(x); len(y) ≥
// len(x). Twin: axpyGeneric (which rounds the product; this fuses it).
//
//go:noescape
func AxpyNEON(alpha float32, x, y []float32)

// ScaleNEON sets x[i] *= alpha. Twin: scaleGeneric (same bits).
//
//go:noescape
func ScaleNEON(alpha float32, x []float32)

// MaxNEON returns the largest element of x (−Inf for an empty x); x holds
// no NaN. Twin: maxGeneric (the same value; of +0 and −0 it may return
// either).
//
//go:noescape
func MaxNEON(x []float32) float32

// ExpSumNEON sets dst[i] = exp(x[i] − sub) for i < len(x) &^ 3 (len(dst) ≥
// that) and returns the sum of those values; the last len(x) mod 4
// elements are the caller's. Twin: expSumGeneric: every dst[i] has the bits
// of Exp32(x[i]−sub); the sum is reassociated.
//
//go:noescape
func ExpSumNEON(dst, x []float32, sub float32) float32
