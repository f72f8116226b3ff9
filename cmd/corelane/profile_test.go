package main

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"github.com/corelane/corelane/engine/llama"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// TestProfileRunHash: profileRun's logits hash is FNV-64a over the
// little-endian bytes of every logit it produced (the prompt's, then each
// decode step's), and its tokens are the greedy ones: both recomputed here
// from a second session of the same model, one byte at a time.
func TestProfileRunHash(t *testing.T) {
	const steps = 3
	shape := presets["tiny"]
	shape.Layers = 1
	m, release, err := newModel(shape, "q4_k_m", 7, 4+steps, false, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	b, err := spi.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx := b.Context().WithSchedule(sched.Sequential)
	prompt := []int{3, 1, 4, 1}
	res, err := profileRun(m, ctx, sdpa.Exact, quant.F32, prompt, steps, func(string) {})
	if err != nil {
		t.Fatal(err)
	}

	s, err := m.NewSession(ctx, llama.Options{Mode: sdpa.Exact, KV: quant.F32, Context: len(prompt) + steps})
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var tokens []int
	logits, err := s.Forward(prompt, false)
	for i := 0; ; i++ {
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range logits {
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			for _, c := range b {
				h.Write([]byte{c})
			}
		}
		if i == steps {
			break
		}
		next := slices.Index(logits, slices.Max(logits))
		tokens = append(tokens, next)
		logits, err = s.Forward([]int{next}, false)
	}
	if res.hash != h.Sum64() {
		t.Errorf("profileRun hash %016x, want %016x (FNV-64a of every logit's bytes)", res.hash, h.Sum64())
	}
	if !slices.Equal(res.tokens, tokens) {
		t.Errorf("profileRun tokens %v, want %v", res.tokens, tokens)
	}
	if res.decode <= 0 || res.prefill <= 0 {
		t.Errorf("profileRun times: prefill %v, decode %v", res.prefill, res.decode)
	}
}
