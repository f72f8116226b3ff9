package parity

import (
	"math/rand/v2"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// ---- Attention cells -------------------------------------------------------
//
// This is the place for attention's rows of the matrix: add a shape or a
// mode by appending a parityOp to the list attentionOps returns; TestParity
// runs each under every column and TestParityBites needs nothing from here.
//
// Exact uses no kernel (sdpa: "Exact uses no kernel from package kernels"),
// so one variant proves it (noKernels) and it has no cross-variant cells.
//
// Fast reads the process-wide registry (kernels.Current in sdpa's plan)
// instead of the Backend's kernels, so under spi.WithKernels(v) it would
// run the registry's variant whatever v is. Its cells are therefore marked
// registryKernels: they run only under the registry's own variant, where
// the label is true. When spi hands the Backend's kernels to sdpa, change
// fastKernels to backendKernels and the Fast cells run under every variant
// (still without cross-variant cells: Fast is not bit-identical across
// variants). Do not call kernels.Use here to force a variant: that would
// test the registry, not the Backend an engine links.
const fastKernels = registryKernels

// attentionOps returns the attention rows. Every shape splits into at
// least 3 units per region: prefill has 2·6 (batch, head) pairs of 2 Exact
// row tiles; decode has SeqKV 1300, which Fast splits into 3 key chunks of
// 512 (sdpa's fastChunk) whose partial softmax states are combined after
// the region, so a combine in completion order would show.
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
			use := noKernels
			if mode == sdpa.Fast {
				use = fastKernels
			}
			name := mode.String() + "-" + sh.name
			list = append(list,
				parityOp{"Attention-" + name, false, use, false, func(c spi.Context) ([]float32, error) {
					out := make([]float32, n)
					return out, c.Attention(out, q, k, v, shape, opt)
				}},
				parityOp{"AttentionF16-" + name, false, use, false, func(c spi.Context) ([]float32, error) {
					out := make([]float32, n)
					return out, c.AttentionF16(out, q, kh, vh, shape, opt)
				}},
			)
		}
	}
	return list
}
