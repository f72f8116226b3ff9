package llama

import (
	"fmt"
	"slices"
	"strings"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/spi"
)

// Layer is one decoder block's weights.
type Layer struct {
	AttnNorm, FFNNorm []float32
	Q, K, V, O        spi.Matrix
	Gate, Up, Down    spi.Matrix
}

// Model is a loaded Llama model: its hyper-parameters and its weights,
// which are views of the GGUF file's tensor data (never copied, except the
// small norm vectors, which are dequantized to float32).
type Model struct {
	Config Config
	// Embed is token_embd.weight, [Vocab, Dim]; Output is output.weight
	// (Embed itself when Config.TiedOutput).
	Embed, Output spi.Matrix
	OutputNorm    []float32
	// RoPEFactors is rope_freqs.weight (RoPEDims/2 divisors of the
	// angles), or nil.
	RoPEFactors []float32
	Layers      []Layer

	file  *gguf.File // closed by Close when Open opened it
	owned bool
}

// matrixTypes are the weight types spi multiplies.
var matrixTypes = []quant.Type{quant.F32, quant.FP16, quant.Q8_0, quant.Q4K, quant.Q5K, quant.Q6K, quant.Q4_0, quant.Q4_1, quant.Q5_0, quant.Q5_1}

// Open opens the GGUF file at path (memory-mapped) and loads it; Close
// releases it.
func Open(path string) (*Model, error) { return OpenWith(path, gguf.Options{}) }

// OpenWith is Open with the file opened by gguf.OpenWith(path, o): for
// instance o.HugePages, which reads the weights into huge-page-backed
// memory instead of mapping the file (faster decode, at the cost of the
// file's size in memory; see gguf.Options).
func OpenWith(path string, o gguf.Options) (*Model, error) {
	f, err := gguf.OpenWith(path, o)
	if err != nil {
		return nil, err
	}
	m, err := Load(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	m.owned = true
	return m, nil
}

// Close closes the file when Open opened it (a Model from Load leaves its
// File to the caller). The Model must not be used afterwards.
func (m *Model) Close() error {
	if m.owned && m.file != nil {
		f := m.file
		m.file = nil
		return f.Close()
	}
	return nil
}

// File returns the GGUF file the model was loaded from (for its tokenizer
// metadata, say).
func (m *Model) File() *gguf.File { return m.file }

// Load reads a Llama model from f: the hyper-parameters from its metadata
// and every weight tensor, checked for name, shape and type. The tensors'
// data stay in f, which must stay open while the model is used. Every
// problem is an error naming the key or tensor: a wrong architecture
// (ErrArchitecture), a missing or mistyped key (gguf.ErrMissingKey,
// gguf.ErrType), a tensor missing, of the wrong shape, or unexpected
// (ErrModel), or of a type spi cannot multiply (ErrUnsupported).
func Load(f *gguf.File) (*Model, error) {
	c, err := readConfig(f)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	get := func(name string, dims ...int) (*gguf.Tensor, error) {
		t, ok := f.Tensor(name)
		if !ok {
			return nil, fmt.Errorf("llama: %w: tensor %s is missing", ErrModel, name)
		}
		used[name] = true
		want := make([]int64, len(dims))
		for i, d := range dims {
			want[i] = int64(d)
		}
		if !slices.Equal(t.Dims, want) {
			return nil, fmt.Errorf("llama: %w: tensor %s has dims %v, want %v", ErrModel, name, t.Dims, want)
		}
		return t, nil
	}
	matrix := func(name string, rows, cols int) (spi.Matrix, error) {
		t, err := get(name, cols, rows)
		if err != nil {
			return spi.Matrix{}, err
		}
		if !slices.Contains(matrixTypes, t.Type) {
			return spi.Matrix{}, fmt.Errorf("llama: %w: tensor %s has type %s, which is not a weight type (want one of %s)",
				ErrUnsupported, name, gguf.TypeName(t.Type), typeList())
		}
		return spi.Matrix{Type: t.Type, Rows: rows, Cols: cols, Data: t.Data}, nil
	}
	vector := func(name string, n int) ([]float32, error) {
		t, err := get(name, n)
		if err != nil {
			return nil, err
		}
		v := make([]float32, n)
		if err := quant.Dequantize(t.Type, v, t.Data); err != nil {
			return nil, fmt.Errorf("llama: %w: tensor %s: %v", ErrUnsupported, name, err)
		}
		return v, nil
	}

	m := &Model{file: f}
	emb, ok := f.Tensor("token_embd.weight")
	if !ok {
		return nil, fmt.Errorf("llama: %w: tensor token_embd.weight is missing", ErrModel)
	}
	if len(emb.Dims) != 2 || emb.Dims[1] < 1 || emb.Dims[1] > 1<<24 {
		return nil, fmt.Errorf("llama: %w: tensor token_embd.weight has dims %v, want [%d vocabulary]", ErrModel, emb.Dims, c.Dim)
	}
	c.Vocab = int(emb.Dims[1])
	if n, err := f.Uint32(key("vocab_size")); err == nil && int(n) != c.Vocab {
		return nil, fmt.Errorf("llama: %w: %s = %d, but token_embd.weight has %d rows", ErrModel, key("vocab_size"), n, c.Vocab)
	}
	if m.Embed, err = matrix("token_embd.weight", c.Vocab, c.Dim); err != nil {
		return nil, err
	}
	if _, ok := f.Tensor("output.weight"); ok {
		if m.Output, err = matrix("output.weight", c.Vocab, c.Dim); err != nil {
			return nil, err
		}
	} else {
		c.TiedOutput, m.Output = true, m.Embed
	}
	if m.OutputNorm, err = vector("output_norm.weight", c.Dim); err != nil {
		return nil, err
	}
	if _, ok := f.Tensor("rope_freqs.weight"); ok {
		if m.RoPEFactors, err = vector("rope_freqs.weight", c.RoPEDims/2); err != nil {
			return nil, err
		}
		for i, v := range m.RoPEFactors {
			if !(v > 0) || v > 3.4e38 {
				return nil, fmt.Errorf("llama: %w: rope_freqs.weight[%d] = %v, want a finite value > 0", ErrModel, i, v)
			}
		}
	}
	qd, kvd := c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	for l := 0; l < c.Layers; l++ {
		var ly Layer
		p := fmt.Sprintf("blk.%d.", l)
		for _, w := range []struct {
			dst        *spi.Matrix
			name       string
			rows, cols int
		}{
			{&ly.Q, "attn_q", qd, c.Dim}, {&ly.K, "attn_k", kvd, c.Dim}, {&ly.V, "attn_v", kvd, c.Dim},
			{&ly.O, "attn_output", c.Dim, qd},
			{&ly.Gate, "ffn_gate", c.FFN, c.Dim}, {&ly.Up, "ffn_up", c.FFN, c.Dim}, {&ly.Down, "ffn_down", c.Dim, c.FFN},
		} {
			if *w.dst, err = matrix(p+w.name+".weight", w.rows, w.cols); err != nil {
				return nil, err
			}
		}
		if ly.AttnNorm, err = vector(p+"attn_norm.weight", c.Dim); err != nil {
			return nil, err
		}
		if ly.FFNNorm, err = vector(p+"ffn_norm.weight", c.Dim); err != nil {
			return nil, err
		}
		m.Layers = append(m.Layers, ly)
	}
	for _, t := range f.Tensors {
		if !used[t.Name] {
			return nil, fmt.Errorf("llama: %w: unexpected tensor %s (%s %v): not part of a %d-layer llama model",
				ErrUnsupported, t.Name, gguf.TypeName(t.Type), t.Dims, c.Layers)
		}
	}
	m.Config = c
	return m, nil
}

func typeList() string {
	names := make([]string, len(matrixTypes))
	for i, t := range matrixTypes {
		names[i] = gguf.TypeName(t)
	}
	return strings.Join(names, ", ")
}

// matrices lists every weight matrix a decode step reads, the output layer
// last (the embedding only through its lookup).
func (m *Model) matrices() []spi.Matrix {
	var ms []spi.Matrix
	for _, l := range m.Layers {
		ms = append(ms, l.Q, l.K, l.V, l.O, l.Gate, l.Up, l.Down)
	}
	return append(ms, m.Output)
}

// WeightBytesPerToken is what one decode step reads of the weights: every
// matrix once, one row of the embedding and the norm vectors — the bytes a
// memory-bound decoder streams from DRAM per token.
func (m *Model) WeightBytesPerToken() int64 {
	var n int64
	for _, w := range m.matrices() {
		n += int64(len(w.Data))
	}
	n += int64(len(m.Embed.Data) / m.Embed.Rows)
	n += int64(4 * m.Config.Dim * (2*m.Config.Layers + 1))
	return n
}

// WeightBytes is the size of every weight tensor (the embedding counted
// once when the output layer shares it).
func (m *Model) WeightBytes() int64 {
	n := int64(len(m.Embed.Data))
	for _, w := range m.matrices() {
		n += int64(len(w.Data))
	}
	if m.Config.TiedOutput {
		n -= int64(len(m.Output.Data))
	}
	return n + int64(4*m.Config.Dim*(2*m.Config.Layers+1))
}

// Types counts the weight matrices of each type, embedding included.
func (m *Model) Types() map[quant.Type]int {
	n := map[quant.Type]int{m.Embed.Type: 1}
	ms := m.matrices()
	if m.Config.TiedOutput {
		ms = ms[:len(ms)-1]
	}
	for _, w := range ms {
		n[w.Type]++
	}
	return n
}

// PageIn reads one byte of every page of the weights, so that a
// memory-mapped file is in memory before the first token is timed.
// progress, if not nil, is called with the bytes done and the total,
// about every 64 MiB and at the end.
func (m *Model) PageIn(progress func(done, total int64)) {
	ms := append([]spi.Matrix{m.Embed}, m.matrices()...)
	if m.Config.TiedOutput {
		ms = ms[:len(ms)-1]
	}
	var total, done, next int64
	for _, w := range ms {
		total += int64(len(w.Data))
	}
	var sink byte
	for _, w := range ms {
		for i := 0; i < len(w.Data); i += 4096 {
			sink += w.Data[i]
		}
		done += int64(len(w.Data))
		if progress != nil && done >= next {
			progress(done, total)
			next = done + 64<<20
		}
	}
	pageSink = sink
	if progress != nil {
		progress(total, total)
	}
}

var pageSink byte
