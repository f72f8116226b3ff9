//go:build !purego

package amd64

// The AVX2 attention kernels (attn_avx2_amd64.s, written by simdgen). Each
// checks nothing: the adapters in package kernels (attn_amd64.go there)
// check every length and call these only with the shapes stated. The
// Exact ones and WidenF16AVX2 return their Go twins' bits; a binary16 form
// returns its float32 form's bits on the widened values.

// WidenF16AVX2 is WidenF16AVX512 on 8 lanes: n a multiple of 8. Twin:
// widenF16Generic.
//
//go:noescape
func WidenF16AVX2(dst *float32, src *uint16, n int)

// ExactScoresAVX2 is ExactScoresAVX512 with rs a multiple of 8 (hd ≥ 1,
// n ≥ 1). Twin: exactScoresGeneric.
//
//go:noescape
func ExactScoresAVX2(st, qt *float32, rs int, k *float32, ldk, hd, n int)

// ExactScoresF16AVX2 is ExactScoresAVX2 with k binary16. Twin:
// exactScoresF16Generic.
//
//go:noescape
func ExactScoresF16AVX2(st, qt *float32, rs int, k *uint16, ldk, hd, n int)

// ExactWeightedAVX2 is ExactWeightedAVX512 with hd a multiple of 8 (rows
// ≥ 1, n ≥ 1); pf as there (the 64-column loop). Twin:
// exactWeightedGeneric.
//
//go:noescape
func ExactWeightedAVX2(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n, pf int)

// ExactWeightedF16AVX2 is ExactWeightedAVX2 with v binary16. Twin:
// exactWeightedF16Generic.
//
//go:noescape
func ExactWeightedF16AVX2(o *float32, rows, hd int, pt *float32, rs int, v *uint16, ldv, n, pf int)

// FastScoresAVX2 and FastScoresF16AVX2 are ExactScoresAVX2 and
// ExactScoresF16AVX2 with each product and sum one fused multiply-add
// (Fast mode's prefill tiles): within that rounding of
// exactScores[F16]Generic, not its bits.
//
//go:noescape
func FastScoresAVX2(st, qt *float32, rs int, k *float32, ldk, hd, n int)

//go:noescape
func FastScoresF16AVX2(st, qt *float32, rs int, k *uint16, ldk, hd, n int)

// FastWeightedAVX2 and FastWeightedF16AVX2 are ExactWeightedAVX2 and
// ExactWeightedF16AVX2 with each product and sum one fused multiply-add
// (a ±0 weight still skips its key).
//
//go:noescape
func FastWeightedAVX2(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n, pf int)

//go:noescape
func FastWeightedF16AVX2(o *float32, rows, hd int, pt *float32, rs int, v *uint16, ldv, n, pf int)

// FastSoftmaxAVX2 is SoftmaxColsAVX2 with a fused exponential (within a
// few ulp of Exp32, 0 below e^−86) and e·(1/sum) for e/sum: rs a multiple
// of 8, n ≥ 1. Twin: softmaxColsGeneric, within Fast's tolerance.
//
//go:noescape
func FastSoftmaxAVX2(st *float32, rs int, lim *int32, scale float32, n int)

// DotRowsAVX2 sets dst[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d < hd, hd a
// multiple of 8 and n ≥ 1, reassociated and fused; pf as DotRowsAVX512's.
// Twin: dotRowsGeneric.
//
//go:noescape
func DotRowsAVX2(dst, q *float32, hd int, k *float32, ldk, n, pf int)

// DotRowsF16AVX2 is DotRowsAVX2 with k binary16: DotRowsAVX2's bits on the
// widened K.
//
//go:noescape
func DotRowsF16AVX2(dst, q *float32, hd int, k *uint16, ldk, n, pf int)

// ExactExpAVX2 sets dst[i] = Exp(x[i] − m[i mod period]) for i < n, n a
// multiple of period, period a multiple of 8 (dst may be x). Twin:
// exactExpGeneric.
//
//go:noescape
func ExactExpAVX2(dst, x, m *float32, n, period int)

// ExactSoftmaxAVX2 is ExactSoftmaxAVX512 on 8 lanes: rs a multiple of 8,
// n ≥ 1. Twin: exactSoftmaxGeneric.
//
//go:noescape
func ExactSoftmaxAVX2(st *float32, rs int, lim *int32, scale float32, n int)

// ExactScoresRowAVX2 sets s[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d < hd,
// summed over d in order from +0: ExactScores with rs = 1, one lane per
// key. n is a multiple of 8, hd a multiple of 4. Twin: exactScoresGeneric
// (rs = 1).
//
//go:noescape
func ExactScoresRowAVX2(s, q *float32, k *float32, ldk, hd, n int)

// ExactScoresRowF16AVX2 is ExactScoresRowAVX2 with k binary16. Twin:
// exactScoresF16Generic (rs = 1).
//
//go:noescape
func ExactScoresRowF16AVX2(s, q *float32, k *uint16, ldk, hd, n int)

// ExactDivAVX2 sets x[i] = x[i] / d[i mod period] for i < n, n a multiple
// of period, period a multiple of 8. Twin: exactDivGeneric.
//
//go:noescape
func ExactDivAVX2(x, d *float32, n, period int)

// SwiGLUAVX2 sets dst[i] = SiLU(gate[i])·up[i] for i < n, n a multiple of
// 8, each step rounded to float32 and a NaN result the canonical NaN (dst
// may be gate or up). Twin: swiGLUGeneric.
//
//go:noescape
func SwiGLUAVX2(dst, gate, up *float32, n int)
