package llama

import (
	"fmt"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
)

// Schema returns what a GGUF file of a model with hyper-parameters c
// holds, as llama.cpp's converters write it: the llama.* metadata (and
// general.architecture) and every tensor's name and dims, in file order,
// typed F32 and without data. A program that makes a model (random
// weights for a benchmark, a test's edge case) sets each tensor's Type and
// Data and writes the file with gguf.Encode; Load reads it back. c.Vocab
// must be set; TiedOutput leaves out output.weight; a RoPEScale other than
// 1 is written as linear scaling. Tokenizer metadata is not included.
func Schema(c Config) ([]gguf.KV, []gguf.Tensor) {
	kv := []gguf.KV{
		{Key: "general.architecture", Value: gguf.String(Architecture)},
		{Key: key("context_length"), Value: gguf.Uint32(uint32(c.ContextLength))},
		{Key: key("embedding_length"), Value: gguf.Uint32(uint32(c.Dim))},
		{Key: key("feed_forward_length"), Value: gguf.Uint32(uint32(c.FFN))},
		{Key: key("block_count"), Value: gguf.Uint32(uint32(c.Layers))},
		{Key: key("attention.head_count"), Value: gguf.Uint32(uint32(c.Heads))},
		{Key: key("attention.head_count_kv"), Value: gguf.Uint32(uint32(c.KVHeads))},
		{Key: key("attention.layer_norm_rms_epsilon"), Value: gguf.Float32(c.NormEps)},
		{Key: key("rope.dimension_count"), Value: gguf.Uint32(uint32(c.RoPEDims))},
		{Key: key("rope.freq_base"), Value: gguf.Float32(c.RoPEBase)},
	}
	if c.HeadDim != 0 && c.HeadDim*c.Heads != c.Dim {
		kv = append(kv, gguf.KV{Key: key("attention.key_length"), Value: gguf.Uint32(uint32(c.HeadDim))},
			gguf.KV{Key: key("attention.value_length"), Value: gguf.Uint32(uint32(c.HeadDim))})
	}
	if c.RoPEScale != 0 && c.RoPEScale != 1 {
		kv = append(kv, gguf.KV{Key: key("rope.scaling.type"), Value: gguf.String("linear")},
			gguf.KV{Key: key("rope.scaling.factor"), Value: gguf.Float32(1 / c.RoPEScale)})
	}
	hd := c.HeadDim
	if hd == 0 {
		hd = c.Dim / max(c.Heads, 1)
	}
	qd, kvd := int64(c.Heads*hd), int64(c.KVHeads*hd)
	dim, ffn, vocab := int64(c.Dim), int64(c.FFN), int64(c.Vocab)
	t := func(name string, dims ...int64) gguf.Tensor {
		return gguf.Tensor{Name: name, Type: quant.F32, Dims: dims}
	}
	ts := []gguf.Tensor{t("token_embd.weight", dim, vocab), t("output_norm.weight", dim)}
	if !c.TiedOutput {
		ts = append(ts, t("output.weight", dim, vocab))
	}
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("blk.%d.", l)
		ts = append(ts,
			t(p+"attn_norm.weight", dim),
			t(p+"attn_q.weight", dim, qd), t(p+"attn_k.weight", dim, kvd), t(p+"attn_v.weight", dim, kvd),
			t(p+"attn_output.weight", qd, dim),
			t(p+"ffn_norm.weight", dim),
			t(p+"ffn_gate.weight", dim, ffn), t(p+"ffn_up.weight", dim, ffn), t(p+"ffn_down.weight", ffn, dim))
	}
	return kv, ts
}
