package spi

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
)

// ErrOption is wrapped by the errors of options that are out of range (a
// negative temperature, ...). It is sdpa.ErrOption, which Attention's
// option errors wrap too.
var ErrOption = sdpa.ErrOption

// SamplerOptions choose how a Sampler picks a token from logits.
type SamplerOptions struct {
	// Temperature divides the logits before the softmax; 0 is greedy
	// decoding (the first index of the largest logit, as llama.cpp takes
	// it). It must be finite and ≥ 0.
	Temperature float32
	// TopK keeps only the TopK largest logits (ties: the lower id first);
	// 0 keeps all.
	TopK int
	// TopP keeps the smallest set of the most likely tokens whose
	// probabilities sum to at least TopP (nucleus sampling); 0 and 1 keep
	// all. It must be in [0, 1].
	TopP float32
	// Seed seeds the sampler's own random source (math/rand/v2's PCG):
	// the same seed and the same logits give the same tokens.
	Seed uint64
}

// Sampler picks token ids from logits: greedily, or at random after
// temperature, top-k and top-p. It draws one number from its own seeded
// source per sampled token, so a sequence of Sample calls depends only on
// the seed and the logits — never on a schedule. A Sampler is not safe for
// concurrent use (one per sequence); Sample allocates nothing once it has
// seen a vocabulary of a given size.
type Sampler struct {
	opt  SamplerOptions
	rng  *rand.Rand
	cand []candidate
}

type candidate struct {
	id    int
	logit float32
	cum   float64 // running sum of the weights, in candidate order
}

// NewSampler returns a sampler with the given options. Options out of
// range are an error wrapping ErrOption that names the field.
func NewSampler(o SamplerOptions) (*Sampler, error) {
	const op = "NewSampler"
	switch {
	case !(o.Temperature >= 0) || math.IsInf(float64(o.Temperature), 0):
		return nil, fmt.Errorf("spi: %s: %w: Temperature = %v, want a finite value ≥ 0", op, ErrOption, o.Temperature)
	case o.TopK < 0:
		return nil, fmt.Errorf("spi: %s: %w: TopK = %d, want ≥ 0 (0: no limit)", op, ErrOption, o.TopK)
	case !(o.TopP >= 0 && o.TopP <= 1):
		return nil, fmt.Errorf("spi: %s: %w: TopP = %v, want a value in [0, 1]", op, ErrOption, o.TopP)
	}
	return &Sampler{opt: o, rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9E3779B97F4A7C15))}, nil
}

// Options returns the sampler's options.
func (s *Sampler) Options() SamplerOptions { return s.opt }

// Greedy reports whether the sampler always takes the largest logit
// (Temperature 0 or TopK 1).
func (s *Sampler) Greedy() bool { return s.opt.Temperature == 0 || s.opt.TopK == 1 }

// Argmax returns the index of the largest value of x, the first one if
// several are equal. Empty x is an ErrShape error; a NaN is an error
// wrapping quant.ErrNotFinite naming its index.
func Argmax(x []float32) (int, error) {
	if len(x) == 0 {
		return 0, shapeErr("Argmax", "no values")
	}
	best := 0
	for i, v := range x {
		if v != v {
			return 0, fmt.Errorf("spi: Argmax: %w: x[%d] = NaN", quant.ErrNotFinite, i)
		}
		if v > x[best] {
			best = i
		}
	}
	return best, nil
}

// Sample returns a token id for logits (one per vocabulary entry). Greedy
// samplers return Argmax(logits). Otherwise the TopK largest logits (all
// for 0) are sorted by value, largest first (ties: lower id first), each
// weighted exp((logit − max)/Temperature) in float64, cut to the shortest
// prefix whose weights reach TopP of their sum, and one is drawn with
// probability proportional to its weight. Empty logits are an ErrShape
// error; a NaN or +Inf logit is an error wrapping quant.ErrNotFinite
// (−Inf is a token that is never drawn unless every logit is −Inf).
func (s *Sampler) Sample(logits []float32) (int, error) {
	const op = "Sample"
	if len(logits) == 0 {
		return 0, shapeErr(op, "no logits")
	}
	for i, v := range logits {
		if v != v || v > maxFinite {
			return 0, fmt.Errorf("spi: %s: %w: logits[%d] = %v", op, quant.ErrNotFinite, i, v)
		}
	}
	if s.Greedy() {
		id, _ := Argmax(logits)
		return id, nil
	}
	k := len(logits)
	if s.opt.TopK > 0 && s.opt.TopK < k {
		k = s.opt.TopK
	}
	if cap(s.cand) < k {
		s.cand = make([]candidate, 0, max(k, len(logits)))
	}
	c := s.topK(logits, k)
	slices.SortFunc(c, before)
	if math.IsInf(float64(c[0].logit), -1) {
		return c[0].id, nil // every logit is −Inf: nothing is more likely than the first
	}
	top, temp := float64(c[0].logit), float64(s.opt.Temperature)
	var sum float64
	for i := range c {
		sum += math.Exp((float64(c[i].logit) - top) / temp)
		c[i].cum = sum
	}
	if p := float64(s.opt.TopP); p > 0 && p < 1 {
		for i := range c {
			if c[i].cum >= p*sum {
				c, sum = c[:i+1], c[i].cum
				break
			}
		}
	}
	u := s.rng.Float64() * sum
	for _, x := range c {
		if u < x.cum {
			return x.id, nil
		}
	}
	return c[len(c)-1].id, nil // u rounded up to sum
}

// before orders candidates by logit, largest first, then by id.
func before(a, b candidate) int {
	if a.logit != b.logit {
		return cmp.Compare(b.logit, a.logit)
	}
	return cmp.Compare(a.id, b.id)
}

// topK returns the k candidates that come first in the order of before,
// unordered: all of them for k = len(logits), else a heap selection.
func (s *Sampler) topK(logits []float32, k int) []candidate {
	c := s.cand[:0]
	if k == len(logits) {
		for i, v := range logits {
			c = append(c, candidate{id: i, logit: v})
		}
		return c
	}
	// c[0] is the candidate that comes last (a heap on "after").
	for i, v := range logits {
		x := candidate{id: i, logit: v}
		if len(c) < k {
			c = append(c, x)
			for j := len(c) - 1; j > 0; {
				p := (j - 1) / 2
				if before(c[j], c[p]) <= 0 {
					break
				}
				c[j], c[p] = c[p], c[j]
				j = p
			}
			continue
		}
		if before(x, c[0]) >= 0 {
			continue
		}
		c[0] = x
		for j := 0; ; {
			l, r, m := 2*j+1, 2*j+2, j
			if l < k && before(c[l], c[m]) > 0 {
				m = l
			}
			if r < k && before(c[r], c[m]) > 0 {
				m = r
			}
			if m == j {
				break
			}
			c[j], c[m] = c[m], c[j]
			j = m
		}
	}
	return c
}
