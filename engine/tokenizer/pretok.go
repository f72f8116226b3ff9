package tokenizer

import (
	"sort"
	"unicode"
)

// gpt2Pre lists the tokenizer.ggml.pre names whose pre-tokenizer llama.cpp
// runs as the GPT-2 pattern, and whether it first splits every digit off
// (the \p{N} split llama.cpp puts before the pattern for these names).
var gpt2Pre = map[string]bool{
	// The GPT-2 pattern alone.
	"gpt-2": false, "phi-2": false, "jina-es": false, "jina-de": false, "gigachat": false,
	"a.x-4.0": false, "mellum": false, "jina-v1-en": false, "roberta-bpe": false, "exaone4": false,
	"mpt": false, "olmo": false, "jais": false, "trillion": false, "granite-docling": false,
	// Every digit on its own, then the GPT-2 pattern.
	"starcoder": true, "refact": true, "command-r": true, "smollm": true, "codeshell": true,
	"exaone": true, "minerva-7b": true, "mellum2": true,
}

// PreTokenizers returns the tokenizer.ggml.pre names accepted for the gpt2
// model, sorted.
func PreTokenizers() []string {
	var names []string
	for n := range gpt2Pre {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// codepoints decodes s as llama.cpp does before pre-tokenizing: a lead
// byte and its continuation bytes give a code point (overlong forms and
// surrogates included, as llama.cpp does not reject them); a byte that
// starts no complete sequence, or one beyond U+10FFFF, is U+FFFD and
// consumes one byte.
func codepoints(s string) []rune {
	out := make([]rune, 0, len(s))
	cont := func(i int) bool { return i < len(s) && s[i]&0xC0 == 0x80 }
	for i := 0; i < len(s); {
		b := s[i]
		var r rune
		n := 1
		switch {
		case b < 0x80:
			r = rune(b)
		case b&0xE0 == 0xC0 && cont(i+1):
			r, n = rune(b&0x1F)<<6|rune(s[i+1]&0x3F), 2
		case b&0xF0 == 0xE0 && cont(i+1) && cont(i+2):
			r, n = rune(b&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
		case b&0xF8 == 0xF0 && cont(i+1) && cont(i+2) && cont(i+3):
			r, n = rune(b&0x07)<<18|rune(s[i+1]&0x3F)<<12|rune(s[i+2]&0x3F)<<6|rune(s[i+3]&0x3F), 4
		default:
			r = unicode.ReplacementChar
		}
		if r > unicode.MaxRune {
			r, n = unicode.ReplacementChar, 1
		}
		out = append(out, r)
		i += n
	}
	return out
}

// appendUTF8 encodes code points the way llama.cpp does (surrogates as
// three bytes, not as U+FFFD).
func appendUTF8(b []byte, cps []rune) []byte {
	for _, r := range cps {
		switch {
		case r < 0x80:
			b = append(b, byte(r))
		case r < 0x800:
			b = append(b, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
		case r < 0x10000:
			b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
		default:
			b = append(b, 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
		}
	}
	return b
}

// pretokenize splits text into words and returns them byte-mapped.
func (t *Tokenizer) pretokenize(text string) []string {
	cps := codepoints(text)
	var words []string
	var buf []byte
	emit := func(lo, hi int) {
		buf = appendUTF8(buf[:0], cps[lo:hi])
		words = append(words, mapWord(buf))
	}
	if !t.digits {
		splitGPT2(cps, 0, len(cps), emit)
		return words
	}
	start := 0
	for i, r := range cps {
		if unicode.IsNumber(r) {
			splitGPT2(cps, start, i, emit)
			emit(i, i+1)
			start = i + 1
		}
	}
	splitGPT2(cps, start, len(cps), emit)
	return words
}

// splitGPT2 splits cps[lo:hi] by GPT-2's pattern
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// calling emit with the bounds of each match. Go's regexp has no
// lookahead, so the alternatives are tried by hand, in order, each
// greedy: the text beyond hi does not exist for the match (a run of
// spaces at hi is "not followed by a non-space").
func splitGPT2(cps []rune, lo, hi int, emit func(lo, hi int)) {
	const (
		none = iota
		letter
		number
		other
		space
	)
	class := func(i int) int {
		if i >= hi {
			return none
		}
		switch r := cps[i]; {
		case unicode.IsLetter(r):
			return letter
		case unicode.IsNumber(r):
			return number
		case unicode.IsSpace(r):
			return space
		}
		return other
	}
	for pos := lo; pos < hi; {
		start := pos
		c := cps[pos]
		// 's 't 're 've 'm 'll 'd (lower case only)
		if c == '\'' && pos+1 < hi {
			switch n := cps[pos+1]; {
			case n == 's' || n == 't' || n == 'm' || n == 'd':
				emit(pos, pos+2)
				pos += 2
				continue
			case pos+2 < hi && (n == 'r' && cps[pos+2] == 'e' || n == 'v' && cps[pos+2] == 'e' || n == 'l' && cps[pos+2] == 'l'):
				emit(pos, pos+3)
				pos += 3
				continue
			}
		}
		// An optional space, then a run of letters, of digits, or of
		// anything else that is not a space.
		q := pos
		if c == ' ' {
			q++
		}
		if k := class(q); k == letter || k == number || k == other {
			for q < hi && class(q) == k {
				q++
			}
			emit(start, q)
			pos = q
			continue
		}
		// \s+(?!\S): a run of spaces not followed by a non-space, so it
		// leaves the last space to the word after it; else \s+.
		n := 0
		for class(pos+n) == space {
			n++
		}
		switch {
		case n > 1 && pos+n < hi:
			pos += n - 1
		case n > 0:
			pos += n
		default:
			pos++ // unreachable: every code point has a class
		}
		emit(start, pos)
	}
}
