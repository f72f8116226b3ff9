package spi

import "math"

// RoPEOptions are the parameters of RoPEWith: what a GGUF file's
// rope.* metadata (and a rope_freqs tensor) say.
type RoPEOptions struct {
	// Dims is the number of leading dimensions of each head that are
	// rotated (rope.dimension_count); the rest pass through unchanged. 0
	// means the whole head. It must be even and at most the head size.
	Dims int
	// Base is the frequency base (rope.freq_base, often 10000); it must be
	// finite and greater than 1.
	Base float32
	// Neox rotates the pairs (i, i+Dims/2) instead of adjacent pairs (2i,
	// 2i+1), as RoPE's neox argument does.
	Neox bool
	// FreqScale multiplies every angle (linear RoPE scaling: 1/factor); 0
	// means 1. It must be finite and positive.
	FreqScale float32
	// FreqFactors, if not nil, divides the angle of pair i by
	// FreqFactors[i] (Llama 3.1's rope_freqs tensor): Dims/2 finite
	// positive values.
	FreqFactors []float32
}

// RoPEWith rotates x in place as RoPE does, with the options a model file
// may set: x is [tokens, heads, headDim] and token t sits at position
// pos[t]. Pair i (i < Dims/2) of the first Dims dimensions of each head is
// rotated by the angle
//
//	pos · FreqScale · Base^(−2i/Dims) / FreqFactors[i]
//
// computed in float64 and rounded once (as RoPE's, which RoPEWith equals
// bit for bit when Dims is the head size and there is no scaling); the
// dimensions from Dims on are left as they are. This is ggml's rope with
// n_dims = Dims, freq_scale = FreqScale and freq_factors = FreqFactors
// (no YaRN extrapolation). The split over tokens never changes a bit.
func (c Context) RoPEWith(x []float32, tokens, heads, headDim int, pos []int, o RoPEOptions) error {
	const op = "RoPEWith"
	if tokens <= 0 || heads <= 0 || headDim <= 0 {
		return shapeErr(op, "tokens = %d, heads = %d, headDim = %d, want positive", tokens, heads, headDim)
	}
	rot := o.Dims
	if rot == 0 {
		rot = headDim
	}
	if rot < 0 || rot%2 != 0 || rot > headDim {
		return shapeErr(op, "Dims = %d, want an even number of at most headDim = %d", o.Dims, headDim)
	}
	if len(x) != tokens*heads*headDim {
		return shapeErr(op, "len(x) = %d, want %d (%d tokens × %d heads × %d)", len(x), tokens*heads*headDim, tokens, heads, headDim)
	}
	if len(pos) != tokens {
		return shapeErr(op, "len(pos) = %d, want tokens = %d", len(pos), tokens)
	}
	if !(o.Base > 1) || math.IsInf(float64(o.Base), 0) {
		return shapeErr(op, "Base = %v, want a finite value > 1", o.Base)
	}
	if o.FreqScale != 0 && (!(o.FreqScale > 0) || math.IsInf(float64(o.FreqScale), 0)) {
		return shapeErr(op, "FreqScale = %v, want 0 (none) or a finite value > 0", o.FreqScale)
	}
	if o.FreqFactors != nil {
		if len(o.FreqFactors) != rot/2 {
			return shapeErr(op, "len(FreqFactors) = %d, want Dims/2 = %d", len(o.FreqFactors), rot/2)
		}
		for i, f := range o.FreqFactors {
			if !(f > 0) || math.IsInf(float64(f), 0) {
				return shapeErr(op, "FreqFactors[%d] = %v, want a finite value > 0", i, f)
			}
		}
	}
	c.traceOp(op)
	j := getJob(opRoPE)
	j.x, j.heads, j.dim, j.pos, j.base, j.neox = x, heads, headDim, pos, o.Base, o.Neox
	j.rot, j.freqFactors = rot, o.FreqFactors
	if o.FreqScale != 0 && o.FreqScale != 1 {
		j.freqScale = float64(o.FreqScale)
	}
	c.runRoPE(j, tokens)
	return nil
}
