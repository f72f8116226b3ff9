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
// to n·rows floats, rounded up to lanePad rows) stay within ~256 KiB. Up
// to 256 keys a tile is one lane group of rows: a tile runs to the last
// key one of its rows sees, and a causal prefill's rows see from n−SeqQ+1
// to n keys, so small tiles skip much of the masked part (a quarter of it
// for 64 queries on 128 keys), while re-reading K and V per tile costs
// little when they are this short.
func tileRows(n int) int {
	switch {
	case n <= 256:
		return lanePad
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

	// weightRows: exactTile's weighted sum runs over blocks of this many
	// rows, each to the last key one of its rows sees.
	weightRows = 8
	// exactWideRows: an Exact tile of at least this many rows keeps its
	// scores transposed, one lane per row; smaller tiles (decoding) are
	// computed row by row, one lane per key (rowTile): the scores of one
	// row cost a quarter of a lanePad-row pass over K.
	exactWideRows = 4
	// fastWideSeqQ: Fast calls with at least this many query rows run
	// Exact's transposed tiles (see rowWise).
	fastWideSeqQ = 8
	// kvBlock is the number of keys of a block of K or V that one pass
	// uses for every row of a tile (and, for binary16 K/V, widens into
	// scratch): 256 keys of HeadDim 64 are 64 KiB.
	kvBlock = 256
)

// tileScratch is one task's working memory.
type tileScratch struct {
	f     []float32
	lim   []int
	qo    []int
	lim32 []int32
}

var scratchPool sync.Pool

func getTileScratch(p *plan) *tileScratch {
	rows, hd, n := p.rows, p.sh.HeadDim, p.sh.SeqKV
	rs := roundUp(rows, lanePad)
	nf := hd*rs + (n+1)*rs + rows*hd + kvBlock*hd // st has rs floats of slack (exactTile)
	if p.rowWise() {
		nf = rows*hd + rows*n + rows*hd + rows
	}
	sc, _ := scratchPool.Get().(*tileScratch)
	if sc == nil {
		sc = &tileScratch{}
	}
	if cap(sc.f) < nf {
		// Grow geometrically: in a decode loop SeqKV grows by one key a
		// step, and a buffer sized exactly would be replaced every step.
		sc.f = make([]float32, nf, max(nf, 2*cap(sc.f)))
	}
	sc.f = sc.f[:nf]
	if cap(sc.lim) < rows || cap(sc.lim32) < rs {
		sc.lim, sc.qo, sc.lim32 = make([]int, rows), make([]int, rows), make([]int32, rs)
	}
	sc.lim, sc.qo, sc.lim32 = sc.lim[:rows], sc.qo[:rows], sc.lim32[:rs]
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

// rowWise reports whether the call's tiles run row by row (rowTile). Fast
// decides by SeqQ alone, so that grouped and tiled K/V (whose tiles hold
// different rows) take the same path: from fastWideSeqQ query rows on it
// runs Exact's transposed tiles, which are its fastest path there (their
// kernels, one lane per row, keep every lane busy), with the Fast* kernels
// (exactTile, softmaxWide); below, row by row with the variant's float32
// kernels.
func (p *plan) rowWise() bool {
	if p.sh.SeqKV > math.MaxInt32 {
		return true
	}
	if p.mode == Fast {
		return p.sh.SeqQ < fastWideSeqQ
	}
	return p.rows < exactWideRows
}

// exactTile computes the rows of unit u in Exact order (see Attention):
// scores st[j·rs + r] by ExactScores, the softmax (across rows with
// ExactExp and ExactDiv over st, or row by row for small tiles), and the
// weighted sum of V by ExactWeighted. Lanes of the kernels compute
// different rows (or keys, or output columns), each in the scalar order.
// Fast runs the same steps with FastScores, FastSoftmax and FastWeighted.
func exactTile[T kvElem](p *plan, u unit, out, q []float32, k, v []T, sc *tileScratch) {
	scores := p.ops.ExactScores
	if p.mode == Fast {
		scores = p.ops.FastScores
	}
	hd := p.sh.HeadDim
	lim, qo := sc.lim, sc.qo
	rows, kv0, n := p.tileRowsOf(u, lim, qo)
	rs := roundUp(rows, lanePad)
	f := sc.f
	qt, f := f[:hd*rs], f[hd*rs:]
	stx, f := f[:(n+1)*rs], f[(n+1)*rs:]
	st := stx[:n*rs]
	o, f := f[:rows*hd], f[rows*hd:]
	kvBuf := f[:kvBlock*hd]

	transposeRows(qt, rs, q, qo[:rows], hd)
	// Scores: one call over every key (float32 K is read in place), or one
	// per widened block.
	if n > 0 {
		if _, ok := any(k).([]float32); ok {
			kb, ld := kvRows(p, k, kv0, n, kvBuf)
			scores(st, qt, rs, kb, ld)
		} else {
			for j0 := 0; j0 < n; j0 += kvBlock {
				j1 := min(j0+kvBlock, n)
				kb, ld := kvRows(p, k, kv0+j0*p.ksJ, j1-j0, kvBuf)
				scores(st[j0*rs:j1*rs], qt, rs, kb, ld)
			}
		}
	}
	p.softmaxWide(u, st, rs, rows, lim, sc.lim32[:rs])
	// The weighted sum in blocks of weightRows rows, each over the keys
	// its rows see: a row's weights past its limit are 0, which the kernel
	// skips, so leaving those keys out changes no bit and saves the
	// masked part of a causal tile (a quarter of it for 64 queries on 128
	// keys). stx[r0:] with n′·rs floats reaches at most rs−1 floats past
	// st, into the slack.
	clear(o)
	for r0 := 0; r0 < rows; r0 += weightRows {
		r1 := min(r0+weightRows, rows)
		nb := 0
		for _, l := range lim[r0:r1] {
			nb = max(nb, l)
		}
		if nb > 0 {
			p.weighted(o[r0*hd:r1*hd], stx[r0:r0+nb*rs], rs, v, kv0) // V in place, binary16 V too
		}
	}
	for r := range rows {
		copy(out[qo[r]:qo[r]+hd], o[r*hd:(r+1)*hd])
	}
}

// transposeRows sets qt[d·rs + r] = q[qo[r] + d] for r < len(qo), d < hd,
// and qt[d·rs + r] = 0 for len(qo) ≤ r < rs. It moves blocks of 4 rows × 4
// columns through registers: one scalar copy at a time, with its bounds
// checks, costs as much as the tile's score kernel at small tiles.
func transposeRows(qt []float32, rs int, q []float32, qo []int, hd int) {
	rows := len(qo)
	r := 0
	for ; r+4 <= rows; r += 4 {
		q0, q1, q2, q3 := q[qo[r]:][:hd], q[qo[r+1]:][:hd], q[qo[r+2]:][:hd], q[qo[r+3]:][:hd]
		d := 0
		for ; d+4 <= hd; d += 4 {
			a0, a1, a2, a3 := q0[d], q0[d+1], q0[d+2], q0[d+3]
			b0, b1, b2, b3 := q1[d], q1[d+1], q1[d+2], q1[d+3]
			c0, c1, c2, c3 := q2[d], q2[d+1], q2[d+2], q2[d+3]
			e0, e1, e2, e3 := q3[d], q3[d+1], q3[d+2], q3[d+3]
			t := qt[d*rs+r:][:3*rs+4]
			t[0], t[1], t[2], t[3] = a0, b0, c0, e0
			t = t[rs:]
			t[0], t[1], t[2], t[3] = a1, b1, c1, e1
			t = t[rs:]
			t[0], t[1], t[2], t[3] = a2, b2, c2, e2
			t = t[rs:]
			t[0], t[1], t[2], t[3] = a3, b3, c3, e3
		}
		for ; d < hd; d++ {
			t := qt[d*rs+r:][:4]
			t[0], t[1], t[2], t[3] = q0[d], q1[d], q2[d], q3[d]
		}
	}
	for ; r < rows; r++ {
		for d, x := range q[qo[r]:][:hd] {
			qt[d*rs+r] = x
		}
	}
	if rows < rs {
		for d := range hd {
			clear(qt[d*rs+rows : (d+1)*rs])
		}
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

// softmaxWide turns the scores st into weights with the ExactSoftmax
// kernel (Fast: FastSoftmax, the same within a few ulp), one lane per row
// in the scalar order (see kernels.Ops). With a mask, the scaled and
// masked scores are formed here first and the kernel scales by 1, which
// changes no bit.
func (p *plan) softmaxWide(u unit, st []float32, rs, rows int, lim []int, lim32 []int32) {
	clear(lim32)
	for r := range rows {
		lim32[r] = int32(lim[r])
	}
	scale := p.scale
	if p.mask != nil {
		for r := range rows {
			mrow := p.maskRowOf(u, r)
			for j := range lim[r] {
				st[j*rs+r] = p.scoreAt(st[j*rs+r], mrow, j)
			}
		}
		scale = 1
	}
	if len(st) == 0 {
		return
	}
	if p.mode == Fast {
		p.ops.FastSoftmax(st, lim32, scale)
	} else {
		p.ops.ExactSoftmax(st, lim32, scale)
	}
}

// rowScores sets s[j] to the score of query row q with key j of the rows
// at k[off + j·ksJ] (Exact: ExactScores, raw; Fast: DotRows of the
// pre-scaled query), on K as it is stored: binary16 K goes to the F16
// kernels, which widen in registers.
func (p *plan) rowScores(s, q []float32, k any, off int) {
	switch k := k.(type) {
	case []float32:
		if p.mode == Exact {
			p.ops.ExactScores(s, q, 1, k[off:], p.ksJ)
		} else {
			p.ops.DotRows(s, q, k[off:], p.ksJ)
		}
	case []quant.F16:
		if p.mode == Exact {
			p.ops.ExactScoresF16(s, q, 1, k[off:], p.ksJ)
		} else {
			p.ops.DotRowsF16(s, q, k[off:], p.ksJ)
		}
	}
}

// weighted adds Σ_j w[j·rs + r]·v[off + j·ksJ, :] to row r of o for every
// row of o (len(o)/HeadDim ≤ rs rows; rs = 1 for one row): ExactWeighted
// (Fast: FastWeighted), or its F16 form, which widens binary16 V in
// registers and returns the float32 form's bits on the widened V.
func (p *plan) weighted(o, w []float32, rs int, v any, off int) {
	hd := p.sh.HeadDim
	fast := p.mode == Fast
	switch v := v.(type) {
	case []float32:
		if fast {
			p.ops.FastWeighted(o, hd, w, rs, v[off:], p.ksJ)
		} else {
			p.ops.ExactWeighted(o, hd, w, rs, v[off:], p.ksJ)
		}
	case []quant.F16:
		if fast {
			p.ops.FastWeightedF16(o, hd, w, rs, v[off:], p.ksJ)
		} else {
			p.ops.ExactWeightedF16(o, hd, w, rs, v[off:], p.ksJ)
		}
	}
}

// rowTile computes the rows of unit u one by one, one lane per key: used
// by Fast for every tile and by Exact for tiles of fewer than
// exactWideRows rows (decoding). Per block of keys and row: the scores
// (Exact: ExactScores with one row, then scale and mask in the scalar
// order; Fast: DotRows of the pre-scaled query, then the mask); per row
// the softmax (Exact: max, ExactExp, the sum in key order, ExactDiv; Fast:
// Max, then ExpSum); per block and row the weighted sum of V (Exact:
// ExactWeighted; Fast: FastWeighted), and for Fast a final Scale by 1/sum.
// A row's result depends only on its inputs and the fixed key blocks,
// never on the tile, the unit or the schedule.
func rowTile[T kvElem](p *plan, u unit, out, q []float32, k, v []T, sc *tileScratch) {
	ops := &p.ops
	exact := p.mode == Exact
	hd, nk := p.sh.HeadDim, p.sh.SeqKV
	lim, qo := sc.lim, sc.qo
	rows, kv0, n := p.tileRowsOf(u, lim, qo)
	f := sc.f
	qs, f := f[:rows*hd], f[rows*hd:]
	S, f := f[:rows*nk], f[rows*nk:]
	o, f := f[:rows*hd], f[rows*hd:]
	ls := f[:rows]
	negInf := float32(math.Inf(-1))

	for r := range rows {
		copy(qs[r*hd:(r+1)*hd], q[qo[r]:qo[r]+hd])
		if !exact {
			ops.Scale(p.scale, qs[r*hd:(r+1)*hd])
		}
	}
	for j0 := 0; j0 < n; j0 += kvBlock {
		j1 := min(j0+kvBlock, n)
		for r := range rows {
			if je := min(j1, lim[r]); je > j0 {
				p.rowScores(S[r*nk+j0:r*nk+je], qs[r*hd:(r+1)*hd], k, kv0+j0*p.ksJ)
			}
		}
	}
	for r := range rows {
		s := S[r*nk : r*nk+lim[r]]
		mrow := p.maskRowOf(u, r)
		ls[r] = 0
		if exact {
			m, live := negInf, false
			for j, x := range s {
				x = p.scoreAt(x, mrow, j)
				s[j] = x
				if x > m {
					m = x
				}
				if x != negInf {
					live = true
				}
			}
			if !live {
				clear(s) // weights 0: the row stays zero
				continue
			}
			one := o[r*hd : r*hd+1] // the row's output is still free
			one[0] = m
			ops.ExactExp(s, s, one)
			var sum float32
			for _, e := range s {
				sum += e
			}
			one[0] = sum
			ops.ExactDiv(s, one)
			continue
		}
		if mrow != nil {
			for j, m := range mrow[:len(s)] {
				if m == negInf {
					s[j] = negInf
				} else {
					s[j] += m
				}
			}
		}
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
		for r := range rows {
			if je := min(j1, lim[r]); je > j0 {
				p.weighted(o[r*hd:(r+1)*hd], S[r*nk+j0:r*nk+je], 1, v, kv0+j0*p.ksJ)
			}
		}
	}
	for r := range rows {
		or := o[r*hd : (r+1)*hd]
		if !exact {
			switch l := ls[r]; {
			case l != l:
				for d := range or {
					or[d] = l
				}
			case l != 0:
				ops.Scale(1/l, or)
			}
		}
		copy(out[qo[r]:qo[r]+hd], or)
	}
}
