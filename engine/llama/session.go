package llama

import (
	"errors"
	"fmt"
	"time"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// ErrContext: a Forward would go past the positions the session's KV cache
// holds.
var ErrContext = errors.New("context full")

// Options configure a Session.
type Options struct {
	// Mode is the attention mode: sdpa.Exact (the default: the logits have
	// the same bits under every schedule and kernel variant) or sdpa.Fast
	// (SIMD attention: the same bits under every schedule for a given
	// variant).
	Mode sdpa.Mode
	// KV is the KV cache type: quant.F32 (the default, the zero value) or
	// quant.FP16 (binary16, llama.cpp's default; values rounded as they
	// are written).
	KV quant.Type
	// Context is the number of positions the KV cache holds; 0 means the
	// model's Config.ContextLength. It may exceed ContextLength (the model
	// was not trained that far, but nothing stops it).
	Context int
	// Timings makes the session time its ops (see Timings).
	Timings bool
}

// Timings is where a session's Forward time went: attention (writing the
// KV cache included), the matrix products, and everything else
// (embedding, norms, RoPE, SwiGLU, residuals).
type Timings struct {
	Attention, MatMul, Other time.Duration
}

// Session is one sequence being decoded: a KV cache and the position of
// the next token. It is not safe for concurrent use; the ops it runs use
// the context's schedule.
type Session struct {
	m      *Model
	c      spi.Context
	opt    Options
	cap    int
	pos    int
	kc, vc [][]float32
	kh, vh [][]quant.F16
	rope   spi.RoPEOptions
	timed  bool
	t      Timings

	// Buffers, grown to the largest Forward seen.
	x, h, q, k, v, att, gate, up, logits []float32
	posBuf                               []int
	qkv                                  [3][]float32
	gu                                   [2][]float32
	layerQKV                             [][3]spi.Matrix
	layerGU                              [][2]spi.Matrix
}

// NewSession returns a session of m whose ops run on ctx (its schedule and
// the backend's kernels), with ctx.WithExactFloat(true) — F32 and F16
// weights multiplied in one order, float64 sums, whatever the mode — and
// ctx.WithF16Activations(true): F16 weights multiply activations rounded to
// binary16, as llama.cpp's CPU backend computes them.
func (m *Model) NewSession(ctx spi.Context, o Options) (*Session, error) {
	if o.Mode != sdpa.Exact && o.Mode != sdpa.Fast {
		return nil, fmt.Errorf("llama: NewSession: unknown attention mode %v", o.Mode)
	}
	if o.KV != quant.F32 && o.KV != quant.FP16 {
		return nil, fmt.Errorf("llama: NewSession: KV cache type %v, want f32 or f16", o.KV)
	}
	c := m.Config
	n := o.Context
	if n == 0 {
		n = c.ContextLength
	}
	if n < 1 || n > 1<<24 {
		return nil, fmt.Errorf("llama: NewSession: a context of %d positions, want 1 … %d", n, 1<<24)
	}
	// Float weights in one fixed order (float64 sums), in both modes: the
	// logits then depend on no kernel variant but through Fast attention.
	// F16 weights multiply activations rounded to binary16, as llama.cpp
	// computes them.
	ctx = ctx.WithExactFloat(true).WithF16Activations(true)
	s := &Session{m: m, c: ctx, opt: o, cap: n, timed: o.Timings}
	s.rope = spi.RoPEOptions{Dims: c.RoPEDims, Base: c.RoPEBase, FreqFactors: m.RoPEFactors}
	if c.RoPEScale != 1 {
		s.rope.FreqScale = c.RoPEScale
	}
	size := c.KVHeads * n * c.HeadDim
	for range c.Layers {
		if o.KV == quant.FP16 {
			s.kh, s.vh = append(s.kh, make([]quant.F16, size)), append(s.vh, make([]quant.F16, size))
		} else {
			s.kc, s.vc = append(s.kc, make([]float32, size)), append(s.vc, make([]float32, size))
		}
	}
	for _, l := range m.Layers {
		s.layerQKV = append(s.layerQKV, [3]spi.Matrix{l.Q, l.K, l.V})
		s.layerGU = append(s.layerGU, [2]spi.Matrix{l.Gate, l.Up})
	}
	return s, nil
}

// Model returns the session's model.
func (s *Session) Model() *Model { return s.m }

// Pos returns the position of the next token: the number fed so far.
func (s *Session) Pos() int { return s.pos }

// Capacity returns the number of positions the KV cache holds.
func (s *Session) Capacity() int { return s.cap }

// Reset empties the sequence (the cache is overwritten as it refills).
func (s *Session) Reset() { s.pos = 0 }

// Timings returns the time spent so far (zero unless Options.Timings).
func (s *Session) Timings() Timings { return s.t }

func grow(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

// since adds the time from start to *d when the session is timed.
func (s *Session) since(d *time.Duration, start time.Time) {
	if s.timed {
		*d += time.Since(start)
	}
}

func (s *Session) now() time.Time {
	if s.timed {
		return time.Now()
	}
	return time.Time{}
}

// Forward feeds tokens at the next positions (all of them in one pass:
// a prompt's prefill, or a single decode token) and returns logits: those
// of the last token ([Vocab]), or with all those of every token
// ([len(tokens), Vocab], row-major). The slice is the session's and valid
// until the next call. A token id outside the vocabulary, or more tokens
// than the cache has room for (ErrContext), is an error and changes
// nothing.
func (s *Session) Forward(tokens []int, all bool) ([]float32, error) {
	c, T := s.m.Config, len(tokens)
	if T == 0 {
		return nil, fmt.Errorf("llama: Forward: no tokens")
	}
	if s.pos+T > s.cap {
		return nil, fmt.Errorf("llama: Forward: %w: %d tokens at position %d need %d positions, the context holds %d",
			ErrContext, T, s.pos, s.pos+T, s.cap)
	}
	for i, id := range tokens {
		if id < 0 || id >= c.Vocab {
			return nil, fmt.Errorf("llama: Forward: token %d (tokens[%d]) is not in the vocabulary of %d", id, i, c.Vocab)
		}
	}
	if err := s.forward(tokens, all); err != nil {
		return nil, err
	}
	s.pos += T
	return s.logits, nil
}

func (s *Session) forward(tokens []int, all bool) error {
	m, ctx, T := s.m, s.c, len(tokens)
	c := m.Config
	qd, kvd := c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	s.x, s.h = grow(s.x, T*c.Dim), grow(s.h, T*c.Dim)
	s.q, s.att = grow(s.q, T*qd), grow(s.att, T*qd)
	s.k, s.v = grow(s.k, T*kvd), grow(s.v, T*kvd)
	s.gate, s.up = grow(s.gate, T*c.FFN), grow(s.up, T*c.FFN)
	if cap(s.posBuf) < T {
		s.posBuf = make([]int, T)
	}
	pos := s.posBuf[:T]
	for i := range pos {
		pos[i] = s.pos + i
	}
	x, h, q, k, v, att, gate, up := s.x, s.h, s.q, s.k, s.v, s.att, s.gate, s.up
	s.qkv = [3][]float32{q, k, v}
	s.gu = [2][]float32{gate, up}
	t := &s.t

	start := s.now()
	err := ctx.GetRows(x, m.Embed, tokens)
	s.since(&t.Other, start)
	if err != nil {
		return err
	}
	kvw := sdpa.KVWrite{Batch: 1, KVHeads: c.KVHeads, HeadDim: c.HeadDim, Capacity: s.cap, Pos: s.pos, Tokens: T}
	shape := sdpa.Shape{Batch: 1, Heads: c.Heads, KVHeads: c.KVHeads, SeqQ: T, SeqKV: s.pos + T, HeadDim: c.HeadDim}
	opt := sdpa.Options{Causal: true, Mode: s.opt.Mode, KVCapacity: s.cap, Layout: sdpa.TokensFirst}
	for l := range m.Layers {
		ly := &m.Layers[l]
		start = s.now()
		err = ctx.RMSNorm(h, x, ly.AttnNorm, T, c.Dim, c.NormEps)
		s.since(&t.Other, start)
		if err != nil {
			return err
		}
		start = s.now()
		err = ctx.MatMulShared(s.qkv[:], s.layerQKV[l][:], h, T)
		s.since(&t.MatMul, start)
		if err != nil {
			return err
		}
		start = s.now()
		if err = ctx.RoPEWith(q, T, c.Heads, c.HeadDim, pos, s.rope); err == nil {
			err = ctx.RoPEWith(k, T, c.KVHeads, c.HeadDim, pos, s.rope)
		}
		s.since(&t.Other, start)
		if err != nil {
			return err
		}
		start = s.now()
		if s.opt.KV == quant.FP16 {
			if err = ctx.WriteKVF16(s.kh[l], k, kvw); err == nil {
				if err = ctx.WriteKVF16(s.vh[l], v, kvw); err == nil {
					err = ctx.AttentionF16(att, q, s.kh[l], s.vh[l], shape, opt)
				}
			}
		} else {
			if err = ctx.WriteKV(s.kc[l], k, kvw); err == nil {
				if err = ctx.WriteKV(s.vc[l], v, kvw); err == nil {
					err = ctx.Attention(att, q, s.kc[l], s.vc[l], shape, opt)
				}
			}
		}
		s.since(&t.Attention, start)
		if err != nil {
			return err
		}
		start = s.now()
		err = ctx.MatMul(h, ly.O, att, T)
		s.since(&t.MatMul, start)
		if err != nil {
			return err
		}
		start = s.now()
		if err = ctx.Add(x, x, h); err == nil {
			err = ctx.RMSNorm(h, x, ly.FFNNorm, T, c.Dim, c.NormEps)
		}
		s.since(&t.Other, start)
		if err != nil {
			return err
		}
		start = s.now()
		err = ctx.MatMulShared(s.gu[:], s.layerGU[l][:], h, T)
		s.since(&t.MatMul, start)
		if err != nil {
			return err
		}
		start = s.now()
		err = ctx.SwiGLU(gate, gate, up)
		s.since(&t.Other, start)
		if err != nil {
			return err
		}
		start = s.now()
		err = ctx.MatMul(h, ly.Down, gate, T)
		s.since(&t.MatMul, start)
		if err != nil {
			return err
		}
		start = s.now()
		err = ctx.Add(x, x, h)
		s.since(&t.Other, start)
		if err != nil {
			return err
		}
	}
	rows := 1
	if all {
		rows = T
	}
	last := x[(T-rows)*c.Dim:]
	s.logits = grow(s.logits, rows*c.Vocab)
	start = s.now()
	err = ctx.RMSNorm(h[:rows*c.Dim], last, m.OutputNorm, rows, c.Dim, c.NormEps)
	s.since(&t.Other, start)
	if err != nil {
		return err
	}
	start = s.now()
	err = ctx.MatMul(s.logits, m.Output, h[:rows*c.Dim], rows)
	s.since(&t.MatMul, start)
	return err
}
