package tokenizer_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/corelane/corelane/engine/tokenizer"
	"github.com/corelane/corelane/gguf"
)

// spmVocab is a tiny SentencePiece vocabulary: specials, byte tokens for
// 'x', 'é' (C3 A9) and the three bytes of "▁" (E2 96 81), then pieces.
func spmVocab(extra ...string) tokenizer.Vocab {
	toks := []string{"<unk>", "<s>", "</s>", "<0x78>", "<0xC3>", "<0xA9>", "<0xE2>", "<0x96>", "<0x81>",
		"▁", "a", "b", "c", "ab", "bc", "▁a", "<tag>"}
	types := []tokenizer.TokenType{2, 3, 3, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 4}
	toks = append(toks, extra...)
	for range extra {
		types = append(types, tokenizer.Normal)
	}
	return tokenizer.Vocab{Model: "llama", Tokens: toks, Types: types, Scores: make([]float32, len(toks)),
		BOS: 1, EOS: 2, EOT: -1, EOM: -1, UNK: 0, PAD: -1, AddBOS: true, AddSpacePrefix: true}
}

func mustNew(t *testing.T, v tokenizer.Vocab) *tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.New(v)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func encode(t *testing.T, tok *tokenizer.Tokenizer, text string) string {
	t.Helper()
	ids, err := tok.Encode(text, false)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, id := range ids {
		parts = append(parts, tok.Token(id))
	}
	return strings.Join(parts, " ")
}

// TestSPMMerges: pieces merge by score, the leftmost pair first on a tie,
// and a merged piece merges again.
func TestSPMMerges(t *testing.T) {
	for _, c := range []struct {
		abc    bool // "abc" is a token
		ab, bc float32
		want   string
	}{
		{false, 0, 0, "ab c"},  // a tie: the leftmost pair merges
		{false, -1, 0, "a bc"}, // bc scores higher
		{false, 0, -1, "ab c"},
		{true, 0, 0, "abc"},  // ab, then ab+c
		{true, -1, 0, "abc"}, // bc, then a+bc
	} {
		v := spmVocab()
		if c.abc {
			v = spmVocab("abc")
		}
		v.AddSpacePrefix = false
		for i, x := range v.Tokens {
			switch x {
			case "ab":
				v.Scores[i] = c.ab
			case "bc":
				v.Scores[i] = c.bc
			}
		}
		if got := encode(t, mustNew(t, v), "abc"); got != c.want {
			t.Errorf("abc token %v, scores ab %v bc %v: %q, want %q", c.abc, c.ab, c.bc, got, c.want)
		}
	}
}

// TestSPMSpaceAndBytes: the space prefix, U+2581 for spaces, byte fallback
// and UNK for bytes without a token.
func TestSPMSpaceAndBytes(t *testing.T) {
	tok := mustNew(t, spmVocab())
	for _, c := range []struct{ in, want string }{
		{"a", "▁a"},
		{" a", "▁ ▁a"},
		{"ab", "▁a b"}, // ▁a and ab both score 0: ▁a is further left
		{"x", "▁ <0x78>"},
		{"é", "▁ <0xC3> <0xA9>"},
		{"z", "▁ <unk>"},               // no token, no byte token: UNK
		{"a<tag>b", "▁a <tag> ▁ b"},    // a user-defined token is matched, and a space follows it
		{"<s>", "▁ <unk> <unk> <unk>"}, // a control token's text is plain text
		{"", ""},
	} {
		if got := encode(t, tok, c.in); got != c.want {
			t.Errorf("Encode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	ids, err := tok.EncodeSpecial("<s>a</s>", false)
	if err != nil || fmt.Sprint(ids) != "[1 15 2]" {
		t.Errorf("EncodeSpecial(<s>a</s>) = %v, %v; want [1 15 2] (<s> ▁a </s>)", ids, err)
	}
	v := spmVocab()
	v.AddSpacePrefix = false
	if got := encode(t, mustNew(t, v), "a b"); got != "a ▁ b" {
		t.Errorf("without the space prefix: %q", got)
	}
	v.UNK = -1
	if _, err := mustNew(t, v).Encode("z", false); err == nil || !strings.Contains(err.Error(), "byte 0x7A has no token") {
		t.Errorf("no byte token and no UNK: %v", err)
	}
	// Decode drops the space Encode puts at the start and after a special
	// token, and only that one.
	if s, err := tok.Decode([]int32{1, 15, 16, 9, 3, 4, 5, 2}); err != nil || s != "a<tag>xé" {
		t.Errorf("Decode = %q, %v; want %q", s, err, "a<tag>xé")
	}
	for _, s := range []string{"a<tag>xé", "<tag> a", " <tag>  a ", "<tag><tag>a"} {
		ids, _ := tok.Encode(s, true)
		if got, err := tok.Decode(ids); err != nil || got != s {
			t.Errorf("Decode(Encode(%q)) = %q, %v", s, got, err)
		}
	}
	if p := tok.Piece(15); p != " a" {
		t.Errorf("Piece(▁a) = %q: pieces keep their space", p)
	}
	if _, err := tok.Decode([]int32{3, 99}); err == nil || !strings.Contains(err.Error(), "id 99 at position 1") {
		t.Errorf("Decode of a bad id: %v", err)
	}
	if tok.Piece(-1) != "" || tok.Token(99) != "" || tok.Type(16) != tokenizer.UserDefined {
		t.Errorf("out-of-range lookups")
	}
}

// gpt2Vocab has the 256 byte characters as tokens, then merged pieces, and
// merges in the order given.
func gpt2Vocab(pre string, merges ...string) tokenizer.Vocab {
	var toks []string
	for b := 0; b < 256; b++ {
		toks = append(toks, byteChar(byte(b)))
	}
	seen := map[string]bool{}
	for _, m := range merges {
		j := strings.IndexByte(m, ' ')
		if s := m[:j] + m[j+1:]; !seen[s] {
			toks = append(toks, s)
			seen[s] = true
		}
	}
	toks = append(toks, "<|endoftext|>")
	return tokenizer.Vocab{Model: "gpt2", Pre: pre, Tokens: toks, Merges: merges,
		BOS: int32(len(toks) - 1), EOS: int32(len(toks) - 1), EOT: -1, EOM: -1, UNK: -1, PAD: -1}
}

// byteChar is GPT-2's printable stand-in for a byte, written out from its
// definition: printable Latin-1 stands for itself, the rest count up from
// U+0100 in byte order.
func byteChar(b byte) string {
	if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE {
		return string(rune(b))
	}
	n := 0
	for c := 0; c < int(b); c++ {
		if !(c >= '!' && c <= '~' || c >= 0xA1 && c <= 0xAC || c >= 0xAE) {
			n++
		}
	}
	return string(rune(256 + n))
}

// TestGPT2: byte mapping, rank order, the pre-tokenizer's word bounds,
// digit splitting and invalid UTF-8.
func TestGPT2(t *testing.T) {
	for b, want := range map[byte]rune{' ': 'Ġ', '\n': 'Ċ', 0: 'Ā', 0x7F: 'ġ', 0xAD: 'Ń', 'a': 'a', 0xFF: 'ÿ'} {
		if byteChar(b) != string(want) {
			t.Fatalf("test helper: byte %#x -> %q, want %q", b, byteChar(b), want)
		}
	}
	// "a b" ranks before "b c", so "abc" is ab+c; a word never merges
	// across a pre-tokenizer bound (" b" is its own word).
	tok := mustNew(t, gpt2Vocab("gpt-2", "a b", "b c", "ab c", "Ġ b"))
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"},
		{"bc", "bc"},
		{"ab b", "ab Ġb"},
		{"a\nb", "a Ċ b"},
		{"\xff", "ï ¿ ½"}, // invalid UTF-8 becomes U+FFFD (EF BF BD), as llama.cpp reads it
		{"<|endoftext|>", "< | e n d o f t e x t | >"}, // a control token's text is plain text
	} {
		if got := encode(t, tok, c.in); got != c.want {
			t.Errorf("Encode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := encode(t, mustNew(t, gpt2Vocab("gpt-2", "b c", "a b")), "abc"); got != "a bc" {
		t.Errorf("rank order: %q, want a bc", got)
	}
	if ids, _ := tok.EncodeSpecial("a<|endoftext|>", false); len(ids) != 2 || ids[1] != tok.EOS() || !tok.IsEOG(ids[1]) {
		t.Errorf("EncodeSpecial: %v", ids)
	}
	// Word bounds of the pre-tokenizer, seen through merges that would
	// join across them: spaces merge with spaces and with a following
	// "a" or digits, digits with digits.
	bounds := []string{"Ġ Ġ", "Ġ a", "ĠĠ Ġ", "Ġ 1", "Ġ1 2", "Ġ12 3", "1 2", "12 3"}
	sp := mustNew(t, gpt2Vocab("gpt-2", bounds...))
	dg := mustNew(t, gpt2Vocab("starcoder", bounds...))
	for _, c := range []struct{ in, gpt2, digits string }{
		{"  a", "Ġ Ġa", "Ġ Ġa"},    // \s+(?!\S) leaves the last space to the word
		{"a   ", "a ĠĠĠ", "a ĠĠĠ"}, // trailing spaces stay together
		{"   a", "ĠĠ Ġa", "ĠĠ Ġa"},
		{" 123", "Ġ123", "Ġ 1 2 3"}, // digits split off first
		{"a123 ", "a 123 Ġ", "a 1 2 3 Ġ"},
	} {
		if got := encode(t, sp, c.in); got != c.gpt2 {
			t.Errorf("gpt-2 Encode(%q) = %q, want %q", c.in, got, c.gpt2)
		}
		if got := encode(t, dg, c.in); got != c.digits {
			t.Errorf("starcoder Encode(%q) = %q, want %q", c.in, got, c.digits)
		}
	}
	// Every byte decodes back, whatever the text.
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	ids, err := tok.Encode(string(all[:128])+"é ÿ", false)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := tok.Decode(ids); s != string(all[:128])+"é ÿ" {
		t.Errorf("Decode(Encode(bytes)) = %q", s)
	}
}

// TestNewRejects: New refuses vocabularies it cannot use, naming why.
func TestNewRejects(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(v *tokenizer.Vocab)
		msg    string
	}{
		{"model", func(v *tokenizer.Vocab) { v.Model = "bert" }, `unsupported tokenizer model "bert"`},
		{"no tokens", func(v *tokenizer.Vocab) { v.Tokens, v.Types, v.Scores = nil, nil, nil }, "no tokens"},
		{"scores", func(v *tokenizer.Vocab) { v.Scores = v.Scores[:3] }, "3 scores for 17 tokens"},
		{"types", func(v *tokenizer.Vocab) { v.Types = v.Types[:3] }, "3 token types for 17 tokens"},
		{"NaN", func(v *tokenizer.Vocab) { v.Scores[10] = float32(math.NaN()) }, `score of token 10 "a" is NaN`},
		{"duplicate", func(v *tokenizer.Vocab) { v.Tokens[11] = "a" }, `duplicate token "a": ids 10 and 11`},
		{"empty tokens", func(v *tokenizer.Vocab) { v.Tokens[11], v.Tokens[12] = "", "[EMPTY_11]" }, `duplicate token "[EMPTY_11]"`},
		{"BOS", func(v *tokenizer.Vocab) { v.BOS = 17 }, "BOS id 17 is not a token"},
		{"UNK", func(v *tokenizer.Vocab) { v.UNK = -2 }, "UNK id -2"},
		{"AddBOS", func(v *tokenizer.Vocab) { v.BOS = -1 }, "no BOS token"},
		{"AddEOS", func(v *tokenizer.Vocab) { v.EOS, v.AddEOS = -1, true }, "no EOS token"},
	}
	for _, c := range cases {
		v := spmVocab()
		c.mutate(&v)
		if _, err := tokenizer.New(v); !errors.Is(err, tokenizer.ErrVocab) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want ErrVocab with %q", c.name, err, c.msg)
		}
	}
	for pre, msg := range map[string]string{"": "needs a pre-tokenizer", "llama3": `unsupported pre-tokenizer "llama3"`, "default": `unsupported pre-tokenizer "default"`} {
		if _, err := tokenizer.New(gpt2Vocab(pre)); !errors.Is(err, tokenizer.ErrVocab) || !strings.Contains(err.Error(), msg) || !strings.Contains(err.Error(), "starcoder") {
			t.Errorf("pre %q: %v, want %q and the supported list", pre, err, msg)
		}
	}
	if _, err := tokenizer.New(spmVocab()); err != nil {
		t.Fatalf("unmutated vocabulary: %v", err)
	}
}

// ggufWith encodes a file holding kvs and parses it back.
func ggufWith(t *testing.T, kvs ...gguf.KV) *gguf.File {
	t.Helper()
	var buf bytes.Buffer
	if err := gguf.Encode(&buf, &gguf.File{KV: kvs}); err != nil {
		t.Fatal(err)
	}
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFromGGUF: defaults for absent keys, the keys when present, and
// errors that name the key.
func TestFromGGUF(t *testing.T) {
	toks := gguf.KV{Key: "tokenizer.ggml.tokens", Value: gguf.Array([]string{"<unk>", "<s>", "</s>", "▁a", "<|im_end|>"})}
	llama := gguf.KV{Key: "tokenizer.ggml.model", Value: gguf.String("llama")}
	tok, err := tokenizer.FromGGUF(ggufWith(t, llama, toks))
	if err != nil {
		t.Fatal(err)
	}
	if tok.BOS() != 1 || tok.EOS() != 2 || tok.UNK() != 0 || tok.PAD() != -1 || !tok.AddBOS() || tok.AddEOS() {
		t.Errorf("llama defaults: BOS %d EOS %d UNK %d PAD %d AddBOS %v AddEOS %v", tok.BOS(), tok.EOS(), tok.UNK(), tok.PAD(), tok.AddBOS(), tok.AddEOS())
	}
	if tok.Type(4) != tokenizer.Control || !tok.IsEOG(4) || tok.Piece(4) != "" {
		t.Errorf("<|im_end|>: type %v, EOG %v: llama.cpp makes it a control end-of-generation token", tok.Type(4), tok.IsEOG(4))
	}
	if got := encode(t, tok, "a"); got != "▁a" {
		t.Errorf("Encode(a) = %q (the space prefix is on by default)", got)
	}
	tok, err = tokenizer.FromGGUF(ggufWith(t, llama, toks,
		gguf.KV{Key: "tokenizer.ggml.bos_token_id", Value: gguf.Uint32(3)},
		gguf.KV{Key: "tokenizer.ggml.eos_token_id", Value: gguf.Int32(4)},
		gguf.KV{Key: "tokenizer.ggml.padding_token_id", Value: gguf.Uint32(math.MaxUint32)}, // out of range: ignored
		gguf.KV{Key: "tokenizer.ggml.scores", Value: gguf.Array([]int32{0, 0, 0, -1, 0})},
		gguf.KV{Key: "tokenizer.ggml.add_bos_token", Value: gguf.Bool(false)},
		gguf.KV{Key: "tokenizer.ggml.add_space_prefix", Value: gguf.Bool(false)}))
	if err != nil {
		t.Fatal(err)
	}
	if tok.BOS() != 3 || tok.EOS() != 4 || tok.PAD() != -1 || tok.AddBOS() {
		t.Errorf("keys: BOS %d EOS %d PAD %d AddBOS %v", tok.BOS(), tok.EOS(), tok.PAD(), tok.AddBOS())
	}
	if got := encode(t, tok, "a"); got != "<unk>" {
		t.Errorf("Encode(a) without the space prefix = %q, want <unk> (no 'a' token, no byte tokens)", got)
	}

	gpt2 := gguf.KV{Key: "tokenizer.ggml.model", Value: gguf.String("gpt2")}
	merges := gguf.KV{Key: "tokenizer.ggml.merges", Value: gguf.Array([]string{"a b"})}
	many := make([]string, 20)
	for i := range many {
		many[i] = fmt.Sprintf("t%d", i)
	}
	tok, err = tokenizer.FromGGUF(ggufWith(t, gpt2, merges, gguf.KV{Key: "tokenizer.ggml.pre", Value: gguf.String("smollm")},
		gguf.KV{Key: "tokenizer.ggml.tokens", Value: gguf.Array(many)}))
	if err != nil {
		t.Fatal(err)
	}
	if tok.BOS() != 11 || tok.EOS() != 11 || tok.UNK() != -1 || tok.AddBOS() || tok.Pre() != "smollm" || tok.Model() != "gpt2" {
		t.Errorf("gpt2 defaults: BOS %d EOS %d UNK %d AddBOS %v", tok.BOS(), tok.EOS(), tok.UNK(), tok.AddBOS())
	}
	for _, c := range []struct {
		name string
		kvs  []gguf.KV
		msg  string
		is   error
	}{
		{"no model", []gguf.KV{toks}, `key "tokenizer.ggml.model"`, gguf.ErrMissingKey},
		{"model type", []gguf.KV{{Key: "tokenizer.ggml.model", Value: gguf.Uint8(1)}, toks}, "found u8", gguf.ErrType},
		{"unknown model", []gguf.KV{{Key: "tokenizer.ggml.model", Value: gguf.String("t5")}, toks}, `"t5"`, tokenizer.ErrVocab},
		{"no tokens", []gguf.KV{llama}, `key "tokenizer.ggml.tokens"`, gguf.ErrMissingKey},
		{"tokens type", []gguf.KV{llama, {Key: "tokenizer.ggml.tokens", Value: gguf.Array([]int32{1})}}, "array[string]", gguf.ErrType},
		{"scores type", []gguf.KV{llama, toks, {Key: "tokenizer.ggml.scores", Value: gguf.String("x")}}, "tokenizer.ggml.scores", gguf.ErrType},
		{"flag type", []gguf.KV{llama, toks, {Key: "tokenizer.ggml.add_bos_token", Value: gguf.Uint8(1)}}, "add_bos_token", gguf.ErrType},
		{"id type", []gguf.KV{llama, toks, {Key: "tokenizer.ggml.bos_token_id", Value: gguf.Float32(1)}}, "bos_token_id", gguf.ErrType},
		{"no merges", []gguf.KV{gpt2, toks, {Key: "tokenizer.ggml.pre", Value: gguf.String("gpt-2")}}, "needs merges", gguf.ErrMissingKey},
		{"no pre", []gguf.KV{gpt2, toks, merges}, "needs a pre-tokenizer", tokenizer.ErrVocab},
		{"unknown pre", []gguf.KV{gpt2, toks, merges, {Key: "tokenizer.ggml.pre", Value: gguf.String("qwen2")}}, `"qwen2"`, tokenizer.ErrVocab},
	} {
		_, err := tokenizer.FromGGUF(ggufWith(t, c.kvs...))
		if !errors.Is(err, c.is) || !strings.Contains(fmt.Sprint(err), c.msg) || !strings.HasPrefix(fmt.Sprint(err), "tokenizer: ") {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.is, c.msg)
		}
	}
}
