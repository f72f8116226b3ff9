package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
)

// BenchmarkAttn times the attention kernels of every variant at HeadDim 64
// on n keys (K hot in cache for n ≤ 1024, from L3 beyond), with float32 K/V
// (kv=f32) and binary16 K/V (kv=f16): GFLOP/s counts 2 flops per
// multiply-add.
func BenchmarkAttn(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	const hd = 64
	for _, n := range []int{128, 256, 32768} {
		k := attnVec(r, n*hd, 1, false)
		k16 := make([]quant.F16, len(k))
		for i, x := range k {
			k16[i] = quant.FromFloat32(x)
		}
		q := attnVec(r, hd, 1, false)
		dst := make([]float32, n)
		flops := func(b *testing.B) {
			b.ReportMetric(float64(2*hd*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		for name, ops := range attnVariants(b) {
			o := make([]float32, hd)
			b.Run(fmt.Sprintf("op=DotRows/kv=f16/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.DotRowsF16(dst, q, k16, hd)
				}
				flops(b)
			})
			b.Run(fmt.Sprintf("op=ExactScores1/kv=f16/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.ExactScoresF16(dst, q, 1, k16, hd)
				}
				flops(b)
			})
			b.Run(fmt.Sprintf("op=ExactWeighted1/kv=f16/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.ExactWeightedF16(o, hd, dst, 1, k16, hd)
				}
				flops(b)
			})
			b.Run(fmt.Sprintf("op=DotRows/kv=f32/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.DotRows(dst, q, k, hd)
				}
				flops(b)
			})
			b.Run(fmt.Sprintf("op=ExactScores1/kv=f32/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.ExactScores(dst, q, 1, k, hd)
				}
				flops(b)
			})
			b.Run(fmt.Sprintf("op=ExactWeighted1/kv=f32/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.ExactWeighted(o, hd, dst, 1, k, hd)
				}
				flops(b)
			})
		}
	}
}
