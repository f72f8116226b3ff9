package spi

import (
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
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
