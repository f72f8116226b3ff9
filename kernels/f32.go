package kernels

import (
	"math"

	"github.com/corelane/corelane/quant"
)

// dotF32Generic sums in four interleaved partial sums (element i goes to
// partial i mod 4), combined as (p0+p1)+(p2+p3). Not bit-identical to
// SIMD variants; see TestF32Tolerance for the bound.
func dotF32Generic(a, b []float32) float32 {
	var p0, p1, p2, p3 float32
	n := len(a)
	b = b[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		p0 += a[i] * b[i]
		p1 += a[i+1] * b[i+1]
		p2 += a[i+2] * b[i+2]
		p3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		p0 += a[i] * b[i]
	}
	return (p0 + p1) + (p2 + p3)
}

func axpyGeneric(alpha float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

func scaleGeneric(alpha float32, x []float32) {
	for i := range x {
		x[i] *= alpha
	}
}

func maxGeneric(x []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range x {
		if v > m {
			m = v
		}
	}
	return m
}

func expSumGeneric(dst, x []float32, sub float32) float32 {
	dst = dst[:len(x)]
	var s float32
	for i, v := range x {
		e := Exp32(v - sub)
		dst[i] = e
		s += e
	}
	return s
}

// Constants of Exp32: ln 2 split into a part with few significant bits
// (so that n·ln2Hi is exact for |n| < 2^9) and the rest.
const (
	expLog2e = 1.44269504088896341
	expLn2Hi = 0.693359375
	expLn2Lo = -2.12194440e-4
	// Beyond these, exp overflows to +Inf or underflows to 0 in float32.
	expMaxArg = 88.72283935546875
	expMinArg = -103.97208404541015625
)

// Exp32 is the float32 exponential that the vectorised ExpSum kernels
// compute lane by lane: range reduction x = n·ln2 + r with |r| ≤ ln2/2, a
// degree-5 minimax polynomial for e^r, and scaling by 2^n through the exponent
// bits (gradual underflow included). Its error is within 2 ulp of the
// correctly rounded result over the whole float32 range (TestExp32). It is
// written with explicit float32 conversions so every step rounds as the SIMD
// code's separate multiplies and adds do, except where a variant uses FMA
// (documented as tolerance, not bits).
func Exp32(x float32) float32 {
	switch {
	case x != x:
		return x
	case x > expMaxArg:
		return float32(math.Inf(1))
	case x < expMinArg:
		return 0
	}
	n := float32(math.Floor(float64(float32(x*expLog2e) + 0.5)))
	r := float32(x - float32(n*expLn2Hi))
	r = float32(r - float32(n*expLn2Lo))
	// e^r ≈ 1 + r + r²·P(r), P a degree-5 minimax polynomial (Cephes expf
	// coefficients), Horner form.
	p := float32(1.9875691500e-4)
	p = float32(float32(p*r) + 1.3981999507e-3)
	p = float32(float32(p*r) + 8.3334519073e-3)
	p = float32(float32(p*r) + 4.1665795894e-2)
	p = float32(float32(p*r) + 1.6666665459e-1)
	p = float32(float32(p*r) + 5.0000001201e-1)
	p = float32(p * float32(r*r))
	p = float32(float32(p+r) + 1)
	return ldexp32(p, int(n))
}

// ldexp32 returns p·2^n for p in [0.5, 2], handling results that are
// subnormal (n down to −150) by scaling in two steps.
func ldexp32(p float32, n int) float32 {
	if n < -126 {
		return float32(p*math.Float32frombits(uint32(n+126+127)<<23)) * math.Float32frombits(1<<23) // 2^-126
	}
	if n > 127 {
		return float32(p*math.Float32frombits(uint32(n-1+127)<<23)) * 2
	}
	return p * math.Float32frombits(uint32(n+127)<<23)
}

// matVecF16Generic is MatVecF16: each row widened (exactly) and dotted with
// x by dotF32Generic.
func matVecF16Generic(dst []float32, w []quant.F16, x []float32) {
	n := len(x)
	if len(w) != len(dst)*n {
		panic("kernels: MatVecF16: len(w) != len(dst)·len(x)")
	}
	t := quant.F16Table()
	var buf [256]float32
	for r := range dst {
		row := w[r*n : (r+1)*n]
		// Widen and dot in pieces of 256, accumulating as dotF32Generic's
		// four sums would over the whole row.
		var p [4]float32
		i := 0
		for ; i < n; i += len(buf) {
			m := min(len(buf), n-i)
			for j, h := range row[i : i+m] {
				buf[j] = t.At(h)
			}
			xs := x[i : i+m]
			j := 0
			for ; j+4 <= m; j += 4 {
				p[0] += buf[j] * xs[j]
				p[1] += buf[j+1] * xs[j+1]
				p[2] += buf[j+2] * xs[j+2]
				p[3] += buf[j+3] * xs[j+3]
			}
			for ; j < m; j++ {
				p[0] += buf[j] * xs[j]
			}
		}
		dst[r] = (p[0] + p[1]) + (p[2] + p[3])
	}
}
