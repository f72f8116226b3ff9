package sdpa

import (
	"math"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
)

// fastScratch returns the scratch length fastTile needs.
func fastScratch(p *plan) int {
	hd := p.sh.HeadDim
	return p.rows*(hd+2) + 2*p.rows*fastBlock + hd + 2*fastLd*hd
}

// partials holds, for every (row, chunk), the state of Fast's online
// softmax over that chunk's keys: running max m, sum l of exp(s - m), and
// acc = Σ exp(s - m)·v.
type partials struct {
	chunks, hd int
	m, l, acc  []float32
}

func newPartials(rows, chunks, hd int) *partials {
	return &partials{
		chunks: chunks, hd: hd,
		m:   make([]float32, rows*chunks),
		l:   make([]float32, rows*chunks),
		acc: make([]float32, rows*chunks*hd),
	}
}

// fastTile runs Fast's online softmax for the rows [u.i0, u.i1) of head
// u.h in batch u.b over the keys of chunk u.c. With part == nil (one chunk
// holds every key) it writes the normalised rows to out; otherwise it
// leaves each row's state in part for combine.
//
// Keys are taken in blocks of fastBlock at fixed positions (multiples of
// fastBlock from key 0). Per block and row: the scores of the pre-scaled
// query, the mask, the block max (Max kernel), a rescale of the running sum
// and accumulator if the max grew, the weights and their sum (ExpSum), and
// the weighted sum of V. How scores and the weighted sum are computed
// depends on the shape only (plan.transposed): see fastScores and
// fastWeighted. A row's result depends only on its own inputs and these
// fixed blocks, never on the tile, the unit or the schedule.
func fastTile[T kvElem](p *plan, u unit, out, q []float32, k, v []T, buf []float32, part *partials) {
	ops := &p.ops
	sh := p.sh
	hd := sh.HeadDim
	rows := u.i1 - u.i0
	qs := buf[:rows*hd]
	ms := buf[rows*hd : rows*hd+rows]
	ls := buf[rows*hd+rows : rows*(hd+2)]
	rest := buf[p.rows*(hd+2):]
	sbuf := rest[:p.rows*fastBlock] // scores of row r at r·fastBlock
	pbuf := rest[p.rows*fastBlock : 2*p.rows*fastBlock]
	rowBuf := rest[2*p.rows*fastBlock : 2*p.rows*fastBlock+hd]
	rest = rest[2*p.rows*fastBlock+hd:]
	kBuf := rest[:fastLd*hd]
	vBuf := rest[fastLd*hd : 2*fastLd*hd]
	live := make([]int, rows) // per row: keys of the block with weights, or 0
	var vBad []int            // keys of the current block whose V rows hold Inf or NaN
	if p.transposed {
		vBad = make([]int, 0, fastBlock)
	}

	negInf := float32(math.Inf(-1))
	acc := func(r int) []float32 {
		i := u.i0 + r
		if part == nil {
			return out[p.qOff(u.b, u.h, i):][:hd]
		}
		row := (u.b*sh.Heads+u.h)*sh.SeqQ + i
		o := (row*part.chunks + u.c) * hd
		return part.acc[o : o+hd]
	}
	for r := range rows {
		qo := p.qOff(u.b, u.h, u.i0+r)
		copy(qs[r*hd:(r+1)*hd], q[qo:qo+hd])
		ops.Scale(p.scale, qs[r*hd:(r+1)*hd])
		ms[r], ls[r] = negInf, 0
		clear(acc(r))
	}

	c0 := u.c * p.chunkLen
	c1 := min(c0+p.chunkLen, p.limit(u.i1-1))
	kv0 := p.kvOff(u.b, u.h, 0)
	for j0 := c0; j0 < c1; j0 += fastBlock {
		j1 := min(j0+fastBlock, c1)
		ld := p.ksJ
		kSrc, vSrc := k[kv0+j0*ld:kv0+(j1-1)*ld+hd], v[kv0+j0*ld:kv0+(j1-1)*ld+hd]
		var kb, vb []float32
		if p.transposed {
			// A key row with Inf or NaN only affects its own score (one
			// lane of each Axpy), so K is transposed as it is; V rows
			// with Inf or NaN are zeroed and added separately below.
			transposeWiden(kBuf, kSrc, j1-j0, hd, ld, nil)
			vBad = transposeWiden(vBuf, vSrc, j1-j0, hd, ld, vBad[:0])
			kb, vb = kBuf, vBuf
		} else {
			kb, vb = rowsWiden(kSrc, 0, j1-j0, hd, ld, kBuf), rowsWiden(vSrc, 0, j1-j0, hd, ld, vBuf)
		}
		// Scores and weights of every row, then the weighted sums: the
		// transposed K block, then the V block, stay in cache while all
		// rows use them.
		for r := range rows {
			i := u.i0 + r
			je := min(j1, p.limit(i))
			live[r] = 0
			if je <= j0 {
				continue
			}
			s := sbuf[r*fastBlock:][:je-j0]
			fastScores(ops, s, qs[r*hd:(r+1)*hd], kb, p.transposed)
			if mrow := p.maskRow(u.b, i); mrow != nil {
				for j, m := range mrow[j0:je] {
					if m == negInf {
						s[j] = negInf
					} else {
						s[j] += m
					}
				}
			}
			if fastSoftmaxStep(ops, &ms[r], &ls[r], acc(r), s, pbuf[r*fastBlock:][:len(s)]) {
				live[r] = len(s)
			}
		}
		for r, n := range live[:rows] {
			if n == 0 {
				continue
			}
			a := acc(r)
			pb := pbuf[r*fastBlock:][:n]
			fastWeighted(ops, a, pb, vb, p.transposed)
			for _, j := range vBad {
				// Zero weight (masked) keys never reach the output, as in
				// Exact; the others bring their Inf or NaN.
				if j < n && pb[j] != 0 {
					ops.Axpy(pb[j], widen(vSrc[j*ld:j*ld+hd], rowBuf), a)
				}
			}
		}
	}

	for r := range rows {
		a := acc(r)
		if part != nil {
			row := (u.b*sh.Heads+u.h)*sh.SeqQ + u.i0 + r
			part.m[row*part.chunks+u.c] = ms[r]
			part.l[row*part.chunks+u.c] = ls[r]
			continue
		}
		finish(ops, ms[r], ls[r], a)
	}
}

// transposeWiden writes the n key rows of src (row j at src[j·ld:], hd
// values), widened to float32, transposed into dst: dst[d·fastLd + j] =
// src[j·ld + d]. With
// bad != nil, a key row holding Inf or NaN is written as zeros instead and
// its index j appended to bad, which is returned.
func transposeWiden[T kvElem](dst []float32, src []T, n, hd, ld int, bad []int) []int {
	var anyBad bool
	switch s := any(src).(type) {
	case []float32:
		anyBad = transposeF32(dst, s, n, hd, ld)
	case []quant.F16:
		anyBad = transposeF16(dst, s, n, hd, ld)
	}
	if !anyBad || bad == nil {
		return bad
	}
	for j := range n {
		var f uint32
		switch s := any(src).(type) {
		case []float32:
			for _, x := range s[j*ld : j*ld+hd] {
				f |= nonFiniteBit(x)
			}
		case []quant.F16:
			for _, h := range s[j*ld : j*ld+hd] {
				f |= nonFiniteBit16(h)
			}
		}
		if f&0x80000000 != 0 {
			bad = zeroColumn(dst, j, hd, bad)
		}
	}
	return bad
}

// transposeF32 is transposeWiden for float32 rows. It reports whether any
// value is Inf or NaN.
//
// It goes over the block in strips of transposeStrip values of d, so that
// the part of dst being written stays in L1, and within a strip eight keys
// at a time: eight source rows read in step, eight contiguous stores.
func transposeF32(dst, src []float32, n, hd, ld int) bool {
	var f uint32 // bit 31: a value is Inf or NaN
	for d0 := 0; d0 < hd; d0 += transposeStrip {
		w := min(transposeStrip, hd-d0)
		j := 0
		for ; j+8 <= n; j += 8 {
			r0, r1 := src[j*ld+d0:][:w], src[(j+1)*ld+d0:][:w]
			r2, r3 := src[(j+2)*ld+d0:][:w], src[(j+3)*ld+d0:][:w]
			r4, r5 := src[(j+4)*ld+d0:][:w], src[(j+5)*ld+d0:][:w]
			r6, r7 := src[(j+6)*ld+d0:][:w], src[(j+7)*ld+d0:][:w]
			out := dst[d0*fastLd+j:]
			for d := range r0 {
				o := out[d*fastLd:][:8]
				x0, x1, x2, x3 := r0[d], r1[d], r2[d], r3[d]
				x4, x5, x6, x7 := r4[d], r5[d], r6[d], r7[d]
				o[0], o[1], o[2], o[3] = x0, x1, x2, x3
				o[4], o[5], o[6], o[7] = x4, x5, x6, x7
				f |= (nonFiniteBit(x0) | nonFiniteBit(x1)) | (nonFiniteBit(x2) | nonFiniteBit(x3)) |
					(nonFiniteBit(x4) | nonFiniteBit(x5)) | (nonFiniteBit(x6) | nonFiniteBit(x7))
			}
		}
		for ; j < n; j++ {
			for d, x := range src[j*ld+d0:][:w] {
				dst[(d0+d)*fastLd+j] = x
				f |= nonFiniteBit(x)
			}
		}
	}
	return f&0x80000000 != 0
}

// transposeF16 is transposeWiden for binary16 rows. It reports whether any
// value is Inf or NaN.
func transposeF16(dst []float32, src []quant.F16, n, hd, ld int) bool {
	t := f16Table()
	var f uint32
	for d0 := 0; d0 < hd; d0 += transposeStrip {
		w := min(transposeStrip, hd-d0)
		j := 0
		for ; j+4 <= n; j += 4 {
			r0, r1 := src[j*ld+d0:][:w], src[(j+1)*ld+d0:][:w]
			r2, r3 := src[(j+2)*ld+d0:][:w], src[(j+3)*ld+d0:][:w]
			out := dst[d0*fastLd+j:]
			for d := range r0 {
				o := out[d*fastLd:][:4]
				h0, h1, h2, h3 := r0[d], r1[d], r2[d], r3[d]
				o[0], o[1], o[2], o[3] = t[h0], t[h1], t[h2], t[h3]
				f |= (nonFiniteBit16(h0) | nonFiniteBit16(h1)) | (nonFiniteBit16(h2) | nonFiniteBit16(h3))
			}
		}
		for ; j < n; j++ {
			for d, h := range src[j*ld+d0:][:w] {
				dst[(d0+d)*fastLd+j] = t[h]
				f |= nonFiniteBit16(h)
			}
		}
	}
	return f&0x80000000 != 0
}

// nonFiniteBit returns a word with bit 31 set if x is Inf or NaN: an
// exponent field of all ones carries into bit 31.
func nonFiniteBit(x float32) uint32 {
	return math.Float32bits(x)&0x7FFFFFFF + 0x00800000
}

// nonFiniteBit16 is nonFiniteBit for a binary16 value.
func nonFiniteBit16(h quant.F16) uint32 {
	return (uint32(h&0x7FFF) + 0x0400) << 16
}

func zeroColumn(dst []float32, j, hd int, bad []int) []int {
	for d := range hd {
		dst[d*fastLd+j] = 0
	}
	return append(bad, j)
}

// fastScores sets s[j] to the dot product of the pre-scaled query qs with
// key j of the block. Untransposed (kb holds key rows): one DotF32 per key.
// Transposed (kb[d·fastLd + j]): HeadDim Axpy calls over the whole
// block, s += qs[d]·kb[d,:], so every s[j] is summed over d in order (with
// or without FMA, as the kernel variant does it) and a call covers many keys.
func fastScores(ops *kernels.Ops, s, qs, kb []float32, transposed bool) {
	hd := len(qs)
	if !transposed {
		for j := range s {
			s[j] = ops.DotF32(qs, kb[j*hd:(j+1)*hd])
		}
		return
	}
	clear(s)
	for d, x := range qs {
		ops.Axpy(x, kb[d*fastLd:d*fastLd+len(s)], s)
	}
}

// fastWeighted adds Σ_j pb[j]·v[j,:] to acc. Transposed (vb[d·fastLd+j],
// every value finite): one DotF32 of the weights with each column of V.
// Otherwise (vb holds key rows): one Axpy per key of nonzero weight.
func fastWeighted(ops *kernels.Ops, acc, pb, vb []float32, transposed bool) {
	hd := len(acc)
	if transposed {
		for d := range acc {
			acc[d] += ops.DotF32(pb, vb[d*fastLd:d*fastLd+len(pb)])
		}
		return
	}
	for j, w := range pb {
		if w != 0 {
			ops.Axpy(w, vb[j*hd:(j+1)*hd], acc)
		}
	}
}

// fastSoftmaxStep folds one block of scores s into the online-softmax
// state (m, l, acc): it rescales l and acc if the running max m grows, sets
// pb to the block's weights exp(s - m) and adds their sum to l. It returns
// false if the block adds nothing (every score -Inf).
func fastSoftmaxStep(ops *kernels.Ops, m, l *float32, acc, s, pb []float32) bool {
	negInf := float32(math.Inf(-1))
	mb := ops.Max(s)
	if mb == negInf {
		// The block adds nothing — unless a score is NaN, which the Max
		// kernels may skip: then poison the row as Exact would.
		for _, x := range s {
			if x != x {
				*m = x
				return false
			}
		}
		return false
	}
	if !(mb <= *m) { // a larger max (or NaN): rescale what is there
		if *m != negInf {
			c := kernels.Exp32(*m - mb)
			*l *= c
			ops.Scale(c, acc)
		}
		*m = mb
	}
	*l += ops.ExpSum(pb, s, *m)
	return true
}

// finish turns the state (m, l, acc) of a row into its output, in place:
// acc/l, or zeros if every key was masked.
func finish(ops *kernels.Ops, m, l float32, acc []float32) {
	if m == float32(math.Inf(-1)) {
		clear(acc)
		return
	}
	ops.Scale(1/l, acc)
}

// combine merges the chunk states of query row r into o, in chunk order:
// M = max m_c, then l = Σ l_c·e^(m_c-M) and acc = Σ acc_c·e^(m_c-M).
func combine(p *plan, part *partials, r int, o []float32) {
	ops := &p.ops
	negInf := float32(math.Inf(-1))
	ms := part.m[r*part.chunks : (r+1)*part.chunks]
	mx := negInf
	for _, m := range ms {
		if m != m {
			mx = m // NaN: the row is NaN
			break
		}
		if m > mx {
			mx = m
		}
	}
	clear(o)
	if mx == negInf {
		return
	}
	var l float32
	for c, m := range ms {
		if m == negInf {
			continue
		}
		w := kernels.Exp32(m - mx)
		l += part.l[r*part.chunks+c] * w
		ops.Axpy(w, part.acc[(r*part.chunks+c)*part.hd:][:part.hd], o)
	}
	ops.Scale(1/l, o)
}
