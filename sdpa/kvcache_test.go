package sdpa

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// TestWriteKV fills a cache token by token (and in chunks) with WriteKV and
// WriteKVF16, in both layouts, and checks that attention over the cache
// gives the bits of attention over K/V built directly; rows outside the
// written range stay as they were.
func TestWriteKV(t *testing.T) {
	sh := Shape{Batch: 2, Heads: 4, KVHeads: 2, SeqQ: 3, SeqKV: 11, HeadDim: 8}
	const capacity = 16
	rng := rand.New(rand.NewPCG(8, 8))
	in := randInputs(rng, sh, 1)
	// src for token t: [Batch, Tokens, KVHeads, HeadDim] of the rows.
	tokens := func(x []float32, t0, t1 int) []float32 {
		var out []float32
		for b := range sh.Batch {
			for t := t0; t < t1; t++ {
				for g := range sh.KVHeads {
					out = append(out, x[((b*sh.KVHeads+g)*sh.SeqKV+t)*sh.HeadDim:][:sh.HeadDim]...)
				}
			}
		}
		return out
	}
	for _, layout := range []Layout{HeadsFirst, TokensFirst} {
		for _, mode := range []Mode{Exact, Fast} {
			kc, vc := guard(sh.Batch*sh.KVHeads*capacity*sh.HeadDim), guard(sh.Batch*sh.KVHeads*capacity*sh.HeadDim)
			kh, vh := toF16(kc), toF16(vc)
			for _, c := range [][2]int{{0, 1}, {1, 5}, {5, 6}, {6, 11}} {
				w := KVWrite{Batch: sh.Batch, KVHeads: sh.KVHeads, HeadDim: sh.HeadDim, Capacity: capacity, Pos: c[0], Tokens: c[1] - c[0], Layout: layout}
				ks, vs := tokens(in.k, c[0], c[1]), tokens(in.v, c[0], c[1])
				if err := errors.Join(WriteKV(kc, ks, w), WriteKV(vc, vs, w), WriteKVF16(kh, ks, w), WriteKVF16(vh, vs, w)); err != nil {
					t.Fatal(err)
				}
			}
			opt := Options{Causal: true, Mode: mode}
			want := make([]float32, outLen(sh))
			if err := Attention(sched.Sequential, want, in.q, in.k, in.v, sh, opt); err != nil {
				t.Fatal(err)
			}
			want16 := make([]float32, outLen(sh))
			if err := AttentionF16(sched.Sequential, want16, in.q, toF16(in.k), toF16(in.v), sh, opt); err != nil {
				t.Fatal(err)
			}
			opt.KVCapacity, opt.KVLayout = capacity, layout
			got := guard(outLen(sh))
			if err := Attention(sched.Sequential, got, in.q, kc, vc, sh, opt); err != nil {
				t.Fatal(err)
			}
			assertBits(t, layout.String()+"/"+mode.String(), got, want)
			got16 := guard(outLen(sh))
			if err := AttentionF16(sched.Sequential, got16, in.q, kh, vh, sh, opt); err != nil {
				t.Fatal(err)
			}
			assertBits(t, layout.String()+"/"+mode.String()+"/f16", got16, want16)
			// Rows from SeqKV on were never written.
			for i, x := range kc {
				pos := (i / sh.HeadDim) % capacity
				if layout == TokensFirst {
					pos = (i / (sh.HeadDim * sh.KVHeads)) % capacity
				}
				if (pos >= sh.SeqKV) != (x != x) || (pos >= sh.SeqKV) != (kh[i].Float32() != kh[i].Float32()) {
					t.Fatalf("%v: cache element %d (position %d) = %g / %g", layout, i, pos, x, kh[i].Float32())
				}
			}
		}
	}
}

// TestWriteKVF16Rounding: every value is converted as quant.FromFloat32
// does (nearest, ties to even, Inf beyond the range, NaN kept).
func TestWriteKVF16Rounding(t *testing.T) {
	src := []float32{1, 65519, 65520, 1e9, float32(math.Inf(-1)), float32(math.NaN()), 1 + 1.0/2048, 1 + 3.0/2048, 5.960464477539063e-08, 2.9802322387695312e-08, float32(math.Copysign(0, -1)), -3.14159}
	w := KVWrite{Batch: 1, KVHeads: 1, HeadDim: len(src), Capacity: 2, Pos: 1, Tokens: 1}
	cache := make([]quant.F16, 2*len(src))
	if err := WriteKVF16(cache, src, w); err != nil {
		t.Fatal(err)
	}
	for i, x := range src {
		if got, want := cache[len(src)+i], quant.FromFloat32(x); got != want {
			t.Errorf("%g: %#04x, want %#04x", x, got, want)
		}
		if cache[i] != 0 {
			t.Errorf("row 0 written: %#04x", cache[i])
		}
	}
}

func TestWriteKVErrors(t *testing.T) {
	good := KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: 5, Pos: 3, Tokens: 2}
	cache, src := make([]float32, 40), make([]float32, 16)
	for _, c := range []struct {
		name       string
		w          KVWrite
		cache, src []float32
		is         error
		want       string
	}{
		{"kvheads", KVWrite{Batch: 1, KVHeads: 0, HeadDim: 4, Capacity: 5}, cache, src, ErrShape, "KVWrite.KVHeads = 0"},
		{"headdim", KVWrite{Batch: 1, KVHeads: 2, HeadDim: -1, Capacity: 5}, cache, src, ErrShape, "KVWrite.HeadDim = -1"},
		{"batch", KVWrite{Batch: -1, KVHeads: 2, HeadDim: 4, Capacity: 5}, cache, src, ErrShape, "KVWrite.Batch = -1"},
		{"pos", KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: 5, Pos: -1}, cache, src, ErrShape, "KVWrite.Pos = -1"},
		{"tokens", KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: 5, Tokens: -2}, cache, src, ErrShape, "KVWrite.Tokens = -2"},
		{"full", KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: 5, Pos: 4, Tokens: 2}, cache, src, ErrShape, "beyond KVWrite.Capacity = 5"},
		{"pos>cap", KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: 5, Pos: 6, Tokens: 0}, cache, src[:0], ErrShape, "beyond KVWrite.Capacity"},
		{"overflow", KVWrite{Batch: 1, KVHeads: math.MaxInt / 2, HeadDim: 4, Capacity: 5, Tokens: 2}, cache, src, ErrShape, "too large"},
		{"layout", KVWrite{Batch: 1, KVHeads: 2, HeadDim: 4, Capacity: 5, Layout: 3}, cache, src, ErrOption, "KVWrite.Layout = 3"},
		{"cache", good, cache[:39], src, ErrShape, "len(cache) = 39, want Batch·KVHeads·Capacity·HeadDim = 40"},
		{"src", good, cache, src[:15], ErrShape, "len(src) = 15, want Batch·Tokens·KVHeads·HeadDim = 16"},
		{"overlap", good, cache, cache[:16], ErrOverlap, "src overlaps cache"},
	} {
		for i := range c.cache {
			c.cache[i] = 7
		}
		err := WriteKV(c.cache, c.src, c.w)
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "sdpa: WriteKV: ") {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.is, c.want)
		}
		if c.is != ErrOverlap {
			h := make([]quant.F16, len(c.cache))
			err := WriteKVF16(h, c.src, c.w)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "sdpa: WriteKVF16: ") {
				t.Errorf("%s/f16: %v, want %v naming %q", c.name, err, c.is, c.want)
			}
			for i, x := range c.cache {
				if x != 7 || h[i] != 0 {
					t.Fatalf("%s: cache written by a failed call", c.name)
				}
			}
		}
	}
}
