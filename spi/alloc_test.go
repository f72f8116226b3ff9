package spi

import (
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
)

// TestZeroAllocs: in the steady state (the second call on, with the same
// shapes) no op allocates, sequentially or on the hardware pool: scratch
// comes from internal/scratch, loop bodies from pooled jobs.
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values on purpose")
	}
	r := rand.New(rand.NewPCG(9, 9))
	const rows, cols, n = 256, 1024, 13
	ws := map[quant.Type]Matrix{}
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0, quant.Q4_0, quant.Q5_0, quant.Q4_1, quant.Q5_1, quant.F32, quant.FP16} {
		ws[typ] = quantized(t, r, typ, rows, cols)
	}
	x := randVec(r, n*cols)
	dst := make([]float32, n*rows)
	dst2 := make([]float32, n*rows)
	act := randVec(r, n*cols)
	out := make([]float32, n*cols)
	w := randVec(r, cols)
	pos := make([]int, n)
	for i := range pos {
		pos[i] = i
	}
	ids := []int{3, 1, 4, 1, 5}
	emb := make([]float32, len(ids)*cols)
	// Attention: 8 heads on 2 K/V heads of 300 keys, 16 queries and 1.
	ash := sdpa.Shape{Batch: 1, Heads: 8, KVHeads: 2, SeqQ: 16, SeqKV: 300, HeadDim: 64}
	ash1 := ash
	ash1.SeqQ = 1
	n1 := 8 * 64
	aq, aout := randVec(r, 8*16*64), make([]float32, 8*16*64)
	ak, av := randVec(r, 2*300*64), randVec(r, 2*300*64)
	akh, avh := make([]quant.F16, len(ak)), make([]quant.F16, len(av))
	for i := range ak {
		akh[i], avh[i] = quant.FromFloat32(ak[i]), quant.FromFloat32(av[i])
	}
	for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
		b, err := New(WithSchedule(s))
		if err != nil {
			t.Fatal(err)
		}
		ctx := b.Context()
		cases := map[string]func() error{
			"RMSNorm": func() error { return ctx.RMSNorm(out, act, w, n, cols, 1e-5) },
			"RoPE":    func() error { return ctx.RoPE(out, n, 8, cols/8, pos, 10000, false) },
			"SiLU":    func() error { return ctx.SiLU(out, act) },
			"SwiGLU":  func() error { return ctx.SwiGLU(out, act, x) },
			"Softmax": func() error { return ctx.Softmax(out, act, n, cols) },
			"Add":     func() error { return ctx.Add(out, act, x) },
			"Mul":     func() error { return ctx.Mul(out, act, x) },
			"Scale":   func() error { return ctx.Scale(out, act, 0.5) },
			"GetRows": func() error { return ctx.GetRows(emb, ws[quant.Q4K], ids) },
			"Attention/exact/prefill": func() error {
				return ctx.Attention(aout, aq, ak, av, ash, sdpa.Options{Causal: true})
			},
			"Attention/fast/prefill": func() error {
				return ctx.Attention(aout, aq, ak, av, ash, sdpa.Options{Causal: true, Mode: sdpa.Fast})
			},
			"Attention/exact/decode": func() error {
				return ctx.Attention(aout[:n1], aq[:n1], ak, av, ash1, sdpa.Options{Causal: true})
			},
			"Attention/fast/decode": func() error {
				return ctx.Attention(aout[:n1], aq[:n1], ak, av, ash1, sdpa.Options{Causal: true, Mode: sdpa.Fast})
			},
			"AttentionF16/fast/decode": func() error {
				return ctx.AttentionF16(aout[:n1], aq[:n1], akh, avh, ash1, sdpa.Options{Causal: true, Mode: sdpa.Fast})
			},
			"AttentionF16/exact/prefill": func() error {
				return ctx.AttentionF16(aout, aq, akh, avh, ash, sdpa.Options{Causal: true})
			},
			"WriteKV": func() error {
				return ctx.WriteKV(ak, av[:2*64], sdpa.KVWrite{Batch: 1, KVHeads: 2, HeadDim: 64, Capacity: 300, Pos: 7, Tokens: 1})
			},
			"MatMulShared": func() error {
				d := [2][]float32{dst, dst2}
				m := [2]Matrix{ws[quant.Q4K], ws[quant.Q6K]}
				return ctx.MatMulShared(d[:], m[:], x, n)
			},
		}
		for typ, m := range ws {
			m := m
			cases["MatVec/"+typ.String()] = func() error { return ctx.MatVec(dst[:rows], m, x[:cols]) }
			cases["MatMul/"+typ.String()] = func() error { return ctx.MatMul(dst, m, x, n) }
		}
		for name, f := range cases {
			if err := f(); err != nil { // warm up the pools
				t.Fatalf("%s: %v", name, err)
			}
			if a := testing.AllocsPerRun(20, func() { _ = f() }); a != 0 {
				t.Errorf("%s on %s: %v allocations per call, want 0", name, s.Name(), a)
			}
		}
	}
}
