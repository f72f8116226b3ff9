package sdpa_test

import (
	"fmt"
	"math"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
)

// A tiny grouped-query call: 2 query heads share 1 K/V head; causal, so the
// first of the two queries (at key position 1 of 3) sees keys 0 and 1.
func ExampleAttention() {
	shape := sdpa.Shape{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 2, SeqKV: 3, HeadDim: 2}
	q := []float32{
		1, 0, 0, 1, // head 0: queries 0 and 1
		1, 1, -1, 0, // head 1
	}
	k := []float32{1, 0, 0, 1, 1, 1} // 3 keys
	v := []float32{1, 2, 3, 4, 5, 6}
	out := make([]float32, len(q))
	err := sdpa.Attention(sched.Hardware(), out, q, k, v, shape, sdpa.Options{Causal: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for r := 0; r < 4; r++ {
		fmt.Printf("%.4f\n", out[2*r:2*r+2])
	}
	// Output:
	// [1.6605 2.6605]
	// [3.4067 4.4067]
	// [2.0000 3.0000]
	// [3.0000 4.0000]
}

// Fast mode is flagged in the options. Its result differs from Exact's
// within FastTolerance and the bound in the package documentation.
func ExampleAttention_fast() {
	shape := sdpa.Shape{Batch: 1, Heads: 1, KVHeads: 1, SeqQ: 1, SeqKV: 4, HeadDim: 2}
	q := []float32{0.5, -1}
	k := []float32{1, 0, 0, 1, 1, 1, -1, -1}
	v := []float32{1, 0, 0, 1, 1, 1, -1, -1}
	exact := make([]float32, 2)
	fast := make([]float32, 2)
	_ = sdpa.Attention(sched.Sequential, exact, q, k, v, shape, sdpa.Options{})
	_ = sdpa.Attention(sched.Sequential, fast, q, k, v, shape, sdpa.Options{Mode: sdpa.Fast})
	fmt.Printf("exact %.5f\nfast  %.5f\n", exact, fast)
	// Output:
	// exact [0.17366 -0.05660]
	// fast  [0.17366 -0.05660]
}

// AttentionF16 reads a binary16 KV cache in place: here the cache has room
// for 3 rows per head (KVCapacity) and holds 2 (SeqKV); the unused row is
// never read. A -Inf mask entry masks its key; a row whose every key is
// masked is zeros.
func ExampleAttentionF16() {
	shape := sdpa.Shape{Batch: 1, Heads: 1, KVHeads: 1, SeqQ: 2, SeqKV: 2, HeadDim: 2}
	f16 := func(xs ...float32) []quant.F16 {
		h := make([]quant.F16, len(xs))
		for i, x := range xs {
			h[i] = quant.FromFloat32(x)
		}
		return h
	}
	nan := float32(math.NaN())
	k := f16(1, 0, 0, 1, nan, nan) // [KVHeads, KVCapacity, HeadDim]
	v := f16(10, 20, 30, 40, nan, nan)
	q := []float32{1, 0, 0, 1}
	inf := float32(math.Inf(-1))
	mask := []float32{
		0, inf, // query 0 sees key 0 only
		inf, inf, // query 1 sees nothing
	}
	out := make([]float32, 4)
	opt := sdpa.Options{Mask: mask, KVCapacity: 3}
	if err := sdpa.AttentionF16(nil, out, q, k, v, shape, opt); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out)
	// Output:
	// [10 20 0 0]
}

// A Runner computes with a given set of kernels (here the generic ones)
// instead of the registry's choice; Options.Layout = TokensFirst reads q
// and writes out as [SeqQ, Heads, HeadDim], as a matrix product of the
// token rows gives them.
func ExampleNew() {
	ops, err := kernels.Lookup(kernels.Generic)
	if err != nil {
		fmt.Println(err)
		return
	}
	shape := sdpa.Shape{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 2, SeqKV: 3, HeadDim: 2}
	q := []float32{
		1, 0, 1, 1, // token 0: heads 0 and 1
		0, 1, -1, 0, // token 1
	}
	k := []float32{1, 0, 0, 1, 1, 1}
	v := []float32{1, 2, 3, 4, 5, 6}
	out := make([]float32, len(q))
	opt := sdpa.Options{Causal: true, Layout: sdpa.TokensFirst}
	if err := sdpa.New(ops).Attention(sched.Sequential, out, q, k, v, shape, opt); err != nil {
		fmt.Println(err)
		return
	}
	for r := 0; r < 4; r++ {
		fmt.Printf("%.4f\n", out[2*r:2*r+2])
	}
	// Output:
	// [1.6605 2.6605]
	// [2.0000 3.0000]
	// [3.4067 4.4067]
	// [3.0000 4.0000]
}
