package tokenizer

import (
	"fmt"
	"strings"
)

// Encode returns the token ids of text, as llama.cpp's llama_tokenize does
// with parse_special = false (the setting of its tokenizer tests): the
// literal text of a control token such as "<s>" or "<|endoftext|>" is
// tokenized as ordinary text, while user-defined tokens are still matched
// whole. With addBOS the ids start with BOS (an error if the vocabulary
// has none); EOS is never added (append EOS() when AddEOS() says so).
//
// For a llama vocabulary a space is put before the text and after every
// special token when the vocabulary says so (AddSpacePrefix; llama.cpp's
// default), spaces become U+2581, pieces merge by score, and text no token
// covers falls back to byte tokens <0xNN> (or UNK). The empty text gives
// no ids. An error means a byte has no token and there is no UNK.
func (t *Tokenizer) Encode(text string, addBOS bool) ([]int32, error) {
	return t.encode(text, addBOS, false)
}

// EncodeSpecial is Encode with llama.cpp's parse_special = true: the
// literal text of every control, unknown and user-defined token in text
// (a chat template's "<|im_start|>", "<s>") becomes that token's id.
func (t *Tokenizer) EncodeSpecial(text string, addBOS bool) ([]int32, error) {
	return t.encode(text, addBOS, true)
}

func (t *Tokenizer) encode(text string, addBOS, parseSpecial bool) ([]int32, error) {
	var out []int32
	if addBOS {
		if t.bos < 0 {
			return nil, fmt.Errorf("tokenizer: Encode: BOS requested, but the vocabulary has no BOS token")
		}
		out = append(out, t.bos)
	}
	prevSpecial := true // llama: a space prefix goes before the first text too
	for _, f := range t.partition(text, parseSpecial) {
		if f.id >= 0 {
			out = append(out, f.id)
			prevSpecial = true
			continue
		}
		var err error
		if t.model == ModelLlama {
			s := f.text
			if t.addSpace && prevSpecial {
				s = " " + s
			}
			out, err = t.spm(strings.ReplaceAll(s, " ", "▁"), out)
		} else {
			out = t.bpe(f.text, out)
		}
		if err != nil {
			return nil, err
		}
		prevSpecial = false
	}
	return out, nil
}

// fragment is a piece of the input: text to tokenize, or (id >= 0) a
// special token found in it.
type fragment struct {
	text string
	id   int32
}

// partition splits text around the special tokens' literal texts, longest
// token first, each occurrence from the left (llama.cpp's
// tokenizer_st_partition). Control and unknown tokens are matched only
// when parseSpecial is set; user-defined ones always.
func (t *Tokenizer) partition(text string, parseSpecial bool) []fragment {
	if text == "" {
		return nil
	}
	frags := []fragment{{text: text, id: -1}}
	for _, id := range t.specials {
		if !parseSpecial && t.types[id] != UserDefined {
			continue
		}
		tok := t.tokens[id]
		var next []fragment
		for _, f := range frags {
			if f.id >= 0 || !strings.Contains(f.text, tok) {
				next = append(next, f)
				continue
			}
			s := f.text
			for {
				i := strings.Index(s, tok)
				if i < 0 {
					break
				}
				if i > 0 {
					next = append(next, fragment{text: s[:i], id: -1})
				}
				next = append(next, fragment{id: id})
				s = s[i+len(tok):]
			}
			if s != "" {
				next = append(next, fragment{text: s, id: -1})
			}
		}
		frags = next
	}
	return frags
}
