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
// writes in place: k and v are [layers][KVHeads, maxSeq, headDim] and a new
// token's rows go straight to their position; attention reads the first
// SeqKV rows of each head through sdpa.Options.KVCapacity.
type decoder struct {
	m      modelShape
	w      *weights
	ctx    spi.Context
	mode   sdpa.Mode
	maxSeq int
	kc, vc [][]float32
	t      timers
}

func newDecoder(m modelShape, w *weights, ctx spi.Context, mode sdpa.Mode, maxSeq int) *decoder {
	d := &decoder{m: m, w: w, ctx: ctx, mode: mode, maxSeq: maxSeq}
	for l := 0; l < m.Layers; l++ {
		d.kc = append(d.kc, make([]float32, m.KVHeads*maxSeq*m.headDim()))
		d.vc = append(d.vc, make([]float32, m.KVHeads*maxSeq*m.headDim()))
	}
	return d
}

// forward runs tokens at positions pos0.. and returns the logits of the
// last token ([Vocab]).
func (d *decoder) forward(tokens []int, pos0 int) ([]float32, error) {
	m, c, T := d.m, d.ctx, len(tokens)
	hd, kvd := m.headDim(), m.kvDim()
	if pos0+T > d.maxSeq {
		return nil, fmt.Errorf("sequence of %d tokens exceeds the cache of %d", pos0+T, d.maxSeq)
	}
	x := make([]float32, T*m.Dim)
	h := make([]float32, T*m.Dim)
	q := make([]float32, T*m.Dim)
	k := make([]float32, T*kvd)
	v := make([]float32, T*kvd)
	att := make([]float32, T*m.Dim)
	gate := make([]float32, T*m.FFN)
	up := make([]float32, T*m.FFN)
	pos := make([]int, T)
	for i := range pos {
		pos[i] = pos0 + i
	}
	t := &d.t
	mm := func(dst []float32, w spi.Matrix, src []float32) error {
		return t.add(&t.matmul, func() error { return c.MatMul(dst, w, src, T) })
	}
	other := func(f func() error) error { return t.add(&t.other, f) }
	if err := other(func() error { return c.GetRows(x, d.w.embed, tokens) }); err != nil {
		return nil, err
	}
	for l, lw := range d.w.layers {
		err := errors.Join(
			other(func() error { return c.RMSNorm(h, x, lw.attnNorm, T, m.Dim, m.NormEps) }),
			mm(q, lw.wq, h), mm(k, lw.wk, h), mm(v, lw.wv, h),
			other(func() error {
				return errors.Join(c.RoPE(q, T, m.Heads, hd, pos, m.RopeBase, false), c.RoPE(k, T, m.KVHeads, hd, pos, m.RopeBase, false))
			}),
		)
		if err != nil {
			return nil, err
		}
		err = t.add(&t.attn, func() error {
			// Write the new K/V rows in place; q and att stay [T, Heads, hd]
			// (sdpa.TokensFirst), as MatMul gives them.
			for tok := 0; tok < T; tok++ {
				for g := 0; g < m.KVHeads; g++ {
					dst := (g*d.maxSeq + pos0 + tok) * hd
					copy(d.kc[l][dst:dst+hd], k[(tok*m.KVHeads+g)*hd:])
					copy(d.vc[l][dst:dst+hd], v[(tok*m.KVHeads+g)*hd:])
				}
			}
			shape := sdpa.Shape{Batch: 1, Heads: m.Heads, KVHeads: m.KVHeads, SeqQ: T, SeqKV: pos0 + T, HeadDim: hd}
			return c.Attention(att, q, d.kc[l], d.vc[l], shape, sdpa.Options{Causal: true, Mode: d.mode, KVCapacity: d.maxSeq, Layout: sdpa.TokensFirst})
		})
		if err != nil {
			return nil, err
		}
		err = errors.Join(
			mm(h, lw.wo, att),
			other(func() error { return c.Add(x, x, h) }),
			other(func() error { return c.RMSNorm(h, x, lw.ffnNorm, T, m.Dim, m.NormEps) }),
			mm(gate, lw.wGate, h), mm(up, lw.wUp, h),
			other(func() error { return c.SwiGLU(gate, gate, up) }),
			mm(h, lw.wDown, gate),
			other(func() error { return c.Add(x, x, h) }),
		)
		if err != nil {
			return nil, err
		}
	}
	last := x[(T-1)*m.Dim:]
	hl := make([]float32, m.Dim)
	logits := make([]float32, m.Vocab)
	err := errors.Join(
		other(func() error { return c.RMSNorm(hl, last, d.w.outputNorm, 1, m.Dim, m.NormEps) }),
		t.add(&t.matmul, func() error { return c.MatVec(logits, d.w.output, hl) }),
	)
	return logits, err
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
	t                 timers
	prefill, decode   time.Duration
	prefillN, decodeN int
	hash              uint64 // of every logit of every step, bit for bit
	tokens            []int
}

func profileRun(m modelShape, w *weights, ctx spi.Context, mode sdpa.Mode, prompt []int, steps int, progress func(string)) (runResult, error) {
	d := newDecoder(m, w, ctx, mode, len(prompt)+steps)
	res := runResult{sched: ctx.Schedule().Name(), mode: mode.String(), prefillN: len(prompt), decodeN: steps}
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	m, ok := presets[*preset]
	if !ok {
		return fmt.Errorf("unknown preset %q (have: %s)", *preset, strings.Join(presetNames(), ", "))
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
	progress := func(s string) {
		if !*quiet {
			fmt.Fprintf(os.Stderr, "\r\033[K%s", s)
		}
	}
	defer progress("")
	fmt.Fprintf(out, "model %s: dim %d, %d layers, %d heads (%d kv), ffn %d, vocab %d; Q4_K with Q6_K for attn_v, ffn_down, output\n",
		m.Name, m.Dim, m.Layers, m.Heads, m.KVHeads, m.FFN, m.Vocab)
	w, err := newWeights(m, *seed, func(s string) { progress("quantizing weights: " + s) })
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
	// Warm up (page in the weights, grow the scratch pools, wake the pool)
	// so that the first timed row is not charged for it.
	if _, err := profileRun(m, w, b.Context(), sdpa.Exact, prompt[:min(4, len(prompt))], 2, func(p string) { progress("warm-up: " + p) }); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	var results []runResult
	for _, mode := range []sdpa.Mode{sdpa.Exact, sdpa.Fast} {
		for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
			ctx := b.Context().WithSchedule(s)
			runtime.GC() // weights and earlier runs' garbage: not this run's cost
			r, err := profileRun(m, w, ctx, mode, prompt, *decode, func(p string) { progress(fmt.Sprintf("%s/%s: %s", s.Name(), mode, p)) })
			if err != nil {
				return fmt.Errorf("%s/%s: %w", s.Name(), mode, err)
			}
			results = append(results, r)
		}
	}
	progress("")
	tw := tabwriter.NewWriter(out, 2, 8, 2, ' ', tabwriter.AlignRight)
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
		fmt.Fprintf(out, "%s attention: logits of %s and %s are %s (%d steps)\n", a.mode, a.sched, b.sched, verdict, a.decodeN+1)
	}
	fmt.Fprintf(out, "kernels: %s\n", kernelSummary())
	if !ok {
		return errors.New("logits differ across schedules: the determinism promise is broken")
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func presetNames() []string { return slices.Sorted(maps.Keys(presets)) }

// kernelSummary names the variant of the ops the profile leans on.
func kernelSummary() string {
	var parts []string
	for _, o := range kernels.Info().Ops {
		switch o.Op {
		case "MatMulQ4K", "MatVecQ6K", "QuantizeQ8K", "DotF32", "ExpSum":
			parts = append(parts, o.Op+"="+o.Variant)
		}
	}
	return strings.Join(parts, " ")
}
