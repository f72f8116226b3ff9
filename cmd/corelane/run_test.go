package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/corelane/corelane/engine/llama"
	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/internal/refdata"
	"github.com/corelane/corelane/internal/testexec"
	"github.com/corelane/corelane/quant"
)

// The repository's own model (testdata/README.md): no ../shared needed.
var stories = filepath.Join("..", "..", "testdata", "stories260K-f32.gguf")

// storiesIDs are the first 32 greedy ids from BOS that llama2.c's run.c
// computes for this model (../shared/testdata/models/stories260K/ref).
const storiesIDs = "461 461 401 401 401 461 378 455 473 456 435 299 362 409 283 264 283 452 288 13 431 431 431 431 431 431 431 431 431 431 431 431"

// runOut runs corelane with args and returns stdout and stderr.
func runOut(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	if len(args) == 0 || args[0] != "run" {
		t.Fatalf("runOut: %q is not a run command", args)
	}
	err := runCmd(args[1:], &out, &errOut)
	return out.String(), errOut.String(), err
}

func readLogits(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func argmaxOf(x []float32) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// TestRunQuickStart is the README's line: greedy ids from BOS, on one
// line and nothing else on stdout, the speeds on stderr.
func TestRunQuickStart(t *testing.T) {
	out, errOut, err := runOut(t, "run", "-model", stories, "-n", "32", "-ids")
	if err != nil {
		t.Fatal(err)
	}
	if out != storiesIDs+"\n" {
		t.Errorf("stdout %q, want run.c's ids %q", out, storiesIDs)
	}
	if !strings.Contains(errOut, "prefill: 1 tokens") || !strings.Contains(errOut, "decode: 31 tokens") || !strings.Contains(errOut, "tok/s") {
		t.Errorf("stderr %q: want the prefill and decode speeds", errOut)
	}
	// The same ids on one thread, with every kernel variant's flag, f16
	// KV cache and fast attention, and with the caller unpinned (32 steps
	// are far from any near-tie).
	for _, args := range [][]string{{"-threads", "1"}, {"-kernels", "generic"}, {"-attention", "fast", "-kv", "f16"}, {"-threads", "2"}, {"-pin=false"}} {
		out, _, err := runOut(t, append([]string{"run", "-model", stories, "-n", "32", "-ids", "-quiet"}, args...)...)
		if err != nil || out != storiesIDs+"\n" {
			t.Errorf("%v: %q, %v", args, out, err)
		}
	}
	// Text: the placeholder vocabulary's pieces, streamed.
	out, _, err = runOut(t, "run", "-model", stories, "-n", "4", "-quiet")
	if err != nil || out != "<461><461><401><401>\n" {
		t.Errorf("text: %q, %v", out, err)
	}
}

// TestRunLogitsAndForce: -logits has one row per token fed (the prompt,
// then every generated token but the last), each row's argmax is the next
// id; -force feeds ids instead of sampling (-n 0 unless given), and
// forcing the greedy ids gives the same rows bit for bit.
func TestRunLogitsAndForce(t *testing.T) {
	dir := t.TempDir()
	free, forced := filepath.Join(dir, "free.f32"), filepath.Join(dir, "forced.f32")
	out, _, err := runOut(t, "run", "-model", stories, "-n", "6", "-ids", "-quiet", "-logits", free)
	if err != nil {
		t.Fatal(err)
	}
	ids := strings.Fields(out)
	rows := readLogits(t, free)
	const vocab = 512
	if len(ids) != 6 || len(rows) != 6*vocab {
		t.Fatalf("%d ids, %d logits: want 6 ids and 6 rows of %d", len(ids), len(rows), vocab)
	}
	for i, s := range ids {
		if strconv.Itoa(argmaxOf(rows[i*vocab:(i+1)*vocab])) != s {
			t.Errorf("row %d's argmax is not id %s", i, s)
		}
	}
	out, _, err = runOut(t, "run", "-model", stories, "-ids", "-quiet", "-logits", forced, "-force", strings.Join(ids[:3], ",")+" "+strings.Join(ids[3:5], " "))
	if err != nil {
		t.Fatal(err)
	}
	if out != "\n" {
		t.Errorf("-force without -n printed %q, want an empty line (no ids generated)", out)
	}
	if got := readLogits(t, forced); !slices.Equal(got, rows) {
		t.Errorf("forcing the greedy ids gave other logits (%d values, want %d)", len(got), len(rows))
	}
	// Forced, then generated: -n counts the generated ones only.
	out, _, err = runOut(t, "run", "-model", stories, "-ids", "-quiet", "-force", strings.Join(ids[:3], " "), "-n", "3")
	if err != nil || out != strings.Join(ids[3:6], " ")+"\n" {
		t.Errorf("-force 3 ids -n 3: %q, %v; want %q", out, err, strings.Join(ids[3:6], " "))
	}
}

// TestRunSampling: a seed gives the same tokens under every -threads, and
// another seed other tokens.
func TestRunSampling(t *testing.T) {
	sample := func(args ...string) string {
		out, _, err := runOut(t, append([]string{"run", "-model", stories, "-n", "48", "-ids", "-quiet", "-temp", "1"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a := sample("-seed", "7")
	if b := sample("-seed", "7", "-threads", "1"); a != b {
		t.Errorf("seed 7: %q on the pool, %q on one thread", a, b)
	}
	if c := sample("-seed", "8"); a == c {
		t.Errorf("seeds 7 and 8 gave the same 48 tokens %q", a)
	}
	if a == storiesIDs+"\n" {
		t.Errorf("sampling at temperature 1 gave the greedy ids")
	}
}

// TestRunStoriesReference: through the command line, 256 greedy steps
// from BOS give run.c's ids and logits within 1e-4 (the decoder's own
// tests cover every schedule and variant), with the file mapped and with
// it read into huge pages.
func TestRunStoriesReference(t *testing.T) {
	for _, huge := range []string{"-hugepages=false", "-hugepages"} {
		t.Run(huge, func(t *testing.T) { runStoriesReference(t, huge) })
	}
}

func runStoriesReference(t *testing.T, huge string) {
	dir := filepath.Join(refdata.Dir(t, "models"), "stories260K", "ref")
	lf := filepath.Join(t.TempDir(), "l.f32")
	out, _, err := runOut(t, "run", "-model", stories, "-n", "256", "-ctx", "256", "-ids", "-quiet", "-logits", lf, huge)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(dir, "runc-f32.ids.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != strings.TrimSpace(string(want)) {
		t.Errorf("256 greedy ids differ from run.c's")
	}
	got, ref := readLogits(t, lf), readLogits(t, filepath.Join(dir, "runc-f32.logits.f32"))
	if len(got) != len(ref) {
		t.Fatalf("%d logits, want %d", len(got), len(ref))
	}
	for i := range ref {
		if d := math.Abs(float64(got[i] - ref[i])); d > 1e-4 {
			t.Fatalf("logit %d (step %d) differs from run.c's by %g", i, i/512, d)
		}
	}
}

// TestRunSynthPrompt: a text prompt, end to end through the tokenizer:
// s0-f32's prompt gives llama.cpp's greedy ids, and with -force and
// -logits the prompt's and decode steps' logits within 1e-4 of llama.cpp's
// oracle run (../shared/testdata/models/synth).
func TestRunSynthPrompt(t *testing.T) {
	dir := filepath.Join(refdata.Dir(t, "models"), "synth")
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Models map[string]struct {
			Prompt struct {
				Text string `json:"text"`
			} `json:"prompt"`
			Runs map[string]struct {
				Generated []int `json:"generated_ids"`
				Last      int   `json:"argmax_after_last_step"`
			} `json:"runs"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	m := man.Models["s0-f32"]
	o := m.Runs["oracle"]
	model := filepath.Join(dir, "s0-f32.gguf")
	var want []string
	for _, id := range append(slices.Clone(o.Generated), o.Last) {
		want = append(want, strconv.Itoa(id))
	}
	out, _, err := runOut(t, "run", "-model", model, "-prompt", m.Prompt.Text, "-n", "33", "-ids", "-quiet")
	if err != nil || out != strings.Join(want, " ")+"\n" {
		t.Errorf("greedy ids %q, %v; want llama.cpp's %q", out, err, strings.Join(want, " "))
	}
	lf := filepath.Join(t.TempDir(), "l.f32")
	if _, _, err := runOut(t, "run", "-model", model, "-prompt", m.Prompt.Text, "-force", strings.Join(want[:32], ","), "-ids", "-quiet", "-logits", lf); err != nil {
		t.Fatal(err)
	}
	ref := append(readLogits(t, filepath.Join(dir, "s0-f32", "oracle.prompt.f32")), readLogits(t, filepath.Join(dir, "s0-f32", "oracle.decode.f32"))...)
	got := readLogits(t, lf)
	if len(got) != len(ref) {
		t.Fatalf("%d logits, want %d (25 prompt rows and 32 decode rows)", len(got), len(ref))
	}
	for i := range ref {
		if d := math.Abs(float64(got[i] - ref[i])); d > 1e-4 {
			t.Fatalf("logit %d (row %d) differs from llama.cpp's by %g", i, i/1024, d)
		}
	}
}

// badModels writes model files each wrong in one way and returns their
// paths.
func badModels(t *testing.T) map[string]string {
	dir := t.TempDir()
	small := llama.Config{Dim: 32, Layers: 1, Heads: 2, KVHeads: 2, FFN: 32, Vocab: 8, ContextLength: 16, NormEps: 1e-5, RoPEDims: 16, RoPEBase: 10000}
	model := func(name string, c llama.Config, edit func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor)) string {
		kv, ts := llama.Schema(c)
		kv = append(kv, gguf.KV{Key: "tokenizer.ggml.bos_token_id", Value: gguf.Uint32(1)})
		for i := range ts {
			ts[i].Data = make([]byte, 4*ts[i].NumValues())
		}
		kv, ts = edit(kv, ts)
		var b bytes.Buffer
		if err := gguf.Encode(&b, &gguf.File{KV: kv, Tensors: ts}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	same := func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor) { return kv, ts }
	dropKey := func(key string) func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor) {
		return func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor) {
			return slices.DeleteFunc(kv, func(x gguf.KV) bool { return x.Key == key }), ts
		}
	}
	text := filepath.Join(dir, "notes.gguf")
	if err := os.WriteFile(text, []byte("hello, I am not a model\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wide := small
	wide.Dim, wide.FFN = 256, 256
	return map[string]string{
		"missing":  filepath.Join(dir, "missing.gguf"),
		"not gguf": text,
		"good":     model("good.gguf", small, same),
		"no bos":   model("nobos.gguf", small, dropKey("tokenizer.ggml.bos_token_id")),
		"arch": model("qwen.gguf", small, func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor) {
			kv[0].Value = gguf.String("qwen2")
			return kv, ts
		}),
		"no key": model("nokey.gguf", small, dropKey("llama.attention.layer_norm_rms_epsilon")),
		// q2_K (ggml type 10): a type package quant does not implement.
		"q2_K": model("q2k.gguf", small, func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor) {
			return kv, append(ts, gguf.Tensor{Name: "extra.weight", Type: quant.Type(10), Dims: []int64{256}, Data: make([]byte, 84)})
		}),
		// q8_K: a type quant has, but not a weight type spi multiplies.
		"q8_K": model("q8k.gguf", wide, func(kv []gguf.KV, ts []gguf.Tensor) ([]gguf.KV, []gguf.Tensor) {
			for i := range ts {
				if ts[i].Name == "blk.0.ffn_up.weight" {
					ts[i].Type, ts[i].Data = quant.Q8K, make([]byte, 256*292)
				}
			}
			return kv, ts
		}),
	}
}

// TestRunErrors: every bad file or input is one line naming the problem,
// and nothing on stdout.
func TestRunErrors(t *testing.T) {
	files := badModels(t)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "-model", files["missing"]}, files["missing"] + ": no such file or directory"},
		{[]string{"run", "-model", files["not gguf"]}, "not a GGUF file"},
		{[]string{"run", "-model", files["arch"]}, files["arch"] + `: llama: unsupported architecture "qwen2"`},
		{[]string{"run", "-model", files["no key"]}, `key "llama.attention.layer_norm_rms_epsilon": missing metadata key`},
		{[]string{"run", "-model", files["q2_K"]}, "q2_K"},
		{[]string{"run", "-model", files["q8_K"]}, "tensor blk.0.ffn_up.weight has type q8_K, which is not a weight type"},
		{[]string{"run", "-model", stories, "-prompt", strings.Repeat("once upon a time ", 40)}, "longer than the context of 128 (the model's llama.context_length"},
		{[]string{"run", "-model", stories, "-prompt", "once upon a time", "-ctx", "4"}, "longer than the context of 4 (set by -ctx)"},
		{[]string{"run", "-model", stories, "-n", "200"}, "need 200 positions, more than the context of 128"},
		{[]string{"run", "-model", files["no bos"], "-ids"}, `key "tokenizer.ggml.bos_token_id": missing metadata key`},
		{[]string{"run", "-model", files["good"], "-prompt", "hi"}, `key "tokenizer.ggml.model": missing metadata key`},
		{[]string{"run", "-n", "3"}, "-model FILE is required"},
		{[]string{"run", "-model", stories, "-kernels", "sse9"}, `"sse9"`},
		{[]string{"run", "-model", stories, "-attention", "slow"}, `-attention "slow"`},
		{[]string{"run", "-model", stories, "-kv", "q8"}, `-kv "q8"`},
		{[]string{"run", "-model", stories, "-force", "1,x"}, `-force: "x" is not a token id`},
		{[]string{"run", "-model", stories, "-force", "1,512"}, "token 512 (tokens[0]) is not in the vocabulary of 512"},
		{[]string{"run", "-model", stories, "-temp", "-1"}, "Temperature = -1"},
		{[]string{"run", "-model", stories, "-top-p", "2", "-temp", "1"}, "TopP = 2"},
		{[]string{"run", "-model", stories, "-frob"}, "flag provided but not defined: -frob"},
		{[]string{"run", "-model", stories, "stray"}, `unexpected arguments ["stray"]`},
	} {
		out, _, err := runOut(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("corelane %q: error %v, want one line containing %q", c.args, err, c.msg)
		}
		if out != "" {
			t.Errorf("corelane %q printed %q on stdout", c.args, out)
		}
	}
	// The kernels error lists what this CPU runs.
	if _, _, err := runOut(t, "run", "-model", stories, "-kernels", "sse9"); err == nil || !strings.Contains(err.Error(), "generic") {
		t.Errorf("-kernels sse9: %v, want the supported variants listed", err)
	}
	// A good file runs (the error cases above are errors of their one fault).
	if out, _, err := runOut(t, "run", "-model", files["good"], "-ids", "-quiet", "-force", "1 2"); err != nil || out != "\n" {
		t.Errorf("good file: %q, %v", out, err)
	}
	var out bytes.Buffer
	if err := run([]string{"run", "-h"}, &out); err != nil || !strings.Contains(out.String(), "-logits") || !strings.Contains(out.String(), "-force") {
		t.Errorf("run -h: %v\n%s", err, out.String())
	}
}

// TestRunExit runs the command as a process: an error is one line on
// stderr, nothing on stdout, and exit status 1.
func TestRunExit(t *testing.T) {
	if os.Getenv("CORELANE_TEST_MAIN") == "1" {
		os.Args = append([]string{"corelane"}, strings.Fields(os.Getenv("CORELANE_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	files := badModels(t)
	for _, c := range []struct{ name, args, msg string }{
		{"missing file", "run -model " + files["missing"], "no such file"},
		{"not a GGUF", "run -model " + files["not gguf"], "not a GGUF file"},
		{"architecture", "run -model " + files["arch"], "unsupported architecture"},
		{"tensor type", "run -model " + files["q2_K"], "q2_K"},
		{"metadata key", "run -model " + files["no key"], "missing metadata key"},
		{"context", "run -model " + stories + " -prompt once -ctx 1", "longer than the context"},
	} {
		cmd := testexec.Self("-test.run=^TestRunExit$")
		cmd.Env = append(os.Environ(), "CORELANE_TEST_MAIN=1", "CORELANE_TEST_ARGS="+c.args)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Errorf("%s: %v, want exit status 1 (stderr %q)", c.name, err, stderr.String())
		}
		if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "corelane: ") || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%s: stdout %q, stderr %q: want one line on stderr containing %q", c.name, stdout.String(), stderr.String(), c.msg)
		}
	}
}
