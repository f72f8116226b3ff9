package sdpa

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

type testCase struct {
	name string
	sh   Shape
	opt  Options
	// maskBatch: 0 no mask, 1 a [SeqQ, SeqKV] mask, 2 a [Batch, SeqQ,
	// SeqKV] mask, 3 a [SeqQ, SeqKV] mask rising with the key.
	maskBatch int
	mag       float32
	// posV makes V non-negative, so that rounding errors of the weighted
	// sum add up instead of cancelling.
	posV bool
}

func (c testCase) String() string {
	s := c.sh
	return fmt.Sprintf("%s/b%dh%dkv%dq%dk%dd%d/causal=%v/mask=%d/mag=%g",
		c.name, s.Batch, s.Heads, s.KVHeads, s.SeqQ, s.SeqKV, s.HeadDim, c.opt.Causal, c.maskBatch, c.mag)
}

// cases returns the shapes every mode is tested on: odd sizes, tiles and
// key blocks cut anywhere, SeqQ > SeqKV, no keys, decode with key chunks.
func cases() []testCase {
	shapes := []Shape{
		{1, 1, 1, 1, 1, 1},
		{2, 4, 2, 5, 7, 3},
		{1, 8, 2, 17, 33, 16},
		{2, 6, 3, 3, 70, 8},
		{1, 2, 1, 10, 4, 4},
		{1, 2, 2, 3, 0, 4},
		{1, 4, 2, 1, 1100, 8},
		{1, 2, 1, 8, 600, 13},
		{2, 3, 1, 20, 130, 5},
	}
	var cs []testCase
	for _, sh := range shapes {
		for _, causal := range []bool{false, true} {
			for mb := 0; mb <= 2; mb++ {
				if mb == 2 && sh.Batch == 1 {
					continue
				}
				cs = append(cs, testCase{name: "rand", sh: sh, opt: Options{Causal: causal}, maskBatch: mb, mag: 1})
			}
		}
		cs = append(cs, testCase{name: "large", sh: sh, opt: Options{Causal: true}, mag: 30})
		cs = append(cs, testCase{name: "scale", sh: sh, opt: Options{Scale: -0.75}, maskBatch: 1, mag: 2})
	}
	return cs
}

// longCases are long key ranges, where Fast's blocking and chunking and the
// length of every sum matter most: flat softmax (small inputs) with V all
// positive, peaked softmax (large inputs), masked, decode and prefill.
func longCases() []testCase {
	var cs []testCase
	shapes := []Shape{{1, 2, 1, 1, 4096, 64}, {1, 1, 1, 20, 4096, 64}, {1, 1, 1, 2, 20000, 32}}
	if raceEnabled {
		shapes = shapes[:2]
	}
	for _, sh := range shapes {
		for _, causal := range []bool{false, true} {
			cs = append(cs,
				testCase{name: "flat", sh: sh, opt: Options{Causal: causal}, mag: 0.05, posV: true},
				testCase{name: "rand", sh: sh, opt: Options{Causal: causal}, maskBatch: 1, mag: 1},
				testCase{name: "large", sh: sh, opt: Options{Causal: causal}, mag: 20, posV: true},
				// ALiBi-like: a mask rising with the key, so that Fast's
				// running max grows in every block and every block rescales.
				testCase{name: "rising", sh: sh, opt: Options{Causal: causal}, maskBatch: 3, mag: 1, posV: true},
			)
		}
	}
	return cs
}

func (c testCase) inputs(seed uint64) (inputs, Options) {
	rng := rand.New(rand.NewPCG(seed, 7))
	in := randInputs(rng, c.sh, c.mag)
	if c.posV {
		for i, x := range in.v {
			in.v[i] = float32(math.Abs(float64(x)))/c.mag + 1
		}
	}
	opt := c.opt
	switch c.maskBatch {
	case 1:
		opt.Mask = randMask(rng, c.sh, 1)
	case 2:
		opt.Mask = randMask(rng, c.sh, c.sh.Batch)
	case 3:
		opt.Mask = make([]float32, c.sh.SeqQ*c.sh.SeqKV)
		for i := range opt.Mask {
			opt.Mask[i] = 0.02 * float32(i%c.sh.SeqKV)
		}
	}
	return in, opt
}

func outLen(sh Shape) int { return sh.Batch * sh.Heads * sh.SeqQ * sh.HeadDim }

// guard fills a fresh output with a value no result has.
func guard(n int) []float32 {
	o := make([]float32, n)
	for i := range o {
		o[i] = float32(math.NaN())
	}
	return o
}

func TestExactMatchesScalarOrder(t *testing.T) {
	for i, c := range cases() {
		in, opt := c.inputs(uint64(i))
		want := make([]float32, outLen(c.sh))
		refExact(want, in.q, in.k, in.v, c.sh, opt)
		got := guard(len(want))
		if err := Attention(sched.Sequential, got, in.q, in.k, in.v, c.sh, opt); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		assertBits(t, c.String(), got, want)

		// And Exact is attention: close to the float64 value.
		r := ref64(in.q, in.k, in.v, c.sh, opt)
		for j := range got {
			if d := math.Abs(float64(got[j]) - r[j]); d > 1e-4*float64(c.mag)*(1+float64(c.mag)) {
				t.Fatalf("%v: element %d = %g, float64 reference %g", c, j, got[j], r[j])
			}
		}
	}
}

func TestExactBitIdenticalUnderEverySchedule(t *testing.T) {
	ss := schedules(t)
	for i, c := range cases() {
		in, opt := c.inputs(uint64(i))
		want := make([]float32, outLen(c.sh))
		if err := Attention(sched.Sequential, want, in.q, in.k, in.v, c.sh, opt); err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			got := guard(len(want))
			if err := Attention(s, got, in.q, in.k, in.v, c.sh, opt); err != nil {
				t.Fatal(err)
			}
			assertBits(t, c.String()+"/"+s.Name(), got, want)
		}
	}
}

// TestParallelPath runs shapes far above ParallelMinWork, so that the
// schedules really split them, and checks the bits against Sequential.
func TestParallelPath(t *testing.T) {
	shapes := []Shape{
		{1, 8, 2, 64, 300, 64}, // Exact and Fast prefill tiles
		{2, 4, 1, 1, 2048, 64}, // decode: Fast key chunks
		{1, 2, 2, 3, 1500, 32}, // decode with a partial last chunk
	}
	if testing.Short() {
		shapes = shapes[1:]
	}
	ss := schedules(t)
	for _, sh := range shapes {
		for _, mode := range []Mode{Exact, Fast} {
			opt := Options{Causal: true, Mode: mode}
			rng := rand.New(rand.NewPCG(1, 2))
			in := randInputs(rng, sh, 1)
			if got := (&plan{sh: sh, causal: true, group: 1}).work(); got < ParallelMinWorkFast {
				t.Fatalf("shape %+v: work %d is below ParallelMinWorkFast", sh, got)
			}
			want := make([]float32, outLen(sh))
			if err := Attention(sched.Sequential, want, in.q, in.k, in.v, sh, opt); err != nil {
				t.Fatal(err)
			}
			for _, s := range ss {
				got := guard(len(want))
				if err := Attention(s, got, in.q, in.k, in.v, sh, opt); err != nil {
					t.Fatal(err)
				}
				assertBits(t, fmt.Sprintf("%+v/%v/%s", sh, mode, s.Name()), got, want)
			}
		}
	}
}

func TestGroupedEqualsTiled(t *testing.T) {
	for _, hk := range [][2]int{{8, 2}, {6, 3}, {4, 1}, {4, 4}} {
		for _, mode := range []Mode{Exact, Fast} {
			for _, seqQ := range []int{1, 9} {
				sh := Shape{Batch: 2, Heads: hk[0], KVHeads: hk[1], SeqQ: seqQ, SeqKV: 600, HeadDim: 16}
				rng := rand.New(rand.NewPCG(uint64(hk[0]), uint64(hk[1])))
				in := randInputs(rng, sh, 1)
				opt := Options{Causal: true, Mode: mode, Mask: randMask(rng, sh, 2)}
				grouped := guard(outLen(sh))
				if err := Attention(sched.Hardware(), grouped, in.q, in.k, in.v, sh, opt); err != nil {
					t.Fatal(err)
				}
				tsh := sh
				tsh.KVHeads = sh.Heads
				tiled := guard(outLen(sh))
				if err := Attention(goSchedule{1}, tiled, in.q, tileKV(in.k, sh), tileKV(in.v, sh), tsh, opt); err != nil {
					t.Fatal(err)
				}
				assertBits(t, fmt.Sprintf("(%d,%d)/%v/seqQ=%d", hk[0], hk[1], mode, seqQ), grouped, tiled)
			}
		}
	}
	sh := Shape{Batch: 1, Heads: 6, KVHeads: 4, SeqQ: 1, SeqKV: 1, HeadDim: 1}
	err := Attention(nil, make([]float32, 6), make([]float32, 6), make([]float32, 4), make([]float32, 4), sh, Options{})
	if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "KVHeads") {
		t.Errorf("(6,4): got %v, want an ErrShape naming KVHeads", err)
	}
}

// forEachVariant runs f with every kernel variant this CPU supports forced.
func forEachVariant(t *testing.T, f func(t *testing.T)) {
	for _, name := range kernels.Variants() {
		t.Run("variant="+name, func(t *testing.T) {
			restore, err := kernels.Use(name)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t)
		})
	}
}

// fastTolerance returns, per output element, the two parts of the bound
// Fast must stay within (see the package documentation):
// |Fast-Exact| <= (FastTolerance + slack)·vmax with slack =
// (4·HeadDim·S + 4·sqrt(n))·2^-24, S = |Scale|·max_j Σ_d |q[d]·k[j,d]| and
// vmax = max_j |v[j,d]| over the row's n unmasked keys.
func fastTolerance(in inputs, sh Shape, opt Options) (vmax, slack []float64) {
	hd, nk := sh.HeadDim, sh.SeqKV
	scale := math.Abs(float64(opt.Scale))
	if opt.Scale == 0 {
		scale = 1 / math.Sqrt(float64(hd))
	}
	vmax = make([]float64, outLen(sh))
	slack = make([]float64, outLen(sh))
	for b := 0; b < sh.Batch; b++ {
		for h := 0; h < sh.Heads; h++ {
			g := h / (sh.Heads / sh.KVHeads)
			for i := 0; i < sh.SeqQ; i++ {
				row := ((b*sh.Heads+h)*sh.SeqQ + i) * hd
				qr := in.q[row:][:hd]
				vm := vmax[row:][:hd]
				var S float64
				n := 0
				for j := 0; j < nk; j++ {
					if opt.Causal && j > nk-sh.SeqQ+i || opt.Mask != nil && math.IsInf(float64(maskAt(opt.Mask, sh, b, i, j)), -1) {
						continue
					}
					n++
					kv := ((b*sh.KVHeads+g)*nk + j) * hd
					var a float64
					for d := 0; d < hd; d++ {
						a += math.Abs(float64(qr[d]) * float64(in.k[kv+d]))
						vm[d] = math.Max(vm[d], math.Abs(float64(in.v[kv+d])))
					}
					S = math.Max(S, a*scale)
				}
				sl := slack[row:][:hd]
				for d := range sl {
					sl[d] = (4*float64(hd)*S + 4*math.Sqrt(float64(n))) * 0x1p-24
				}
			}
		}
	}
	return vmax, slack
}

func TestFastWithinTolerance(t *testing.T) {
	cs := cases()
	if !testing.Short() {
		cs = append(cs, longCases()...)
	}
	// Exact results and bounds, computed once for every variant.
	type prepared struct {
		c           testCase
		in          inputs
		opt         Options
		exact       []float32
		vmax, slack []float64
	}
	ps := make([]prepared, len(cs))
	for i, c := range cs {
		in, opt := c.inputs(uint64(i))
		exact := make([]float32, outLen(c.sh))
		if err := Attention(sched.Hardware(), exact, in.q, in.k, in.v, c.sh, opt); err != nil {
			t.Fatal(err)
		}
		opt.Mode = Fast
		vmax, slack := fastTolerance(in, c.sh, opt)
		ps[i] = prepared{c, in, opt, exact, vmax, slack}
	}
	forEachVariant(t, func(t *testing.T) {
		worst, worstV := 0.0, 0.0
		for _, p := range ps {
			fast := guard(len(p.exact))
			if err := Attention(sched.Hardware(), fast, p.in.q, p.in.k, p.in.v, p.c.sh, p.opt); err != nil {
				t.Fatal(err)
			}
			for j := range fast {
				d := math.Abs(float64(fast[j]) - float64(p.exact[j]))
				tol := p.vmax[j] * (FastTolerance + p.slack[j])
				if !(d <= tol) {
					t.Fatalf("%v: element %d: Fast %g, Exact %g, |diff| %g > tolerance %g", p.c, j, fast[j], p.exact[j], d, tol)
				}
				if tol > 0 {
					worst = max(worst, d/tol)
					worstV = max(worstV, d/p.vmax[j])
				}
			}
		}
		t.Logf("largest |Fast-Exact| is %.3g of the tolerance, %.3g of max|V|", worst, worstV)
	})
}

func TestFastBitIdenticalUnderEverySchedule(t *testing.T) {
	ss := schedules(t)
	forEachVariant(t, func(t *testing.T) {
		for i, c := range cases() {
			in, opt := c.inputs(uint64(i))
			opt.Mode = Fast
			want := make([]float32, outLen(c.sh))
			if err := Attention(sched.Sequential, want, in.q, in.k, in.v, c.sh, opt); err != nil {
				t.Fatal(err)
			}
			for _, s := range ss {
				got := guard(len(want))
				if err := Attention(s, got, in.q, in.k, in.v, c.sh, opt); err != nil {
					t.Fatal(err)
				}
				assertBits(t, c.String()+"/fast/"+s.Name(), got, want)
			}
		}
	})
}

func TestF16(t *testing.T) {
	for i, c := range cases() {
		in, opt := c.inputs(uint64(i))
		k16, v16 := toF16(in.k), toF16(in.v)
		kw, vw := fromF16(k16), fromF16(v16)
		for _, mode := range []Mode{Exact, Fast} {
			opt.Mode = mode
			want := make([]float32, outLen(c.sh))
			if err := Attention(sched.Sequential, want, in.q, kw, vw, c.sh, opt); err != nil {
				t.Fatal(err)
			}
			for _, s := range []sched.Schedule{sched.Sequential, goSchedule{1}, reverseSchedule{2}} {
				got := guard(len(want))
				if err := AttentionF16(s, got, in.q, k16, v16, c.sh, opt); err != nil {
					t.Fatal(err)
				}
				assertBits(t, c.String()+"/f16/"+mode.String()+"/"+s.Name(), got, want)
			}
		}
	}
}

func TestF16Widening(t *testing.T) {
	src := make([]quant.F16, 1<<16)
	for h := range src {
		src[h] = quant.F16(h)
	}
	dst := widen(src, make([]float32, len(src)))
	for h, x := range src {
		if got, want := math.Float32bits(dst[h]), math.Float32bits(x.Float32()); got != want {
			t.Fatalf("widen(%#04x) = %#08x, want %#08x", h, got, want)
		}
	}
}

// TestMaskedKeysIgnored puts Inf and NaN in the K and V rows of masked keys
// (a KV cache past the current position) and in fully masked rows: the
// output must be what clean K/V give, and fully masked rows zero.
func TestMaskedKeysIgnored(t *testing.T) {
	sh := Shape{Batch: 2, Heads: 4, KVHeads: 2, SeqQ: 6, SeqKV: 700, HeadDim: 8}
	for _, mode := range []Mode{Exact, Fast} {
		for _, seqQ := range []int{1, 6} {
			sh.SeqQ = seqQ
			rng := rand.New(rand.NewPCG(3, uint64(seqQ)))
			in := randInputs(rng, sh, 1)
			mask := make([]float32, sh.Batch*sh.SeqQ*sh.SeqKV)
			negInf := float32(math.Inf(-1))
			for i := range mask {
				j := i % sh.SeqKV
				if j%5 == 0 || j >= 650 {
					mask[i] = negInf // every 5th key and the tail are masked
				}
			}
			// Row 0 of batch 1 sees nothing.
			for j := 0; j < sh.SeqKV; j++ {
				mask[(1*sh.SeqQ+0)*sh.SeqKV+j] = negInf
			}
			opt := Options{Causal: true, Mask: mask, Mode: mode}
			clean := make([]float32, outLen(sh))
			if err := Attention(sched.Sequential, clean, in.q, in.k, in.v, sh, opt); err != nil {
				t.Fatal(err)
			}
			dirtyK, dirtyV := append([]float32(nil), in.k...), append([]float32(nil), in.v...)
			bad := []float32{float32(math.NaN()), float32(math.Inf(1)), negInf}
			for b := 0; b < sh.Batch; b++ {
				for g := 0; g < sh.KVHeads; g++ {
					for j := 0; j < sh.SeqKV; j += 5 {
						for d := 0; d < sh.HeadDim; d++ {
							o := ((b*sh.KVHeads+g)*sh.SeqKV+j)*sh.HeadDim + d
							dirtyK[o], dirtyV[o] = bad[(j+d)%3], bad[(j+d+1)%3]
						}
					}
				}
			}
			got := guard(len(clean))
			if err := Attention(goSchedule{1}, got, in.q, dirtyK, dirtyV, sh, opt); err != nil {
				t.Fatal(err)
			}
			assertBits(t, fmt.Sprintf("%v/seqQ=%d", mode, seqQ), got, clean)
			clean16 := make([]float32, outLen(sh))
			if err := AttentionF16(sched.Sequential, clean16, in.q, toF16(in.k), toF16(in.v), sh, opt); err != nil {
				t.Fatal(err)
			}
			got16 := guard(len(clean))
			if err := AttentionF16(reverseSchedule{1}, got16, in.q, toF16(dirtyK), toF16(dirtyV), sh, opt); err != nil {
				t.Fatal(err)
			}
			assertBits(t, fmt.Sprintf("%v/seqQ=%d/f16", mode, seqQ), got16, clean16)
			for _, b := range []int{1} {
				for h := 0; h < sh.Heads; h++ {
					row := got[((b*sh.Heads+h)*sh.SeqQ)*sh.HeadDim:][:sh.HeadDim]
					for d, x := range row {
						if math.Float32bits(x) != 0 {
							t.Fatalf("%v: fully masked row, element %d = %g, want +0", mode, d, x)
						}
					}
				}
			}
		}
	}
}

// TestNonFinite checks that NaN or Inf in an unmasked input reaches the
// output in both modes.
func TestNonFinite(t *testing.T) {
	sh := Shape{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 2, SeqKV: 600, HeadDim: 4}
	for _, mode := range []Mode{Exact, Fast} {
		for _, seqQ := range []int{1, 2, 5} {
			sh.SeqQ = seqQ
			for _, where := range []string{"q", "k", "v", "vinf", "allq"} {
				in := randInputs(rand.New(rand.NewPCG(5, 5)), sh, 1)
				nan := float32(math.NaN())
				switch where {
				case "q":
					in.q[1] = nan
				case "k":
					in.k[100*sh.HeadDim] = nan
				case "v":
					in.v[100*sh.HeadDim] = nan
				case "vinf":
					in.v[100*sh.HeadDim] = float32(math.Inf(1))
				case "allq":
					for i := range in.q {
						in.q[i] = nan
					}
				}
				out := make([]float32, outLen(sh))
				if err := Attention(nil, out, in.q, in.k, in.v, sh, Options{Mode: mode}); err != nil {
					t.Fatal(err)
				}
				if x := out[0]; where == "vinf" && !math.IsInf(float64(x), 1) || where != "vinf" && x == x {
					t.Errorf("%v/seqQ=%d: %s: out[0] = %g, want NaN (+Inf for vinf)", mode, seqQ, where, x)
				}
			}
		}
	}
}

// TestKVCapacity: K/V in a cache with room for more rows than SeqKV (the
// unused rows full of NaN) give the bits of the compact layout, in both
// modes and for both element types.
func TestKVCapacity(t *testing.T) {
	for _, sh := range []Shape{
		{2, 4, 2, 1, 700, 8},  // decode: Fast key chunks
		{1, 6, 3, 9, 300, 16}, // prefill: Fast transposed blocks
		{2, 2, 2, 3, 0, 4},    // no keys
		{1, 2, 1, 5, 37, 3},   // odd sizes
	} {
		for _, extra := range []int{0, 1, 77} {
			capacity := sh.SeqKV + extra
			rng := rand.New(rand.NewPCG(uint64(capacity), 9))
			in := randInputs(rng, sh, 1)
			embed := func(x []float32) []float32 {
				out := make([]float32, sh.Batch*sh.KVHeads*capacity*sh.HeadDim)
				for i := range out {
					out[i] = float32(math.NaN())
				}
				n := sh.SeqKV * sh.HeadDim
				for bg := 0; bg < sh.Batch*sh.KVHeads; bg++ {
					copy(out[bg*capacity*sh.HeadDim:], x[bg*n:(bg+1)*n])
				}
				return out
			}
			kc, vc := embed(in.k), embed(in.v)
			for _, mode := range []Mode{Exact, Fast} {
				opt := Options{Causal: true, Mode: mode}
				want := make([]float32, outLen(sh))
				if err := Attention(sched.Sequential, want, in.q, in.k, in.v, sh, opt); err != nil {
					t.Fatal(err)
				}
				opt.KVCapacity = capacity
				got := guard(len(want))
				if err := Attention(goSchedule{1}, got, in.q, kc, vc, sh, opt); err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%+v/capacity=%d/%v", sh, capacity, mode)
				assertBits(t, name, got, want)
				want16 := make([]float32, outLen(sh))
				opt.KVCapacity = 0
				if err := AttentionF16(sched.Sequential, want16, in.q, toF16(in.k), toF16(in.v), sh, opt); err != nil {
					t.Fatal(err)
				}
				opt.KVCapacity = capacity
				got16 := guard(len(want))
				if err := AttentionF16(sched.Hardware(), got16, in.q, toF16(kc), toF16(vc), sh, opt); err != nil {
					t.Fatal(err)
				}
				assertBits(t, name+"/f16", got16, want16)
			}
		}
	}
}
