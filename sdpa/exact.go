package sdpa

import "math"

// exactTile computes the rows [u.i0, u.i1) of head u.h in batch u.b in
// Exact order. buf holds exactRows·SeqKV scores and one widened key block.
//
// The tile reads K and V one block of exactKeyBlock keys at a time and uses
// each block for every row of the tile; this changes which row is worked on
// when, never the order of any row's sums.
func exactTile[T kvElem](p *plan, u unit, out, q []float32, k, v []T, buf []float32) {
	sh := p.sh
	hd, nk := sh.HeadDim, sh.SeqKV
	rows := u.i1 - u.i0
	scores := buf[:rows*nk]
	kvBuf := buf[rows*nk : rows*nk+exactKeyBlock*hd]
	kv0 := p.kvOff(u.b, u.h, 0)
	maxLim := p.limit(u.i1 - 1) // limit is non-decreasing in i

	// Scores: s[j] = (Σ_d q[d]·k[j,d]) · scale, sequential over d.
	for j0 := 0; j0 < maxLim; j0 += exactKeyBlock {
		j1 := min(j0+exactKeyBlock, maxLim)
		kb := rowsWiden(k, kv0+j0*p.ksJ, j1-j0, hd, p.ksJ, kvBuf)
		for r := range rows {
			i := u.i0 + r
			je := min(j1, p.limit(i))
			if je <= j0 {
				continue
			}
			qo := p.qOff(u.b, u.h, i)
			exactScores(scores[r*nk+j0:r*nk+je], q[qo:qo+hd], kb)
		}
	}

	// Softmax, row by row; then out rows start at +0.
	negInf := float32(math.Inf(-1))
	for r := range rows {
		i := u.i0 + r
		s := scores[r*nk : r*nk+p.limit(i)]
		o := out[p.qOff(u.b, u.h, i):][:hd]
		clear(o)
		if mrow := p.maskRow(u.b, i); mrow != nil {
			mrow = mrow[:len(s)]
			for j, m := range mrow {
				if m == negInf {
					s[j] = negInf
				} else {
					s[j] = float32(s[j]*p.scale) + m
				}
			}
		} else {
			for j := range s {
				s[j] = float32(s[j] * p.scale)
			}
		}
		m := negInf
		masked := true
		for _, x := range s {
			if x > m {
				m = x
			}
			if x != negInf {
				masked = false
			}
		}
		if masked {
			// Every key masked: the row stays zero, and no key of it is
			// read in the weighted sum below (its p[j] are all zero).
			clear(s)
			continue
		}
		var sum float32
		for j, x := range s {
			e := exp32(x - m)
			s[j] = e
			sum += e
		}
		for j := range s {
			s[j] = s[j] / sum
		}
	}

	// Weighted sum of V: out[d] = Σ_j p[j]·v[j,d], sequential over j.
	for j0 := 0; j0 < maxLim; j0 += exactKeyBlock {
		j1 := min(j0+exactKeyBlock, maxLim)
		vb := rowsWiden(v, kv0+j0*p.ksJ, j1-j0, hd, p.ksJ, kvBuf)
		for r := range rows {
			i := u.i0 + r
			je := min(j1, p.limit(i))
			if je <= j0 {
				continue
			}
			o := out[p.qOff(u.b, u.h, i):][:hd]
			exactWeighted(o, scores[r*nk+j0:r*nk+je], vb)
		}
	}
}

// exactScores sets s[j] = Σ_d q[d]·k[j·hd+d] for j < len(s), hd = len(q),
// summing over d in order from +0 with every product and sum rounded to
// float32. Four keys are computed at once: four independent chains, each
// in the scalar order.
func exactScores(s, q, k []float32) {
	hd := len(q)
	j := 0
	for ; j+4 <= len(s); j += 4 {
		k0 := k[j*hd:][:hd]
		k1 := k[(j+1)*hd:][:hd]
		k2 := k[(j+2)*hd:][:hd]
		k3 := k[(j+3)*hd:][:hd]
		var s0, s1, s2, s3 float32
		for d, x := range q {
			s0 += float32(x * k0[d])
			s1 += float32(x * k1[d])
			s2 += float32(x * k2[d])
			s3 += float32(x * k3[d])
		}
		s[j], s[j+1], s[j+2], s[j+3] = s0, s1, s2, s3
	}
	for ; j < len(s); j++ {
		kj := k[j*hd:][:hd]
		var s0 float32
		for d, x := range q {
			s0 += float32(x * kj[d])
		}
		s[j] = s0
	}
}

// exactWeighted adds p[j]·v[j·hd+d] to o[d] for every j < len(p) in order,
// hd = len(o), skipping p[j] == 0, each product and sum rounded to float32.
// Four keys are added per pass over o, still one after the other for every
// o[d].
func exactWeighted(o, p, v []float32) {
	hd := len(o)
	j := 0
	for ; j+4 <= len(p); j += 4 {
		p0, p1, p2, p3 := p[j], p[j+1], p[j+2], p[j+3]
		if p0 == 0 || p1 == 0 || p2 == 0 || p3 == 0 {
			for jj := j; jj < j+4; jj++ {
				exactAxpy(o, p[jj], v[jj*hd:][:hd])
			}
			continue
		}
		v0 := v[j*hd:][:hd]
		v1 := v[(j+1)*hd:][:hd]
		v2 := v[(j+2)*hd:][:hd]
		v3 := v[(j+3)*hd:][:hd]
		for d, x := range o {
			x += float32(p0 * v0[d])
			x += float32(p1 * v1[d])
			x += float32(p2 * v2[d])
			x += float32(p3 * v3[d])
			o[d] = x
		}
	}
	for ; j < len(p); j++ {
		exactAxpy(o, p[j], v[j*hd:][:hd])
	}
}

// exactAxpy adds p·v[d] to o[d] (nothing if p == 0).
func exactAxpy(o []float32, p float32, v []float32) {
	if p == 0 {
		return
	}
	v = v[:len(o)]
	for d, x := range o {
		o[d] = x + float32(p*v[d])
	}
}
