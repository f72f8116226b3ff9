//go:build !purego

package arm64

// Attention kernels (package sdpa), ASIMD. Each checks nothing: the
// adapters in package kernels (attn_arm64.go there) check every length and
// call these only with the shapes stated. Their Go twins are in package
// kernels (attn.go); each returns the twin's bits (a NaN result may carry
// another NaN's payload).

// ExactScoresNEON sets st[j·rs + r] = Σ_d qt[d·rs + r]·k[j·ldk + d] for
// j < n, r < rs, d < hd, summing over d in order from +0 (fmul then fadd).
// rs and hd are multiples of 4 and ≥ 4, n ≥ 1; st has n·rs elements, qt
// hd·rs and k (n−1)·ldk + hd. Twin: exactScoresGeneric.
//
//go:noescape
func ExactScoresNEON(st, qt *float32, rs int, k *float32, ldk, hd, n int)

// ExactWeightedNEON adds pt[j·rs + r]·v[j·ldv + c] to o[r·hd + c] for r <
// rows, c < hd and j < n in order, skipping a key whose weight is 0,
// products and sums separately rounded. hd is a multiple of 16, rows ≥ 1,
// n ≥ 1; o has rows·hd elements, pt n·rs (rs ≥ rows) and v (n−1)·ldv +
// hd. Twin: exactWeightedGeneric.
//
//go:noescape
func ExactWeightedNEON(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n int)

// ExactDivNEON sets x[i] = x[i] / d[i mod period] for i < n, n a multiple
// of period, period a multiple of 4. Twin: exactDivGeneric.
//
//go:noescape
func ExactDivNEON(x, d *float32, n, period int)

// WidenF16NEON sets dst[i] to the float32 value of the binary16 src[i] for
// i < n, n a multiple of 8 (a signalling NaN keeps its payload, as the
// table quant.F16Table does, instead of being quieted). Twin:
// widenF16Generic.
//
//go:noescape
func WidenF16NEON(dst *float32, src *uint16, n int)

// ExactExpNEON sets dst[i] = Exp(x[i] − m[i mod period]) for i < n, n a
// multiple of period, period a multiple of 4 (dst may be x). Twin:
// exactExpGeneric.
//
//go:noescape
func ExactExpNEON(dst, x, m *float32, n, period int)

// ExactSoftmaxNEON turns the scores st[j·rs + r] (j < n, r < rs, rs a
// multiple of 4, n ≥ 1) into softmax weights, each lane r in the twin's
// order (see ExactSoftmax in package kernels). Twin: exactSoftmaxGeneric.
//
//go:noescape
func ExactSoftmaxNEON(st *float32, rs int, lim *int32, scale float32, n int)

// ExactScoresRowNEON sets s[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d < hd,
// summed over d in order from +0 (fmul then fadd): ExactScores with rs =
// 1, one lane per key. n and hd are multiples of 4 and ≥ 4; k has (n−1)·ldk
// + hd elements. Twin: exactScoresGeneric (rs = 1).
//
//go:noescape
func ExactScoresRowNEON(s, q *float32, k *float32, ldk, hd, n int)

// SwiGLUNEON sets dst[i] = SiLU(gate[i])·up[i] for i < n, n a multiple of
// 4, each step rounded to float32 and a NaN result the canonical NaN (dst
// may be gate or up). Twin: swiGLUGeneric.
//
//go:noescape
func SwiGLUNEON(dst, gate, up *float32, n int)
