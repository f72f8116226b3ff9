package tokenizer

import (
	"container/heap"
	"strings"
)

// Byte-level BPE as llama.cpp runs it for tokenizer.ggml.model = gpt2:
// pre-tokenize into words, write each word's bytes as GPT-2's printable
// characters, then merge adjacent symbols by merge rank (lowest first, the
// leftmost on ties) and emit each final symbol's token.

// byteChar maps a byte to GPT-2's printable stand-in: the printable
// Latin-1 bytes ('!'..'~', '¡'..'¬', '®'..'ÿ') stand for themselves, the
// other 68 take U+0100 onwards in byte order. charByte is the inverse.
var byteChar [256]string
var charByte = map[rune]byte{}

func init() {
	next := rune(256)
	for b := 0; b < 256; b++ {
		r := rune(b)
		if !(b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF) {
			r = next
			next++
		}
		byteChar[b] = string(r)
		charByte[r] = byte(b)
	}
}

// unmapBytes undoes the byte mapping of a gpt2 token's text. Characters
// outside the mapping are kept as they are.
func unmapBytes(s string) string {
	var b strings.Builder
	for _, r := range s {
		if c, ok := charByte[r]; ok {
			b.WriteByte(c)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

type bpeSymbol struct {
	text       string // "" once merged into the left neighbour
	prev, next int
}

type bpeBigram struct {
	left, right int
	rank        int32
	text        string
}

type bpeQueue []bpeBigram

func (q bpeQueue) Len() int { return len(q) }
func (q bpeQueue) Less(i, j int) bool {
	return q[i].rank < q[j].rank || (q[i].rank == q[j].rank && q[i].left < q[j].left)
}
func (q bpeQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *bpeQueue) Push(x any)   { *q = append(*q, x.(bpeBigram)) }
func (q *bpeQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (t *Tokenizer) bpe(text string, out []int32) []int32 {
	for _, word := range t.pretokenize(text) {
		out = t.bpeWord(word, out)
	}
	return out
}

// bpeWord merges one byte-mapped word.
func (t *Tokenizer) bpeWord(word string, out []int32) []int32 {
	var syms []bpeSymbol
	for _, r := range word {
		syms = append(syms, bpeSymbol{text: string(r), prev: len(syms) - 1, next: len(syms) + 1})
	}
	if len(syms) == 0 {
		return out
	}
	syms[len(syms)-1].next = -1
	q := &bpeQueue{}
	try := func(l, r int) {
		if l < 0 || r < 0 {
			return
		}
		if rank, ok := t.ranks[pair{syms[l].text, syms[r].text}]; ok {
			heap.Push(q, bpeBigram{left: l, right: r, rank: rank, text: syms[l].text + syms[r].text})
		}
	}
	for i := 1; i < len(syms); i++ {
		try(i-1, i)
	}
	for q.Len() > 0 {
		b := heap.Pop(q).(bpeBigram)
		l, r := &syms[b.left], &syms[b.right]
		if l.text == "" || r.text == "" || len(l.text)+len(r.text) != len(b.text) || l.text+r.text != b.text {
			continue // outdated
		}
		l.text = b.text
		r.text = ""
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = b.left
		}
		try(l.prev, b.left)
		try(b.left, l.next)
	}
	for i := 0; i >= 0; i = syms[i].next {
		s := syms[i].text
		if id, ok := t.ids[s]; ok {
			out = append(out, id)
			continue
		}
		// No token: llama.cpp looks each byte up as a one-byte text and
		// drops those that are not tokens either.
		for j := 0; j < len(s); j++ {
			if id, ok := t.ids[s[j:j+1]]; ok {
				out = append(out, id)
			}
		}
	}
	return out
}

// mapWord writes a word's bytes as GPT-2 byte characters.
func mapWord(word []byte) string {
	var b strings.Builder
	b.Grow(2 * len(word))
	for _, c := range word {
		b.WriteString(byteChar[c])
	}
	return b.String()
}
