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
		dst[i] = t[h]
	}
}

func exactScoresGeneric(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores(st, qt, rs, len(k), ldk)
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
			dst[i+r] = ExactExp32(x[i+r] - mr)
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
	rows, n := checkWeighted(o, hd, pt, rs, len(v), ldv)
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
	rs := len(lim)
	n := checkSoftmax(st, lim)
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
			e := ExactExp32(st[j*rs+r] - m)
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
	n, hd := checkScores(st, qt, rs, len(k), ldk)
	t := quant.F16Table()
	for j := range n {
		kj := k[j*ldk:][:hd]
		s := st[j*rs:][:rs]
		for r := range s {
			var acc float32
			for d, h := range kj {
				acc += float32(qt[d*rs+r] * t[h])
			}
			s[r] = acc
		}
	}
}

func exactWeightedF16Generic(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
	rows, n := checkWeighted(o, hd, pt, rs, len(v), ldv)
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
				or[c] = x + float32(p*t[vj[c]])
			}
		}
	}
}

func dotRowsF16Generic(dst, q []float32, k []quant.F16, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	t := quant.F16Table()
	row := make([]float32, len(q))
	for j := range dst {
		for d, h := range k[j*ldk : j*ldk+len(q)] {
			row[d] = t[h]
		}
		dst[j] = dotF32Generic(q, row)
	}
}

// Constants of ExactExp32. ln2Hi has 21 trailing zero bits, so n·ln2Hi is
// exact for every n the reduction produces (|n| ≤ 150).
const (
	exactLog2e = 1.44269504088896338700e+00
	exactLn2Hi = 6.93147180369123816490e-01 // 0x3FE62E42FEE00000
	exactLn2Lo = 1.90821492927058770002e-10 // 0x3DEA39EF35793C76
	// ExactExpOverflow is the smallest float32 whose exponential rounds to
	// +Inf (e^88.72283172607422 is finite, e^88.72283935546875 is not).
	ExactExpOverflow = 88.72283935546875
	// Below ExactExpUnderflow, e^x is less than half the smallest float32
	// subnormal (2^-150 ≈ e^-103.97) and rounds to +0.
	ExactExpUnderflow = -104
)

// Taylor coefficients 1/k! for k = 2..13, for e^r on |r| ≤ ln2/2; the
// truncation error, r^14/14!, is below 4e-18.
const (
	expC2  = 1.0 / 2
	expC3  = 1.0 / 6
	expC4  = 1.0 / 24
	expC5  = 1.0 / 120
	expC6  = 1.0 / 720
	expC7  = 1.0 / 5040
	expC8  = 1.0 / 40320
	expC9  = 1.0 / 362880
	expC10 = 1.0 / 3628800
	expC11 = 1.0 / 39916800
	expC12 = 1.0 / 479001600
	expC13 = 1.0 / 6227020800
)

// ExactExp32 returns e^x rounded to float32: the exponential of sdpa's
// Exact mode, and of the ExactExp kernels of every variant.
//
// It works in float64 and rounds once at the end: x = n·ln2 + r with
// |r| ≤ ln2/2 (Cody–Waite, ln2 split in two), e^r by its degree-13 Taylor
// polynomial (Estrin's scheme), and the scaling by 2^n exact in float64. The
// float64 result is within ~1e-15 relative of e^x, so the final rounding is
// the correctly rounded one except for inputs whose e^x lies within that
// distance of a float32 rounding boundary. That bounds the error by 1 ulp;
// measured, it returns exactly float32(math.Exp(float64(x))) for every
// float32 x (sdpa's TestExp32Exhaustive checks all 2.2e9 inputs with a
// finite, nonzero result). Results in the subnormal range get the same
// single rounding as any other.
//
// Every operation is a separately rounded IEEE float64 multiply or add (each
// product is converted explicitly, which forbids the compiler to fuse it
// into an FMA), math.Floor is exact, and no table or math.Exp is used, so
// it returns the same bits on every GOARCH and CPU. (math.Exp itself does
// not: it takes an FMA path on some machines.) The SIMD kernels do the same
// operations lane by lane, 2^n built from n's bits.
func ExactExp32(x float32) float32 {
	switch {
	case x != x:
		return x
	case x >= ExactExpOverflow:
		return float32(math.Inf(1))
	case x < ExactExpUnderflow:
		return 0
	}
	xd := float64(x)
	n := math.Floor(float64(xd*exactLog2e) + 0.5)
	r := float64(xd-float64(n*exactLn2Hi)) - float64(n*exactLn2Lo)
	// e^r = Σ_k r^k/k! for k ≤ 13 in Estrin's scheme (pairs, then powers
	// r², r⁴, r⁸): the same terms as Horner's rule with a dependency chain
	// a third as long.
	r2 := float64(r * r)
	r4 := float64(r2 * r2)
	r8 := float64(r4 * r4)
	a0 := 1 + r
	a1 := float64(expC3*r) + expC2
	a2 := float64(expC5*r) + expC4
	a3 := float64(expC7*r) + expC6
	a4 := float64(expC9*r) + expC8
	a5 := float64(expC11*r) + expC10
	a6 := float64(expC13*r) + expC12
	b0 := float64(a1*r2) + a0
	b1 := float64(a3*r2) + a2
	b2 := float64(a5*r2) + a4
	c0 := float64(b1*r4) + b0
	c1 := float64(a6*r4) + b2
	p := float64(c1*r8) + c0
	// n is in [-151, 128]: 2^n is a normal float64 and the product exact.
	return float32(p * math.Float64frombits(uint64(int64(n)+1023)<<52))
}
