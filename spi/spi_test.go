package spi

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
)

func randVec(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// quantized returns a rows×cols matrix of type t from random weights.
func quantized(t *testing.T, r *rand.Rand, typ quant.Type, rows, cols int) Matrix {
	t.Helper()
	w := randVec(r, rows*cols)
	rb, err := quant.RowSize(typ, cols)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, rows*rb)
	if err := quant.Quantize(typ, data, w); err != nil {
		t.Fatal(err)
	}
	return Matrix{Type: typ, Rows: rows, Cols: cols, Data: data}
}

func newBackend(t *testing.T, opts ...Option) *Backend {
	t.Helper()
	b, err := New(append([]Option{WithSchedule(sched.Sequential)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMatVecMatchesKernelsDot: a quantized MatVec row equals kernels.Dot of
// that row with the activations quantized by quant.Quantize, bit for bit.
func TestMatVecMatchesKernelsDot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	ctx := newBackend(t).Context()
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0} {
		w := quantized(t, r, typ, 7, 512)
		x := randVec(r, 512)
		dst := make([]float32, 7)
		if err := ctx.MatVec(dst, w, x); err != nil {
			t.Fatal(err)
		}
		at := quant.ActivationType(typ)
		xq := make([]byte, mustRowSize(t, at, 512))
		if err := quant.Quantize(at, xq, x); err != nil {
			t.Fatal(err)
		}
		rb := len(w.Data) / w.Rows
		for row := 0; row < w.Rows; row++ {
			want, err := kernels.Dot(typ, w.Data[row*rb:(row+1)*rb], xq)
			if err != nil {
				t.Fatal(err)
			}
			if math.Float32bits(dst[row]) != math.Float32bits(want) {
				t.Fatalf("%v row %d: %v, kernels.Dot %v", typ, row, dst[row], want)
			}
		}
	}
}

func mustRowSize(t *testing.T, typ quant.Type, n int) int {
	rb, err := quant.RowSize(typ, n)
	if err != nil {
		t.Fatal(err)
	}
	return rb
}

// TestMatMulAccuracy compares every weight type against a float64 product
// of the dequantized weights and the unquantized activations.
func TestMatMulAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	ctx := newBackend(t).Context()
	const rows, cols, n = 9, 256, 3
	for _, typ := range []quant.Type{quant.F32, quant.FP16, quant.Q8_0, quant.Q4K, quant.Q5K, quant.Q6K} {
		w := quantized(t, r, typ, rows, cols)
		wf := make([]float32, rows*cols)
		if err := quant.Dequantize(typ, wf, w.Data); err != nil {
			t.Fatal(err)
		}
		x := randVec(r, n*cols)
		dst := make([]float32, n*rows)
		if err := ctx.MatMul(dst, w, x, n); err != nil {
			t.Fatal(err)
		}
		for tok := 0; tok < n; tok++ {
			for row := 0; row < rows; row++ {
				var ref, mag float64
				for k := 0; k < cols; k++ {
					p := float64(wf[row*cols+k]) * float64(x[tok*cols+k])
					ref += p
					mag += math.Abs(p)
				}
				// Activation quantization (8 bits) dominates the error.
				tol := 1e-5 * mag
				if typ != quant.F32 && typ != quant.FP16 {
					tol = 2e-2 * mag
				}
				if got := float64(dst[tok*rows+row]); math.Abs(got-ref) > tol {
					t.Fatalf("%v [%d,%d]: %v, want %v ± %g", typ, tok, row, got, ref, tol)
				}
			}
		}
	}
}

func TestErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	ctx := newBackend(t).Context()
	w := quantized(t, r, quant.Q4K, 4, 256)
	x := randVec(r, 256)
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"short dst", ctx.MatVec(make([]float32, 3), w, x), "MatVec"},
		{"short x", ctx.MatVec(make([]float32, 4), w, x[:255]), "x has 255 values"},
		{"n=0", ctx.MatMul(nil, w, nil, 0), "n = 0"},
		{"bad type", ctx.MatVec(make([]float32, 4), Matrix{Type: quant.Q8K, Rows: 4, Cols: 256, Data: make([]byte, 4*292)}, x), "weight type q8_K"},
		{"bad data", ctx.MatVec(make([]float32, 4), Matrix{Type: quant.Q4K, Rows: 4, Cols: 256, Data: w.Data[:100]}, x), "weight data is 100 bytes"},
		{"cols not a block multiple", ctx.MatVec(make([]float32, 4), Matrix{Type: quant.Q4K, Rows: 4, Cols: 100, Data: w.Data}, x[:100]), "weight columns"},
		{"RMSNorm w", ctx.RMSNorm(make([]float32, 8), make([]float32, 8), make([]float32, 3), 2, 4, 1e-5), "len(w) = 3"},
		{"RMSNorm eps", ctx.RMSNorm(make([]float32, 8), make([]float32, 8), make([]float32, 4), 2, 4, float32(math.NaN())), "eps"},
		{"RoPE odd", ctx.RoPE(make([]float32, 6), 1, 2, 3, []int{0}, 10000, false), "headDim = 3"},
		{"RoPE pos", ctx.RoPE(make([]float32, 8), 2, 1, 4, []int{0}, 10000, false), "len(pos) = 1"},
		{"SiLU", ctx.SiLU(make([]float32, 2), make([]float32, 3)), "SiLU"},
		{"SwiGLU", ctx.SwiGLU(make([]float32, 3), make([]float32, 3), make([]float32, 2)), "SwiGLU"},
		{"Softmax", ctx.Softmax(make([]float32, 6), make([]float32, 6), 2, 4), "Softmax"},
		{"Add", ctx.Add(make([]float32, 2), make([]float32, 3), make([]float32, 3)), "Add"},
		{"Mul", ctx.Mul(make([]float32, 3), make([]float32, 3), make([]float32, 2)), "Mul"},
		{"Scale", ctx.Scale(make([]float32, 2), make([]float32, 3), 1), "Scale"},
		{"GetRows id", ctx.GetRows(make([]float32, 256), w, []int{4}), "ids[0] = 4"},
		{"GetRows dst", ctx.GetRows(make([]float32, 255), w, []int{1}), "len(dst) = 255"},
		{"Attention q", ctx.Attention(make([]float32, 64), make([]float32, 63), make([]float32, 64), make([]float32, 64),
			sdpa.Shape{Batch: 1, Heads: 1, KVHeads: 1, SeqQ: 1, SeqKV: 1, HeadDim: 64}, sdpa.Options{}), "Attention"},
		{"Attention heads", ctx.Attention(make([]float32, 192), make([]float32, 192), make([]float32, 128), make([]float32, 128),
			sdpa.Shape{Batch: 1, Heads: 3, KVHeads: 2, SeqQ: 1, SeqKV: 1, HeadDim: 64}, sdpa.Options{}), "Attention"},
	}
	for _, c := range cases {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, c.err, c.want)
			continue
		}
		// Every shape error is one sentinel, whichever layer found it, and
		// its message has one prefix: "spi: Op: ", nothing doubled.
		msg := c.err.Error()
		if c.name != "bad type" && !errors.Is(c.err, ErrShape) {
			t.Errorf("%s: %q is not an ErrShape", c.name, msg)
		}
		op := msg[len("spi: "):]
		if i := strings.Index(op, ":"); strings.HasPrefix(msg, "spi: ") && i > 0 {
			op = op[:i]
		}
		if !strings.HasPrefix(msg, "spi: ") || strings.Count(msg, "spi:") != 1 || strings.Count(msg, op+":") != 1 {
			t.Errorf("%s: %q: want one \"spi: Op:\" prefix", c.name, msg)
		}
		for _, inner := range []string{"quant:", "kernels:", "sdpa:", "sched:"} {
			if strings.Contains(msg, inner) {
				t.Errorf("%s: %q carries an inner %q prefix", c.name, msg, inner)
			}
		}
	}
	nan := randVec(r, 256)
	nan[5] = float32(math.NaN())
	if err := ctx.MatVec(make([]float32, 4), w, nan); !errors.Is(err, quant.ErrNotFinite) || !strings.Contains(err.Error(), "x[5]") {
		t.Errorf("NaN activation: %v", err)
	}
	if _, err := New(WithKernels("no-such")); !errors.Is(err, kernels.ErrUnknownVariant) {
		t.Errorf("WithKernels(unknown): %v", err)
	}
}

func TestHintsAndDims(t *testing.T) {
	ctx := newBackend(t).Context()
	if _, err := ctx.WithHint(ScheduleHint{Op: "Attention", Dim: "seq"}); err == nil || !strings.Contains(err.Error(), "batch, heads") {
		t.Fatalf("unknown dimension: %v", err)
	}
	if _, err := ctx.WithHint(ScheduleHint{Op: "Conv", Dim: "batch"}); err == nil || !strings.Contains(err.Error(), "unknown op") {
		t.Fatalf("unknown op: %v", err)
	}
	if d, _ := ParallelDims("MatMul"); strings.Join(d, ",") != "rows,cols" {
		t.Fatalf("MatMul dims %v", d)
	}
	if d, _ := ParallelDims("Attention"); strings.Join(d, ",") != "batch,heads" {
		t.Fatalf("Attention dims %v", d)
	}
}

func TestParallelismDowngrade(t *testing.T) {
	var events []Event
	pool, err := sched.NewPool(sched.WithWorkers(2))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	b, err := New(WithSchedule(pool), WithTrace(func(e Event) { events = append(events, e) }))
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := b.Context().WithParallelism(pool.Parallelism() + 5)
	if err != nil {
		t.Fatal(err)
	}
	var d sched.Downgraded
	found := false
	for _, e := range events {
		if dd, ok := e.(sched.Downgraded); ok {
			d, found = dd, true
		}
	}
	if !found || d.Requested != pool.Parallelism()+5 || d.Effective != pool.Parallelism() {
		t.Fatalf("no Downgraded event for too much parallelism: %v", events)
	}
	if ctx.Schedule().Parallelism() != pool.Parallelism() {
		t.Fatal("parallelism changed")
	}
	if _, err := b.Context().WithParallelism(0); err == nil {
		t.Fatal("WithParallelism(0): no error")
	}
}

// TestMatMulShared: several matrices on one input give each matrix exactly
// MatMul's bits, for mixed weight types (three activation types, F32 and
// F16 among them), one token and several, on schedules whose chunks span
// the matrices' boundaries (the products share one region) and with the
// "cols" hint; and the shape errors name the matrix at fault.
func TestMatMulShared(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	const cols, maxN = 512, 13
	types := []quant.Type{quant.Q4K, quant.Q8_0, quant.Q5_1, quant.F32, quant.FP16, quant.Q6K, quant.Q4_0}
	ws := make([]Matrix, len(types))
	dst := make([][]float32, len(types))
	for i, typ := range types {
		ws[i] = quantized(t, r, typ, 40+i, cols)
		dst[i] = make([]float32, maxN*ws[i].Rows)
	}
	x := randVec(r, maxN*cols)
	want := newBackend(t).Context() // MatMul, sequential
	for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware(), testPool(t, 4)} {
		for _, hint := range []string{"", "cols"} {
			ctx := newBackend(t, WithSchedule(s)).Context()
			if hint != "" {
				var err error
				if ctx, err = ctx.WithHint(ScheduleHint{Op: "MatMul", Dim: hint}); err != nil {
					t.Fatal(err)
				}
			}
			for _, n := range []int{1, maxN} {
				d := make([][]float32, len(dst))
				for i := range dst {
					d[i] = dst[i][:n*ws[i].Rows]
					clear(d[i])
				}
				if err := ctx.MatMulShared(d, ws, x[:n*cols], n); err != nil {
					t.Fatal(err)
				}
				for i, w := range ws {
					ref := make([]float32, n*w.Rows)
					if err := want.MatMul(ref, w, x[:n*cols], n); err != nil {
						t.Fatal(err)
					}
					for j := range ref {
						if math.Float32bits(d[i][j]) != math.Float32bits(ref[j]) {
							t.Fatalf("%s hint %q n=%d: matrix %d (%v) [%d] = %v, MatMul %v", s.Name(), hint, n, i, w.Type, j, d[i][j], ref[j])
						}
					}
				}
			}
		}
	}
	ctx := newBackend(t).Context()
	bad := append([]Matrix(nil), ws...)
	bad[2].Cols = 256
	if err := ctx.MatMulShared(dst, bad, x, maxN); !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "ws[2].Cols = 256") {
		t.Errorf("mismatched Cols: %v", err)
	}
	short := append([][]float32(nil), dst...)
	short[3] = short[3][:10]
	if err := ctx.MatMulShared(short, ws, x, maxN); !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "dst[3]") {
		t.Errorf("short dst[3]: %v", err)
	}
	if err := ctx.MatMulShared(dst[:2], ws, x, maxN); !errors.Is(err, ErrShape) {
		t.Errorf("2 outputs for %d matrices: %v", len(ws), err)
	}
}
