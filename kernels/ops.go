package kernels

import "github.com/corelane/corelane/quant"

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
	// nb = len(x)/cols blocks each. ldd ≥ rows. prep (may be nil) carries
	// what the kernel prepares from x once per product: callers that split
	// one product's rows over several calls pass them all the same Prep.
	MatMulQ4K  func(dst []float32, ldd int, w []quant.BlockQ4K, x []quant.BlockQ8K, cols int, prep *Prep)
	MatMulQ5K  func(dst []float32, ldd int, w []quant.BlockQ5K, x []quant.BlockQ8K, cols int, prep *Prep)
	MatMulQ6K  func(dst []float32, ldd int, w []quant.BlockQ6K, x []quant.BlockQ8K, cols int, prep *Prep)
	MatMulQ8_0 func(dst []float32, ldd int, w []quant.BlockQ8_0, x []quant.BlockQ8_0, cols int, prep *Prep)

	// The legacy types' row kernels, with the shapes of MatVecQ4K and
	// MatMulQ4K and each dot's order (ggml's generic one, see the Dot*
	// fields above).
	MatVecQ4_0 func(dst []float32, w []quant.BlockQ4_0, x []quant.BlockQ8_0)
	MatVecQ5_0 func(dst []float32, w []quant.BlockQ5_0, x []quant.BlockQ8_0)
	MatVecQ4_1 func(dst []float32, w []quant.BlockQ4_1, x []quant.BlockQ8_1)
	MatVecQ5_1 func(dst []float32, w []quant.BlockQ5_1, x []quant.BlockQ8_1)
	MatMulQ4_0 func(dst []float32, ldd int, w []quant.BlockQ4_0, x []quant.BlockQ8_0, cols int, prep *Prep)
	MatMulQ5_0 func(dst []float32, ldd int, w []quant.BlockQ5_0, x []quant.BlockQ8_0, cols int, prep *Prep)
	MatMulQ4_1 func(dst []float32, ldd int, w []quant.BlockQ4_1, x []quant.BlockQ8_1, cols int, prep *Prep)
	MatMulQ5_1 func(dst []float32, ldd int, w []quant.BlockQ5_1, x []quant.BlockQ8_1, cols int, prep *Prep)

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
	// QuantizeQ8_1 is the Q8_1 activation quantizer of Q4_1 and Q5_1,
	// bit-exact with ggml's quantize_row_q8_1_ref.
	QuantizeQ8_1 func(dst []quant.BlockQ8_1, src []float32)

	// DotF32 returns Σ a[i]·b[i] (len(a) == len(b)), reassociated.
	DotF32 func(a, b []float32) float32
	// MatVecF16 sets dst[r] = Σ_i w[r·n + i]·x[i] for r < len(dst), n =
	// len(x) (len(w) == len(dst)·n), with the binary16 weights widened as
	// they are multiplied (no float32 copy of a row): the dot of DotF32 on
	// the widened row, reassociated and fused as DotF32 is, and within its
	// tolerance of the generic kernel; each dst[r] depends only on row r and
	// x, never on how the rows are split.
	MatVecF16 func(dst []float32, w []quant.F16, x []float32)
	// Axpy sets y[i] += alpha·x[i] (len(x) == len(y)); may fuse.
	Axpy func(alpha float32, x, y []float32)
	// Scale sets x[i] *= alpha.
	Scale func(alpha float32, x []float32)
	// Max returns the largest element of x (len(x) > 0, no NaN).
	Max func(x []float32) float32
	// ExpSum sets dst[i] = exp(x[i] − sub) (len(dst) == len(x)) and returns
	// the sum of the dst values, with a vectorised exp (see Exp32).
	ExpSum func(dst, x []float32, sub float32) float32
	// SwiGLU sets dst[i] = SiLU(gate[i])·up[i] (len(dst) == len(gate) ==
	// len(up); dst may be gate or up): gate/(1 + Exp(−gate)) and then the
	// product, each operation rounded to float32, and the canonical NaN
	// for every NaN result. Every variant returns the generic kernel's bits.
	SwiGLU func(dst, gate, up []float32)

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
	// ExactExp sets dst[i] = Exp(x[i] − m[i mod len(m)]), the
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
	// from −Inf); e[j] = Exp(s[j] − m); sum = Σ_j e[j] in key order
	// from +0; st[j·rs+r] = e[j]/sum, or 0 for j ≥ lim[r] and for a row
	// whose every s[j] is −Inf.
	ExactSoftmax func(st []float32, lim []int32, scale float32)
	// SoftmaxCols is ExactSoftmax with Exp32 for Exp: the same layout,
	// order and special cases, so every variant returns the generic
	// kernel's bits too. Fast mode's transposed tiles use it (Exp32 is the
	// exponential of ExpSum, about half the cost of the correctly rounded
	// one).
	SoftmaxCols func(st []float32, lim []int32, scale float32)
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

	// FastScores, FastWeighted and their F16 forms are ExactScores,
	// ExactWeighted, ExactScoresF16 and ExactWeightedF16 (the same layouts,
	// lengths and key order, a 0 weight still skipping its key) for Fast
	// mode's prefill tiles, allowed to fuse each product and sum into one
	// multiply-add: not the Exact bits, but within one rounding per term
	// of them. A variant whose unfused kernels are its fastest (or that has
	// no fused ones) uses its Exact kernels here. Non-finite values: a NaN
	// operand or an Inf times 0 makes the score NaN; an Inf times anything
	// else makes it ±Inf or NaN, the infinite products' Inf when they have
	// one sign and the finite ones cannot overflow. Where finite products
	// or partial sums can exceed float32's range, Fast and Exact may
	// differ in any way (a fused product does not overflow on its own).
	// A bad length panics with the name of the op called.
	FastScores      func(st, qt []float32, rs int, k []float32, ldk int)
	FastWeighted    func(o []float32, hd int, pt []float32, rs int, v []float32, ldv int)
	FastScoresF16   func(st, qt []float32, rs int, k []quant.F16, ldk int)
	FastWeightedF16 func(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int)
	// FastSoftmax is SoftmaxCols (the same layout, masking and special
	// cases: 0 past lim[r] and in rows without a key, NaN rows NaN) for
	// Fast mode's prefill tiles, allowed its own exponential (within a few
	// ulp of Exp32; it may give 0 where Exp32 gives less than 1e−37) and
	// e·(1/sum) for e/sum. A variant without one uses SoftmaxCols here.
	FastSoftmax func(st []float32, lim []int32, scale float32)
}

// opList is every op of Ops in declaration order: its name, whether an Ops
// has it, and how the registry copies it from a variant into the resolved
// set. (TestOpList checks it against the struct.)
var opList = []struct {
	name string
	has  func(*Ops) bool
	copy func(dst, src *Ops)
}{
	{"DotQ4K", func(o *Ops) bool { return o.DotQ4K != nil }, func(d, s *Ops) { d.DotQ4K = s.DotQ4K }},
	{"DotQ5K", func(o *Ops) bool { return o.DotQ5K != nil }, func(d, s *Ops) { d.DotQ5K = s.DotQ5K }},
	{"DotQ6K", func(o *Ops) bool { return o.DotQ6K != nil }, func(d, s *Ops) { d.DotQ6K = s.DotQ6K }},
	{"DotQ8_0", func(o *Ops) bool { return o.DotQ8_0 != nil }, func(d, s *Ops) { d.DotQ8_0 = s.DotQ8_0 }},
	{"DotQ4_0", func(o *Ops) bool { return o.DotQ4_0 != nil }, func(d, s *Ops) { d.DotQ4_0 = s.DotQ4_0 }},
	{"DotQ5_0", func(o *Ops) bool { return o.DotQ5_0 != nil }, func(d, s *Ops) { d.DotQ5_0 = s.DotQ5_0 }},
	{"DotQ4_1", func(o *Ops) bool { return o.DotQ4_1 != nil }, func(d, s *Ops) { d.DotQ4_1 = s.DotQ4_1 }},
	{"DotQ5_1", func(o *Ops) bool { return o.DotQ5_1 != nil }, func(d, s *Ops) { d.DotQ5_1 = s.DotQ5_1 }},
	{"MatVecQ4K", func(o *Ops) bool { return o.MatVecQ4K != nil }, func(d, s *Ops) { d.MatVecQ4K = s.MatVecQ4K }},
	{"MatVecQ5K", func(o *Ops) bool { return o.MatVecQ5K != nil }, func(d, s *Ops) { d.MatVecQ5K = s.MatVecQ5K }},
	{"MatVecQ6K", func(o *Ops) bool { return o.MatVecQ6K != nil }, func(d, s *Ops) { d.MatVecQ6K = s.MatVecQ6K }},
	{"MatVecQ8_0", func(o *Ops) bool { return o.MatVecQ8_0 != nil }, func(d, s *Ops) { d.MatVecQ8_0 = s.MatVecQ8_0 }},
	{"MatMulQ4K", func(o *Ops) bool { return o.MatMulQ4K != nil }, func(d, s *Ops) { d.MatMulQ4K = s.MatMulQ4K }},
	{"MatMulQ5K", func(o *Ops) bool { return o.MatMulQ5K != nil }, func(d, s *Ops) { d.MatMulQ5K = s.MatMulQ5K }},
	{"MatMulQ6K", func(o *Ops) bool { return o.MatMulQ6K != nil }, func(d, s *Ops) { d.MatMulQ6K = s.MatMulQ6K }},
	{"MatMulQ8_0", func(o *Ops) bool { return o.MatMulQ8_0 != nil }, func(d, s *Ops) { d.MatMulQ8_0 = s.MatMulQ8_0 }},
	{"MatVecQ4_0", func(o *Ops) bool { return o.MatVecQ4_0 != nil }, func(d, s *Ops) { d.MatVecQ4_0 = s.MatVecQ4_0 }},
	{"MatVecQ5_0", func(o *Ops) bool { return o.MatVecQ5_0 != nil }, func(d, s *Ops) { d.MatVecQ5_0 = s.MatVecQ5_0 }},
	{"MatVecQ4_1", func(o *Ops) bool { return o.MatVecQ4_1 != nil }, func(d, s *Ops) { d.MatVecQ4_1 = s.MatVecQ4_1 }},
	{"MatVecQ5_1", func(o *Ops) bool { return o.MatVecQ5_1 != nil }, func(d, s *Ops) { d.MatVecQ5_1 = s.MatVecQ5_1 }},
	{"MatMulQ4_0", func(o *Ops) bool { return o.MatMulQ4_0 != nil }, func(d, s *Ops) { d.MatMulQ4_0 = s.MatMulQ4_0 }},
	{"MatMulQ5_0", func(o *Ops) bool { return o.MatMulQ5_0 != nil }, func(d, s *Ops) { d.MatMulQ5_0 = s.MatMulQ5_0 }},
	{"MatMulQ4_1", func(o *Ops) bool { return o.MatMulQ4_1 != nil }, func(d, s *Ops) { d.MatMulQ4_1 = s.MatMulQ4_1 }},
	{"MatMulQ5_1", func(o *Ops) bool { return o.MatMulQ5_1 != nil }, func(d, s *Ops) { d.MatMulQ5_1 = s.MatMulQ5_1 }},
	{"DequantQ4K", func(o *Ops) bool { return o.DequantQ4K != nil }, func(d, s *Ops) { d.DequantQ4K = s.DequantQ4K }},
	{"DequantQ5K", func(o *Ops) bool { return o.DequantQ5K != nil }, func(d, s *Ops) { d.DequantQ5K = s.DequantQ5K }},
	{"DequantQ6K", func(o *Ops) bool { return o.DequantQ6K != nil }, func(d, s *Ops) { d.DequantQ6K = s.DequantQ6K }},
	{"DequantQ8_0", func(o *Ops) bool { return o.DequantQ8_0 != nil }, func(d, s *Ops) { d.DequantQ8_0 = s.DequantQ8_0 }},
	{"QuantizeQ8K", func(o *Ops) bool { return o.QuantizeQ8K != nil }, func(d, s *Ops) { d.QuantizeQ8K = s.QuantizeQ8K }},
	{"QuantizeQ8_0", func(o *Ops) bool { return o.QuantizeQ8_0 != nil }, func(d, s *Ops) { d.QuantizeQ8_0 = s.QuantizeQ8_0 }},
	{"QuantizeQ8_1", func(o *Ops) bool { return o.QuantizeQ8_1 != nil }, func(d, s *Ops) { d.QuantizeQ8_1 = s.QuantizeQ8_1 }},
	{"DotF32", func(o *Ops) bool { return o.DotF32 != nil }, func(d, s *Ops) { d.DotF32 = s.DotF32 }},
	{"MatVecF16", func(o *Ops) bool { return o.MatVecF16 != nil }, func(d, s *Ops) { d.MatVecF16 = s.MatVecF16 }},
	{"Axpy", func(o *Ops) bool { return o.Axpy != nil }, func(d, s *Ops) { d.Axpy = s.Axpy }},
	{"Scale", func(o *Ops) bool { return o.Scale != nil }, func(d, s *Ops) { d.Scale = s.Scale }},
	{"Max", func(o *Ops) bool { return o.Max != nil }, func(d, s *Ops) { d.Max = s.Max }},
	{"ExpSum", func(o *Ops) bool { return o.ExpSum != nil }, func(d, s *Ops) { d.ExpSum = s.ExpSum }},
	{"SwiGLU", func(o *Ops) bool { return o.SwiGLU != nil }, func(d, s *Ops) { d.SwiGLU = s.SwiGLU }},
	{"WidenF16", func(o *Ops) bool { return o.WidenF16 != nil }, func(d, s *Ops) { d.WidenF16 = s.WidenF16 }},
	{"ExactScores", func(o *Ops) bool { return o.ExactScores != nil }, func(d, s *Ops) { d.ExactScores = s.ExactScores }},
	{"ExactExp", func(o *Ops) bool { return o.ExactExp != nil }, func(d, s *Ops) { d.ExactExp = s.ExactExp }},
	{"ExactDiv", func(o *Ops) bool { return o.ExactDiv != nil }, func(d, s *Ops) { d.ExactDiv = s.ExactDiv }},
	{"ExactWeighted", func(o *Ops) bool { return o.ExactWeighted != nil }, func(d, s *Ops) { d.ExactWeighted = s.ExactWeighted }},
	{"ExactSoftmax", func(o *Ops) bool { return o.ExactSoftmax != nil }, func(d, s *Ops) { d.ExactSoftmax = s.ExactSoftmax }},
	{"SoftmaxCols", func(o *Ops) bool { return o.SoftmaxCols != nil }, func(d, s *Ops) { d.SoftmaxCols = s.SoftmaxCols }},
	{"DotRows", func(o *Ops) bool { return o.DotRows != nil }, func(d, s *Ops) { d.DotRows = s.DotRows }},
	{"ExactScoresF16", func(o *Ops) bool { return o.ExactScoresF16 != nil }, func(d, s *Ops) { d.ExactScoresF16 = s.ExactScoresF16 }},
	{"ExactWeightedF16", func(o *Ops) bool { return o.ExactWeightedF16 != nil }, func(d, s *Ops) { d.ExactWeightedF16 = s.ExactWeightedF16 }},
	{"DotRowsF16", func(o *Ops) bool { return o.DotRowsF16 != nil }, func(d, s *Ops) { d.DotRowsF16 = s.DotRowsF16 }},
	{"FastScores", func(o *Ops) bool { return o.FastScores != nil }, func(d, s *Ops) { d.FastScores = s.FastScores }},
	{"FastWeighted", func(o *Ops) bool { return o.FastWeighted != nil }, func(d, s *Ops) { d.FastWeighted = s.FastWeighted }},
	{"FastScoresF16", func(o *Ops) bool { return o.FastScoresF16 != nil }, func(d, s *Ops) { d.FastScoresF16 = s.FastScoresF16 }},
	{"FastWeightedF16", func(o *Ops) bool { return o.FastWeightedF16 != nil }, func(d, s *Ops) { d.FastWeightedF16 = s.FastWeightedF16 }},
	{"FastSoftmax", func(o *Ops) bool { return o.FastSoftmax != nil }, func(d, s *Ops) { d.FastSoftmax = s.FastSoftmax }},
}

// opNames lists the op names in declaration order; Info reports on each.
var opNames = func() []string {
	names := make([]string, len(opList))
	for i, op := range opList {
		names[i] = op.name
	}
	return names
}()

// opHas reports whether o has op i.
func opHas(o *Ops, i int) bool { return opList[i].has(o) }
