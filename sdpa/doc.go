// Package sdpa is scaled dot-product attention for grouped-query,
// multi-query and multi-head layouts, in two modes:
//
//   - Exact computes every query row in one documented scalar order (see
//     Attention) with this package's own float32 exponential. Its result has
//     the same bits under every schedule and worker count, on every machine
//     and GOARCH, and grouped K/V gives the bits of K/V tiled to one head per
//     query head.
//     (TestExactGolden pins hashes of Exact results that amd64 and arm64
//     both reproduce.)
//   - Fast decodes (SeqQ < 8) with the float32 SIMD kernels of package
//     kernels — DotRows for the scores, Max, ExpSum (a vectorised float32
//     exp), Scale — and a two-pass softmax per query row over fixed blocks
//     of keys. It is not bit-identical to Exact, nor across kernel variants
//     (the kernels reassociate and fuse); with one kernel variant its result
//     has the same bits under every schedule and worker count, because the
//     blocks and every reduction order are fixed by the shape, never by the
//     schedule. With 8 or more query rows Fast runs Exact's tiles (one SIMD
//     lane per query row) with the kernels.Ops Fast* kernels: FastScores
//     and FastWeighted may fuse each product and sum into one multiply-add,
//     FastSoftmax may use its own exponential (within a few ulp of Exp32)
//     and multiply by 1/sum. A variant without fused forms (avx512,
//     avx512vnni, neon, generic) uses its Exact kernels and SoftmaxCols
//     there.
//
// Exact's kernels (kernels.Ops' Exact* fields) compute several rows, keys
// or output columns at once, one per SIMD lane, each in the scalar order
// documented on Attention, with no fused multiply-add: every variant on
// every GOARCH gives the generic kernels' bits. (Which NaN a NaN result
// carries is not part of that promise: it depends on operand order in the
// machine code.)
//
// # Fast's tolerance
//
// For every output element (row i, column d):
//
//	|Fast − Exact| ≤ (FastTolerance + (4·HeadDim·S + 4·√n)·2⁻²⁴) · V
//
// where n is the number of unmasked keys of the row, S = |Scale|·max_j
// Σ_d |q[i,d]·k[j,d]| the largest magnitude a score could have, and V =
// max_j |v[j,d]|, both over the unmasked keys. The S term covers the
// rounding of the scores (the two modes sum HeadDim products in different
// orders, and a score error δ changes the weights by a factor up to e^2δ);
// the √n term covers the differently ordered sums over keys, whose errors
// grow like √n for all but contrived inputs (the worst case is n, not √n);
// FastTolerance covers the two exponentials. The
// bound is tested, not proven: TestFastWithinTolerance checks it for every
// kernel variant this CPU runs, on random, large-magnitude (peaked), flat
// (small-magnitude, V all positive), masked, fully masked, ALiBi-like
// (a rising mask), decode and prefill inputs, with up to 20000 keys; the
// largest difference seen is about a tenth of the bound. Non-finite inputs are
// outside it: both modes then give Inf or NaN (see Attention).
//
// # Work and schedules
//
// Attention runs on a sched.Schedule. The units of work are tiles of the
// query rows that read one K/V head (the group's heads × SeqQ rows); rows
// are independent, so how they are grouped and where they run changes
// nothing. A call of fewer than ParallelMinWork (Exact) or
// ParallelMinWorkFast (Fast) multiply-adds runs inline on the calling
// goroutine.
//
// # Kernels and layouts
//
// A Runner (New) computes with one given set of kernels, such as a
// spi.Backend's pinned variant; the package-level Attention and
// AttentionF16 use the registry's current choice. Q and out, and
// separately K and V, may be laid out HeadsFirst ([Batch, Heads, Seq,
// HeadDim]) or TokensFirst ([Batch, Seq, Heads, HeadDim], what a matrix
// product of token rows gives): Options.Layout and Options.KVLayout, read
// in place through strides, never copied.
//
// K and V may be float32 (Attention) or IEEE binary16 (AttentionF16, the
// usual KV-cache type); grouped heads read their K/V head by index and K/V
// are never copied or tiled as a whole. A KV cache with room for more rows
// per head than SeqKV is read in place through Options.KVCapacity.
package sdpa

// FastTolerance is the part of Fast's tolerance that does not depend on the
// inputs (see the package documentation): 2⁻¹⁶ ≈ 1.5e-5, relative to the
// largest |V| value of the column.
const FastTolerance = 0x1p-16
