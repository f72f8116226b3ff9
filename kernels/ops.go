package kernels

import (
	"reflect"

	"github.com/corelane/corelane/quant"
)

// Ops is one variant's set of kernel functions. The functions do no
// argument checking: the exported wrappers (Dot, MatVec, ...) validate every
// length before calling them, and tests call them only with valid arguments.
// A nil field means the variant does not implement that op.
//
// Shapes: nb = len(x) is the number of blocks in one row (dots, matvec);
// a weight slice holds rows·nb blocks, row r at w[r·nb:(r+1)·nb].
type Ops struct {
	// Dot* returns the dot product of one weight row with one activation row
	// (len(w) == len(x)), in the fixed order documented in the package doc.
	DotQ4K  func(w []quant.BlockQ4K, x []quant.BlockQ8K) float32
	DotQ5K  func(w []quant.BlockQ5K, x []quant.BlockQ8K) float32
	DotQ6K  func(w []quant.BlockQ6K, x []quant.BlockQ8K) float32
	DotQ8_0 func(w []quant.BlockQ8_0, x []quant.BlockQ8_0) float32
	// The legacy types, in ggml's generic order (generic only).
	DotQ4_0 func(w []quant.BlockQ4_0, x []quant.BlockQ8_0) float32
	DotQ5_0 func(w []quant.BlockQ5_0, x []quant.BlockQ8_0) float32
	DotQ4_1 func(w []quant.BlockQ4_1, x []quant.BlockQ8_1) float32
	DotQ5_1 func(w []quant.BlockQ5_1, x []quant.BlockQ8_1) float32

	// MatVec* sets dst[r] = Dot(row r of w, x) for r < len(dst);
	// len(w) == len(dst)·len(x). A scheduler splits rows by slicing.
	MatVecQ4K  func(dst []float32, w []quant.BlockQ4K, x []quant.BlockQ8K)
	MatVecQ5K  func(dst []float32, w []quant.BlockQ5K, x []quant.BlockQ8K)
	MatVecQ6K  func(dst []float32, w []quant.BlockQ6K, x []quant.BlockQ8K)
	MatVecQ8_0 func(dst []float32, w []quant.BlockQ8_0, x []quant.BlockQ8_0)

	// MatMul* sets dst[c·ldd + r] = Dot(row r of w, column c of x) for
	// r < rows = len(w)/nb and c < cols, where x holds cols activation rows of
	// nb = len(x)/cols blocks each. ldd ≥ rows.
	MatMulQ4K  func(dst []float32, ldd int, w []quant.BlockQ4K, x []quant.BlockQ8K, cols int)
	MatMulQ5K  func(dst []float32, ldd int, w []quant.BlockQ5K, x []quant.BlockQ8K, cols int)
	MatMulQ6K  func(dst []float32, ldd int, w []quant.BlockQ6K, x []quant.BlockQ8K, cols int)
	MatMulQ8_0 func(dst []float32, ldd int, w []quant.BlockQ8_0, x []quant.BlockQ8_0, cols int)

	// Dequant* writes the values of src to dst (len(dst) == len(src)·block
	// size), bit-exact with ggml's dequantize_row_*.
	DequantQ4K  func(dst []float32, src []quant.BlockQ4K)
	DequantQ5K  func(dst []float32, src []quant.BlockQ5K)
	DequantQ6K  func(dst []float32, src []quant.BlockQ6K)
	DequantQ8_0 func(dst []float32, src []quant.BlockQ8_0)

	// Quantize* quantizes activations (len(src) == len(dst)·block size),
	// bit-exact with ggml's quantize_row_q8_K_ref / quantize_row_q8_0_ref.
	// src must be finite (the wrappers check); the result for non-finite
	// input is unspecified, but never an out-of-bounds access.
	QuantizeQ8K  func(dst []quant.BlockQ8K, src []float32)
	QuantizeQ8_0 func(dst []quant.BlockQ8_0, src []float32)

	// DotF32 returns Σ a[i]·b[i] (len(a) == len(b)), reassociated.
	DotF32 func(a, b []float32) float32
	// Axpy sets y[i] += alpha·x[i] (len(x) == len(y)); may fuse.
	Axpy func(alpha float32, x, y []float32)
	// Scale sets x[i] *= alpha.
	Scale func(alpha float32, x []float32)
	// Max returns the largest element of x (len(x) > 0, no NaN).
	Max func(x []float32) float32
	// ExpSum sets dst[i] = exp(x[i] − sub) (len(dst) == len(x)) and returns
	// the sum of the dst values, with a vectorised exp (see Exp32).
	ExpSum func(dst, x []float32, sub float32) float32

	// Attention kernels (package sdpa; see attn.go). The Exact* kernels
	// have a fixed rounding order: every variant returns the generic
	// kernel's bits for every input. Lanes of a SIMD variant compute
	// different values (query rows, keys, output columns), each in the
	// generic order, with no fused multiply-add.

	// WidenF16 sets dst[i] to the value of src[i] (exact; len(dst) ==
	// len(src)).
	WidenF16 func(dst []float32, src []quant.F16)
	// ExactScores sets st[j·rs + r] = Σ_d qt[d·rs + r]·k[j·ldk + d] for
	// r < rs, j < len(st)/rs and d < hd = len(qt)/rs, summed over d in
	// order from +0, every product and sum rounded to float32. len(st) and
	// len(qt) are multiples of rs; len(k) ≥ (n−1)·ldk + hd for n ≥ 1 keys.
	ExactScores func(st, qt []float32, rs int, k []float32, ldk int)
	// ExactExp sets dst[i] = ExactExp32(x[i] − m[i mod len(m)]), the
	// subtraction rounded to float32 (len(dst) == len(x), a multiple of
	// len(m) ≥ 1).
	ExactExp func(dst, x, m []float32)
	// ExactDiv sets x[i] = x[i] / d[i mod len(d)] (len(x) a multiple of
	// len(d) ≥ 1).
	ExactDiv func(x, d []float32)
	// ExactWeighted adds pt[j·rs + r]·v[j·ldv + c] to o[r·hd + c] for every
	// row r < len(o)/hd ≤ rs and column c < hd, key by key for j <
	// len(pt)/rs in order, skipping keys whose weight is 0, every product
	// and sum rounded to float32. len(pt) is a multiple of rs; len(v) ≥
	// (n−1)·ldv + hd for n ≥ 1 keys.
	ExactWeighted func(o []float32, hd int, pt []float32, rs int, v []float32, ldv int)
	// ExactSoftmax turns the scores st[j·rs + r] of n = len(st)/rs keys
	// into softmax weights, each row r < rs = len(lim) alone: s[j] =
	// st[j·rs+r]·scale for j < lim[r], else −Inf; m = max_j s[j] (strict >
	// from −Inf); e[j] = ExactExp32(s[j] − m); sum = Σ_j e[j] in key order
	// from +0; st[j·rs+r] = e[j]/sum, or 0 for j ≥ lim[r] and for a row
	// whose every s[j] is −Inf.
	ExactSoftmax func(st []float32, lim []int32, scale float32)
	// DotRows sets dst[j] = Σ_d q[d]·k[j·ldk + d] for j < len(dst), d <
	// len(q), reassociated (and fused) as DotF32. len(k) ≥ (len(dst)−1)·ldk
	// + len(q) for len(dst) ≥ 1.
	DotRows func(dst, q, k []float32, ldk int)
	// ExactScoresF16, ExactWeightedF16 and DotRowsF16 are ExactScores,
	// ExactWeighted and DotRows with K or V stored as binary16 (ldk, ldv in
	// elements): the values are widened exactly, so the Exact ones return
	// what their float32 forms return on the widened K or V.
	ExactScoresF16   func(st, qt []float32, rs int, k []quant.F16, ldk int)
	ExactWeightedF16 func(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int)
	DotRowsF16       func(dst, q []float32, k []quant.F16, ldk int)
}

// opNames lists the Ops fields in declaration order; Info reports on each.
var opNames = func() []string {
	t := reflect.TypeOf(Ops{})
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = t.Field(i).Name
	}
	return names
}()

// opField returns field i of o as a reflect.Value (for nil checks and merges
// in the registry, never in a hot path).
func opField(o *Ops, i int) reflect.Value { return reflect.ValueOf(o).Elem().Field(i) }
