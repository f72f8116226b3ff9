package spi

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// Tests of the ops an engine needed beyond the layer ops: WithExactFloat,
// RoPEWith, Sampler and Variants.

// checkOpErr checks that err is a one-prefix "spi: op: " error containing
// want and wrapping sentinel.
func checkOpErr(t *testing.T, name string, err, sentinel error, op, want string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one containing %q", name, want)
		return
	}
	msg := err.Error()
	if !strings.Contains(msg, want) {
		t.Errorf("%s: %q, want it to contain %q", name, msg, want)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("%s: %q does not wrap %v", name, msg, sentinel)
	}
	if !strings.HasPrefix(msg, "spi: "+op+": ") || strings.Count(msg, "spi:") != 1 || strings.Count(msg, op+":") != 1 {
		t.Errorf("%s: %q: want one \"spi: %s:\" prefix", name, msg, op)
	}
}

// exactDot is the order WithExactFloat documents: a sequential float64 sum
// from +0 of the (exact) products, rounded once.
func exactDot(w, x []float32) float32 {
	var s float64
	for i := range w {
		s += float64(w[i]) * float64(x[i])
	}
	return float32(s)
}

// TestExactFloat: with WithExactFloat(true), F32 and F16 weight products
// are the sequential float64 sum of each row, bit for bit, under every
// kernel variant and schedule and through MatVec, MatMul and
// MatMulShared; without it they are the kernels' DotF32 (within its
// tolerance, and not always the sequential bits).
func TestExactFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const rows, cols, n = 37, 300, 5 // rows not a multiple of 4
	x := randVec(r, n*cols)
	for _, typ := range []quant.Type{quant.F32, quant.FP16} {
		w := quantized(t, r, typ, rows, cols)
		wf := make([]float32, rows*cols)
		if err := quant.Dequantize(typ, wf, w.Data); err != nil {
			t.Fatal(err)
		}
		want := make([]float32, n*rows)
		for tok := 0; tok < n; tok++ {
			for row := 0; row < rows; row++ {
				want[tok*rows+row] = exactDot(wf[row*cols:(row+1)*cols], x[tok*cols:(tok+1)*cols])
			}
		}
		differs := false
		for _, variant := range Variants() {
			for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
				b, err := New(WithKernels(variant), WithSchedule(s))
				if err != nil {
					t.Fatal(err)
				}
				ctx := b.Context().WithExactFloat(true)
				if !ctx.ExactFloat() || b.Context().ExactFloat() {
					t.Fatal("ExactFloat does not report WithExactFloat")
				}
				got := make([]float32, n*rows)
				if err := ctx.MatMul(got, w, x, n); err != nil {
					t.Fatal(err)
				}
				if !sameBits(got, want) {
					t.Errorf("%v %s %s: MatMul is not the sequential sum", typ, variant, s.Name())
				}
				for tok := 0; tok < n; tok++ {
					mv := make([]float32, rows)
					if err := ctx.MatVec(mv, w, x[tok*cols:(tok+1)*cols]); err != nil {
						t.Fatal(err)
					}
					if !sameBits(mv, want[tok*rows:(tok+1)*rows]) {
						t.Errorf("%v %s %s: MatVec token %d is not the sequential sum", typ, variant, s.Name(), tok)
					}
				}
				d0, d1 := make([]float32, n*rows), make([]float32, n*rows)
				if err := ctx.MatMulShared([][]float32{d0, d1}, []Matrix{w, w}, x, n); err != nil {
					t.Fatal(err)
				}
				if !sameBits(d0, want) || !sameBits(d1, want) {
					t.Errorf("%v %s %s: MatMulShared is not the sequential sum", typ, variant, s.Name())
				}
				fast := make([]float32, n*rows)
				if err := b.Context().MatMul(fast, w, x, n); err != nil {
					t.Fatal(err)
				}
				for i := range fast {
					if d := math.Abs(float64(fast[i] - want[i])); d > 1e-4 {
						t.Fatalf("%v %s: default MatMul[%d] = %v, sequential %v", typ, variant, i, fast[i], want[i])
					}
				}
				differs = differs || !sameBits(fast, want)
			}
		}
		t.Logf("%v: the default (reassociated) product differs from the exact one somewhere: %v", typ, differs)
	}
}

// TestF16Activations: with WithF16Activations(true) an F16 weight matrix
// multiplies x rounded to binary16 — exactly the bits of the plain product
// with the rounded x —, in MatVec, MatMul and MatMulShared (next to a
// quantized matrix, which is unaffected), and with WithExactFloat too;
// F32 weights are unaffected.
func TestF16Activations(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const rows, cols, n = 19, 96, 4
	w16, w32, wq := quantized(t, r, quant.FP16, rows, cols), quantized(t, r, quant.F32, rows, cols), quantized(t, r, quant.Q8_0, rows, cols)
	x := randVec(r, n*cols)
	xr := make([]float32, len(x))
	for i, v := range x {
		xr[i] = quant.FromFloat32(v).Float32()
	}
	if sameBits(x, xr) {
		t.Fatal("the input is exact in binary16: the test shows nothing")
	}
	for _, exact := range []bool{false, true} {
		base := newBackend(t).Context().WithExactFloat(exact)
		ctx := base.WithF16Activations(true)
		if !ctx.F16Activations() || base.F16Activations() {
			t.Fatal("F16Activations does not report WithF16Activations")
		}
		product := func(c Context, w Matrix, x []float32) []float32 {
			d := make([]float32, n*rows)
			if err := c.MatMul(d, w, x, n); err != nil {
				t.Fatal(err)
			}
			return d
		}
		want := product(base, w16, xr)
		if got := product(ctx, w16, x); !sameBits(got, want) {
			t.Errorf("exact=%v: F16 MatMul is not the product with x rounded to binary16", exact)
		}
		if sameBits(product(base, w16, x), want) {
			t.Errorf("exact=%v: rounding x changes nothing: the test shows nothing", exact)
		}
		mv := make([]float32, rows)
		if err := ctx.MatVec(mv, w16, x[:cols]); err != nil {
			t.Fatal(err)
		}
		if !sameBits(mv, want[:rows]) {
			t.Errorf("exact=%v: F16 MatVec is not the product with x rounded", exact)
		}
		d := [3][]float32{make([]float32, n*rows), make([]float32, n*rows), make([]float32, n*rows)}
		if err := ctx.MatMulShared(d[:], []Matrix{wq, w16, w32}, x, n); err != nil {
			t.Fatal(err)
		}
		if !sameBits(d[0], product(base, wq, x)) || !sameBits(d[1], want) || !sameBits(d[2], product(base, w32, x)) {
			t.Errorf("exact=%v: MatMulShared: only the F16 matrix may see the rounded x", exact)
		}
	}
}

// ropeRef rotates one head as RoPEWith documents, in float64 angles.
func ropeRef(v []float32, pos int, o RoPEOptions) {
	half := o.Dims / 2
	for i := 0; i < half; i++ {
		theta := float64(pos) * math.Pow(float64(o.Base), -2*float64(i)/float64(o.Dims))
		if o.FreqFactors != nil {
			theta /= float64(o.FreqFactors[i])
		}
		if o.FreqScale != 0 {
			theta *= float64(o.FreqScale)
		}
		a, b := 2*i, 2*i+1
		if o.Neox {
			a, b = i, i+half
		}
		c, s := math.Cos(theta), math.Sin(theta)
		x0, x1 := float64(v[a]), float64(v[b])
		v[a], v[b] = float32(x0*c-x1*s), float32(x0*s+x1*c)
	}
}

// TestRoPEWith: full-head RoPEWith is RoPE bit for bit; partial rotation
// leaves the dimensions from Dims on untouched and rotates the others as
// the documented formula says (a float64 reference, to 2e-6), with linear
// scaling and per-pair frequency factors; every schedule gives the same
// bits.
func TestRoPEWith(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const tokens, heads, hd = 7, 3, 16
	x := randVec(r, tokens*heads*hd)
	pos := []int{0, 1, 2, 5, 17, 300, 4095}
	ctx := newBackend(t).Context()
	for _, neox := range []bool{false, true} {
		a, b := slices.Clone(x), slices.Clone(x)
		if err := ctx.RoPE(a, tokens, heads, hd, pos, 10000, neox); err != nil {
			t.Fatal(err)
		}
		if err := ctx.RoPEWith(b, tokens, heads, hd, pos, RoPEOptions{Base: 10000, Neox: neox}); err != nil {
			t.Fatal(err)
		}
		if !sameBits(a, b) {
			t.Errorf("neox=%v: RoPEWith over the whole head differs from RoPE", neox)
		}
	}
	ff := []float32{1, 1, 1.5, 4, 8, 1}
	for _, o := range []RoPEOptions{
		{Dims: 12, Base: 10000},
		{Dims: 12, Base: 500000, Neox: true},
		{Dims: 8, Base: 10000, FreqScale: 0.25},
		{Dims: 12, Base: 500000, FreqFactors: ff},
		{Dims: 12, Base: 500000, FreqFactors: ff, Neox: true, FreqScale: 0.5},
		{Dims: 2, Base: 10000},
	} {
		got := slices.Clone(x)
		if err := ctx.RoPEWith(got, tokens, heads, hd, pos, o); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(x)
		for tok := 0; tok < tokens; tok++ {
			for h := 0; h < heads; h++ {
				ropeRef(want[(tok*heads+h)*hd:(tok*heads+h+1)*hd], pos[tok], o)
			}
		}
		for i := range got {
			d := i % hd
			if d >= o.Dims {
				if math.Float32bits(got[i]) != math.Float32bits(x[i]) {
					t.Fatalf("%+v: element %d (dim %d ≥ Dims) changed", o, i, d)
				}
				continue
			}
			if math.Abs(float64(got[i]-want[i])) > 2e-6*(1+math.Abs(float64(want[i]))) {
				t.Fatalf("%+v: element %d (token %d dim %d) = %v, want %v", o, i, i/(heads*hd), d, got[i], want[i])
			}
		}
		hw, err := New(WithSchedule(sched.Hardware()))
		if err != nil {
			t.Fatal(err)
		}
		again := slices.Clone(x)
		if err := hw.Context().RoPEWith(again, tokens, heads, hd, pos, o); err != nil {
			t.Fatal(err)
		}
		if !sameBits(again, got) {
			t.Errorf("%+v: the hardware schedule gives other bits", o)
		}
	}
	x8 := make([]float32, 8)
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"odd dims", ctx.RoPEWith(x8, 1, 1, 8, []int{0}, RoPEOptions{Dims: 3, Base: 10000}), "Dims = 3"},
		{"dims > head", ctx.RoPEWith(x8, 1, 1, 8, []int{0}, RoPEOptions{Dims: 10, Base: 10000}), "Dims = 10"},
		{"len x", ctx.RoPEWith(x8[:7], 1, 1, 8, []int{0}, RoPEOptions{Base: 10000}), "len(x) = 7"},
		{"len pos", ctx.RoPEWith(x8, 1, 1, 8, nil, RoPEOptions{Base: 10000}), "len(pos) = 0"},
		{"base", ctx.RoPEWith(x8, 1, 1, 8, []int{0}, RoPEOptions{Base: 1}), "Base = 1"},
		{"scale", ctx.RoPEWith(x8, 1, 1, 8, []int{0}, RoPEOptions{Base: 10000, FreqScale: -1}), "FreqScale = -1"},
		{"factors", ctx.RoPEWith(x8, 1, 1, 8, []int{0}, RoPEOptions{Base: 10000, FreqFactors: []float32{1}}), "len(FreqFactors) = 1"},
		{"factor NaN", ctx.RoPEWith(x8, 1, 1, 8, []int{0}, RoPEOptions{Dims: 4, Base: 10000, FreqFactors: []float32{1, float32(math.NaN())}}), "FreqFactors[1] = NaN"},
		{"tokens", ctx.RoPEWith(x8, 0, 1, 8, nil, RoPEOptions{Base: 10000}), "tokens = 0"},
	} {
		checkOpErr(t, c.name, c.err, ErrShape, "RoPEWith", c.want)
	}
	if d, err := ParallelDims("RoPEWith"); err != nil || d[0] != "tokens" {
		t.Errorf("ParallelDims(RoPEWith) = %v, %v", d, err)
	}
}

// TestSampler: greedy is the first index of the maximum; seeded sampling
// repeats with the seed, follows the softmax of logits/temperature, and
// top-k and top-p cut what it can return.
func TestSampler(t *testing.T) {
	g, err := NewSampler(SamplerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if id, err := g.Sample([]float32{1, 3, float32(math.Inf(-1)), 3, 2}); err != nil || id != 1 {
		t.Errorf("greedy Sample = %d, %v, want 1 (the first maximum)", id, err)
	}
	if id, err := Argmax([]float32{float32(math.Inf(-1)), -5, -5}); err != nil || id != 1 {
		t.Errorf("Argmax = %d, %v, want 1", id, err)
	}
	// Probabilities 0.5, 0.3, 0.15, 0.05 at temperature 1; at temperature
	// 2 they are proportional to their square roots.
	probs := []float64{0.5, 0.3, 0.15, 0.05}
	logits := make([]float32, len(probs))
	for i, p := range probs {
		logits[i] = float32(math.Log(p))
	}
	draw := func(o SamplerOptions, n int) []int {
		s, err := NewSampler(o)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]int, n)
		for i := range ids {
			if ids[i], err = s.Sample(logits); err != nil {
				t.Fatal(err)
			}
		}
		return ids
	}
	const n = 40000
	freq := func(ids []int) []float64 {
		f := make([]float64, len(probs))
		for _, id := range ids {
			f[id] += 1.0 / float64(len(ids))
		}
		return f
	}
	near := func(name string, got, want []float64) {
		t.Helper()
		for i := range want {
			// 5 standard deviations of a binomial proportion.
			if sd := math.Sqrt(want[i] * (1 - want[i]) / n); math.Abs(got[i]-want[i]) > 5*sd+1e-12 {
				t.Errorf("%s: frequency of %d = %.4f, want %.4f ± %.4f", name, i, got[i], want[i], 5*sd)
			}
		}
	}
	a := draw(SamplerOptions{Temperature: 1, Seed: 7}, n)
	if !slices.Equal(a, draw(SamplerOptions{Temperature: 1, Seed: 7}, n)) {
		t.Error("the same seed gave other tokens")
	}
	if slices.Equal(a[:100], draw(SamplerOptions{Temperature: 1, Seed: 8}, 100)) {
		t.Error("seeds 7 and 8 gave the same 100 tokens")
	}
	near("T=1", freq(a), probs)
	sq := []float64{math.Sqrt(0.5), math.Sqrt(0.3), math.Sqrt(0.15), math.Sqrt(0.05)}
	var z float64
	for _, v := range sq {
		z += v
	}
	for i := range sq {
		sq[i] /= z
	}
	near("T=2", freq(draw(SamplerOptions{Temperature: 2, Seed: 3}, n)), sq)
	near("top-k 2", freq(draw(SamplerOptions{Temperature: 1, TopK: 2, Seed: 4}, n)), []float64{0.625, 0.375, 0, 0})
	// Top-p 0.7: 0.5 is not enough, 0.5+0.3 is.
	near("top-p 0.7", freq(draw(SamplerOptions{Temperature: 1, TopP: 0.7, Seed: 5}, n)), []float64{0.625, 0.375, 0, 0})
	near("top-p 0.85", freq(draw(SamplerOptions{Temperature: 1, TopP: 0.85, Seed: 5}, n)), []float64{0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95, 0})
	for _, id := range draw(SamplerOptions{Temperature: 1, TopK: 1, Seed: 6}, 100) {
		if id != 0 {
			t.Fatalf("top-k 1 drew %d", id)
		}
	}
	// Top-k on a vocabulary larger than k keeps exactly the k largest,
	// ties broken towards the lower id.
	big := make([]float32, 1000)
	for i := range big {
		big[i] = float32(i % 10)
	}
	s, _ := NewSampler(SamplerOptions{Temperature: 100, TopK: 3, Seed: 1})
	seen := map[int]bool{}
	for i := 0; i < 3000; i++ {
		id, err := s.Sample(big)
		if err != nil {
			t.Fatal(err)
		}
		seen[id] = true
	}
	if len(seen) != 3 || !seen[9] || !seen[19] || !seen[29] {
		t.Errorf("top-k 3 of ties drew %v, want exactly 9, 19 and 29", seen)
	}
	for _, c := range []struct {
		name string
		o    SamplerOptions
		want string
	}{
		{"temperature", SamplerOptions{Temperature: -1}, "Temperature = -1"},
		{"temperature NaN", SamplerOptions{Temperature: float32(math.NaN())}, "Temperature = NaN"},
		{"top-k", SamplerOptions{TopK: -2}, "TopK = -2"},
		{"top-p", SamplerOptions{TopP: 1.5}, "TopP = 1.5"},
	} {
		_, err := NewSampler(c.o)
		checkOpErr(t, c.name, err, ErrOption, "NewSampler", c.want)
	}
	_, err = g.Sample(nil)
	checkOpErr(t, "no logits", err, ErrShape, "Sample", "no logits")
	_, err = s.Sample([]float32{0, float32(math.NaN())})
	checkOpErr(t, "NaN", err, quant.ErrNotFinite, "Sample", "logits[1] = NaN")
	_, err = g.Sample([]float32{float32(math.Inf(1)), 0})
	checkOpErr(t, "+Inf", err, quant.ErrNotFinite, "Sample", "logits[0] = +Inf")
	_, err = Argmax([]float32{0, float32(math.NaN())})
	checkOpErr(t, "Argmax NaN", err, quant.ErrNotFinite, "Argmax", "x[1] = NaN")
}

// TestVariants: spi.Variants is the list of variants this CPU runs, each
// accepted by WithKernels, the generic one included.
func TestVariants(t *testing.T) {
	v := Variants()
	if !slices.Equal(v, kernels.Variants()) || !slices.Contains(v, "generic") {
		t.Fatalf("Variants() = %v, kernels.Variants() = %v", v, kernels.Variants())
	}
	for _, name := range v {
		if _, err := New(WithKernels(name)); err != nil {
			t.Errorf("WithKernels(%q): %v", name, err)
		}
	}
}

// TestEngineOpsZeroAllocs: RoPEWith, the exact float products and Sample
// allocate nothing in the steady state.
func TestEngineOpsZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values on purpose")
	}
	r := rand.New(rand.NewPCG(1, 2))
	const rows, cols, n = 64, 256, 3
	f32, f16 := quantized(t, r, quant.F32, rows, cols), quantized(t, r, quant.FP16, rows, cols)
	x, dst := randVec(r, n*cols), make([]float32, n*rows)
	rx := randVec(r, n*4*64)
	pos := []int{0, 1, 2}
	logits := randVec(r, 5000)
	for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
		b, err := New(WithSchedule(s))
		if err != nil {
			t.Fatal(err)
		}
		ctx := b.Context().WithExactFloat(true)
		samp, _ := NewSampler(SamplerOptions{Temperature: 0.8, TopK: 40, TopP: 0.95, Seed: 1})
		all, _ := NewSampler(SamplerOptions{Temperature: 0.8, Seed: 1})
		ff := make([]float32, 16)
		for i := range ff {
			ff[i] = 1 + float32(i)
		}
		cases := map[string]func() error{
			"RoPEWith": func() error {
				return ctx.RoPEWith(rx, n, 4, 64, pos, RoPEOptions{Dims: 32, Base: 10000, FreqFactors: ff})
			},
			"MatMul/f32":    func() error { return ctx.MatMul(dst, f32, x, n) },
			"MatMul/f16":    func() error { return ctx.MatMul(dst, f16, x, n) },
			"MatVec/f16":    func() error { return ctx.MatVec(dst[:rows], f16, x[:cols]) },
			"MatMul/f16act": func() error { return ctx.WithF16Activations(true).MatMul(dst, f16, x, n) },
			"Sample/top-k":  func() error { _, err := samp.Sample(logits); return err },
			"Sample/all":    func() error { _, err := all.Sample(logits); return err },
		}
		for name, f := range cases {
			if err := f(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if a := testing.AllocsPerRun(20, func() { _ = f() }); a != 0 {
				t.Errorf("%s on %s: %v allocations per call, want 0", name, s.Name(), a)
			}
		}
	}
}

// TestRMSNormRows checks RMSNorm against its documented definition, written
// out one row at a time (the sum of squares in element order in float32,
// then the correctly rounded square root), bit for bit: 1 to 11 rows (the
// kernel takes four rows at a time, then the rest one by one), and 130
// (chunks of 54 rows on a pool), on one thread and on a pool, with random
// values, rows holding ±Inf, NaN, −0,
// values whose squares overflow or underflow, and rows of zeros, whose
// mean of squares is eps alone.
func TestRMSNormRows(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	const dim = 300
	w := randVec(r, dim)
	pool, err := sched.NewPool(sched.WithWorkers(3))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	specials := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3e38, -2e19, 1e-30, math.SmallestNonzeroFloat32, 0, float32(math.Copysign(0, -1))}
	for _, eps := range []float32{1e-5, 0} {
		for _, rows := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 130} {
			x := randVec(r, rows*dim)
			for i := range x {
				switch r.IntN(40) {
				case 0:
					x[i] = specials[r.IntN(len(specials))]
				case 1:
					x[i] *= 1e19 // squares beyond float32
				}
			}
			if rows > 2 {
				clear(x[dim : 2*dim]) // a row of zeros
			}
			want := make([]float32, rows*dim)
			for row := 0; row < rows; row++ {
				xr := x[row*dim : (row+1)*dim]
				var ss float32
				for _, v := range xr {
					ss += float32(v * v)
				}
				scale := float32(1 / math.Sqrt(float64(float32(ss/dim)+eps)))
				for i, v := range xr {
					want[row*dim+i] = float32(v*scale) * w[i]
				}
			}
			for _, s := range []sched.Schedule{sched.Sequential, pool} {
				b, err := New(WithSchedule(s))
				if err != nil {
					t.Fatal(err)
				}
				got := make([]float32, rows*dim)
				if err := b.Context().RMSNorm(got, x, w, rows, dim, eps); err != nil {
					t.Fatal(err)
				}
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
						t.Fatalf("eps %v, %d rows, %s: [%d] = %v, want %v", eps, rows, s.Name(), i, got[i], want[i])
					}
				}
			}
		}
	}
}
