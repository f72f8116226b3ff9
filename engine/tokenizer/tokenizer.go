package tokenizer

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ErrVocab is wrapped by every error about a vocabulary that cannot be
// used: an unknown model or pre-tokenizer, inconsistent lengths, special
// token ids out of range, duplicate tokens.
var ErrVocab = errors.New("bad vocabulary")

// TokenType is a token's type as GGUF stores it in tokenizer.ggml.token_type.
type TokenType int32

// The token types.
const (
	Undefined   TokenType = 0
	Normal      TokenType = 1
	Unknown     TokenType = 2
	Control     TokenType = 3
	UserDefined TokenType = 4
	Unused      TokenType = 5
	Byte        TokenType = 6
)

func (t TokenType) String() string {
	switch t {
	case Undefined:
		return "undefined"
	case Normal:
		return "normal"
	case Unknown:
		return "unknown"
	case Control:
		return "control"
	case UserDefined:
		return "user-defined"
	case Unused:
		return "unused"
	case Byte:
		return "byte"
	}
	return "type(" + strconv.Itoa(int(t)) + ")"
}

// special reports whether tokens of this type are split out of the text
// before tokenizing (always for user-defined ones; control and unknown
// ones only when parsing special tokens).
func (t TokenType) special() bool { return t == Control || t == UserDefined || t == Unknown }

// The tokenizer models.
const (
	ModelLlama = "llama" // SentencePiece BPE with byte fallback
	ModelGPT2  = "gpt2"  // byte-level BPE with ranked merges
)

// Vocab is what a Tokenizer is built from: the tokenizer.ggml.* metadata
// of a GGUF file, or the same facts from elsewhere. New takes every field
// as given; FromGGUF fills in llama.cpp's defaults for absent keys.
type Vocab struct {
	Model  string      // ModelLlama or ModelGPT2
	Pre    string      // the pre-tokenizer (ModelGPT2 only; see the package doc)
	Tokens []string    // the token texts; the id of a token is its index
	Scores []float32   // merge priority per token (ModelLlama); nil means all 0
	Types  []TokenType // per token; nil means all Normal
	Merges []string    // "left right" pairs in rank order (ModelGPT2)

	// Special token ids, -1 for none.
	BOS, EOS, EOT, EOM, UNK, PAD int32

	AddBOS         bool // prompts start with BOS (Tokenizer.AddBOS)
	AddEOS         bool // prompts end with EOS (Tokenizer.AddEOS)
	AddSpacePrefix bool // ModelLlama: a space is put before the text (and after each special token)
}

// Tokenizer turns text into token ids and back. It is immutable and safe
// for concurrent use.
type Tokenizer struct {
	model, pre string
	tokens     []string
	scores     []float32
	types      []TokenType // after llama.cpp's overrides (end-of-generation texts are control)
	ids        map[string]int32
	pieces     []string // what each id decodes to

	bos, eos, eot, eom, unk, pad int32
	addBOS, addEOS, addSpace     bool

	eog      map[int32]bool
	specials []int32    // split out of the text first: longest text first
	byteTok  [256]int32 // llama: the token of each byte (<0xNN>, else the byte itself), or -1
	ranks    map[pair]int32
	digits   bool // gpt2: split every digit off before the GPT-2 pattern
}

type pair struct{ a, b string }

// Texts of end-of-generation tokens that llama.cpp recognises by name (and
// makes control tokens when the file says otherwise).
var eogTexts = []string{
	"<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
	"<end_of_turn>", "<|endoftext|>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
	"<|end_of_text|>", "<end_of_utterance>", "<｜end▁of▁sentence｜>",
}

// Texts of fill-in-the-middle tokens llama.cpp makes control tokens.
var fimTexts = []string{
	"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<｜fim▁begin｜>", "<PRE>", "▁<PRE>",
	"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<｜fim▁hole｜>", "<SUF>", "▁<SUF>",
	"<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<｜fim▁end｜>", "<MID>", "▁<MID>",
	"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "<|fim_repo|>", "<|repo_name|>", "<fim-repo>",
	"<REPO>", "<reponame>", "<|file_sep|>",
}

func vocabErr(format string, args ...any) error {
	return fmt.Errorf("tokenizer: %w: %s", ErrVocab, fmt.Sprintf(format, args...))
}

// New builds a tokenizer from v. It checks that the model and
// pre-tokenizer are known, that Scores and Types cover every token, that
// every special id is -1 or a token, that AddBOS and AddEOS have a token,
// and that no two tokens have the same text.
func New(v Vocab) (*Tokenizer, error) {
	t := &Tokenizer{model: v.Model, pre: v.Pre, bos: v.BOS, eos: v.EOS, eot: v.EOT, eom: v.EOM, unk: v.UNK, pad: v.PAD,
		addBOS: v.AddBOS, addEOS: v.AddEOS, addSpace: v.AddSpacePrefix}
	switch v.Model {
	case ModelLlama:
	case ModelGPT2:
		digits, ok := gpt2Pre[v.Pre]
		if !ok {
			if v.Pre == "" {
				return nil, vocabErr("the gpt2 model needs a pre-tokenizer (tokenizer.ggml.pre); supported: %s", strings.Join(PreTokenizers(), ", "))
			}
			return nil, vocabErr("unsupported pre-tokenizer %q for the gpt2 model (supported: %s)", v.Pre, strings.Join(PreTokenizers(), ", "))
		}
		t.digits = digits
		t.addSpace = false
	default:
		return nil, vocabErr("unsupported tokenizer model %q (supported: %s, %s)", v.Model, ModelLlama, ModelGPT2)
	}
	n := len(v.Tokens)
	if n == 0 {
		return nil, vocabErr("no tokens")
	}
	if n > math.MaxInt32 {
		return nil, vocabErr("%d tokens do not fit int32 ids", n)
	}
	if v.Scores != nil && len(v.Scores) < n {
		return nil, vocabErr("%d scores for %d tokens", len(v.Scores), n)
	}
	if v.Types != nil && len(v.Types) < n {
		return nil, vocabErr("%d token types for %d tokens", len(v.Types), n)
	}
	t.tokens = make([]string, n)
	t.scores = make([]float32, n)
	t.types = make([]TokenType, n)
	t.ids = make(map[string]int32, n)
	for i, s := range v.Tokens {
		if s == "" {
			s = "[EMPTY_" + strconv.Itoa(i) + "]" // as llama.cpp names empty tokens
		}
		if j, dup := t.ids[s]; dup {
			return nil, vocabErr("duplicate token %q: ids %d and %d", s, j, i)
		}
		t.ids[s] = int32(i)
		t.tokens[i] = s
		t.types[i] = Normal
		if v.Types != nil {
			t.types[i] = v.Types[i]
		}
		if v.Scores != nil {
			if math.IsNaN(float64(v.Scores[i])) {
				return nil, vocabErr("score of token %d %q is NaN", i, s)
			}
			t.scores[i] = v.Scores[i]
		}
	}
	for _, sp := range []struct {
		name string
		id   int32
	}{{"BOS", t.bos}, {"EOS", t.eos}, {"EOT", t.eot}, {"EOM", t.eom}, {"UNK", t.unk}, {"PAD", t.pad}} {
		if sp.id < -1 || int(sp.id) >= n {
			return nil, vocabErr("%s id %d is not a token (the vocabulary has %d)", sp.name, sp.id, n)
		}
	}
	if t.addBOS && t.bos < 0 {
		return nil, vocabErr("prompts should start with BOS, but there is no BOS token")
	}
	if t.addEOS && t.eos < 0 {
		return nil, vocabErr("prompts should end with EOS, but there is no EOS token")
	}

	// End-of-generation tokens, and the by-name overrides llama.cpp applies.
	t.eog = map[int32]bool{}
	for _, text := range append(append([]string{}, eogTexts...), fimTexts...) {
		if id, ok := t.ids[text]; ok && t.types[id] != Control {
			t.types[id] = Control
		}
	}
	for _, text := range eogTexts {
		if id, ok := t.ids[text]; ok {
			t.eog[id] = true
		}
	}
	for _, id := range []int32{t.eos, t.eot, t.eom} {
		if id >= 0 {
			t.eog[id] = true
		}
	}

	for i, typ := range t.types {
		if typ.special() {
			t.specials = append(t.specials, int32(i))
		}
	}
	sort.SliceStable(t.specials, func(a, b int) bool { return len(t.tokens[t.specials[a]]) > len(t.tokens[t.specials[b]]) })

	for b := range t.byteTok {
		t.byteTok[b] = -1
		if id, ok := t.ids[fmt.Sprintf("<0x%02X>", b)]; ok {
			t.byteTok[b] = id
		} else if id, ok := t.ids[string([]byte{byte(b)})]; ok {
			t.byteTok[b] = id
		}
	}
	if v.Model == ModelGPT2 {
		t.ranks = make(map[pair]int32, len(v.Merges))
		for r, m := range v.Merges {
			if len(m) < 2 {
				continue
			}
			k := strings.IndexByte(m[1:], ' ')
			if k < 0 {
				continue // no pair (llama.cpp files it as an empty pair, which never matches)
			}
			p := pair{m[:k+1], m[k+2:]}
			if _, seen := t.ranks[p]; !seen {
				t.ranks[p] = int32(r)
			}
		}
	}
	t.pieces = make([]string, n)
	for i := range t.pieces {
		t.pieces[i] = t.piece(int32(i))
	}
	return t, nil
}

// piece computes what id decodes to, as llama.cpp's token_to_piece without
// special tokens: control, unknown, unused and undefined tokens give
// nothing, user-defined ones their text, byte tokens their byte, normal
// ones their text with U+2581 as space (llama) or the GPT-2 byte mapping
// undone (gpt2).
func (t *Tokenizer) piece(id int32) string {
	text := t.tokens[id]
	switch t.types[id] {
	case UserDefined:
		return text
	case Normal:
		if t.model == ModelLlama {
			return strings.ReplaceAll(text, "▁", " ")
		}
		return unmapBytes(text)
	case Byte:
		if len(text) == 6 && strings.HasPrefix(text, "<0x") && text[5] == '>' {
			if b, err := strconv.ParseUint(text[3:5], 16, 8); err == nil {
				return string([]byte{byte(b)})
			}
		}
		return text
	}
	return ""
}

// Model returns "llama" or "gpt2".
func (t *Tokenizer) Model() string { return t.model }

// Pre returns the pre-tokenizer name (gpt2) as given.
func (t *Tokenizer) Pre() string { return t.pre }

// VocabSize returns the number of tokens.
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// BOS returns the beginning-of-sequence id, or -1.
func (t *Tokenizer) BOS() int32 { return t.bos }

// EOS returns the end-of-sequence id, or -1.
func (t *Tokenizer) EOS() int32 { return t.eos }

// UNK returns the unknown-token id, or -1.
func (t *Tokenizer) UNK() int32 { return t.unk }

// PAD returns the padding id, or -1.
func (t *Tokenizer) PAD() int32 { return t.pad }

// AddBOS reports whether the vocabulary asks for BOS before a prompt
// (tokenizer.ggml.add_bos_token; llama.cpp's default is yes for llama, no
// for gpt2).
func (t *Tokenizer) AddBOS() bool { return t.addBOS }

// AddEOS reports whether the vocabulary asks for EOS after a prompt.
func (t *Tokenizer) AddEOS() bool { return t.addEOS }

// IsEOG reports whether id ends generation: EOS, EOT, EOM, or a token
// llama.cpp treats so by its text ("<|endoftext|>", "<|im_end|>", ...).
func (t *Tokenizer) IsEOG(id int32) bool { return t.eog[id] }

// Token returns the text of token id as the vocabulary stores it
// ("▁Hello", "<0x0A>", "Ġworld"), or "" for an id out of range.
func (t *Tokenizer) Token(id int32) string {
	if id < 0 || int(id) >= len(t.tokens) {
		return ""
	}
	return t.tokens[id]
}

// Type returns the type of token id (after llama.cpp's overrides), or
// Undefined for an id out of range.
func (t *Tokenizer) Type(id int32) TokenType {
	if id < 0 || int(id) >= len(t.tokens) {
		return Undefined
	}
	return t.types[id]
}

// ID returns the id of the token whose text is s.
func (t *Tokenizer) ID(s string) (int32, bool) {
	id, ok := t.ids[s]
	return id, ok
}

// Piece returns the bytes token id stands for in decoded text: for
// streaming output one token at a time. Control tokens (BOS, EOS, ...)
// give "", as does an id out of range. A piece may be part of a UTF-8
// sequence that the next pieces complete.
func (t *Tokenizer) Piece(id int32) string {
	if id < 0 || int(id) >= len(t.pieces) {
		return ""
	}
	return t.pieces[id]
}

// Decode returns the text of ids: their pieces concatenated, and for a
// llama vocabulary that adds a space prefix, without the one leading space
// Encode put before the text and after each special token. So
// Decode(Encode(s)) == s for valid UTF-8 s that needed no unknown token
// (and, for llama, has no U+2581, which Encode reads as a space as
// llama.cpp does). An id out of range is an error.
//
// llama.cpp's detokenizer differs in two ways: it removes only the space
// at the start (and none after a leading BOS), and for gpt2 vocabularies it
// "cleans up" spaces before punctuation such as " ,", which loses text.
func (t *Tokenizer) Decode(ids []int32) (string, error) {
	var b strings.Builder
	strip := t.addSpace
	for i, id := range ids {
		if id < 0 || int(id) >= len(t.pieces) {
			return "", fmt.Errorf("tokenizer: Decode: id %d at position %d is not a token (the vocabulary has %d)", id, i, len(t.pieces))
		}
		p := t.pieces[id]
		if typ := t.types[id]; typ == Control || typ == UserDefined {
			b.WriteString(p)
			strip = t.addSpace
			continue
		}
		if p == "" {
			continue
		}
		if strip {
			p = strings.TrimPrefix(p, " ")
			strip = false
		}
		b.WriteString(p)
	}
	return b.String(), nil
}
