package llama

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// cfgA exercises every feature a float model can have: grouped-query
// attention, a head size that is not dim/heads (attention.key_length),
// partial RoPE (rope.dimension_count 8 of 16), linear RoPE scaling,
// rope_freqs factors and a tied output layer.
var cfgA = Config{Dim: 48, Layers: 2, Heads: 4, KVHeads: 2, HeadDim: 16, FFN: 40, Vocab: 50, ContextLength: 32,
	NormEps: 1e-5, RoPEDims: 8, RoPEBase: 10000, RoPEScale: 0.5, TiedOutput: true}

// cfgB has K-quant-sized rows, for a mix of every weight type.
var cfgB = Config{Dim: 256, Layers: 2, Heads: 4, KVHeads: 2, HeadDim: 64, FFN: 512, Vocab: 64, ContextLength: 16,
	NormEps: 1e-6, RoPEDims: 64, RoPEBase: 500000, RoPEScale: 1}

// mixB gives each weight of cfgB a type, so that every type spi multiplies
// appears (the embedding Q4_K, the output Q6_K).
func mixB(name string) quant.Type {
	types := map[string]quant.Type{
		"token_embd.weight": quant.Q4K, "output.weight": quant.Q6K,
		"blk.0.attn_q.weight": quant.Q4K, "blk.0.attn_k.weight": quant.Q5K, "blk.0.attn_v.weight": quant.Q6K,
		"blk.0.attn_output.weight": quant.Q8_0, "blk.0.ffn_gate.weight": quant.Q4_0, "blk.0.ffn_up.weight": quant.Q4_1,
		"blk.0.ffn_down.weight": quant.Q5_0,
		"blk.1.attn_q.weight":   quant.Q5_1, "blk.1.attn_k.weight": quant.FP16, "blk.1.attn_v.weight": quant.F32,
		"blk.1.attn_output.weight": quant.Q4K, "blk.1.ffn_gate.weight": quant.Q5K, "blk.1.ffn_up.weight": quant.Q8_0,
		"blk.1.ffn_down.weight": quant.Q6K,
	}
	return types[name]
}

var prompt = []int{1, 7, 3, 49, 12, 0, 33, 21, 8, 8, 40}

func backend(t testing.TB, s sched.Schedule, variant string) spi.Context {
	t.Helper()
	opts := []spi.Option{spi.WithSchedule(s)}
	if variant != "" {
		opts = append(opts, spi.WithKernels(variant))
	}
	b, err := spi.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return b.Context()
}

// logitsOf runs the prompt as one prefill and returns every position's
// logits.
func logitsOf(t testing.TB, m *Model, ctx spi.Context, o Options, toks []int) []float32 {
	t.Helper()
	s, err := m.NewSession(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Forward(toks, true)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(l)
}

func refLogits(t testing.TB, m *Model, toks []int) []float64 {
	r := newRef(t, m.File(), m.Config)
	var out []float64
	for _, tok := range toks {
		out = append(out, r.step(tok)...)
	}
	return out
}

func maxDiff(a []float32, b []float64) (float64, float64) {
	var d, mag float64
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i])-b[i]))
		mag = math.Max(mag, math.Abs(b[i]))
	}
	return d, mag
}

// TestMatchesReference: the decoder's logits for every prompt position
// match a float64 reference forward pass (build_test.go) written from the
// model's definition: within float32 rounding for the float model with
// every feature of cfgA, in both modes, with an f32 KV cache (and within
// binary16 rounding with an f16 one); and within the activations'
// quantization error for a model mixing every weight type.
func TestMatchesReference(t *testing.T) {
	a := buildModel(t, buildOpts{c: cfgA, ropeFreqs: true, seed: 1})
	if !a.Config.TiedOutput || a.RoPEFactors == nil || a.Config.HeadDim != 16 || a.Config.RoPEScale != 0.5 {
		t.Fatalf("cfgA read back as %+v", a.Config)
	}
	want := refLogits(t, a, prompt)
	ctx := backend(t, sched.Sequential, "")
	for _, c := range []struct {
		o   Options
		tol float64
	}{
		{Options{Mode: sdpa.Exact}, 2e-5},
		{Options{Mode: sdpa.Fast}, 2e-5},
		{Options{Mode: sdpa.Exact, KV: quant.FP16}, 3e-3},
		{Options{Mode: sdpa.Fast, KV: quant.FP16}, 3e-3},
	} {
		got := logitsOf(t, a, ctx, c.o, prompt)
		d, mag := maxDiff(got, want)
		t.Logf("float model, %v, kv %v: max |Δ| %.3g (logits up to %.2f)", c.o.Mode, c.o.KV, d, mag)
		if d > c.tol*mag {
			t.Errorf("float model, %v, kv %v: logits differ from the reference by %g, want ≤ %g", c.o.Mode, c.o.KV, d, c.tol*mag)
		}
	}

	b := buildModel(t, buildOpts{c: cfgB, typeOf: mixB, seed: 2})
	types := b.Types()
	for _, typ := range matrixTypes {
		if types[typ] == 0 {
			t.Errorf("the mixed model has no %v matrix", typ)
		}
	}
	tok := []int{1, 60, 2, 33, 5}
	got := logitsOf(t, b, ctx, Options{}, tok)
	want = refLogits(t, b, tok)
	var num, den float64
	for i := range got {
		num += (float64(got[i]) - want[i]) * (float64(got[i]) - want[i])
		den += want[i] * want[i]
	}
	rel := math.Sqrt(num / den)
	t.Logf("mixed model: relative RMS difference %.3g", rel)
	// The reference multiplies float activations; the decoder quantizes
	// them to 8 bits per block of 32 or 256 for each product (about 0.5%
	// RMS each, a few percent through two layers, more where one value
	// rounds the other way and the model amplifies it). A tensor used in
	// the wrong place or read with the wrong type is off by tens of
	// percent. The products' own exactness is tested in package spi.
	if rel > 0.05 {
		t.Errorf("mixed model: logits differ from the reference by %.3g RMS (relative), want ≤ 0.05", rel)
	}
}

// TestDeterminism: in the Exact mode a prompt's logits have the same bits
// under every schedule and kernel variant, and fed one token at a time
// they have the bits of the one-pass prefill; in the Fast mode they have
// the same bits under every schedule for a given variant.
func TestDeterminism(t *testing.T) {
	for _, mc := range []struct {
		name string
		m    *Model
		toks []int
	}{
		{"float", buildModel(t, buildOpts{c: cfgA, ropeFreqs: true, seed: 3}), prompt},
		{"mixed", buildModel(t, buildOpts{c: cfgB, typeOf: mixB, seed: 4}), []int{1, 60, 2, 33, 5, 9}},
	} {
		var exact []float32
		for _, variant := range spi.Variants() {
			var fast []float32
			for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
				ctx := backend(t, s, variant)
				e := logitsOf(t, mc.m, ctx, Options{}, mc.toks)
				if exact == nil {
					exact = e
					// Token by token: the same bits as the prefill.
					sess, _ := mc.m.NewSession(ctx, Options{})
					var steps []float32
					for _, tok := range mc.toks {
						l, err := sess.Forward([]int{tok}, false)
						if err != nil {
							t.Fatal(err)
						}
						steps = append(steps, l...)
					}
					if !sameBits(steps, exact) {
						t.Errorf("%s: token-by-token logits differ from the prefill's", mc.name)
					}
				} else if !sameBits(e, exact) {
					t.Errorf("%s: exact logits on %s/%s differ from the first run's", mc.name, variant, s.Name())
				}
				f := logitsOf(t, mc.m, ctx, Options{Mode: sdpa.Fast, KV: quant.FP16}, mc.toks)
				if fast == nil {
					fast = f
				} else if !sameBits(f, fast) {
					t.Errorf("%s: fast logits on %s/%s differ from the sequential schedule's", mc.name, variant, s.Name())
				}
			}
		}
	}
}

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// TestGenerate: the rows Generate hands out (one per prompt token, forced
// id and sampled token but the last), teacher forcing (forced ids give the
// logits of feeding them), stopping, and seeded sampling that gives the
// same tokens under both schedules.
func TestGenerate(t *testing.T) {
	m := buildModel(t, buildOpts{c: cfgA, seed: 5})
	ctx := backend(t, sched.Sequential, "")
	s, _ := m.NewSession(ctx, Options{})
	var rows [][]float32
	collect := func(r []float32) error { rows = append(rows, slices.Clone(r)); return nil }
	ids, st, err := s.Generate(Generation{Prompt: prompt[:4], Force: []int{5, 6}, N: 3, Logits: collect})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 3 || len(rows) != 4+2+2 || s.Pos() != 4+2+2 || st.PrefillTokens != 4 || st.DecodeTokens != 4 {
		t.Fatalf("ids %v, %d rows, pos %d, stats %+v", ids, len(rows), s.Pos(), st)
	}
	// The same sequence fed as one prefill gives the same rows.
	all := logitsOf(t, m, ctx, Options{}, append(append(slices.Clone(prompt[:4]), 5, 6), ids[:2]...))
	for i, r := range rows {
		if !sameBits(r, all[i*m.Config.Vocab:(i+1)*m.Config.Vocab]) {
			t.Errorf("row %d differs from the prefill's", i)
		}
	}
	// Greedy: each id is the argmax of the previous row.
	for i, id := range ids {
		if want, _ := spi.Argmax(rows[5+i]); id != want {
			t.Errorf("greedy id %d = %d, want argmax %d", i, id, want)
		}
	}
	// Stop after the second token.
	s.Reset()
	n := 0
	ids, _, err = s.Generate(Generation{Prompt: prompt[:2], N: 5, Token: func(int) (bool, error) { n++; return n == 2, nil }})
	if err != nil || len(ids) != 2 {
		t.Errorf("stop: ids %v, err %v", ids, err)
	}
	// Seeded sampling: the same tokens on both schedules.
	var runs [][]int
	for _, sc := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
		sess, _ := m.NewSession(backend(t, sc, ""), Options{})
		smp, err := spi.NewSampler(spi.SamplerOptions{Temperature: 1.5, TopK: 20, TopP: 0.95, Seed: 42})
		if err != nil {
			t.Fatal(err)
		}
		ids, _, err := sess.Generate(Generation{Prompt: prompt[:3], N: 20, Sampler: smp})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, ids)
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Errorf("seeded sampling: %v on one schedule, %v on the other", runs[0], runs[1])
	}
	greedy, _, _ := s.Generate(Generation{Prompt: prompt[:3], N: 20})
	if slices.Equal(runs[0], greedy) {
		t.Errorf("sampling at temperature 1.5 gave the greedy tokens %v", greedy)
	}
	// Errors: the context, token ids, an empty prompt.
	small, _ := m.NewSession(ctx, Options{Context: 5})
	if _, _, err := small.Generate(Generation{Prompt: prompt[:3], N: 4}); !errors.Is(err, ErrContext) {
		t.Errorf("3 + 4 tokens in a context of 5: %v", err)
	}
	if _, err := small.Forward(prompt[:6], false); !errors.Is(err, ErrContext) {
		t.Errorf("6 tokens in a context of 5: %v", err)
	}
	if _, err := small.Forward([]int{3, 50}, false); err == nil || !strings.Contains(err.Error(), "token 50") {
		t.Errorf("token 50 of 50: %v", err)
	}
	if small.Pos() != 0 {
		t.Errorf("failed calls moved the position to %d", small.Pos())
	}
	if _, _, err := small.Generate(Generation{}); err == nil {
		t.Error("empty prompt: no error")
	}
}

// TestLoadErrors: every problem with a file's metadata or tensors is an
// error naming the key or tensor, with the right sentinel.
func TestLoadErrors(t *testing.T) {
	setKV := func(k string, v gguf.Value) func(*[]gguf.KV, *[]gguf.Tensor) {
		return func(kv *[]gguf.KV, _ *[]gguf.Tensor) {
			for i := range *kv {
				if (*kv)[i].Key == k {
					(*kv)[i].Value = v
					return
				}
			}
			*kv = append(*kv, gguf.KV{Key: k, Value: v})
		}
	}
	dropKV := func(k string) func(*[]gguf.KV, *[]gguf.Tensor) {
		return func(kv *[]gguf.KV, _ *[]gguf.Tensor) {
			*kv = slices.DeleteFunc(*kv, func(x gguf.KV) bool { return x.Key == k })
		}
	}
	tensor := func(name string, f func(t *gguf.Tensor) bool) func(*[]gguf.KV, *[]gguf.Tensor) {
		return func(_ *[]gguf.KV, ts *[]gguf.Tensor) {
			*ts = slices.DeleteFunc(*ts, func(t gguf.Tensor) bool { return t.Name == name && !f(&t) })
			for i := range *ts {
				if (*ts)[i].Name == name {
					f(&(*ts)[i])
				}
			}
		}
	}
	for _, c := range []struct {
		name     string
		edit     func(*[]gguf.KV, *[]gguf.Tensor)
		sentinel error
		want     string
	}{
		{"architecture", setKV("general.architecture", gguf.String("qwen2")), ErrArchitecture, `"qwen2"`},
		{"no architecture", dropKV("general.architecture"), gguf.ErrMissingKey, `"general.architecture"`},
		{"missing key", dropKV("llama.block_count"), gguf.ErrMissingKey, `"llama.block_count"`},
		{"missing eps", dropKV("llama.attention.layer_norm_rms_epsilon"), gguf.ErrMissingKey, "layer_norm_rms_epsilon"},
		{"key type", setKV("llama.embedding_length", gguf.String("48")), gguf.ErrType, `"llama.embedding_length"`},
		{"zero", setKV("llama.feed_forward_length", gguf.Uint32(0)), ErrModel, "llama.feed_forward_length = 0"},
		{"kv heads", setKV("llama.attention.head_count_kv", gguf.Uint32(3)), ErrModel, "head_count_kv = 3"},
		{"experts", setKV("llama.expert_count", gguf.Uint32(8)), ErrUnsupported, "expert_count = 8"},
		{"yarn", setKV("llama.rope.scaling.type", gguf.String("yarn")), ErrUnsupported, `"yarn"`},
		{"rope dims", setKV("llama.rope.dimension_count", gguf.Uint32(18)), ErrModel, "dimension_count = 18"},
		{"rope base", setKV("llama.rope.freq_base", gguf.Float32(0.5)), ErrModel, "freq_base = 0.5"},
		{"value length", setKV("llama.attention.value_length", gguf.Uint32(8)), ErrUnsupported, "value_length = 8"},
		{"missing tensor", tensor("blk.1.ffn_up.weight", func(*gguf.Tensor) bool { return false }), ErrModel, "blk.1.ffn_up.weight is missing"},
		{"tensor dims", tensor("blk.0.attn_k.weight", func(t *gguf.Tensor) bool {
			t.Dims = []int64{48, 16}
			t.Data = t.Data[:48*16*4]
			return true
		}), ErrModel, "blk.0.attn_k.weight has dims [48 16], want [48 32]"},
		{"unexpected tensor", func(_ *[]gguf.KV, ts *[]gguf.Tensor) {
			*ts = append(*ts, gguf.Tensor{Name: "blk.0.attn_q.bias", Type: quant.F32, Dims: []int64{64}, Data: make([]byte, 256)})
		}, ErrUnsupported, "unexpected tensor blk.0.attn_q.bias"},
	} {
		_, err := Load(mustParse(t, build(t, buildOpts{c: cfgA, seed: 6, edit: c.edit})))
		if err == nil || !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "llama: ") {
			t.Errorf("%s: %v, want a llama: error wrapping %q containing %q", c.name, err, c.sentinel, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: a multi-line error %q", c.name, err)
		}
	}
	// A type quant implements but spi does not multiply (Q8_K), on a
	// model whose rows are a multiple of 256.
	b := build(t, buildOpts{c: cfgB, typeOf: func(name string) quant.Type {
		if name == "blk.1.ffn_gate.weight" {
			return quant.Q8K
		}
		return quant.Q8_0
	}, seed: 7})
	_, err := Load(mustParse(t, b))
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "blk.1.ffn_gate.weight has type q8_K") {
		t.Errorf("q8_K weight: %v", err)
	}
}

func mustParse(t testing.TB, b []byte) *gguf.File {
	t.Helper()
	f, err := gguf.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestDecodeAllocs: a decode step allocates nothing once the session has
// run one (every buffer is the session's, every op's scratch pooled) but
// what spi's Attention itself allocates per call (sdpa plans its work per
// call: a few small objects today), measured here on the same shapes.
func TestDecodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop values on purpose")
	}
	m := buildModel(t, buildOpts{c: cfgB, typeOf: mixB, seed: 8})
	for _, kv := range []quant.Type{quant.F32, quant.FP16} {
		for _, mode := range []sdpa.Mode{sdpa.Exact, sdpa.Fast} {
			for _, sc := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
				s, err := m.NewSession(backend(t, sc, ""), Options{Mode: mode, KV: kv, Timings: true})
				if err != nil {
					t.Fatal(err)
				}
				tok := []int{3}
				step := func() {
					if s.Pos() == s.Capacity() {
						s.Reset()
					}
					if _, err := s.Forward(tok, false); err != nil {
						t.Fatal(err)
					}
				}
				step()
				if a := testing.AllocsPerRun(10, step); a != 0 {
					t.Errorf("kv %v, %v, %s: %v allocations per decode step, want 0", kv, mode, sc.Name(), a)
				}
			}
		}
	}
}
