package sdpa

import (
	"math"
	"sync"

	"github.com/corelane/corelane/quant"
)

// A unit of work is a tile of query rows that read one K/V head: the
// group's query heads × SeqQ rows, flattened (row f is query i = f mod
// SeqQ of head g·group + f / SeqQ) and cut into tiles of plan.rows rows.
// Every row is computed alone; tiles only decide which rows share a pass
// over K and V.

// tileRows returns the rows per tile for n keys: the scores of a tile (up
// to n·rows floats, rounded up to lanePad rows) stay within ~256 KiB.
func tileRows(n int) int {
	switch {
	case n <= 1024:
		return 64
	case n <= 2048:
		return 32
	}
	return 16
}

const (
	// lanePad: Exact keeps a tile's scores transposed, st[j·rs + r], with
	// rs the tile's rows rounded up to a multiple of lanePad, so that a
	// SIMD kernel computes lanePad rows at once (one zmm of float32).
	lanePad = 16
	// exactWideRows: an Exact tile of at least this many rows runs the
	// softmax across rows (kernels over st with one lane per row);
	// smaller tiles (decode) run it row by row, one lane per key.
	exactWideRows = 8
	// kvBlock is the number of keys of a block of K or V that one pass
	// uses for every row of a tile (and, for binary16 K/V, widens into
	// scratch): 256 keys of HeadDim 64 are 64 KiB.
	kvBlock = 256
)

// tileScratch is one task's working memory.
type tileScratch struct {
	f    []float32
	lim  []int
	qo   []int
	live []bool
}

var scratchPool sync.Pool

func getTileScratch(p *plan) *tileScratch {
	rows, hd, n := p.rows, p.sh.HeadDim, p.sh.SeqKV
	rs := roundUp(rows, lanePad)
	nf := hd*rs + n*rs + 3*rs + rows*hd + kvBlock*hd + n + 1
	if p.mode == Fast {
		nf = rows*hd + rows*n + rows*hd + kvBlock*hd
	}
	sc, _ := scratchPool.Get().(*tileScratch)
	if sc == nil {
		sc = &tileScratch{}
	}
	if cap(sc.f) < nf {
		sc.f = make([]float32, nf)
	}
	sc.f = sc.f[:nf]
	if cap(sc.lim) < rows {
		sc.lim, sc.qo, sc.live = make([]int, rows), make([]int, rows), make([]bool, rows)
	}
	sc.lim, sc.qo, sc.live = sc.lim[:rows], sc.qo[:rows], sc.live[:rows]
	return sc
}

func roundUp(n, m int) int { return (n + m - 1) / m * m }

// tileRowsOf fills lim and qo for the rows of unit u and returns the
// number of rows, the K/V offset of the unit's head and the largest limit.
func (p *plan) tileRowsOf(u unit, lim, qo []int) (rows, kv0, n int) {
	sh := p.sh
	rows = u.i1 - u.i0
	for r := range rows {
		f := u.i0 + r
		h, i := u.h*p.group+f/sh.SeqQ, f%sh.SeqQ
		lim[r] = p.limit(i)
		qo[r] = p.qOff(u.b, h, i)
		n = max(n, lim[r])
	}
	return rows, p.kvOff(u.b, u.h*p.group, 0), n
}

// kvRows returns n key rows of src from offset off (row stride p.ksJ) as
// float32 rows with stride ld: src itself for float32, else the rows
// widened into buf (ld = HeadDim).
func kvRows[T kvElem](p *plan, src []T, off, n int, buf []float32) (rows []float32, ld int) {
	hd := p.sh.HeadDim
	switch s := any(src).(type) {
	case []float32:
		return s[off:], p.ksJ
	case []quant.F16:
		d := buf[:n*hd]
		if p.ksJ == hd {
			p.ops.WidenF16(d, s[off:off+n*hd])
		} else {
			for j := range n {
				p.ops.WidenF16(d[j*hd:(j+1)*hd], s[off+j*p.ksJ:off+j*p.ksJ+hd])
			}
		}
		return d, hd
	}
	panic("unreachable")
}

// exactTile computes the rows of unit u in Exact order (see Attention):
// scores st[j·rs + r] by ExactScores, the softmax (across rows with
// ExactExp and ExactDiv over st, or row by row for small tiles), and the
// weighted sum of V by ExactWeighted. Lanes of the kernels compute
// different rows (or keys, or output columns), each in the scalar order.
func exactTile[T kvElem](p *plan, u unit, out, q []float32, k, v []T, sc *tileScratch) {
	ops := &p.ops
	hd := p.sh.HeadDim
	lim, qo, live := sc.lim, sc.qo, sc.live
	rows, kv0, n := p.tileRowsOf(u, lim, qo)
	rs := roundUp(rows, lanePad)
	f := sc.f
	qt, f := f[:hd*rs], f[hd*rs:]
	st, f := f[:n*rs], f[n*rs:]
	mx, f := f[:rs], f[rs:]
	sum, f := f[:rs], f[rs:]
	o, f := f[:rows*hd], f[rows*hd:]
	kvBuf, f := f[:kvBlock*hd], f[kvBlock*hd:]
	srow := f[:n+1]

	clear(qt)
	for r := range rows {
		for d, x := range q[qo[r] : qo[r]+hd] {
			qt[d*rs+r] = x
		}
	}
	// Scores: one call over every key (float32 K is read in place), or one
	// per widened block.
	if n > 0 {
		if _, ok := any(k).([]float32); ok {
			kb, ld := kvRows(p, k, kv0, n, kvBuf)
			ops.ExactScores(st, qt, rs, kb, ld)
		} else {
			for j0 := 0; j0 < n; j0 += kvBlock {
				j1 := min(j0+kvBlock, n)
				kb, ld := kvRows(p, k, kv0+j0*p.ksJ, j1-j0, kvBuf)
				ops.ExactScores(st[j0*rs:j1*rs], qt, rs, kb, ld)
			}
		}
	}
	if rows >= exactWideRows {
		p.softmaxWide(u, st, rs, rows, n, lim, live, mx, sum)
	} else {
		p.softmaxNarrow(u, st, rs, rows, n, lim, srow, mx)
	}
	clear(o)
	if n > 0 {
		if _, ok := any(v).([]float32); ok {
			vb, ld := kvRows(p, v, kv0, n, kvBuf)
			ops.ExactWeighted(o, hd, st, rs, vb, ld)
		} else {
			for j0 := 0; j0 < n; j0 += kvBlock {
				j1 := min(j0+kvBlock, n)
				vb, ld := kvRows(p, v, kv0+j0*p.ksJ, j1-j0, kvBuf)
				ops.ExactWeighted(o, hd, st[j0*rs:j1*rs], rs, vb, ld)
			}
		}
	}
	for r := range rows {
		copy(out[qo[r]:qo[r]+hd], o[r*hd:(r+1)*hd])
	}
}

// maskRowOf returns the mask row of tile row r of unit u, or nil.
func (p *plan) maskRowOf(u unit, r int) []float32 {
	if p.mask == nil {
		return nil
	}
	return p.maskRow(u.b, (u.i0+r)%p.sh.SeqQ)
}

// scoreAt applies the scale and the mask to the raw score x of key j.
func (p *plan) scoreAt(x float32, mrow []float32, j int) float32 {
	if mrow == nil {
		return float32(x * p.scale)
	}
	if m := mrow[j]; m != float32(math.Inf(-1)) {
		return float32(x*p.scale) + m
	}
	return float32(math.Inf(-1))
}

// softmaxWide turns the scores st into the weights p[j] = e[j]/sum, every
// row (lane r) in the scalar order: scaled and masked scores and their
// max in Go, one pass over keys for all rows; e by ExactExp; the sums in
// key order; ExactDiv. Keys past a row's limit are -Inf (weight 0, and a
// sum + 0 changes no bit); a row with no unmasked key gets weights 0.
func (p *plan) softmaxWide(u unit, st []float32, rs, rows, n int, lim []int, live []bool, mx, sum []float32) {
	negInf := float32(math.Inf(-1))
	for r := range rs {
		mx[r], sum[r] = 0, 1 // padding lanes: finite garbage
	}
	for r := range rows {
		mx[r], live[r] = negInf, false
		mrow := p.maskRowOf(u, r)
		m, lv := negInf, false
		for j := range lim[r] {
			x := p.scoreAt(st[j*rs+r], mrow, j)
			st[j*rs+r] = x
			if x > m {
				m = x
			}
			if x != negInf {
				lv = true
			}
		}
		for j := lim[r]; j < n; j++ {
			st[j*rs+r] = negInf
		}
		mx[r], live[r] = m, lv
		if !lv {
			mx[r] = 0
		}
	}
	if n == 0 {
		return
	}
	p.ops.ExactExp(st, st, mx)
	for r := range rows {
		sum[r] = 0
	}
	for j := range n {
		s := st[j*rs : j*rs+rows]
		for r, e := range s {
			sum[r] += e
		}
	}
	p.ops.ExactDiv(st, sum)
	for r := range rows {
		from := lim[r]
		if !live[r] {
			from = 0
		}
		for j := from; j < n; j++ {
			st[j*rs+r] = 0
		}
	}
}

// softmaxNarrow is softmaxWide row by row: each row's scores are gathered
// into srow, where ExactExp and ExactDiv run with one lane per key.
func (p *plan) softmaxNarrow(u unit, st []float32, rs, rows, n int, lim []int, srow, one []float32) {
	negInf := float32(math.Inf(-1))
	for r := range rows {
		mrow := p.maskRowOf(u, r)
		L := lim[r]
		s := srow[:L]
		m, live := negInf, false
		for j := range s {
			x := p.scoreAt(st[j*rs+r], mrow, j)
			s[j] = x
			if x > m {
				m = x
			}
			if x != negInf {
				live = true
			}
		}
		if !live {
			for j := range n {
				st[j*rs+r] = 0
			}
			continue
		}
		one[0] = m
		p.ops.ExactExp(s, s, one[:1])
		var sum float32
		for _, e := range s {
			sum += e
		}
		one[0] = sum
		p.ops.ExactDiv(s, one[:1])
		for j, x := range s {
			st[j*rs+r] = x
		}
		for j := L; j < n; j++ {
			st[j*rs+r] = 0
		}
	}
}

// fastTile computes the rows of unit u in Fast mode, each row alone with
// the kernels' float32 code: the scores of the pre-scaled query by DotRows
// (a block of keys at a time, for every row), the mask, the max (Max),
// exp(s − max) and its sum (ExpSum), the weighted sum of V by
// ExactWeighted and a final Scale by 1/sum. A row's result depends only on
// its inputs and the fixed key blocks, never on the tile, the unit or the
// schedule.
func fastTile[T kvElem](p *plan, u unit, out, q []float32, k, v []T, sc *tileScratch) {
	ops := &p.ops
	hd, nk := p.sh.HeadDim, p.sh.SeqKV
	lim, qo := sc.lim, sc.qo
	rows, kv0, n := p.tileRowsOf(u, lim, qo)
	f := sc.f
	qs, f := f[:rows*hd], f[rows*hd:]
	S, f := f[:rows*nk], f[rows*nk:]
	o, f := f[:rows*hd], f[rows*hd:]
	kvBuf := f[:kvBlock*hd]
	negInf := float32(math.Inf(-1))

	for r := range rows {
		copy(qs[r*hd:(r+1)*hd], q[qo[r]:qo[r]+hd])
		ops.Scale(p.scale, qs[r*hd:(r+1)*hd])
	}
	for j0 := 0; j0 < n; j0 += kvBlock {
		j1 := min(j0+kvBlock, n)
		kb, ld := kvRows(p, k, kv0+j0*p.ksJ, j1-j0, kvBuf)
		for r := range rows {
			if je := min(j1, lim[r]); je > j0 {
				ops.DotRows(S[r*nk+j0:r*nk+je], qs[r*hd:(r+1)*hd], kb, ld)
			}
		}
	}
	ls := qs[:rows] // the query rows are no longer needed
	for r := range rows {
		s := S[r*nk : r*nk+lim[r]]
		if mrow := p.maskRowOf(u, r); mrow != nil {
			for j, m := range mrow[:len(s)] {
				if m == negInf {
					s[j] = negInf
				} else {
					s[j] += m
				}
			}
		}
		ls[r] = 0
		if len(s) == 0 {
			continue
		}
		m := ops.Max(s)
		if m == negInf {
			// Nothing to add — unless a score is NaN, which Max may skip:
			// then the row is NaN, as in Exact.
			for _, x := range s {
				if x != x {
					ls[r] = x
					break
				}
			}
			clear(s)
			continue
		}
		ls[r] = ops.ExpSum(s, s, m)
	}
	clear(o)
	for j0 := 0; j0 < n; j0 += kvBlock {
		j1 := min(j0+kvBlock, n)
		vb, ld := kvRows(p, v, kv0+j0*p.ksJ, j1-j0, kvBuf)
		for r := range rows {
			if je := min(j1, lim[r]); je > j0 {
				ops.ExactWeighted(o[r*hd:(r+1)*hd], hd, S[r*nk+j0:r*nk+je], 1, vb, ld)
			}
		}
	}
	for r := range rows {
		or := o[r*hd : (r+1)*hd]
		switch l := ls[r]; {
		case l != l:
			for d := range or {
				or[d] = l
			}
		case l != 0:
			ops.Scale(1/l, or)
		}
		copy(out[qo[r]:qo[r]+hd], or)
	}
}
