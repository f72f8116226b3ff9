package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/corelane/corelane/engine/llama"
	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// runResult is one (schedule, mode) row of the profile table.
type runResult struct {
	sched, mode       string
	threads           int // 1 for sched.Sequential, the pool's workers otherwise
	t                 llama.Timings
	prefill, decode   time.Duration
	prefillN, decodeN int
	hash              uint64 // of every logit of every step, bit for bit
	tokens            []int
}

// profileRun prefills prompt and decodes steps greedy tokens on a new
// session of m (a KV cache of exactly that many positions).
func profileRun(m *llama.Model, ctx spi.Context, mode sdpa.Mode, kv quant.Type, prompt []int, steps int, progress func(string)) (runResult, error) {
	res := runResult{sched: ctx.Schedule().Name(), threads: ctx.Schedule().Parallelism(), mode: mode.String(), prefillN: len(prompt), decodeN: steps}
	s, err := m.NewSession(ctx, llama.Options{Mode: mode, KV: kv, Context: len(prompt) + steps, Timings: true})
	if err != nil {
		return res, err
	}
	// The logits' hash is taken outside the timed spans: it checks the
	// results, it is not part of decoding (one Write of a reused buffer).
	h := fnv.New64a()
	var hb []byte
	hashLogits := func(l []float32) {
		hb = hb[:0]
		for _, v := range l {
			hb = binary.LittleEndian.AppendUint32(hb, math.Float32bits(v))
		}
		h.Write(hb)
	}
	progress(fmt.Sprintf("prefill %d tokens", len(prompt)))
	start := time.Now()
	logits, err := s.Forward(prompt, false)
	if err != nil {
		return res, err
	}
	next, err := spi.Argmax(logits)
	res.prefill = time.Since(start)
	if err != nil {
		return res, err
	}
	hashLogits(logits)
	for i := 0; i < steps; i++ {
		progress(fmt.Sprintf("decode %d/%d", i+1, steps))
		res.tokens = append(res.tokens, next)
		start = time.Now()
		if logits, err = s.Forward([]int{next}, false); err != nil {
			return res, err
		}
		next, err = spi.Argmax(logits)
		res.decode += time.Since(start)
		if err != nil {
			return res, err
		}
		hashLogits(logits)
	}
	res.t = s.Timings()
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
	file := fs.String("model", "", "profile this llama GGUF `file` instead of a random model (-preset, -layers, -vocab and -mix then do not apply)")
	huge := fs.Bool("hugepages", false, "keep the weights in 2 MiB huge pages where Linux grants them (fewer TLB misses while decode streams them). "+
		"A -model file is then read into memory instead of mapped, which costs its size in memory. Without the flag a -model file is mapped, and a random -preset model goes where a probe reads faster (huge pages or the Go heap: the choice and the measurement are printed)")
	pin := fs.Bool("pin", true, "run each pool schedule's prefill and decode from a thread pinned to the core the pool leaves to its caller (sched.Pool.RunPinned), so the OS never puts the decode loop on a helper's core")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the timed runs (not the set-up or warm-up) to `file`, for go tool pprof")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("profile: unexpected arguments %q", fs.Args())
	}
	hugeSet := false
	fs.Visit(func(f *flag.Flag) { hugeSet = hugeSet || f.Name == "hugepages" })
	if *file != "" {
		var random []string
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "preset", "layers", "vocab", "mix":
				random = append(random, "-"+f.Name)
			}
		})
		if len(random) > 0 {
			return fmt.Errorf("profile: %s shape random models; -model %s has its own", strings.Join(random, ", "), *file)
		}
	}
	m, ok := presets[*preset]
	if !ok {
		return fmt.Errorf("unknown preset %q (have: %s)", *preset, strings.Join(presetNames(), ", "))
	}
	if *mix != mixQ4KM && *mix != mixPeer {
		return fmt.Errorf("unknown -mix %q (want %s or %s)", *mix, mixQ4KM, mixPeer)
	}
	var kvType quant.Type
	switch *kv {
	case "f32":
	case "f16":
		kvType = quant.FP16
	default:
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
	if *file == "" {
		if err := m.validate(); err != nil {
			return err
		}
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
	var model *llama.Model
	chosen := "" // where choosePages put a random model's weights, and why
	name := m.Name
	if *file != "" {
		var err error
		if model, err = llama.OpenWith(*file, gguf.Options{HugePages: *huge}); err != nil {
			if !strings.Contains(err.Error(), *file) {
				err = fmt.Errorf("%s: %w", *file, err)
			}
			return err
		}
		defer model.Close()
		name = strings.TrimSuffix(filepath.Base(*file), ".gguf")
		c := model.Config
		fmt.Fprintf(info, "model %s: dim %d, %d layers, %d heads (%d kv, head size %d), ffn %d, vocab %d; weights %s, %.1f MB; kv cache %s\n",
			*file, c.Dim, c.Layers, c.Heads, c.KVHeads, c.HeadDim, c.FFN, c.Vocab, typeCounts(model.Types()), float64(model.WeightBytes())/1e6, *kv)
		model.PageIn(func(done, total int64) { progress(fmt.Sprintf("reading the weights: %d%%", 100*done/total)) })
	} else {
		fmt.Fprintf(info, "model %s: dim %d, %d layers, %d heads (%d kv), ffn %d, vocab %d; mix %s: %s; kv cache %s\n",
			m.Name, m.Dim, m.Layers, m.Heads, m.KVHeads, m.FFN, m.Vocab, *mix, mixDescription(*mix, m.Layers), *kv)
		var err error
		var release func() error
		if !hugeSet {
			*huge, chosen = choosePages(progress)
		}
		model, release, err = newModel(m, *mix, *seed, *prefill+*decode, *huge, func(s string) { progress("quantizing weights: " + s) })
		if err != nil {
			return err
		}
		defer release()
	}
	reportPages(info, *huge, *file != "", model.WeightBytes(), chosen)
	prompt := make([]int, *prefill)
	for i := range prompt {
		prompt[i] = int((uint64(i)*2654435761 + *seed) % uint64(model.Config.Vocab))
	}
	b, err := spi.New()
	if err != nil {
		return err
	}
	// Warm up (page in the weights, grow the scratch pools, wake the pool)
	// so that the first timed row is not charged for it.
	if _, err := profileRun(model, b.Context(), sdpa.Exact, kvType, prompt[:min(4, len(prompt))], 2, func(p string) { progress("warm-up: " + p) }); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	bwBefore := measureBandwidth(*huge, progress)
	runtime.GC() // the bandwidth buffer
	stopProfile := func() error { return nil }
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		stopProfile = func() error {
			pprof.StopCPUProfile()
			stopProfile = func() error { return nil }
			if err := f.Close(); err != nil {
				return fmt.Errorf("-cpuprofile: %w", err)
			}
			return nil
		}
		defer stopProfile() // on an error below; else stopped after the runs
	}
	var results []runResult
	pinNote := ""
	for _, mode := range attModes {
		for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
			ctx := b.Context().WithSchedule(s)
			runtime.GC() // weights and earlier runs' garbage: not this run's cost
			var r runResult
			var err error
			pinned := onCallerCore(s, *pin, func() {
				r, err = profileRun(model, ctx, mode, kvType, prompt, *decode, func(p string) { progress(fmt.Sprintf("%s/%s: %s", s.Name(), mode, p)) })
			})
			if pinNote == "" && s.Parallelism() > 1 {
				pinNote = pinned
			}
			if err != nil {
				return fmt.Errorf("%s/%s: %w", s.Name(), mode, err)
			}
			results = append(results, r)
		}
	}
	if err := stopProfile(); err != nil {
		return err
	}
	progress("")
	if *benchfmt {
		for _, r := range results {
			printBenchLines(out, name, *kv, r)
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
			ms(r.t.Attention), ms(r.t.MatMul), ms(r.t.Other), rate(r.prefillN, r.prefill), rate(r.decodeN, r.decode), r.hash)
	}
	tw.Flush()
	if pinNote != "" {
		fmt.Fprintf(info, "caller: %s\n", pinNote)
	}
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
	reportRoofline(info, int(model.WeightBytesPerToken()), results, bwBefore, *huge, progress)
	fmt.Fprintf(info, "kernels: %s\n", kernelSummary())
	if !ok {
		return errors.New("logits differ across schedules: the determinism promise is broken")
	}
	return nil
}

// typeCounts lists how many weight matrices each type has, most first.
func typeCounts(n map[quant.Type]int) string {
	types := slices.Collect(maps.Keys(n))
	slices.SortFunc(types, func(a, b quant.Type) int {
		if n[a] != n[b] {
			return n[b] - n[a]
		}
		return int(a) - int(b)
	})
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%s ×%d", gguf.TypeName(t), n[t])
	}
	return strings.Join(parts, ", ")
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

// onCallerCore runs f, the work of one schedule, and says where: on a
// schedule that is a pool leaving a core to its caller, with pin, through
// the pool's RunPinned (a thread pinned to that core); otherwise, or when
// the pool cannot, on the calling goroutine, with the reason.
func onCallerCore(s sched.Schedule, pin bool, f func()) (note string) {
	p, ok := s.(*sched.Pool)
	switch {
	case !ok || p.Parallelism() < 2:
		f()
		return "the calling thread (no pool helpers)"
	case !pin:
		f()
		return "the calling thread, unpinned (-pin=false)"
	}
	if err := p.RunPinned(f); err != nil {
		f()
		return fmt.Sprintf("the calling thread, unpinned: %v", err)
	}
	return "pinned to the core the pool leaves to its caller (sched.Pool.RunPinned)"
}
