package llama

import (
	"fmt"
	"time"

	"github.com/corelane/corelane/spi"
)

// Generation is what Generate feeds and samples.
type Generation struct {
	// Prompt is fed as one prefill; it must not be empty (BOS alone is a
	// prompt).
	Prompt []int
	// Force is fed after the prompt, one decode step per id, instead of
	// sampled tokens (teacher forcing).
	Force []int
	// N tokens are sampled after Prompt and Force: each from the logits of
	// the previous token, and fed in turn, except the last.
	N int
	// Sampler picks the N tokens; nil means greedy (spi.Argmax).
	Sampler *spi.Sampler
	// Logits, if not nil, receives the logits after each token fed: one
	// row per prompt token, then one per forced id and one per sampled
	// token but the last. The row is valid during the call only.
	Logits func(row []float32) error
	// Token, if not nil, receives each sampled token as soon as it is
	// chosen; stop = true ends the generation after it.
	Token func(id int) (stop bool, err error)
}

// Stats are a Generate call's counts and wall times: the prefill (the
// prompt's one Forward) and the decode steps (every later Forward, forced
// or sampled, with the sampling).
type Stats struct {
	PrefillTokens int
	Prefill       time.Duration
	DecodeTokens  int
	Decode        time.Duration
}

// Generate runs g on the session from its current position and returns
// the sampled ids. The sampler runs on the calling goroutine, so a given
// seed gives the same tokens under every schedule.
func (s *Session) Generate(g Generation) ([]int, Stats, error) {
	var st Stats
	if len(g.Prompt) == 0 {
		return nil, st, fmt.Errorf("llama: Generate: an empty prompt (feed BOS at least)")
	}
	if g.N < 0 {
		return nil, st, fmt.Errorf("llama: Generate: N = %d, want ≥ 0", g.N)
	}
	if need := s.pos + len(g.Prompt) + len(g.Force) + max(g.N-1, 0); need > s.cap {
		return nil, st, fmt.Errorf("llama: Generate: %w: %d prompt tokens, %d forced and %d to generate need %d positions, the context holds %d",
			ErrContext, len(g.Prompt), len(g.Force), g.N, need, s.cap)
	}
	emit := func(logits []float32, rows int) error {
		if g.Logits == nil {
			return nil
		}
		v := s.m.Config.Vocab
		for r := 0; r < rows; r++ {
			if err := g.Logits(logits[r*v : (r+1)*v]); err != nil {
				return err
			}
		}
		return nil
	}
	start := time.Now()
	logits, err := s.Forward(g.Prompt, g.Logits != nil)
	if err != nil {
		return nil, st, err
	}
	st.Prefill, st.PrefillTokens = time.Since(start), len(g.Prompt)
	if err := emit(logits, len(g.Prompt)); err != nil {
		return nil, st, err
	}
	v := s.m.Config.Vocab
	logits = logits[len(logits)-v:]
	start = time.Now()
	one := []int{0}
	step := func(id int) error {
		var err error
		one[0] = id
		if logits, err = s.Forward(one, false); err != nil {
			return err
		}
		st.DecodeTokens++
		return emit(logits, 1)
	}
	for _, id := range g.Force {
		if err := step(id); err != nil {
			st.Decode = time.Since(start)
			return nil, st, err
		}
	}
	var out []int
	for i := 0; i < g.N; i++ {
		var id int
		if g.Sampler != nil {
			id, err = g.Sampler.Sample(logits)
		} else {
			id, err = spi.Argmax(logits)
		}
		if err != nil {
			st.Decode = time.Since(start)
			return out, st, fmt.Errorf("llama: Generate: step %d: %w", i, err)
		}
		out = append(out, id)
		if g.Token != nil {
			stop, err := g.Token(id)
			if err != nil || stop {
				st.Decode = time.Since(start)
				return out, st, err
			}
		}
		if i+1 < g.N {
			if err := step(id); err != nil {
				st.Decode = time.Since(start)
				return out, st, err
			}
		}
	}
	st.Decode = time.Since(start)
	return out, st, nil
}
