package kernels

import (
	"math"

	"github.com/corelane/corelane/quant"
)

// The attention kernels of package sdpa, generic twins. The Exact ones fix
// every rounding: each value is computed in one scalar order, with each
// product converted to float32 explicitly so that no compiler fuses it
// into an FMA. SIMD variants compute several of these values at once, one
// per lane, each in the same order, and so return the same bits.

func widenF16Generic(dst []float32, src []quant.F16) {
	if len(dst) != len(src) {
		panic("kernels: WidenF16: len(dst) != len(src)")
	}
	t := quant.F16Table()
	for i, h := range src {
		dst[i] = t.At(h)
	}
}

func exactScoresGeneric(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores("ExactScores", st, qt, rs, len(k), ldk)
	for j := range n {
		kj := k[j*ldk:][:hd]
		s := st[j*rs:][:rs]
		for r := range s {
			var acc float32
			for d, x := range kj {
				acc += float32(qt[d*rs+r] * x)
			}
			s[r] = acc
		}
	}
}

func exactExpGeneric(dst, x, m []float32) {
	checkPeriodic("ExactExp", len(x), len(dst), len(m))
	p := len(m)
	for i := 0; i < len(x); i += p {
		for r, mr := range m {
			dst[i+r] = Exp(x[i+r] - mr)
		}
	}
}

func exactDivGeneric(x, d []float32) {
	checkPeriodic("ExactDiv", len(x), len(x), len(d))
	p := len(d)
	for i := 0; i < len(x); i += p {
		for r, dr := range d {
			x[i+r] = x[i+r] / dr
		}
	}
}

func exactWeightedGeneric(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	rows, n := checkWeighted("ExactWeighted", o, hd, pt, rs, len(v), ldv)
	for r := range rows {
		or := o[r*hd:][:hd]
		for j := range n {
			p := pt[j*rs+r]
			if p == 0 {
				continue
			}
			vj := v[j*ldv:][:hd]
			for c, x := range or {
				or[c] = x + float32(p*vj[c])
			}
		}
	}
}

func exactSoftmaxGeneric(st []float32, lim []int32, scale float32) {
	softmaxColsWith("ExactSoftmax", st, lim, scale, Exp)
}

func softmaxColsGeneric(st []float32, lim []int32, scale float32) {
	softmaxColsWith("SoftmaxCols", st, lim, scale, Exp32)
}

// softmaxColsWith is ExactSoftmax with exp for the exponential, op the
// name its length errors give.
func softmaxColsWith(op string, st []float32, lim []int32, scale float32, exp func(float32) float32) {
	rs := len(lim)
	n := checkSoftmax(op, st, lim)
	negInf := float32(math.Inf(-1))
	for r := range rs {
		L := int(lim[r])
		m, live := negInf, false
		for j := range n {
			x := negInf
			if j < L {
				x = float32(st[j*rs+r] * scale)
			}
			st[j*rs+r] = x
			if x > m {
				m = x
			}
			if x != negInf {
				live = true
			}
		}
		if !live {
			m = 0
		}
		var sum float32
		for j := range n {
			e := exp(st[j*rs+r] - m)
			st[j*rs+r] = e
			sum += e
		}
		for j := range n {
			p := st[j*rs+r] / sum
			if j >= L || !live {
				p = 0
			}
			st[j*rs+r] = p
		}
	}
}

func dotRowsGeneric(dst, q, k []float32, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	for j := range dst {
		dst[j] = dotF32Generic(q, k[j*ldk:j*ldk+len(q)])
	}
}

func exactScoresF16Generic(st, qt []float32, rs int, k []quant.F16, ldk int) {
	n, hd := checkScores("ExactScoresF16", st, qt, rs, len(k), ldk)
	t := quant.F16Table()
	for j := range n {
		kj := k[j*ldk:][:hd]
		s := st[j*rs:][:rs]
		for r := range s {
			var acc float32
			for d, h := range kj {
				acc += float32(qt[d*rs+r] * t.At(h))
			}
			s[r] = acc
		}
	}
}

func exactWeightedF16Generic(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
	rows, n := checkWeighted("ExactWeightedF16", o, hd, pt, rs, len(v), ldv)
	t := quant.F16Table()
	for r := range rows {
		or := o[r*hd:][:hd]
		for j := range n {
			p := pt[j*rs+r]
			if p == 0 {
				continue
			}
			vj := v[j*ldv:][:hd]
			for c, x := range or {
				or[c] = x + float32(p*t.At(vj[c]))
			}
		}
	}
}

func dotRowsF16Generic(dst, q []float32, k []quant.F16, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	t := quant.F16Table()
	for j := range dst {
		dst[j] = dotF16RowGeneric(t, q, k[j*ldk:j*ldk+len(q)])
	}
}

// dotF16RowGeneric is dotF32Generic with b widened from binary16 as it is
// read (the same products in the same order, so the same bits).
func dotF16RowGeneric(t quant.F16Lookup, a []float32, b []quant.F16) float32 {
	var p0, p1, p2, p3 float32
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p0 += a[i] * t.At(b[i])
		p1 += a[i+1] * t.At(b[i+1])
		p2 += a[i+2] * t.At(b[i+2])
		p3 += a[i+3] * t.At(b[i+3])
	}
	for ; i < n; i++ {
		p0 += a[i] * t.At(b[i])
	}
	return (p0 + p1) + (p2 + p3)
}
