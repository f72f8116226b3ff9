//go:build !purego

package amd64

// Attention kernels (package sdpa). Each checks nothing: the adapters in
// package kernels (attn_amd64.go there) check every length and call these
// only with the shapes stated. Their Go twins are in package kernels
// (attn.go). The Exact ones return the twin's bits: each lane computes its
// own value in the twin's order, every product and sum separately rounded.

// WidenF16AVX512 sets dst[i] to the float32 value of the binary16 src[i]
// for i < n, n a multiple of 16 (a signalling NaN keeps its payload, as the
// table quant.F16Table does, instead of being quieted). Twin:
// widenF16Generic.
//
//go:noescape
func WidenF16AVX512(dst *float32, src *uint16, n int)

// ExactScoresAVX512 sets st[j·rs + r] = Σ_d qt[d·rs + r]·k[j·ldk + d] for
// j < n, r < rs, d < hd, summing over d in order from +0 (VMULPS then
// VADDPS, never fused). rs is a multiple of 16 and ≥ 16, hd ≥ 1, n ≥ 1;
// st has n·rs elements, qt hd·rs and k (n−1)·ldk + hd. Twin:
// exactScoresGeneric.
//
//go:noescape
func ExactScoresAVX512(st, qt *float32, rs int, k *float32, ldk, hd, n int)

// ExactExpAVX512 sets dst[i] = Exp(x[i] − m[i mod period]) for i <
// n, n a multiple of period, period a multiple of 16 (dst may be x). The
// exponential is computed in float64 lanes exactly as the twin does it.
// Twin: exactExpGeneric.
//
//go:noescape
func ExactExpAVX512(dst, x, m *float32, n, period int)

// SwiGLUAVX512 sets dst[i] = SiLU(gate[i])·up[i] for i < n, n a multiple
// of 16: SwiGLUAVX2 on 16 lanes, the same bits (each step rounded to
// float32, a NaN result the canonical NaN; dst may be gate or up). It
// needs AVX-512 F and DQ. Twin: swiGLUGeneric.
//
//go:noescape
func SwiGLUAVX512(dst, gate, up *float32, n int)

// ExactDivAVX512 sets x[i] = x[i] / d[i mod period] for i < n, n a
// multiple of period, period a multiple of 16. Twin: exactDivGeneric.
//
//go:noescape
func ExactDivAVX512(x, d *float32, n, period int)

// ExactWeightedAVX512 adds pt[j·rs + r]·v[j·ldv + c] to o[r·hd + c] for r
// < rows, c < hd and j < n in order, skipping a key whose weight is 0 (the
// add is masked off), products and sums separately rounded. hd is a
// multiple of 16, rows ≥ 1, n ≥ 1; o has rows·hd elements, pt n·rs
// (rs ≥ rows) and v (n−1)·ldv + hd. With pf ≠ 0 the one-row path
// prefetches V 8 KiB ahead (for V that streams from beyond the caches;
// on data in cache the prefetches cost ~15%). Twin: exactWeightedGeneric.
//
//go:noescape
func ExactWeightedAVX512(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n, pf int)

// DotRowsAVX512 sets dst[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d < hd,
// hd a multiple of 16, n ≥ 1; reassociated and fused (16-lane FMA
// accumulators, one per key, then a horizontal sum: sixteen keys at a
// time, their sums transposed into one register by RED16, then four,
// then one, every key's lanes summed in the same order). With pf ≠ 0 it
// prefetches K 8 KiB ahead (see ExactWeightedAVX512). Twin:
// dotRowsGeneric.
//
//go:noescape
func DotRowsAVX512(dst, q *float32, hd int, k *float32, ldk, n, pf int)

// ExactSoftmaxAVX512 turns the scores st[j·rs + r] (j < n, r < rs, rs a
// multiple of 16, n ≥ 1) into softmax weights, each lane r in the twin's
// order: s = st·scale for j < lim[r], else −Inf; max; e = Exp(s −
// max); sum in key order; e / sum, or 0 for j ≥ lim[r] and for a lane
// whose every s is −Inf. Twin: exactSoftmaxGeneric.
//
//go:noescape
func ExactSoftmaxAVX512(st *float32, rs int, lim *int32, scale float32, n int)

// ExactScoresRowAVX512 sets s[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d <
// hd, summed over d in order from +0 (VMULPS then VADDPS): ExactScores
// with rs = 1, one lane per key. n and hd are multiples of 16 and ≥ 16; k
// has (n−1)·ldk + hd elements. Twin: exactScoresGeneric (rs = 1).
//
//go:noescape
func ExactScoresRowAVX512(s, q *float32, k *float32, ldk, hd, n int)

// ExactWeightedF16AVX512 is ExactWeightedAVX512 with v binary16 (widened
// exactly in registers). Twin: exactWeightedF16Generic.
//
//go:noescape
func ExactWeightedF16AVX512(o *float32, rows, hd int, pt *float32, rs int, v *uint16, ldv, n, pf int)

// DotRowsF16AVX512 is DotRowsAVX512 with k binary16. Twin:
// dotRowsF16Generic.
//
//go:noescape
func DotRowsF16AVX512(dst, q *float32, hd int, k *uint16, ldk, n, pf int)

// ExactScoresRowF16AVX512 is ExactScoresRowAVX512 with k binary16. Twin:
// exactScoresF16Generic (rs = 1).
//
//go:noescape
func ExactScoresRowF16AVX512(s, q *float32, k *uint16, ldk, hd, n int)

// FastWeightedRowAVX512 adds Σ_j pt[j·rs]·v[j·ldv + c] to o[c] for c <
// hd and j < n: Fast's weighted sum for one row, fused, the even keys
// summed onto o and the odd ones apart, then added (a key whose weight is
// 0 is skipped). hd is a multiple of 64, n ≥ 1; pt has (n−1)·rs + 1
// elements, v (n−1)·ldv + hd. With pf ≠ 0 it prefetches V 8 KiB ahead
// (see ExactWeightedAVX512). Twin: none with the same bits; the Fast
// contract (kernels.Ops.FastWeighted) bounds it against
// exactWeightedGeneric.
//
//go:noescape
func FastWeightedRowAVX512(o *float32, hd int, pt *float32, rs int, v *float32, ldv, n, pf int)

// FastWeightedRowF16AVX512 is FastWeightedRowAVX512 with v binary16
// (widened exactly in registers).
//
//go:noescape
func FastWeightedRowF16AVX512(o *float32, hd int, pt *float32, rs int, v *uint16, ldv, n, pf int)
