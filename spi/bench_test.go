package spi

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
)

// Benchmarks of the spi ops across schedules and kernel variants, named
// key=value for benchstat:
//
//	go test -run=NONE -bench=. -count=10 ./spi > spi.txt
//	benchstat -col /sched spi.txt          # sequential vs hardware
//	benchstat -col /variant -filter '/sched:hardware' spi.txt

func benchSchedules() []struct {
	name string
	s    sched.Schedule
} {
	return []struct {
		name string
		s    sched.Schedule
	}{{"sequential", sched.Sequential}, {"hardware", sched.Hardware()}}
}

func benchMatrix(b *testing.B, typ quant.Type, rows, cols int) Matrix {
	r := rand.New(rand.NewPCG(1, 2))
	vals := make([]float32, rows*cols)
	for i := range vals {
		vals[i] = float32(r.NormFloat64() * 0.05)
	}
	rb, _ := quant.RowSize(typ, cols)
	data := make([]byte, rows*rb)
	if err := quant.QuantizeRows(typ, data, vals, cols); err != nil {
		b.Fatal(err)
	}
	return Matrix{Type: typ, Rows: rows, Cols: cols, Data: data}
}

// BenchmarkMatMul: a 2048×2048 weight matrix by 1 (decode) or 32 (prefill)
// tokens, per weight type, kernel variant and schedule.
func BenchmarkMatMul(b *testing.B) {
	const rows, cols = 2048, 2048
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0, quant.FP16, quant.F32} {
		w := benchMatrix(b, typ, rows, cols)
		for _, variant := range kernels.Variants() {
			be, err := New(WithKernels(variant))
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range []int{1, 32} {
				x := make([]float32, n*cols)
				for i := range x {
					x[i] = float32(i%7) - 3
				}
				dst := make([]float32, n*rows)
				for _, sc := range benchSchedules() {
					ctx := be.Context().WithSchedule(sc.s)
					b.Run(fmt.Sprintf("type=%v/variant=%s/tokens=%d/sched=%s", typ, variant, n, sc.name), func(b *testing.B) {
						b.SetBytes(int64(len(w.Data)))
						for i := 0; i < b.N; i++ {
							if err := ctx.MatMul(dst, w, x, n); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}

// BenchmarkLayerMatMul: the products of one llama-3.2-1b layer at decode
// (1 token) and prefill (32 tokens): Q/K/V (Q4_K, Q4_K, Q6_K) and gate/up
// (Q4_K) as MatMulShared, the output projection, and ffn_down in both of
// the Q4_K_M mix's types.
func BenchmarkLayerMatMul(b *testing.B) {
	const d, kv, ff, maxN = 2048, 512, 8192, 32
	q, k, v := benchMatrix(b, quant.Q4K, d, d), benchMatrix(b, quant.Q4K, kv, d), benchMatrix(b, quant.Q6K, kv, d)
	g, u := benchMatrix(b, quant.Q4K, ff, d), benchMatrix(b, quant.Q4K, ff, d)
	down6, down4 := benchMatrix(b, quant.Q6K, d, ff), benchMatrix(b, quant.Q4K, d, ff)
	x := make([]float32, maxN*ff)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	o1, o2, o3 := make([]float32, maxN*ff), make([]float32, maxN*ff), make([]float32, maxN*kv)
	be, err := New()
	if err != nil {
		b.Fatal(err)
	}
	for _, sc := range benchSchedules() {
		ctx := be.Context().WithSchedule(sc.s)
		for _, n := range []int{1, maxN} {
			cases := []struct {
				name string
				run  func() error
			}{
				{"qkv", func() error {
					return ctx.MatMulShared([][]float32{o1[:n*d], o2[:n*kv], o3[:n*kv]}, []Matrix{q, k, v}, x[:n*d], n)
				}},
				{"o", func() error { return ctx.MatMul(o1[:n*d], q, x[:n*d], n) }},
				{"gate_up", func() error {
					return ctx.MatMulShared([][]float32{o1[:n*ff], o2[:n*ff]}, []Matrix{g, u}, x[:n*d], n)
				}},
				{"down_q6_K", func() error { return ctx.MatMul(o1[:n*d], down6, x[:n*ff], n) }},
				{"down_q4_K", func() error { return ctx.MatMul(o1[:n*d], down4, x[:n*ff], n) }},
			}
			for _, c := range cases {
				b.Run(fmt.Sprintf("m=%s/tokens=%d/sched=%s", c.name, n, sc.name), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if err := c.run(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkAttention: grouped-query attention (32 heads, 8 KV heads, head
// dim 64) over 1024 keys, decode and prefill, both modes.
func BenchmarkAttention(b *testing.B) {
	be, err := New()
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, seqQ := range []int{1, 64} {
		sh := sdpa.Shape{Batch: 1, Heads: 32, KVHeads: 8, SeqQ: seqQ, SeqKV: 1024, HeadDim: 64}
		q := make([]float32, sh.Heads*sh.SeqQ*sh.HeadDim)
		k := make([]float32, sh.KVHeads*sh.SeqKV*sh.HeadDim)
		v := make([]float32, len(k))
		for _, s := range [][]float32{q, k, v} {
			for i := range s {
				s[i] = float32(r.NormFloat64())
			}
		}
		out := make([]float32, len(q))
		for _, mode := range []sdpa.Mode{sdpa.Exact, sdpa.Fast} {
			for _, sc := range benchSchedules() {
				ctx := be.Context().WithSchedule(sc.s)
				b.Run(fmt.Sprintf("mode=%v/seqQ=%d/seqKV=1024/sched=%s", mode, seqQ, sc.name), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if err := ctx.Attention(out, q, k, v, sh, sdpa.Options{Causal: true, Mode: mode}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkLayerOps: the elementwise and row ops on 1 token (a decode
// step) and 32 tokens of width 4096 (RoPE: 32 heads of 128).
func BenchmarkLayerOps(b *testing.B) {
	for _, tokens := range []int{1, 32} {
		benchLayerOps(b, tokens)
	}
}

func benchLayerOps(b *testing.B, tokens int) {
	const dim = 4096
	be, err := New()
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	x, y, w, dst := make([]float32, tokens*dim), make([]float32, tokens*dim), make([]float32, dim), make([]float32, tokens*dim)
	for _, s := range [][]float32{x, y, w} {
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
	}
	pos := make([]int, tokens)
	for i := range pos {
		pos[i] = i
	}
	table := benchMatrix(b, quant.Q4K, 512, dim)
	ids := []int{1, 7, 300, 511, 0, 42, 99, 256}[:min(8, tokens)]
	ops := []struct {
		name string
		run  func(c Context) error
	}{
		{"RMSNorm", func(c Context) error { return c.RMSNorm(dst, x, w, tokens, dim, 1e-5) }},
		{"RoPE", func(c Context) error { copy(dst, x); return c.RoPE(dst, tokens, 32, dim/32, pos, 10000, false) }},
		{"SiLU", func(c Context) error { return c.SiLU(dst, x) }},
		{"SwiGLU", func(c Context) error { return c.SwiGLU(dst, x, y) }},
		{"Softmax", func(c Context) error { return c.Softmax(dst, x, tokens, dim) }},
		{"Add", func(c Context) error { return c.Add(dst, x, y) }},
		{"Mul", func(c Context) error { return c.Mul(dst, x, y) }},
		{"Scale", func(c Context) error { return c.Scale(dst, x, 0.5) }},
		{"GetRows", func(c Context) error { return c.GetRows(dst[:len(ids)*dim], table, ids) }},
	}
	for _, op := range ops {
		for _, sc := range benchSchedules() {
			ctx := be.Context().WithSchedule(sc.s)
			b.Run(fmt.Sprintf("op=%s/tokens=%d/sched=%s", op.name, tokens, sc.name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if err := op.run(ctx); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
