package main

import (
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// timers splits a run's wall time into attention, matmuls and the rest.
type timers struct{ attn, matmul, other time.Duration }

func (t *timers) add(d *time.Duration, f func() error) error {
	start := time.Now()
	err := f()
	*d += time.Since(start)
	return err
}

// decoder runs the model on one context with a KV cache that each step
// writes in place (spi.WriteKV or WriteKVF16): k and v are
// [layers][KVHeads, maxSeq, headDim], and attention reads the first SeqKV
// rows of each head through sdpa.Options.KVCapacity. q, k, v and the
// attention output stay [tokens, heads, headDim] as MatMul gives them
// (sdpa.TokensFirst): nothing is transposed by hand.
type decoder struct {
	m      modelShape
	w      *weights
	ctx    spi.Context
	mode   sdpa.Mode
	f16    bool // binary16 KV cache
	maxSeq int
	kc, vc [][]float32
	kh, vh [][]quant.F16
	t      timers
	buf    struct{ x, h, q, k, v, att, gate, up, hl, logits []float32 }
}

func newDecoder(m modelShape, w *weights, ctx spi.Context, mode sdpa.Mode, f16 bool, maxSeq int) *decoder {
	d := &decoder{m: m, w: w, ctx: ctx, mode: mode, f16: f16, maxSeq: maxSeq}
	n := m.KVHeads * maxSeq * m.headDim()
	for l := 0; l < m.Layers; l++ {
		if f16 {
			d.kh = append(d.kh, make([]quant.F16, n))
			d.vh = append(d.vh, make([]quant.F16, n))
		} else {
			d.kc = append(d.kc, make([]float32, n))
			d.vc = append(d.vc, make([]float32, n))
		}
	}
	d.buf.hl, d.buf.logits = make([]float32, m.Dim), make([]float32, m.Vocab)
	return d
}

// grow returns b with length n, reusing its storage.
func grow(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// forward runs tokens at positions pos0.. and returns the logits of the
// last token ([Vocab]; valid until the next call).
func (d *decoder) forward(tokens []int, pos0 int) ([]float32, error) {
	m, c, T := d.m, d.ctx, len(tokens)
	hd, kvd := m.headDim(), m.kvDim()
	if pos0+T > d.maxSeq {
		return nil, fmt.Errorf("sequence of %d tokens exceeds the cache of %d", pos0+T, d.maxSeq)
	}
	b := &d.buf
	b.x, b.h, b.q, b.att = grow(b.x, T*m.Dim), grow(b.h, T*m.Dim), grow(b.q, T*m.Dim), grow(b.att, T*m.Dim)
	b.k, b.v = grow(b.k, T*kvd), grow(b.v, T*kvd)
	b.gate, b.up = grow(b.gate, T*m.FFN), grow(b.up, T*m.FFN)
	x, h, q, k, v, att, gate, up := b.x, b.h, b.q, b.k, b.v, b.att, b.gate, b.up
	pos := make([]int, T)
	for i := range pos {
		pos[i] = pos0 + i
	}
	t := &d.t
	mm := func(dst []float32, w spi.Matrix, src []float32) error {
		return t.add(&t.matmul, func() error { return c.MatMul(dst, w, src, T) })
	}
	// Matrices that read the same input share one quantization of it.
	shared := func(dst [][]float32, ws []spi.Matrix, src []float32) error {
		return t.add(&t.matmul, func() error { return c.MatMulShared(dst, ws, src, T) })
	}
	other := func(f func() error) error { return t.add(&t.other, f) }
	if err := other(func() error { return c.GetRows(x, d.w.embed, tokens) }); err != nil {
		return nil, err
	}
	kvw := sdpa.KVWrite{Batch: 1, KVHeads: m.KVHeads, HeadDim: hd, Capacity: d.maxSeq, Pos: pos0, Tokens: T}
	shape := sdpa.Shape{Batch: 1, Heads: m.Heads, KVHeads: m.KVHeads, SeqQ: T, SeqKV: pos0 + T, HeadDim: hd}
	opt := sdpa.Options{Causal: true, Mode: d.mode, KVCapacity: d.maxSeq, Layout: sdpa.TokensFirst}
	for l, lw := range d.w.layers {
		err := errors.Join(
			other(func() error { return c.RMSNorm(h, x, lw.attnNorm, T, m.Dim, m.NormEps) }),
			shared([][]float32{q, k, v}, []spi.Matrix{lw.wq, lw.wk, lw.wv}, h),
			other(func() error {
				return errors.Join(c.RoPE(q, T, m.Heads, hd, pos, m.RopeBase, false), c.RoPE(k, T, m.KVHeads, hd, pos, m.RopeBase, false))
			}),
		)
		if err != nil {
			return nil, err
		}
		err = t.add(&t.attn, func() error {
			if d.f16 {
				return errors.Join(c.WriteKVF16(d.kh[l], k, kvw), c.WriteKVF16(d.vh[l], v, kvw),
					c.AttentionF16(att, q, d.kh[l], d.vh[l], shape, opt))
			}
			return errors.Join(c.WriteKV(d.kc[l], k, kvw), c.WriteKV(d.vc[l], v, kvw),
				c.Attention(att, q, d.kc[l], d.vc[l], shape, opt))
		})
		if err != nil {
			return nil, err
		}
		err = errors.Join(
			mm(h, lw.wo, att),
			other(func() error { return c.Add(x, x, h) }),
			other(func() error { return c.RMSNorm(h, x, lw.ffnNorm, T, m.Dim, m.NormEps) }),
			shared([][]float32{gate, up}, []spi.Matrix{lw.wGate, lw.wUp}, h),
			other(func() error { return c.SwiGLU(gate, gate, up) }),
			mm(h, lw.wDown, gate),
			other(func() error { return c.Add(x, x, h) }),
		)
		if err != nil {
			return nil, err
		}
	}
	last := x[(T-1)*m.Dim:]
	err := errors.Join(
		other(func() error { return c.RMSNorm(b.hl, last, d.w.outputNorm, 1, m.Dim, m.NormEps) }),
		t.add(&t.matmul, func() error { return c.MatVec(b.logits, d.w.output, b.hl) }),
	)
	return b.logits, err
}

func argmax(x []float32) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// runResult is one (schedule, mode) row of the profile table.
type runResult struct {
	sched, mode       string
	threads           int // 1 for sched.Sequential, the pool's workers otherwise
	t                 timers
	prefill, decode   time.Duration
	prefillN, decodeN int
	hash              uint64 // of every logit of every step, bit for bit
	tokens            []int
}

func profileRun(m modelShape, w *weights, ctx spi.Context, mode sdpa.Mode, f16 bool, prompt []int, steps int, progress func(string)) (runResult, error) {
	d := newDecoder(m, w, ctx, mode, f16, len(prompt)+steps)
	res := runResult{sched: ctx.Schedule().Name(), threads: ctx.Schedule().Parallelism(), mode: mode.String(), prefillN: len(prompt), decodeN: steps}
	h := fnv.New64a()
	hashLogits := func(l []float32) {
		var b [4]byte
		for _, v := range l {
			u := math.Float32bits(v)
			b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
			h.Write(b[:])
		}
	}
	progress(fmt.Sprintf("prefill %d tokens", len(prompt)))
	start := time.Now()
	logits, err := d.forward(prompt, 0)
	if err != nil {
		return res, err
	}
	res.prefill = time.Since(start)
	hashLogits(logits)
	next := argmax(logits)
	start = time.Now()
	for s := 0; s < steps; s++ {
		progress(fmt.Sprintf("decode %d/%d", s+1, steps))
		res.tokens = append(res.tokens, next)
		if logits, err = d.forward([]int{next}, len(prompt)+s); err != nil {
			return res, err
		}
		hashLogits(logits)
		next = argmax(logits)
	}
	res.decode = time.Since(start)
	res.t = d.t
	res.hash = h.Sum64()
	return res, nil
}

func profile(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	fs.SetOutput(out)
	preset := fs.String("preset", "small", "model shape: "+strings.Join(presetNames(), ", "))
	prefill := fs.Int("prefill", 32, "prompt tokens (prefill)")
	decode := fs.Int("decode", 16, "generated tokens (greedy decode)")
	layers := fs.Int("layers", 0, "override the preset's layer count")
	vocab := fs.Int("vocab", 0, "override the preset's vocabulary size")
	seed := fs.Uint64("seed", 1, "seed of the random weights and prompt")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	defMix := mixQ4KM
	if e := os.Getenv("CORELANE_PROFILE_MIX"); e != "" {
		defMix = e
	}
	mix := fs.String("mix", defMix, "weight types: "+mixQ4KM+" (llama.cpp's Q4_K_M rule for attn_v/ffn_down) or "+mixPeer+
		" (Q6_K attn_v/ffn_down in every layer, the peer harness's ggml model); default from CORELANE_PROFILE_MIX")
	kv := fs.String("kv", "f32", "KV cache type: f32 or f16")
	benchfmt := fs.Bool("benchfmt", false, "print the results as Go benchmark lines (BenchmarkPeerDecoder/model=…/phase=…), the rest as # comments")
	modes := fs.String("attention", "exact,fast", "attention modes to run, comma-separated: exact, fast")
	if err := fs.Parse(args); err != nil {
		return err
	}
	m, ok := presets[*preset]
	if !ok {
		return fmt.Errorf("unknown preset %q (have: %s)", *preset, strings.Join(presetNames(), ", "))
	}
	if *mix != mixQ4KM && *mix != mixPeer {
		return fmt.Errorf("unknown -mix %q (want %s or %s)", *mix, mixQ4KM, mixPeer)
	}
	if *kv != "f32" && *kv != "f16" {
		return fmt.Errorf("unknown -kv %q (want f32 or f16)", *kv)
	}
	var attModes []sdpa.Mode
	for _, s := range strings.Split(*modes, ",") {
		switch strings.TrimSpace(s) {
		case "exact":
			attModes = append(attModes, sdpa.Exact)
		case "fast":
			attModes = append(attModes, sdpa.Fast)
		default:
			return fmt.Errorf("unknown -attention mode %q (want exact, fast)", s)
		}
	}
	if *layers > 0 {
		m.Layers = *layers
	}
	if *vocab > 0 {
		m.Vocab = *vocab
	}
	if err := m.validate(); err != nil {
		return err
	}
	if *prefill < 1 || *decode < 0 {
		return fmt.Errorf("-prefill must be ≥ 1 and -decode ≥ 0 (got %d, %d)", *prefill, *decode)
	}
	// With -benchfmt every line that is not a benchmark result is a
	// comment, so a benchmark reader can take the output as it is.
	info := out
	if *benchfmt {
		info = &commentWriter{w: out}
	}
	progress := func(s string) {
		if !*quiet {
			fmt.Fprintf(os.Stderr, "\r\033[K%s", s)
		}
	}
	defer progress("")
	fmt.Fprintf(info, "model %s: dim %d, %d layers, %d heads (%d kv), ffn %d, vocab %d; mix %s: %s; kv cache %s\n",
		m.Name, m.Dim, m.Layers, m.Heads, m.KVHeads, m.FFN, m.Vocab, *mix, mixDescription(*mix, m.Layers), *kv)
	w, err := newWeights(m, *mix, *seed, func(s string) { progress("quantizing weights: " + s) })
	if err != nil {
		return err
	}
	prompt := make([]int, *prefill)
	for i := range prompt {
		prompt[i] = int((uint64(i)*2654435761 + *seed) % uint64(m.Vocab))
	}
	b, err := spi.New()
	if err != nil {
		return err
	}
	f16 := *kv == "f16"
	// Warm up (page in the weights, grow the scratch pools, wake the pool)
	// so that the first timed row is not charged for it.
	if _, err := profileRun(m, w, b.Context(), sdpa.Exact, f16, prompt[:min(4, len(prompt))], 2, func(p string) { progress("warm-up: " + p) }); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	var results []runResult
	for _, mode := range attModes {
		for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
			ctx := b.Context().WithSchedule(s)
			runtime.GC() // weights and earlier runs' garbage: not this run's cost
			r, err := profileRun(m, w, ctx, mode, f16, prompt, *decode, func(p string) { progress(fmt.Sprintf("%s/%s: %s", s.Name(), mode, p)) })
			if err != nil {
				return fmt.Errorf("%s/%s: %w", s.Name(), mode, err)
			}
			results = append(results, r)
		}
	}
	progress("")
	if *benchfmt {
		for _, r := range results {
			printBenchLines(out, m.Name, *kv, r)
		}
	}
	tw := tabwriter.NewWriter(info, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "schedule\tattention\tattn ms\tmatmul ms\tother ms\tprefill tok/s\tdecode tok/s\tlogits fnv64\t")
	for _, r := range results {
		rate := func(n int, d time.Duration) string {
			if n == 0 || d == 0 {
				return "-"
			}
			return fmt.Sprintf("%.1f", float64(n)/d.Seconds())
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.1f\t%s\t%s\t%016x\t\n", r.sched, r.mode,
			ms(r.t.attn), ms(r.t.matmul), ms(r.t.other), rate(r.prefillN, r.prefill), rate(r.decodeN, r.decode), r.hash)
	}
	tw.Flush()
	ok = true
	for i := 0; i+1 < len(results); i += 2 {
		a, b := results[i], results[i+1]
		same := a.hash == b.hash && fmt.Sprint(a.tokens) == fmt.Sprint(b.tokens)
		verdict := "bit-identical"
		if !same {
			verdict, ok = "DIFFER", false
		}
		fmt.Fprintf(info, "%s attention: logits of %s and %s are %s (%d steps)\n", a.mode, a.sched, b.sched, verdict, a.decodeN+1)
	}
	reportRoofline(info, w.bytesPerToken(), results, progress)
	fmt.Fprintf(info, "kernels: %s\n", kernelSummary())
	if !ok {
		return errors.New("logits differ across schedules: the determinism promise is broken")
	}
	return nil
}

// mixDescription says which types a mix gives attn_v and ffn_down.
func mixDescription(mix string, layers int) string {
	if mix == mixPeer {
		return "Q4_K, Q6_K attn_v/ffn_down in every layer and output"
	}
	var q6 []string
	for l := 0; l < layers; l++ {
		if moreBits(l, layers) {
			q6 = append(q6, fmt.Sprint(l))
		}
	}
	return "Q4_K, Q6_K output and attn_v/ffn_down in layers " + strings.Join(q6, ",")
}

// printBenchLines prints r as the peer harness's decoder benchmark lines
// (../shared/peer/README.md): one per phase, iterations 1, the phase's wall
// time and its tokens per second.
func printBenchLines(out io.Writer, model, kv string, r runResult) {
	threads := 1
	if r.sched != sched.Sequential.Name() {
		threads = 2 // the hardware schedule, as the harness names it
	}
	impl := "corelane-" + r.mode
	if v := os.Getenv("CORELANE_KERNELS"); v != "" {
		impl = "corelane-" + v + "-" + r.mode
	}
	procs := runtime.GOMAXPROCS(0)
	for _, p := range []struct {
		phase string
		n     int
		d     time.Duration
	}{{"prefill", r.prefillN, r.prefill}, {"decode", r.decodeN, r.decode}} {
		if p.n == 0 || p.d <= 0 {
			continue
		}
		name := fmt.Sprintf("BenchmarkPeerDecoder/model=%s/phase=%s/tokens=%d/threads=%d/kv=%s/impl=%s", model, p.phase, p.n, threads, kv, impl)
		if procs > 1 {
			name += fmt.Sprintf("-%d", procs)
		}
		fmt.Fprintf(out, "%s\t1\t%d ns/op\t%.3f tok/s\n", name, p.d.Nanoseconds(), float64(p.n)/p.d.Seconds())
	}
}

// commentWriter prefixes every line with "# ".
type commentWriter struct {
	w   io.Writer
	mid bool // inside a line
}

func (c *commentWriter) Write(p []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line == "" {
			continue
		}
		if !c.mid {
			if _, err := io.WriteString(c.w, "# "); err != nil {
				return 0, err
			}
		}
		if _, err := io.WriteString(c.w, line); err != nil {
			return 0, err
		}
		c.mid = !strings.HasSuffix(line, "\n")
	}
	return len(p), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func presetNames() []string { return slices.Sorted(maps.Keys(presets)) }

// kernelSummary names the variant of the ops the profile leans on.
func kernelSummary() string {
	var parts []string
	for _, o := range kernels.Info().Ops {
		switch o.Op {
		case "MatMulQ4K", "MatVecQ4K", "MatVecQ6K", "QuantizeQ8K", "DotF32", "ExpSum":
			parts = append(parts, o.Op+"="+o.Variant)
		}
	}
	return strings.Join(parts, " ")
}
