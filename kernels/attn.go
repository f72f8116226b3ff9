package kernels

import (
	"github.com/corelane/corelane/quant"
)

// The attention kernels of package sdpa, generic twins. The Exact ones fix
// every rounding: each value is computed in one scalar order, with each
// product converted to float32 explicitly so that no compiler fuses it
// into an FMA. SIMD variants compute several of these values at once, one
// per lane, each in the same order, and so return the same bits.

func widenF16Generic(dst []float32, src []quant.F16) {
	dst = dst[:len(src)]
	t := quant.F16Table()
	for i, h := range src {
		dst[i] = t.At(h)
	}
}

func exactScoresGeneric(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := len(st)/rs, len(qt)/rs
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
	dst = dst[:len(x)]
	p := len(m)
	for i := 0; i < len(x); i += p {
		for r, mr := range m {
			dst[i+r] = Exp(x[i+r] - mr)
		}
	}
}

func exactDivGeneric(x, d []float32) {
	p := len(d)
	for i := 0; i < len(x); i += p {
		for r, dr := range d {
			x[i+r] = x[i+r] / dr
		}
	}
}

func exactWeightedGeneric(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	rows, n := len(o)/hd, len(pt)/rs
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

func dotRowsGeneric(dst, q, k []float32, ldk int) {
	for j := range dst {
		dst[j] = dotF32Generic(q, k[j*ldk:j*ldk+len(q)])
	}
}
