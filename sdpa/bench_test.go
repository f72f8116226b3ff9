package sdpa

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/sched"
)

// BenchmarkSDPA mirrors SKaiNET's SdpaScheduleBench: batch 1, HeadDim 64,
// causal, multi-head (KVHeads = Heads), heads × seqKV × seqQ, sequential
// against the hardware pool, in both modes. GFLOP/s counts 4·HeadDim
// flops per visible (query, key) pair.
func BenchmarkSDPA(b *testing.B) {
	for _, mode := range []Mode{Exact, Fast} {
		for _, heads := range []int{8, 32} {
			for _, seqKV := range []int{128, 1024, 4096} {
				for _, seqQ := range []int{1, 64} {
					sh := Shape{Batch: 1, Heads: heads, KVHeads: heads, SeqQ: seqQ, SeqKV: seqKV, HeadDim: 64}
					for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
						name := "sequential"
						if s != sched.Sequential {
							name = "hardware"
						}
						b.Run(fmt.Sprintf("mode=%v/heads=%d/seqKV=%d/seqQ=%d/sched=%s", mode, heads, seqKV, seqQ, name), func(b *testing.B) {
							benchAttention(b, s, sh, Options{Causal: true, Mode: mode})
						})
					}
				}
			}
		}
	}
}

func benchAttention(b *testing.B, s sched.Schedule, sh Shape, opt Options) {
	in := randInputs(rand.New(rand.NewPCG(1, 1)), sh, 1)
	out := make([]float32, outLen(sh))
	p := &plan{sh: sh, causal: opt.Causal}
	flops := float64(p.work()) * 2
	b.ResetTimer()
	for range b.N {
		if err := Attention(s, out, in.q, in.k, in.v, sh, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkSDPASmall finds where running on the pool starts to pay: small
// decode-like calls (causal, HeadDim 64, 2 heads per core), always handed to
// the schedule (the ParallelMinWork threshold is disabled), sequential
// against hardware. ParallelMinWork is set near the smallest work where
// hardware wins.
func BenchmarkSDPASmall(b *testing.B) {
	defer func(old [2]int) { minWork = old }(minWork)
	minWork = [2]int{0, 0}
	for _, mode := range []Mode{Exact, Fast} {
		for _, seqKV := range []int{8, 16, 32, 64, 128, 256, 512, 1024} {
			sh := Shape{Batch: 1, Heads: 4, KVHeads: 4, SeqQ: 1, SeqKV: seqKV, HeadDim: 64}
			work := (&plan{sh: sh, causal: true}).work()
			for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
				name := "sequential"
				if s != sched.Sequential {
					name = "hardware"
				}
				b.Run(fmt.Sprintf("mode=%v/work=%d/sched=%s", mode, work, name), func(b *testing.B) {
					benchAttention(b, s, sh, Options{Causal: true, Mode: mode})
				})
			}
		}
	}
}

// BenchmarkSDPAF16 is BenchmarkSDPA with a binary16 KV cache
// (AttentionF16): the same shapes and schedules, so that every f16 row
// has its f32 twin (and ggml's f16 modes) at the same shape.
func BenchmarkSDPAF16(b *testing.B) {
	for _, mode := range []Mode{Exact, Fast} {
		for _, heads := range []int{8, 32} {
			for _, seqKV := range []int{128, 1024, 4096} {
				for _, seqQ := range []int{1, 64} {
					sh := Shape{Batch: 1, Heads: heads, KVHeads: heads, SeqQ: seqQ, SeqKV: seqKV, HeadDim: 64}
					for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
						name := "sequential"
						if s != sched.Sequential {
							name = "hardware"
						}
						b.Run(fmt.Sprintf("mode=%v/heads=%d/seqKV=%d/seqQ=%d/sched=%s", mode, heads, seqKV, seqQ, name), func(b *testing.B) {
							in := randInputs(rand.New(rand.NewPCG(1, 1)), sh, 1)
							k16, v16 := toF16(in.k), toF16(in.v)
							out := make([]float32, outLen(sh))
							opt := Options{Causal: true, Mode: mode}
							flops := float64((&plan{sh: sh, causal: true}).work()) * 2
							b.ResetTimer()
							for range b.N {
								if err := AttentionF16(s, out, in.q, k16, v16, sh, opt); err != nil {
									b.Fatal(err)
								}
							}
							b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
						})
					}
				}
			}
		}
	}
}
