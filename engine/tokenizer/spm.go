package tokenizer

import (
	"container/heap"
	"fmt"
)

// SentencePiece BPE as llama.cpp runs it for tokenizer.ggml.model = llama:
// start from the UTF-8 characters of the (space-escaped) text, repeatedly
// merge the adjacent pair whose concatenation is the token with the
// highest score (the leftmost pair on ties), and emit each final symbol's
// token, or its bytes as byte tokens when no token has its text.

type spmSymbol struct {
	start, n   int // bytes of the text; n == 0 once merged into the left neighbour
	prev, next int
}

type spmBigram struct {
	left, right int
	score       float32
	size        int // bytes of the merged text, to spot pairs that changed since
}

type spmQueue []spmBigram

func (q spmQueue) Len() int { return len(q) }
func (q spmQueue) Less(i, j int) bool {
	return q[i].score > q[j].score || (q[i].score == q[j].score && q[i].left < q[j].left)
}
func (q spmQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *spmQueue) Push(x any)   { *q = append(*q, x.(spmBigram)) }
func (q *spmQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// utf8Len is the length of the UTF-8 sequence a lead byte announces (1 for
// a stray continuation byte), as llama.cpp reads it.
func utf8Len(b byte) int {
	switch b >> 4 {
	case 0xC, 0xD:
		return 2
	case 0xE:
		return 3
	case 0xF:
		return 4
	}
	return 1
}

func (t *Tokenizer) spm(text string, out []int32) ([]int32, error) {
	var syms []spmSymbol
	for off := 0; off < len(text); {
		n := min(utf8Len(text[off]), len(text)-off)
		syms = append(syms, spmSymbol{start: off, n: n, prev: len(syms) - 1, next: len(syms) + 1})
		off += n
	}
	if len(syms) == 0 {
		return out, nil
	}
	syms[len(syms)-1].next = -1
	q := &spmQueue{}
	try := func(l, r int) {
		if l < 0 || r < 0 {
			return
		}
		s := text[syms[l].start : syms[r].start+syms[r].n]
		if id, ok := t.ids[s]; ok {
			heap.Push(q, spmBigram{left: l, right: r, score: t.scores[id], size: len(s)})
		}
	}
	for i := 1; i < len(syms); i++ {
		try(i-1, i)
	}
	for q.Len() > 0 {
		b := heap.Pop(q).(spmBigram)
		l, r := &syms[b.left], &syms[b.right]
		if l.n == 0 || r.n == 0 || l.n+r.n != b.size {
			continue
		}
		l.n += r.n
		r.n = 0
		l.next = r.next
		if r.next >= 0 {
			syms[r.next].prev = b.left
		}
		try(l.prev, b.left)
		try(b.left, l.next)
	}
	for i := 0; i >= 0; i = syms[i].next {
		s := text[syms[i].start : syms[i].start+syms[i].n]
		if id, ok := t.ids[s]; ok {
			out = append(out, id)
			continue
		}
		for j := 0; j < len(s); j++ {
			switch id := t.byteTok[s[j]]; {
			case id >= 0:
				out = append(out, id)
			case t.unk >= 0:
				out = append(out, t.unk)
			default:
				return nil, fmt.Errorf("tokenizer: Encode: byte 0x%02X has no token (no <0x%02X>) and the vocabulary has no UNK", s[j], s[j])
			}
		}
	}
	return out, nil
}
