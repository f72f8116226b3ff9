//go:build !purego

package amd64

// Float32 kernels. Every function reads and writes exactly the elements its
// contract names (the tails use scalar code or lane masks, never a wider
// access), checks nothing, and trusts the caller for lengths. Their Go twins
// are the generic kernels in package kernels (f32.go).

// DotF32AVX2 returns Σ a[i]·b[i] over i < len(a); len(b) ≥ len(a).
// Twin: dotF32Generic. Reassociated: eight 8-lane FMA accumulators, then a
// scalar FMA tail.
//
//go:noescape
func DotF32AVX2(a, b []float32) float32

// DotF32AVX512 is DotF32AVX2 with eight 16-lane accumulators and a masked
// tail. Twin: dotF32Generic.
//
//go:noescape
func DotF32AVX512(a, b []float32) float32

// AxpyAVX2 sets y[i] = fma(alpha, x[i], y[i]) for i < len(x); len(y) ≥
// len(x). Twin: axpyGeneric (which rounds the product; this fuses it).
//
//go:noescape
func AxpyAVX2(alpha float32, x, y []float32)

// AxpyAVX512 is AxpyAVX2 on 16 lanes with a masked tail. Twin: axpyGeneric.
//
//go:noescape
func AxpyAVX512(alpha float32, x, y []float32)

// ScaleAVX2 sets x[i] *= alpha. Twin: scaleGeneric (same bits).
//
//go:noescape
func ScaleAVX2(alpha float32, x []float32)

// ScaleAVX512 is ScaleAVX2 on 16 lanes with a masked tail. Twin:
// scaleGeneric (same bits).
//
//go:noescape
func ScaleAVX512(alpha float32, x []float32)

// MaxAVX2 returns the largest element of x; len(x) ≥ 1 and x holds no NaN
// (−Inf for an empty x). Twin: maxGeneric.
//
//go:noescape
func MaxAVX2(x []float32) float32

// MaxAVX512 is MaxAVX2 on 16 lanes with a masked tail. Twin: maxGeneric.
//
//go:noescape
func MaxAVX512(x []float32) float32

// ExpSumAVX2 sets dst[i] = exp(x[i] − sub) for i < len(x) (len(dst) ≥
// len(x)) and returns the sum of those values. Twin: expSumGeneric: every
// dst[i] has the bits of Exp32(x[i]−sub); the sum is reassociated.
//
//go:noescape
func ExpSumAVX2(dst, x []float32, sub float32) float32

// SoftmaxColsAVX512 is ExactSoftmaxAVX512 with Exp32 for the exponential:
// the same layout, order and special cases. rs is a multiple of 16, n ≥ 1.
// Twin: softmaxColsGeneric.
//
//go:noescape
func SoftmaxColsAVX512(st *float32, rs int, lim *int32, scale float32, n int)

// SoftmaxColsAVX2 is SoftmaxColsAVX512 on 8 lanes: rs a multiple of 8, n
// ≥ 1. Twin: softmaxColsGeneric.
//
//go:noescape
func SoftmaxColsAVX2(st *float32, rs int, lim *int32, scale float32, n int)

// ExpSumAVX512 is ExpSumAVX2 on 16 lanes with a masked tail; the same dst
// bits. Twin: expSumGeneric.
//
//go:noescape
func ExpSumAVX512(dst, x []float32, sub float32) float32
