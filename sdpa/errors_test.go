package sdpa

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

func TestErrors(t *testing.T) {
	good := Shape{Batch: 2, Heads: 4, KVHeads: 2, SeqQ: 3, SeqKV: 5, HeadDim: 8}
	nq := 2 * 4 * 3 * 8
	nkv := 2 * 2 * 5 * 8
	type args struct {
		out, q, k, v []float32
		sh           Shape
		opt          Options
	}
	mk := func(f func(a *args)) args {
		a := args{make([]float32, nq), make([]float32, nq), make([]float32, nkv), make([]float32, nkv), good, Options{}}
		f(&a)
		return a
	}
	big := math.MaxInt / 2
	shared := make([]float32, nq+nkv)
	for _, c := range []struct {
		name string
		a    args
		is   error
		want string // must appear in the message
	}{
		{"batch<0", mk(func(a *args) { a.sh.Batch = -1 }), ErrShape, "Shape.Batch"},
		{"heads=0", mk(func(a *args) { a.sh.Heads = 0 }), ErrShape, "Shape.Heads"},
		{"kvheads=0", mk(func(a *args) { a.sh.KVHeads = 0 }), ErrShape, "Shape.KVHeads"},
		{"seqq<0", mk(func(a *args) { a.sh.SeqQ = -2 }), ErrShape, "Shape.SeqQ"},
		{"seqkv<0", mk(func(a *args) { a.sh.SeqKV = -1 }), ErrShape, "Shape.SeqKV"},
		{"headdim=0", mk(func(a *args) { a.sh.HeadDim = 0 }), ErrShape, "Shape.HeadDim"},
		{"kvheads∤heads", mk(func(a *args) { a.sh.KVHeads = 3 }), ErrShape, "KVHeads = 3 does not divide"},
		{"kvheads>heads", mk(func(a *args) { a.sh.KVHeads = 8 }), ErrShape, "KVHeads"},
		{"overflow", mk(func(a *args) { a.sh.SeqQ, a.sh.SeqKV = big, big }), ErrShape, "too large"},
		{"q short", mk(func(a *args) { a.q = a.q[:nq-1] }), ErrShape, "len(q)"},
		{"q long", mk(func(a *args) { a.q = append(a.q, 0) }), ErrShape, "len(q)"},
		{"out short", mk(func(a *args) { a.out = a.out[:1] }), ErrShape, "len(out)"},
		{"out nil", mk(func(a *args) { a.out = nil }), ErrShape, "len(out)"},
		{"k short", mk(func(a *args) { a.k = a.k[:nkv-8] }), ErrShape, "len(k)"},
		{"v long", mk(func(a *args) { a.v = make([]float32, nkv+8) }), ErrShape, "len(v)"},
		{"mask size", mk(func(a *args) { a.opt.Mask = make([]float32, 3*5+1) }), ErrShape, "len(Options.Mask)"},
		{"mask empty", mk(func(a *args) { a.opt.Mask = []float32{} }), ErrShape, "len(Options.Mask)"},
		{"scale NaN", mk(func(a *args) { a.opt.Scale = float32(math.NaN()) }), ErrOption, "Options.Scale"},
		{"scale Inf", mk(func(a *args) { a.opt.Scale = float32(math.Inf(-1)) }), ErrOption, "Options.Scale"},
		{"mode", mk(func(a *args) { a.opt.Mode = 7 }), ErrOption, "Options.Mode = 7"},
		{"capacity<seqkv", mk(func(a *args) { a.opt.KVCapacity = 4 }), ErrShape, "Options.KVCapacity = 4"},
		{"capacity<0", mk(func(a *args) { a.opt.KVCapacity = -1 }), ErrShape, "Options.KVCapacity"},
		{"capacity: k compact", mk(func(a *args) { a.opt.KVCapacity = 6 }), ErrShape, "len(k) = 160, want Batch·KVHeads·KVCapacity·HeadDim = 192"},
		{"mode<0", mk(func(a *args) { a.opt.Mode = -1 }), ErrOption, "Options.Mode"},
		{"out=q", mk(func(a *args) { a.out = a.q }), ErrOverlap, "out overlaps q"},
		{"out∩k", mk(func(a *args) { a.out, a.k = shared[:nq], shared[nq-1:nq-1+nkv] }), ErrOverlap, "out overlaps k"},
		{"out∩v", mk(func(a *args) { a.v, a.out = shared[:nkv], shared[nkv-1:nkv-1+nq] }), ErrOverlap, "out overlaps v"},
		{"out∩mask", mk(func(a *args) { a.opt.Mask = a.out[:15] }), ErrOverlap, "out overlaps Options.Mask"},
	} {
		for _, mode := range []Mode{Exact, Fast} {
			a := c.a
			if a.opt.Mode == Exact {
				a.opt.Mode = mode
			}
			for i := range a.out {
				a.out[i] = 42
			}
			err := Attention(sched.Sequential, a.out, a.q, a.k, a.v, a.sh, a.opt)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s/%v: got %v, want %v naming %q", c.name, mode, err, c.is, c.want)
				continue
			}
			if !strings.HasPrefix(err.Error(), "sdpa: Attention: ") {
				t.Errorf("%s: %q does not name the op", c.name, err)
			}
			if c.is != ErrOverlap {
				for i, x := range a.out {
					if x != 42 {
						t.Fatalf("%s: out[%d] written (%g) by a failed call", c.name, i, x)
					}
				}
			}
			// The F16 entry point checks the same things.
			err = AttentionF16(sched.Sequential, a.out, a.q, make([]quant.F16, len(a.k)), make([]quant.F16, len(a.v)), a.sh, a.opt)
			if c.is != ErrOverlap && (!errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("%s/%v/F16: got %v, want %v naming %q", c.name, mode, err, c.is, c.want)
			}
		}
	}
	// A -0 scale is the default scale, like +0.
	q, k, v := make([]float32, nq), make([]float32, nkv), make([]float32, nkv)
	if err := Attention(nil, make([]float32, nq), q, k, v, good, Options{Scale: float32(math.Copysign(0, -1))}); err != nil {
		t.Errorf("Scale -0: %v", err)
	}
}

// TestEmpty: no query rows is a no-op; no keys gives zero rows.
func TestEmpty(t *testing.T) {
	for _, mode := range []Mode{Exact, Fast} {
		for _, sh := range []Shape{
			{Batch: 0, Heads: 2, KVHeads: 1, SeqQ: 3, SeqKV: 4, HeadDim: 2},
			{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 0, SeqKV: 4, HeadDim: 2},
		} {
			if err := Attention(sched.Hardware(), nil, nil, make([]float32, sh.Batch*sh.KVHeads*sh.SeqKV*sh.HeadDim),
				make([]float32, sh.Batch*sh.KVHeads*sh.SeqKV*sh.HeadDim), sh, Options{Mode: mode}); err != nil {
				t.Errorf("%+v: %v", sh, err)
			}
		}
		sh := Shape{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 3, SeqKV: 0, HeadDim: 2}
		out := guard(12)
		if err := Attention(nil, out, make([]float32, 12), nil, nil, sh, Options{Mode: mode, Mask: []float32{}}); err != nil {
			t.Fatal(err)
		}
		assertBits(t, "SeqKV=0", out, make([]float32, 12))
	}
}
