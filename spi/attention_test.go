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

func attnInputs(sh sdpa.Shape) (q, k, v []float32) {
	r := rand.New(rand.NewPCG(3, 4))
	f := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = 2*r.Float32() - 1
		}
		return x
	}
	return f(sh.Batch * sh.Heads * sh.SeqQ * sh.HeadDim), f(sh.Batch * sh.KVHeads * sh.SeqKV * sh.HeadDim), f(sh.Batch * sh.KVHeads * sh.SeqKV * sh.HeadDim)
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

// TestAttentionUsesBackendKernels: a backend pinned with WithKernels runs
// Fast attention on that variant's kernels, whatever the registry's
// choice, so pinned generic and the default differ where their kernels do
// (and Exact agrees on every variant).
func TestAttentionUsesBackendKernels(t *testing.T) {
	shapes := []sdpa.Shape{
		{Batch: 1, Heads: 4, KVHeads: 2, SeqQ: 9, SeqKV: 700, HeadDim: 64},  // prefill tiles
		{Batch: 1, Heads: 2, KVHeads: 2, SeqQ: 1, SeqKV: 1500, HeadDim: 64}, // decode key chunks
	}
	for _, sh := range shapes {
		q, k, v := attnInputs(sh)
		k16, v16 := make([]quant.F16, len(k)), make([]quant.F16, len(v))
		for i := range k {
			k16[i], v16[i] = quant.FromFloat32(k[i]), quant.FromFloat32(v[i])
		}
		results := map[string][2][]float32{}
		for _, variant := range kernels.Variants() {
			b, err := New(WithKernels(variant), WithSchedule(sched.Sequential))
			if err != nil {
				t.Fatal(err)
			}
			ops, err := kernels.Lookup(variant)
			if err != nil {
				t.Fatal(err)
			}
			for _, mode := range []sdpa.Mode{sdpa.Exact, sdpa.Fast} {
				opt := sdpa.Options{Causal: true, Mode: mode}
				got := make([]float32, len(q))
				if err := b.Context().Attention(got, q, k, v, sh, opt); err != nil {
					t.Fatal(err)
				}
				want := make([]float32, len(q))
				if err := sdpa.New(ops).Attention(sched.Sequential, want, q, k, v, sh, opt); err != nil {
					t.Fatal(err)
				}
				if !sameBits(got, want) {
					t.Errorf("%+v/%v/variant=%s: Attention differs from sdpa with the variant's kernels", sh, mode, variant)
				}
				got16 := make([]float32, len(q))
				if err := b.Context().AttentionF16(got16, q, k16, v16, sh, opt); err != nil {
					t.Fatal(err)
				}
				want16 := make([]float32, len(q))
				if err := sdpa.New(ops).AttentionF16(sched.Sequential, want16, q, k16, v16, sh, opt); err != nil {
					t.Fatal(err)
				}
				if !sameBits(got16, want16) {
					t.Errorf("%+v/%v/variant=%s: AttentionF16 differs from sdpa with the variant's kernels", sh, mode, variant)
				}
				r := results[mode.String()]
				if variant == kernels.Generic {
					r[0] = got
				} else if r[1] == nil {
					r[1] = got // the best non-generic variant
				}
				results[mode.String()] = r
			}
		}
		if r := results["exact"]; r[1] != nil && !sameBits(r[0], r[1]) {
			t.Errorf("%+v: Exact differs between generic and the best variant", sh)
		}
		// The float32 kernels of every SIMD variant reassociate, so pinned
		// generic must give other bits than the default in Fast decoding
		// (row by row on those kernels); if it did not, the pin would not
		// be reaching Fast attention.
		if r := results["fast"]; sh.SeqQ == 1 && r[1] != nil && sameBits(r[0], r[1]) {
			t.Errorf("%+v: Fast gives the same bits pinned to generic and to the best variant: WithKernels does not reach it", sh)
		}
	}
}

// TestAttentionErrors: every attention shape error is ErrShape, named once
// by spi (no doubled prefix), and a failed call emits no trace event.
func TestAttentionErrors(t *testing.T) {
	var events []Event
	b, err := New(WithSchedule(sched.Sequential), WithTrace(func(e Event) { events = append(events, e) }))
	if err != nil {
		t.Fatal(err)
	}
	c := b.Context()
	sh := sdpa.Shape{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 3, SeqKV: 4, HeadDim: 2}
	q, k, v := attnInputs(sh)
	out := make([]float32, len(q))
	bad := sh
	bad.KVHeads = 3
	for _, e := range []struct {
		name string
		err  error
		is   error
		want string
	}{
		{"q short", c.Attention(out, q[:1], k, v, sh, sdpa.Options{}), ErrShape, "spi: Attention: bad shape: len(q) = 1"},
		{"kvheads", c.Attention(out, q, k, v, bad, sdpa.Options{}), ErrShape, "spi: Attention: bad shape: Shape.KVHeads = 3 does not divide"},
		{"f16 k", c.AttentionF16(out, q, make([]quant.F16, 3), make([]quant.F16, len(v)), sh, sdpa.Options{}), ErrShape, "spi: AttentionF16: bad shape: len(k) = 3"},
		{"layout", c.Attention(out, q, k, v, sh, sdpa.Options{Layout: 9}), sdpa.ErrOption, "spi: Attention: bad option: Options.Layout = 9"},
		{"overlap", c.Attention(q, q, k, v, sh, sdpa.Options{}), sdpa.ErrOverlap, "spi: Attention: output overlaps an input: out overlaps q"},
	} {
		if !errors.Is(e.err, e.is) || !strings.HasPrefix(e.err.Error(), e.want) || strings.Count(e.err.Error(), "Attention") != 1 {
			t.Errorf("%s: %v, want %v starting %q", e.name, e.err, e.is, e.want)
		}
	}
	if len(events) != 0 {
		t.Errorf("failed calls traced: %v", events)
	}
	if err := c.Attention(out, q, k, v, sh, sdpa.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := c.AttentionF16(out, q, make([]quant.F16, len(k)), make([]quant.F16, len(v)), sh, sdpa.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || !strings.Contains(events[0].String(), "op Attention") {
		t.Errorf("events %v, want two Attention ops", events)
	}
}

// TestWriteKV: spi's KV writes fill a cache that AttentionF16 reads in
// place, and bad shapes are ErrShape named by spi.
func TestWriteKV(t *testing.T) {
	b, err := New(WithSchedule(sched.Sequential))
	if err != nil {
		t.Fatal(err)
	}
	c := b.Context()
	sh := sdpa.Shape{Batch: 1, Heads: 4, KVHeads: 2, SeqQ: 1, SeqKV: 3, HeadDim: 4}
	q, k, v := attnInputs(sh) // k, v: [KVHeads, SeqKV, HeadDim]
	const capacity = 8
	kc, vc := make([]quant.F16, 2*capacity*4), make([]quant.F16, 2*capacity*4)
	for pos := range sh.SeqKV {
		var ks, vs []float32 // [1 token, KVHeads, HeadDim]
		for g := range sh.KVHeads {
			ks = append(ks, k[(g*sh.SeqKV+pos)*4:][:4]...)
			vs = append(vs, v[(g*sh.SeqKV+pos)*4:][:4]...)
		}
		w := sdpa.KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: capacity, Pos: pos, Tokens: 1}
		if err := errors.Join(c.WriteKVF16(kc, ks, w), c.WriteKVF16(vc, vs, w)); err != nil {
			t.Fatal(err)
		}
	}
	got := make([]float32, len(q))
	if err := c.AttentionF16(got, q, kc, vc, sh, sdpa.Options{KVCapacity: capacity}); err != nil {
		t.Fatal(err)
	}
	k16, v16 := make([]quant.F16, len(k)), make([]quant.F16, len(v))
	for i := range k {
		k16[i], v16[i] = quant.FromFloat32(k[i]), quant.FromFloat32(v[i])
	}
	want := make([]float32, len(q))
	if err := c.AttentionF16(want, q, k16, v16, sh, sdpa.Options{}); err != nil {
		t.Fatal(err)
	}
	if !sameBits(got, want) {
		t.Fatal("attention over the written cache differs")
	}
	w := sdpa.KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: capacity, Pos: 7, Tokens: 2}
	err = c.WriteKVF16(kc, make([]float32, 16), w)
	if !errors.Is(err, ErrShape) || !strings.HasPrefix(err.Error(), "spi: WriteKVF16: bad shape: KVWrite.Pos") {
		t.Errorf("full cache: %v", err)
	}
	err = c.WriteKV(make([]float32, 3), make([]float32, 16), w)
	if !errors.Is(err, ErrShape) || !strings.HasPrefix(err.Error(), "spi: WriteKV: bad shape:") {
		t.Errorf("short cache: %v", err)
	}
}
