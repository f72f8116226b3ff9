package sdpa

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/corelane/corelane/sched"
)

// tokensFirst returns x ([batch, heads, seq, hd], seq rows of room per
// head) in TokensFirst order ([batch, seq, heads, hd]); fromTokensFirst
// undoes it.
func tokensFirst(x []float32, batch, heads, seq, hd int) []float32 {
	out := make([]float32, len(x))
	for b := range batch {
		for h := range heads {
			for i := range seq {
				copy(out[((b*seq+i)*heads+h)*hd:][:hd], x[((b*heads+h)*seq+i)*hd:][:hd])
			}
		}
	}
	return out
}

func fromTokensFirst(x []float32, batch, heads, seq, hd int) []float32 {
	out := make([]float32, len(x))
	for b := range batch {
		for h := range heads {
			for i := range seq {
				copy(out[((b*heads+h)*seq+i)*hd:][:hd], x[((b*seq+i)*heads+h)*hd:][:hd])
			}
		}
	}
	return out
}

// TestLayouts: TokensFirst q/out and K/V (with and without a KV capacity,
// f32 and f16 K/V) give the bits of the HeadsFirst call, in both modes and
// under every schedule: a layout changes where values are read and
// written, never the arithmetic.
func TestLayouts(t *testing.T) {
	shapes := []Shape{
		{Batch: 2, Heads: 4, KVHeads: 2, SeqQ: 5, SeqKV: 37, HeadDim: 8},
		{Batch: 1, Heads: 8, KVHeads: 2, SeqQ: 20, SeqKV: 700, HeadDim: 64},
		{Batch: 1, Heads: 2, KVHeads: 2, SeqQ: 1, SeqKV: 1300, HeadDim: 16}, // Fast key chunks
		{Batch: 2, Heads: 3, KVHeads: 1, SeqQ: 3, SeqKV: 9, HeadDim: 5},
	}
	ss := append(schedules(t), sched.Sequential)
	if testing.Short() {
		shapes[1].SeqQ, shapes[1].SeqKV = 8, 300 // still two K/V blocks (kvBlock)
		// Layouts, not schedules, are under test here (the schedule tests
		// cover every schedule): in -short, the race detector's and the
		// emulator's mode, one of each kind of schedule.
		all := ss
		ss = nil
		for _, s := range all {
			switch s := s.(type) {
			case reverseSchedule:
				if s.chunk == 3 {
					ss = append(ss, s)
				}
			case goSchedule:
				if s.chunk == 5 {
					ss = append(ss, s)
				}
			case loopSchedule:
				if s.name == "workstealing" && s.chunk == 3 {
					ss = append(ss, s)
				}
			default:
				if s == sched.Sequential || s == sched.Hardware() {
					ss = append(ss, s)
				}
			}
		}
	}
	for si, sh := range shapes {
		for _, mode := range []Mode{Exact, Fast} {
			for _, capacity := range []int{0, sh.SeqKV + 3} {
				c := testCase{sh: sh, opt: Options{Causal: si%2 == 0, Mode: mode}, maskBatch: si % 2, mag: 1}
				in, opt := c.inputs(uint64(si))
				kvRows := sh.SeqKV
				k, v := in.k, in.v
				if capacity != 0 {
					kvRows = capacity
					opt.KVCapacity = capacity
					k, v = withCapacity(in.k, sh, capacity), withCapacity(in.v, sh, capacity)
				}
				want := make([]float32, outLen(sh))
				if err := Attention(sched.Sequential, want, in.q, k, v, sh, opt); err != nil {
					t.Fatal(err)
				}
				wantF16 := make([]float32, outLen(sh))
				if err := AttentionF16(sched.Sequential, wantF16, in.q, toF16(k), toF16(v), sh, opt); err != nil {
					t.Fatal(err)
				}
				qT := tokensFirst(in.q, sh.Batch, sh.Heads, sh.SeqQ, sh.HeadDim)
				kT := tokensFirst(k, sh.Batch, sh.KVHeads, kvRows, sh.HeadDim)
				vT := tokensFirst(v, sh.Batch, sh.KVHeads, kvRows, sh.HeadDim)
				for _, l := range [][2]Layout{{TokensFirst, HeadsFirst}, {HeadsFirst, TokensFirst}, {TokensFirst, TokensFirst}} {
					o := opt
					o.Layout, o.KVLayout = l[0], l[1]
					q, kk, vv := in.q, k, v
					if l[0] == TokensFirst {
						q = qT
					}
					if l[1] == TokensFirst {
						kk, vv = kT, vT
					}
					for _, s := range ss {
						name := fmt.Sprintf("%+v/%v/cap=%d/layout=%v,%v/%s", sh, mode, capacity, l[0], l[1], s.Name())
						got := guard(outLen(sh))
						if err := Attention(s, got, q, kk, vv, sh, o); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						gotF16 := guard(outLen(sh))
						if err := AttentionF16(s, gotF16, q, toF16(kk), toF16(vv), sh, o); err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						if l[0] == TokensFirst {
							got = fromTokensFirst(got, sh.Batch, sh.Heads, sh.SeqQ, sh.HeadDim)
							gotF16 = fromTokensFirst(gotF16, sh.Batch, sh.Heads, sh.SeqQ, sh.HeadDim)
						}
						assertBits(t, name, got, want)
						assertBits(t, name+"/f16", gotF16, wantF16)
					}
				}
			}
		}
	}
}

// withCapacity copies x ([Batch, KVHeads, SeqKV, HeadDim]) into a cache
// with room for capacity rows per head, the rest filled with NaN (a cache
// past the current position may hold anything).
func withCapacity(x []float32, sh Shape, capacity int) []float32 {
	out := guard(sh.Batch * sh.KVHeads * capacity * sh.HeadDim)
	n := sh.SeqKV * sh.HeadDim
	for bg := range sh.Batch * sh.KVHeads {
		copy(out[bg*capacity*sh.HeadDim:], x[bg*n:(bg+1)*n])
	}
	return out
}

func TestLayoutErrors(t *testing.T) {
	sh := Shape{Batch: 1, Heads: 2, KVHeads: 1, SeqQ: 3, SeqKV: 4, HeadDim: 2}
	q, out := make([]float32, 12), make([]float32, 12)
	k, v := make([]float32, 8), make([]float32, 8)
	for _, c := range []struct {
		opt  Options
		is   error
		want string
	}{
		{Options{Layout: 2}, ErrOption, "Options.Layout = 2"},
		{Options{KVLayout: -1}, ErrOption, "Options.KVLayout = -1"},
		{Options{Layout: TokensFirst, KVLayout: TokensFirst, KVCapacity: 5}, ErrShape, "len(k) = 8, want Batch·KVCapacity·KVHeads·HeadDim = 10"},
	} {
		err := Attention(nil, out, q, k, v, sh, c.opt)
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %v naming %q", c.opt, err, c.is, c.want)
		}
	}
	if err := Attention(nil, out, q[:11], k, v, sh, Options{Layout: TokensFirst}); err == nil || !strings.Contains(err.Error(), "Batch·SeqQ·Heads·HeadDim") {
		t.Errorf("short q, TokensFirst: %v", err)
	}
}
