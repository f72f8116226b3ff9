package tokenizer

import (
	"errors"
	"fmt"

	"github.com/corelane/corelane/gguf"
)

// FromGGUF builds the tokenizer a GGUF file describes in its
// tokenizer.ggml.* metadata: model, tokens, scores, token_type, merges,
// pre, the special ids (bos_token_id, eos_token_id, eot_token_id,
// eom_token_id, unknown_token_id, padding_token_id) and the flags
// add_bos_token, add_eos_token and add_space_prefix.
//
// Absent keys take llama.cpp's defaults: for llama, BOS 1, EOS 2, UNK 0,
// AddBOS and AddSpacePrefix true; for gpt2, BOS and EOS 11, no UNK, no
// flags. A special id the vocabulary does not have is ignored as llama.cpp
// ignores it (the default stays, or none if the default is out of range
// too). A missing tokenizer.ggml.model or .tokens, a gpt2 vocabulary
// without merges or pre, an unknown model or pre, or a key of the wrong
// type is an error naming the key.
func FromGGUF(f *gguf.File) (*Tokenizer, error) {
	const p = "tokenizer.ggml."
	model, err := f.String(p + "model")
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	v := Vocab{Model: model, BOS: -1, EOS: -1, EOT: -1, EOM: -1, UNK: -1, PAD: -1}
	switch model {
	case ModelLlama:
		v.BOS, v.EOS, v.UNK = 1, 2, 0
		v.AddBOS, v.AddSpacePrefix = true, true
	case ModelGPT2:
		v.BOS, v.EOS = 11, 11
	default:
		return nil, vocabErr("unsupported tokenizer model %q in %smodel (supported: %s, %s)", model, p, ModelLlama, ModelGPT2)
	}
	if v.Tokens, err = f.Strings(p + "tokens"); err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	if err := optional(func() (err error) { v.Pre, err = f.String(p + "pre"); return }); err != nil {
		return nil, err
	}
	if model == ModelGPT2 {
		if v.Merges, err = f.Strings(p + "merges"); err != nil {
			return nil, fmt.Errorf("tokenizer: the gpt2 model needs merges: %w", err)
		}
	}
	// Scores are f32, or i32 in some converted files.
	if err := optional(func() (err error) { v.Scores, err = f.Float32s(p + "scores"); return }); errors.Is(err, gguf.ErrType) {
		ints, err2 := f.Int32s(p + "scores")
		if err2 != nil {
			return nil, err
		}
		v.Scores = make([]float32, len(ints))
		for i, s := range ints {
			v.Scores[i] = float32(s)
		}
	} else if err != nil {
		return nil, err
	}
	if err := optional(func() error {
		types, err := f.Int32s(p + "token_type")
		for _, x := range types {
			v.Types = append(v.Types, TokenType(x))
		}
		return err
	}); err != nil {
		return nil, err
	}
	n := int64(len(v.Tokens))
	for _, id := range []struct {
		key string
		dst *int32
	}{{"bos_token_id", &v.BOS}, {"eos_token_id", &v.EOS}, {"eot_token_id", &v.EOT}, {"eom_token_id", &v.EOM},
		{"unknown_token_id", &v.UNK}, {"padding_token_id", &v.PAD}} {
		if int64(*id.dst) >= n {
			*id.dst = -1 // a default the vocabulary does not reach
		}
		if err := optional(func() error {
			x, err := f.Int(p + id.key)
			if err == nil && x >= 0 && x < n {
				*id.dst = int32(x)
			}
			return err
		}); err != nil {
			return nil, err
		}
	}
	for _, flag := range []struct {
		key string
		dst *bool
	}{{"add_bos_token", &v.AddBOS}, {"add_eos_token", &v.AddEOS}, {"add_space_prefix", &v.AddSpacePrefix}} {
		if err := optional(func() (err error) {
			b, err := f.Bool(p + flag.key)
			if err == nil {
				*flag.dst = b
			}
			return err
		}); err != nil {
			return nil, err
		}
	}
	return New(v)
}

// optional runs a metadata read, treating a missing key as no error.
func optional(read func() error) error {
	if err := read(); err != nil && !errors.Is(err, gguf.ErrMissingKey) {
		return fmt.Errorf("tokenizer: %w", err)
	}
	return nil
}
