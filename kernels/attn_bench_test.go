package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAttn times the attention kernels of every variant at HeadDim 64
// on n keys (K hot in cache for n ≤ 1024, from L3 beyond): GFLOP/s counts
// 2 flops per multiply-add.
func BenchmarkAttn(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	const hd = 64
	for _, n := range []int{256, 32768} {
		k := attnVec(r, n*hd, 1, false)
		q := attnVec(r, hd, 1, false)
		dst := make([]float32, n)
		for name, ops := range attnVariants(b) {
			b.Run(fmt.Sprintf("op=DotRows/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.DotRows(dst, q, k, hd)
				}
				b.ReportMetric(float64(2*hd*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
			b.Run(fmt.Sprintf("op=ExactScores1/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.ExactScores(dst, q, 1, k, hd)
				}
				b.ReportMetric(float64(2*hd*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
			o := make([]float32, hd)
			b.Run(fmt.Sprintf("op=ExactWeighted1/variant=%s/n=%d", name, n), func(b *testing.B) {
				for range b.N {
					ops.ExactWeighted(o, hd, dst, 1, k, hd)
				}
				b.ReportMetric(float64(2*hd*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
