package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/corelane/corelane/engine/llama"
	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/internal/hugemem"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// modelShape is a Llama-family decoder's hyper-parameters.
type modelShape struct {
	Name                        string
	Dim, Layers, Heads, KVHeads int
	FFN, Vocab                  int
	NormEps, RopeBase           float32
}

var presets = map[string]modelShape{
	// small, the default, runs the whole profile in well under a minute on 2
	// cores; tiny in a few seconds.
	"small": {Name: "small", Dim: 768, Layers: 6, Heads: 12, KVHeads: 4, FFN: 2048, Vocab: 8192, NormEps: 1e-5, RopeBase: 10000},
	"tiny":  {Name: "tiny", Dim: 512, Layers: 4, Heads: 8, KVHeads: 2, FFN: 1536, Vocab: 4096, NormEps: 1e-5, RopeBase: 10000},
	// llama-3.2-1b has Llama-3.2-1B's layer shapes (vocabulary cut to 32000
	// by default to keep start-up short; -vocab 128256 for the real one).
	"llama-3.2-1b": {Name: "llama-3.2-1b", Dim: 2048, Layers: 16, Heads: 32, KVHeads: 8, FFN: 8192, Vocab: 32000, NormEps: 1e-5, RopeBase: 500000},
}

func (m modelShape) headDim() int { return m.Dim / m.Heads }
func (m modelShape) kvDim() int   { return m.KVHeads * m.headDim() }

func (m modelShape) validate() error {
	switch {
	case m.Dim <= 0 || m.Layers <= 0 || m.Heads <= 0 || m.KVHeads <= 0 || m.FFN <= 0 || m.Vocab <= 0:
		return fmt.Errorf("model %s: every dimension must be positive", m.Name)
	case m.Dim%m.Heads != 0 || m.headDim()%2 != 0:
		return fmt.Errorf("model %s: dim %d must split into %d heads of an even size", m.Name, m.Dim, m.Heads)
	case m.Heads%m.KVHeads != 0:
		return fmt.Errorf("model %s: kv heads %d must divide heads %d", m.Name, m.KVHeads, m.Heads)
	case m.Dim%quant.QK_K != 0 || m.FFN%quant.QK_K != 0:
		return fmt.Errorf("model %s: dim %d and ffn %d must be multiples of %d (K-quant rows)", m.Name, m.Dim, m.FFN, quant.QK_K)
	}
	return nil
}

// The weight mixes newModel can make. Both are Q4_K with a Q6_K output
// layer; they differ in attn_v and ffn_down.
const (
	// mixQ4KM is llama.cpp's Q4_K_M: attn_v and ffn_down are Q6_K only in
	// the layers its "more bits" rule picks (the first and last eighth of
	// the layers, and every third layer between), Q4_K elsewhere — for 16
	// layers, 0, 1, 4, 7, 10, 13, 14 and 15.
	mixQ4KM = "q4_k_m"
	// mixPeer is the model of the peer harness's ggml decoder: attn_v and
	// ffn_down Q6_K in every layer.
	mixPeer = "peer"
)

// moreBits is llama.cpp's rule for the layers of a Q4_K_M file whose
// attn_v and ffn_down get Q6_K.
func moreBits(layer, layers int) bool {
	return layer < layers/8 || layer >= 7*layers/8 || (layer-layers/8)%3 == 2
}

// vdType returns the type of attn_v and ffn_down in layer l.
func vdType(mix string, l, layers int) quant.Type {
	if mix == mixPeer || moreBits(l, layers) {
		return quant.Q6K
	}
	return quant.Q4K
}

// config is the shape as a llama.Config (a context of ctx positions).
func (m modelShape) config(ctx int) llama.Config {
	return llama.Config{Dim: m.Dim, Layers: m.Layers, Heads: m.Heads, KVHeads: m.KVHeads, HeadDim: m.headDim(),
		FFN: m.FFN, Vocab: m.Vocab, ContextLength: ctx, NormEps: m.NormEps, RoPEDims: m.headDim(), RoPEBase: m.RopeBase, RoPEScale: 1}
}

// tensorType is the type of a weight of a random model under mix: Q4_K,
// with Q6_K for the output layer and for attn_v and ffn_down where vdType
// says.
func tensorType(mix, name string, layers int) quant.Type {
	if name == "output.weight" {
		return quant.Q6K
	}
	var l int
	var part string
	if _, err := fmt.Sscanf(name, "blk.%d.%s", &l, &part); err == nil && (part == "attn_v.weight" || part == "ffn_down.weight") {
		return vdType(mix, l, layers)
	}
	return quant.Q4K
}

// newModel makes a random model quantized as a Q4_K_M file would be (mix
// says which rule; see tensorType) and loads it with package llama, as a
// file on disk would be: the GGUF is built in memory (llama.Schema,
// gguf.Encode with zero data, gguf.Parse), then each tensor's data is
// written in place with random values, quantized. ctx is the context the
// metadata states.
// sliceWriter writes into a fixed slice, failing when it is full.
type sliceWriter struct {
	b []byte
	n int
}

func (w *sliceWriter) Write(p []byte) (int, error) {
	if len(p) > len(w.b)-w.n {
		return 0, fmt.Errorf("model file larger than the %d bytes reserved for it", len(w.b))
	}
	w.n += copy(w.b[w.n:], p)
	return len(p), nil
}

// newModel makes a random model of shape m, its weights quantized by the
// mix rule, in huge-page memory when huge is set. release frees the
// weights' memory; the model must not be used afterwards.
func newModel(m modelShape, mix string, seed uint64, ctx int, huge bool, progress func(string)) (model *llama.Model, release func() error, err error) {
	r := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	kv, ts := llama.Schema(m.config(ctx))
	largest := int64(0)
	for i := range ts {
		t := &ts[i]
		if len(t.Dims) == 2 {
			t.Type = tensorType(mix, t.Name, m.Layers)
		}
		largest = max(largest, t.Bytes())
	}
	zeros := make([]byte, largest)
	var total int64
	for i := range ts {
		ts[i].Data = zeros[:ts[i].Bytes()]
		total += ts[i].Bytes() + 32
	}
	// The file is written straight into its final memory: from hugemem
	// when huge is set (see gguf.Options.HugePages), else the Go heap.
	var mem []byte
	release = func() error { return nil }
	if huge {
		b, err := hugemem.Alloc(int(total) + 1<<20)
		if err != nil {
			return nil, nil, err
		}
		mem, release = b.Bytes, b.Free
	} else {
		mem = make([]byte, int(total)+1<<20)
	}
	defer func() {
		if err != nil {
			release()
		}
	}()
	w := &sliceWriter{b: mem}
	if err := gguf.Encode(w, &gguf.File{KV: kv, Tensors: ts}); err != nil {
		return nil, nil, err
	}
	f, err := gguf.Parse(mem[:w.n])
	if err != nil {
		return nil, nil, err
	}
	ws := 8 / float64(m.Dim) // keeps activations O(1) through the layers
	for i := range f.Tensors {
		t := &f.Tensors[i]
		progress(fmt.Sprintf("%s (%d/%d)", t.Name, i+1, len(f.Tensors)))
		cols, rows := int(t.Dims[0]), int(t.Rows())
		vals := make([]float32, rows*cols)
		switch {
		case len(t.Dims) == 1: // a norm
			for j := range vals {
				vals[j] = 1 + float32(r.NormFloat64()*0.05)
			}
		case t.Name == "token_embd.weight":
			for j := range vals {
				vals[j] = float32(r.NormFloat64())
			}
		default:
			for j := range vals {
				vals[j] = float32(r.NormFloat64() * ws)
			}
		}
		rb, err := quant.RowSize(t.Type, cols)
		if err != nil {
			return nil, nil, err
		}
		// t.Data is a view of buf: the tensor's bytes are written in
		// place. Rows quantize independently: spread them over the cores.
		err = sched.TryRange(sched.Hardware(), rows, 16, func(start, end int) error {
			return quant.QuantizeRows(t.Type, t.Data[start*rb:end*rb], vals[start*cols:end*cols], cols)
		})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", t.Name, err)
		}
	}
	model, err = llama.Load(f)
	return model, release, err
}
