package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/spi"
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

type layerWeights struct {
	attnNorm, ffnNorm []float32
	wq, wk, wv, wo    spi.Matrix
	wGate, wUp, wDown spi.Matrix
}

type weights struct {
	embed      spi.Matrix
	layers     []layerWeights
	outputNorm []float32
	output     spi.Matrix
}

// The weight mixes newWeights can make. Both are Q4_K with a Q6_K output
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

// bytesPerToken is what one decode step reads from the weights: every
// matrix once, and one row of the embedding.
func (w *weights) bytesPerToken() int {
	n := len(w.output.Data) + len(w.embed.Data)/w.embed.Rows
	for _, l := range w.layers {
		for _, m := range []spi.Matrix{l.wq, l.wk, l.wv, l.wo, l.wGate, l.wUp, l.wDown} {
			n += len(m.Data)
		}
	}
	return n
}

// newWeights makes random weights quantized as a Q4_K_M file would be
// (mix says which rule): Q4_K, with Q6_K for attn_v and ffn_down (see
// vdType) and the output layer.
func newWeights(m modelShape, mix string, seed uint64, progress func(string)) (*weights, error) {
	r := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	mat := func(t quant.Type, rows, cols int, scale float64) (spi.Matrix, error) {
		vals := make([]float32, rows*cols)
		for i := range vals {
			vals[i] = float32(r.NormFloat64() * scale)
		}
		rb, err := quant.RowSize(t, cols)
		if err != nil {
			return spi.Matrix{}, err
		}
		data := make([]byte, rows*rb)
		// Rows quantize independently: spread them over the cores.
		err = sched.TryRange(sched.Hardware(), rows, 16, func(start, end int) error {
			return quant.QuantizeRows(t, data[start*rb:end*rb], vals[start*cols:end*cols], cols)
		})
		if err != nil {
			return spi.Matrix{}, err
		}
		return spi.Matrix{Type: t, Rows: rows, Cols: cols, Data: data}, nil
	}
	ones := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = 1 + float32(r.NormFloat64()*0.05)
		}
		return v
	}
	w := &weights{outputNorm: ones(m.Dim)}
	var err error
	ws := 1 / float64(m.Dim) // keeps activations O(1) through the layers
	progress("embedding")
	if w.embed, err = mat(quant.Q4K, m.Vocab, m.Dim, 1); err != nil {
		return nil, err
	}
	for l := 0; l < m.Layers; l++ {
		progress(fmt.Sprintf("layer %d/%d", l+1, m.Layers))
		var lw layerWeights
		lw.attnNorm, lw.ffnNorm = ones(m.Dim), ones(m.Dim)
		for _, p := range []struct {
			dst        *spi.Matrix
			t          quant.Type
			rows, cols int
		}{
			{&lw.wq, quant.Q4K, m.Dim, m.Dim}, {&lw.wk, quant.Q4K, m.kvDim(), m.Dim}, {&lw.wv, vdType(mix, l, m.Layers), m.kvDim(), m.Dim},
			{&lw.wo, quant.Q4K, m.Dim, m.Dim}, {&lw.wGate, quant.Q4K, m.FFN, m.Dim}, {&lw.wUp, quant.Q4K, m.FFN, m.Dim},
			{&lw.wDown, vdType(mix, l, m.Layers), m.Dim, m.FFN},
		} {
			if *p.dst, err = mat(p.t, p.rows, p.cols, ws*8); err != nil {
				return nil, err
			}
		}
		w.layers = append(w.layers, lw)
	}
	progress("output")
	if w.output, err = mat(quant.Q6K, m.Vocab, m.Dim, ws*8); err != nil {
		return nil, err
	}
	return w, nil
}
