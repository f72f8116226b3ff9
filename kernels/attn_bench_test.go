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

// BenchmarkAttnTile times the kernels of a prefill tile as sdpa runs them,
// Exact's and Fast's: 16 query rows (rs = 16, one lane per row) against n
// keys of HeadDim 64, the weighted sum over 8 of those rows (sdpa's blocks
// of weightRows), and
// the softmax of the 16 rows' n scores. GFLOP/s counts 2 flops per
// multiply-add; the softmax reports ns per score.
func BenchmarkAttnTile(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	const hd, rs = 64, 16
	for _, n := range []int{128, 1024} {
		k := attnVec(r, n*hd, 1, false)
		k16 := make([]quant.F16, len(k))
		for i, x := range k {
			k16[i] = quant.FromFloat32(x)
		}
		qt := attnVec(r, hd*rs, 1, false)
		st := make([]float32, n*rs)
		pt := attnVec(r, n*rs, 1, false)
		for i := range pt {
			pt[i] = pt[i]*pt[i] + 1e-3 // weights: positive, none 0
		}
		o := make([]float32, 8*hd)
		lim := make([]int32, rs)
		for i := range lim {
			lim[i] = int32(n)
		}
		flops := func(b *testing.B, rows int) {
			b.ReportMetric(float64(2*hd*n*rows)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		for name, ops := range attnVariants(b) {
			for _, kv := range []string{"f32", "f16"} {
				for _, mode := range []string{"Exact", "Fast"} {
					scores, weighted := ops.ExactScores, ops.ExactWeighted
					scores16, weighted16 := ops.ExactScoresF16, ops.ExactWeightedF16
					if mode == "Fast" {
						scores, weighted = ops.FastScores, ops.FastWeighted
						scores16, weighted16 = ops.FastScoresF16, ops.FastWeightedF16
					}
					b.Run(fmt.Sprintf("op=%sScores/kv=%s/variant=%s/n=%d", mode, kv, name, n), func(b *testing.B) {
						for range b.N {
							if kv == "f32" {
								scores(st, qt, rs, k, hd)
							} else {
								scores16(st, qt, rs, k16, hd)
							}
						}
						flops(b, rs)
					})
					b.Run(fmt.Sprintf("op=%sWeighted/kv=%s/variant=%s/n=%d", mode, kv, name, n), func(b *testing.B) {
						for range b.N {
							if kv == "f32" {
								weighted(o, hd, pt, rs, k, hd)
							} else {
								weighted16(o, hd, pt, rs, k16, hd)
							}
						}
						flops(b, 8)
					})
				}
			}
			for _, op := range []string{"SoftmaxCols", "ExactSoftmax", "FastSoftmax"} {
				b.Run(fmt.Sprintf("op=%s/variant=%s/n=%d", op, name, n), func(b *testing.B) {
					src := attnVec(r, n*rs, 4, false)
					for range b.N {
						copy(st, src)
						switch op {
						case "SoftmaxCols":
							ops.SoftmaxCols(st, lim, 0.125)
						case "ExactSoftmax":
							ops.ExactSoftmax(st, lim, 0.125)
						default:
							ops.FastSoftmax(st, lim, 0.125)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n*rs), "ns/score")
				})
			}
		}
	}
}
