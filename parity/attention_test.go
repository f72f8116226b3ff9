package parity

import (
	"math/rand/v2"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// ---- Attention cells -------------------------------------------------------
//
// This is the place for attention's rows of the matrix: add a shape or a
// mode by appending a parityOp to the list attentionOps returns; TestParity
// runs each under every column and TestParityBites needs nothing from here.
//
// Both modes run the Backend's kernels (spi.WithKernels reaches them), so
// they have cells under every variant. Exact is bit-identical across
// variants too (its kernels compute each value in the scalar order), so
// its cells also compare with the generic variant; Fast is not, so its
// cells do not. Each op's "pinned" cell (one per variant, under
// Sequential) checks the thing itself: spi's result is sdpa's run on
// exactly the Backend's variant's kernels; with the schedule cells, that
// holds under every schedule. Do not call kernels.Use here to force a
// variant: that would test the registry, not the Backend an engine links.

// attentionOps returns the attention rows. Every shape splits into at
// least 3 units per region: a unit is a tile of the rows that read one K/V
// head, so prefill has 2·2 (batch, K/V head) pairs of 48 rows and decode
// 2·2 of 3 rows (its SeqKV 1300 is 6 of sdpa's 256-key blocks). sdpa
// computes every row alone, with no combine across units. The
// tokens-first rows read q/out and K/V as [Batch, Seq, Heads, HeadDim].
func attentionOps(r *rand.Rand) []parityOp {
	prefill := sdpa.Shape{Batch: 2, Heads: 6, KVHeads: 2, SeqQ: 16, SeqKV: 600, HeadDim: 32}
	decode := sdpa.Shape{Batch: 2, Heads: 6, KVHeads: 2, SeqQ: 1, SeqKV: 1300, HeadDim: 32}
	var list []parityOp
	for _, sh := range []struct {
		name  string
		shape sdpa.Shape
	}{{"prefill", prefill}, {"decode", decode}} {
		shape := sh.shape
		n := shape.Batch * shape.Heads * shape.SeqQ * shape.HeadDim
		q := randVec(r, n, 1)
		k := randVec(r, shape.Batch*shape.KVHeads*shape.SeqKV*shape.HeadDim, 1)
		v := randVec(r, len(k), 1)
		kh, vh := make([]quant.F16, len(k)), make([]quant.F16, len(v))
		for i := range k {
			kh[i], vh[i] = quant.FromFloat32(k[i]), quant.FromFloat32(v[i])
		}
		for _, mode := range []sdpa.Mode{sdpa.Exact, sdpa.Fast} {
			opt := sdpa.Options{Causal: true, Mode: mode}
			exact := mode == sdpa.Exact
			name := mode.String() + "-" + sh.name
			// sdpaOn is the reference: sdpa itself on the variant's kernels.
			sdpaOn := func(c spi.Context, f16 bool) ([]float32, error) {
				ops, err := kernels.Lookup(c.Backend().Variant())
				if err != nil {
					return nil, err
				}
				out, r := make([]float32, n), sdpa.New(ops)
				if f16 {
					return out, r.AttentionF16(sched.Sequential, out, q, kh, vh, shape, opt)
				}
				return out, r.Attention(sched.Sequential, out, q, k, v, shape, opt)
			}
			tf := opt
			tf.Layout, tf.KVLayout = sdpa.TokensFirst, sdpa.TokensFirst
			list = append(list,
				parityOp{name: "Attention-tokens-first-" + name, acrossVariants: exact, kernels: backendKernels,
					run: func(c spi.Context) ([]float32, error) {
						out := make([]float32, n)
						return out, c.Attention(out, q, k, v, shape, tf)
					},
					reference: func(c spi.Context) ([]float32, error) {
						ops, err := kernels.Lookup(c.Backend().Variant())
						if err != nil {
							return nil, err
						}
						out := make([]float32, n)
						return out, sdpa.New(ops).Attention(sched.Sequential, out, q, k, v, shape, tf)
					}},
				parityOp{name: "Attention-" + name, acrossVariants: exact, kernels: backendKernels,
					run: func(c spi.Context) ([]float32, error) {
						out := make([]float32, n)
						return out, c.Attention(out, q, k, v, shape, opt)
					},
					reference: func(c spi.Context) ([]float32, error) { return sdpaOn(c, false) }},
				parityOp{name: "AttentionF16-" + name, acrossVariants: exact, kernels: backendKernels,
					run: func(c spi.Context) ([]float32, error) {
						out := make([]float32, n)
						return out, c.AttentionF16(out, q, kh, vh, shape, opt)
					},
					reference: func(c spi.Context) ([]float32, error) { return sdpaOn(c, true) }},
			)
		}
	}
	return list
}
