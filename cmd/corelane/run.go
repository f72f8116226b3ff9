package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/corelane/corelane/engine/llama"
	"github.com/corelane/corelane/engine/tokenizer"
	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

const runUsage = `usage: corelane run -model FILE [-prompt TEXT] [-n N] [flags]

Runs a llama-architecture GGUF file: the prompt as one prefill (BOS first
as the file's tokenizer says; no prompt means BOS alone), then N tokens
generated one at a time and printed as they come, with the prefill and
decode speeds on stderr at the end.

  -ids          print the N generated ids (space-separated, one line)
                instead of text; generation does not stop at end-of-text
  -logits FILE  write the logits after each token fed, little-endian
                float32 [steps, vocab]: one row per prompt token, then one
                per forced id and per generated token but the last
  -force IDS    feed these ids (space- or comma-separated) one decode step
                at a time after the prompt instead of sampling (-n is 0
                unless given)

flags:
`

// runOptions are the parsed flags of corelane run.
type runOptions struct {
	model, prompt, logits, force, kernels, attention, kv string
	n, topK, threads, ctx                                int
	temp, topP                                           float64
	seed                                                 uint64
	ids, quiet, huge, pin                                bool
}

// runCmd is corelane run: out gets the generated text or ids, errOut the
// progress and the speeds.
func runCmd(args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned as one line
	var o runOptions
	fs.StringVar(&o.model, "model", "", "GGUF `file` to run (required)")
	fs.StringVar(&o.prompt, "prompt", "", "prompt `text` (empty: BOS alone)")
	fs.IntVar(&o.n, "n", -1, "tokens to generate (default 64, or 0 with -force)")
	fs.Float64Var(&o.temp, "temp", 0, "sampling temperature; 0 is greedy")
	fs.IntVar(&o.topK, "top-k", 40, "sample among the `k` most likely tokens (0: all)")
	fs.Float64Var(&o.topP, "top-p", 0.95, "sample among the most likely tokens whose probabilities reach `p` (1: all)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the sampler: the same seed gives the same tokens under any -threads")
	fs.IntVar(&o.threads, "threads", 0, "tasks per op: 0 is every physical core (the hardware pool), 1 the calling thread alone")
	fs.StringVar(&o.kernels, "kernels", "", "kernel `variant` (default: the best this CPU runs; corelane info lists them)")
	fs.StringVar(&o.attention, "attention", "exact", "attention `mode`: exact (the same bits on every schedule and variant) or fast")
	fs.StringVar(&o.kv, "kv", "f32", "KV cache `type`: f32 or f16 (binary16, llama.cpp's default)")
	fs.IntVar(&o.ctx, "ctx", 0, "context `positions` (default: the model's context_length)")
	fs.BoolVar(&o.ids, "ids", false, "print the generated token ids instead of text")
	fs.StringVar(&o.logits, "logits", "", "write every step's logits to `file`")
	fs.StringVar(&o.force, "force", "", "teacher-force these token `ids` after the prompt")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress and no speeds on stderr")
	fs.BoolVar(&o.pin, "pin", true, "on the hardware pool, decode from a thread pinned to the core the pool leaves to its caller (sched.Pool.RunPinned), so the OS never puts the decode loop on a helper's core")
	fs.BoolVar(&o.huge, "hugepages", false, "read the file into memory backed by 2 MiB huge pages (where Linux grants them) instead of mapping it: faster decode, at the cost of the file's size in memory")
	if err := fs.Parse(args); err == flag.ErrHelp {
		fmt.Fprint(out, runUsage)
		fs.SetOutput(out)
		fs.PrintDefaults()
		return nil
	} else if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("run: unexpected arguments %q (quote the prompt: -prompt '...')", fs.Args())
	}
	return runModel(o, out, errOut)
}

func runModel(o runOptions, out, errOut io.Writer) error {
	if o.model == "" {
		return errors.New("run: -model FILE is required")
	}
	force, err := parseIDs(o.force)
	if err != nil {
		return err
	}
	if o.n < 0 {
		o.n = 64
		if len(force) > 0 {
			o.n = 0
		}
	}
	var mode sdpa.Mode
	switch o.attention {
	case "exact":
	case "fast":
		mode = sdpa.Fast
	default:
		return fmt.Errorf("run: -attention %q: want exact or fast", o.attention)
	}
	var kv quant.Type
	switch o.kv {
	case "f32":
		kv = quant.F32
	case "f16":
		kv = quant.FP16
	default:
		return fmt.Errorf("run: -kv %q: want f32 or f16", o.kv)
	}
	if o.threads < 0 || o.ctx < 0 {
		return fmt.Errorf("run: -threads %d, -ctx %d: want ≥ 0", o.threads, o.ctx)
	}
	var sampler *spi.Sampler
	if o.temp != 0 {
		if sampler, err = spi.NewSampler(spi.SamplerOptions{Temperature: float32(o.temp), TopK: o.topK, TopP: float32(o.topP), Seed: o.seed}); err != nil {
			return fmt.Errorf("run: %w", err)
		}
	}
	ctx, err := runContext(o.kernels, o.threads, errOut)
	if err != nil {
		return err
	}

	progress := func(string) {}
	if !o.quiet && isTerminal(errOut) {
		progress = func(s string) { fmt.Fprintf(errOut, "\r\033[K%s", s) }
	}
	m, err := llama.OpenWith(o.model, gguf.Options{HugePages: o.huge})
	if err != nil {
		if !strings.Contains(err.Error(), o.model) {
			err = fmt.Errorf("%s: %w", o.model, err)
		}
		return err
	}
	defer m.Close()
	if m.WeightBytes() > 256<<20 {
		m.PageIn(func(done, total int64) {
			progress(fmt.Sprintf("loading %s: %d%% of %.0f MB", o.model, 100*done/total, float64(total)/1e6))
		})
		progress("")
	}
	tok, tokErr := tokenizer.FromGGUF(m.File())
	needTok := o.prompt != "" || !o.ids
	if tokErr != nil && needTok {
		return fmt.Errorf("%s: %w", o.model, tokErr)
	}
	prompt, err := promptIDs(m.File(), tok, o.prompt)
	if err != nil {
		return fmt.Errorf("%s: %w", o.model, err)
	}
	c := o.ctx
	if c == 0 {
		c = m.Config.ContextLength
	}
	if len(prompt) > c {
		return fmt.Errorf("the prompt is %d tokens, longer than the context of %d (%s)", len(prompt), c, ctxSource(o.ctx))
	}
	need := len(prompt) + len(force) + max(o.n-1, 0)
	if need > c {
		return fmt.Errorf("%d prompt tokens, %d forced and %d to generate need %d positions, more than the context of %d (%s)",
			len(prompt), len(force), o.n, need, c, ctxSource(o.ctx))
	}
	sess, err := m.NewSession(ctx, llama.Options{Mode: mode, KV: kv, Context: need})
	if err != nil {
		return err
	}

	g := llama.Generation{Prompt: prompt, Force: force, N: o.n, Sampler: sampler}
	var logits *bufio.Writer
	if o.logits != "" {
		f, err := os.Create(o.logits)
		if err != nil {
			return fmt.Errorf("run: -logits: %w", err)
		}
		defer f.Close()
		logits = bufio.NewWriterSize(f, 1<<20)
		buf := make([]byte, 4*m.Config.Vocab)
		g.Logits = func(row []float32) error {
			for i, v := range row {
				binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(v))
			}
			_, err := logits.Write(buf)
			return err
		}
	}
	var ids []string
	w := bufio.NewWriter(out)
	g.Token = func(id int) (bool, error) {
		if o.ids {
			ids = append(ids, strconv.Itoa(id))
			return false, nil
		}
		if tok.IsEOG(int32(id)) {
			return true, nil
		}
		if _, err := w.WriteString(tok.Piece(int32(id))); err != nil {
			return true, err
		}
		return false, w.Flush() // stream
	}
	progress(fmt.Sprintf("prefill of %d tokens", len(prompt)))
	var st llama.Stats
	where := onCallerCore(ctx.Schedule(), o.pin, func() { _, st, err = sess.Generate(g) })
	progress("")
	if strings.Contains(where, "unpinned:") && !o.quiet {
		fmt.Fprintf(errOut, "corelane: decoding on %s\n", where)
	}
	if err != nil {
		return err
	}
	if o.ids {
		fmt.Fprintln(w, strings.Join(ids, " "))
	} else if o.n > 0 {
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if logits != nil {
		if err := logits.Flush(); err != nil {
			return fmt.Errorf("run: -logits: %w", err)
		}
	}
	if !o.quiet {
		fmt.Fprintf(errOut, "prefill: %d tokens in %s (%s tok/s); decode: %d tokens in %s (%s tok/s)\n",
			st.PrefillTokens, roundDur(st.Prefill), rate(st.PrefillTokens, st.Prefill),
			st.DecodeTokens, roundDur(st.Decode), rate(st.DecodeTokens, st.Decode))
	}
	return nil
}

// runContext is the spi context of -kernels and -threads.
func runContext(variant string, threads int, errOut io.Writer) (spi.Context, error) {
	opts := []spi.Option{spi.WithSchedule(sched.Hardware())}
	if threads == 1 {
		opts[0] = spi.WithSchedule(sched.Sequential)
	}
	if variant != "" {
		opts = append(opts, spi.WithKernels(variant))
	}
	b, err := spi.New(opts...)
	if err != nil {
		return spi.Context{}, err
	}
	ctx := b.Context()
	if threads > 1 {
		if have := ctx.Schedule().Parallelism(); threads > have {
			fmt.Fprintf(errOut, "corelane: -threads %d: the hardware pool has %d workers (one per physical core); using %d\n", threads, have, have)
		}
		if ctx, err = ctx.WithParallelism(threads); err != nil {
			return ctx, err
		}
	}
	return ctx, nil
}

func ctxSource(flagCtx int) string {
	if flagCtx > 0 {
		return "set by -ctx"
	}
	return "the model's llama.context_length; -ctx sets another"
}

// promptIDs tokenizes the prompt, BOS first as the vocabulary says; an
// empty prompt is BOS alone (from the tokenizer, or without one from
// tokenizer.ggml.bos_token_id).
func promptIDs(f *gguf.File, tok *tokenizer.Tokenizer, text string) ([]int, error) {
	if text == "" {
		if tok != nil && tok.BOS() >= 0 {
			return []int{int(tok.BOS())}, nil
		}
		bos, err := f.Uint32("tokenizer.ggml.bos_token_id")
		if err != nil {
			return nil, fmt.Errorf("no prompt and no BOS token: %w", err)
		}
		return []int{int(bos)}, nil
	}
	ids32, err := tok.Encode(text, tok.AddBOS())
	if err != nil {
		return nil, err
	}
	if len(ids32) == 0 {
		return nil, fmt.Errorf("the prompt %q has no tokens", text)
	}
	ids := make([]int, len(ids32))
	for i, id := range ids32 {
		ids[i] = int(id)
	}
	return ids, nil
}

// parseIDs reads -force: ids separated by spaces or commas.
func parseIDs(s string) ([]int, error) {
	var ids []int
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		id, err := strconv.Atoi(f)
		if err != nil || id < 0 {
			return nil, fmt.Errorf("run: -force: %q is not a token id", f)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func rate(n int, d time.Duration) string {
	if n == 0 || d <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(n)/d.Seconds())
}

func roundDur(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(time.Microsecond)
	}
	return d
}

// isTerminal reports whether w is a terminal (where progress lines that
// overwrite themselves make sense).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
