package llama

import (
	"errors"
	"fmt"
	"math"

	"github.com/corelane/corelane/gguf"
)

// Architecture is the general.architecture value this package runs.
const Architecture = "llama"

// Errors of Load, for errors.Is. Each error also names the key, tensor or
// value at fault; metadata errors wrap gguf.ErrMissingKey or gguf.ErrType.
var (
	// ErrArchitecture: general.architecture is not "llama".
	ErrArchitecture = errors.New("unsupported architecture")
	// ErrUnsupported: the file uses a feature this decoder does not
	// implement (a tensor type it cannot multiply, experts, YaRN, ...).
	ErrUnsupported = errors.New("unsupported model")
	// ErrModel: the metadata or tensors are inconsistent (a tensor missing
	// or of the wrong shape, heads that do not divide, ...).
	ErrModel = errors.New("bad model")
)

// Config is a Llama model's hyper-parameters, from its GGUF metadata (the
// keys are llama.*, after general.architecture).
type Config struct {
	Dim     int // embedding_length
	Layers  int // block_count
	Heads   int // attention.head_count
	KVHeads int // attention.head_count_kv (default: Heads)
	HeadDim int // attention.key_length (default: Dim/Heads)
	FFN     int // feed_forward_length
	Vocab   int // rows of token_embd.weight
	// ContextLength is context_length: the positions the model was made
	// for (a Session may hold more; see Options.Context).
	ContextLength int
	NormEps       float32 // attention.layer_norm_rms_epsilon
	RoPEDims      int     // rope.dimension_count (default: HeadDim)
	RoPEBase      float32 // rope.freq_base (default 10000)
	// RoPEScale multiplies the RoPE angles: 1/rope.scaling.factor for
	// rope.scaling.type "linear" (or the older rope.scale_linear), else 1.
	RoPEScale float32
	// TiedOutput: the file has no output.weight; the output layer is
	// token_embd.weight.
	TiedOutput bool
}

func key(k string) string { return Architecture + "." + k }

// metaErr wraps an error of a gguf accessor: "llama: gguf: key ...".
func metaErr(err error) error { return fmt.Errorf("llama: %w", err) }

// readConfig reads the hyper-parameters of f (Vocab and TiedOutput come
// from the tensors, in Load).
func readConfig(f *gguf.File) (Config, error) {
	arch, err := f.String("general.architecture")
	if err != nil {
		return Config{}, metaErr(err)
	}
	if arch != Architecture {
		return Config{}, fmt.Errorf("llama: %w %q (general.architecture; this decoder runs %q)", ErrArchitecture, arch, Architecture)
	}
	var c Config
	positive := func(dst *int, k string, def int) error {
		v, err := f.Uint32(key(k))
		switch {
		case errors.Is(err, gguf.ErrMissingKey) && def > 0:
			*dst = def
			return nil
		case err != nil:
			return metaErr(err)
		case v == 0 || v > 1<<24:
			return fmt.Errorf("llama: %w: %s = %d, want 1 … %d", ErrModel, key(k), v, 1<<24)
		}
		*dst = int(v)
		return nil
	}
	for _, p := range []struct {
		dst *int
		k   string
	}{
		{&c.Dim, "embedding_length"}, {&c.Layers, "block_count"}, {&c.Heads, "attention.head_count"},
		{&c.FFN, "feed_forward_length"}, {&c.ContextLength, "context_length"},
	} {
		if err := positive(p.dst, p.k, 0); err != nil {
			return c, err
		}
	}
	if err := positive(&c.KVHeads, "attention.head_count_kv", c.Heads); err != nil {
		return c, err
	}
	if c.Dim%c.Heads != 0 {
		if _, ok := f.Lookup(key("attention.key_length")); !ok {
			return c, fmt.Errorf("llama: %w: %s = %d is not a multiple of %s = %d (and %s is absent)",
				ErrModel, key("embedding_length"), c.Dim, key("attention.head_count"), c.Heads, key("attention.key_length"))
		}
	}
	if err := positive(&c.HeadDim, "attention.key_length", c.Dim/max(c.Heads, 1)); err != nil {
		return c, err
	}
	vdim := 0
	if err := positive(&vdim, "attention.value_length", c.HeadDim); err != nil {
		return c, err
	}
	if vdim != c.HeadDim {
		return c, fmt.Errorf("llama: %w: %s = %d differs from %s = %d", ErrUnsupported, key("attention.value_length"), vdim, key("attention.key_length"), c.HeadDim)
	}
	if c.Heads%c.KVHeads != 0 {
		return c, fmt.Errorf("llama: %w: %s = %d does not divide %s = %d", ErrModel, key("attention.head_count_kv"), c.KVHeads, key("attention.head_count"), c.Heads)
	}
	if c.HeadDim%2 != 0 {
		return c, fmt.Errorf("llama: %w: the head size %d is odd (RoPE rotates pairs)", ErrModel, c.HeadDim)
	}
	if n, err := f.Uint32(key("expert_count")); err == nil && n > 0 {
		return c, fmt.Errorf("llama: %w: %s = %d (a mixture of experts)", ErrUnsupported, key("expert_count"), n)
	} else if err != nil && !errors.Is(err, gguf.ErrMissingKey) {
		return c, metaErr(err)
	}
	if c.NormEps, err = f.Float32(key("attention.layer_norm_rms_epsilon")); err != nil {
		return c, metaErr(err)
	}
	if !(c.NormEps >= 0) || math.IsInf(float64(c.NormEps), 0) {
		return c, fmt.Errorf("llama: %w: %s = %v, want a finite value ≥ 0", ErrModel, key("attention.layer_norm_rms_epsilon"), c.NormEps)
	}
	if err := positive(&c.RoPEDims, "rope.dimension_count", c.HeadDim); err != nil {
		return c, err
	}
	if c.RoPEDims%2 != 0 || c.RoPEDims > c.HeadDim {
		return c, fmt.Errorf("llama: %w: %s = %d, want an even number of at most the head size %d", ErrModel, key("rope.dimension_count"), c.RoPEDims, c.HeadDim)
	}
	c.RoPEBase, err = f.Float32(key("rope.freq_base"))
	switch {
	case errors.Is(err, gguf.ErrMissingKey):
		c.RoPEBase = 10000
	case err != nil:
		return c, metaErr(err)
	case !(c.RoPEBase > 1) || math.IsInf(float64(c.RoPEBase), 0):
		return c, fmt.Errorf("llama: %w: %s = %v, want a finite value > 1", ErrModel, key("rope.freq_base"), c.RoPEBase)
	}
	if c.RoPEScale, err = ropeScale(f); err != nil {
		return c, err
	}
	return c, nil
}

// ropeScale returns the RoPE angle factor of rope.scaling.type (none or
// linear) and rope.scaling.factor, or of the older rope.scale_linear.
func ropeScale(f *gguf.File) (float32, error) {
	typ, err := f.String(key("rope.scaling.type"))
	switch {
	case errors.Is(err, gguf.ErrMissingKey):
		typ = ""
	case err != nil:
		return 0, metaErr(err)
	}
	factorKey := key("rope.scaling.factor")
	switch typ {
	case "", "none":
		if typ == "" {
			if _, ok := f.Lookup(key("rope.scale_linear")); ok {
				typ, factorKey = "linear", key("rope.scale_linear")
				break
			}
		}
		return 1, nil
	case "linear":
	default:
		return 0, fmt.Errorf("llama: %w: %s = %q (want none or linear)", ErrUnsupported, key("rope.scaling.type"), typ)
	}
	factor, err := f.Float32(factorKey)
	if err != nil {
		return 0, metaErr(err)
	}
	if factor == 0 || factor == 1 {
		return 1, nil // ggml treats 0 as no scaling
	}
	if !(factor > 0) || math.IsInf(float64(factor), 0) {
		return 0, fmt.Errorf("llama: %w: %s = %v, want a finite value > 0", ErrModel, factorKey, factor)
	}
	return 1 / factor, nil
}
