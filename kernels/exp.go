package kernels

import "math"

// Constants of Exp. ln2Hi has 21 trailing zero bits, so n·ln2Hi is exact
// for every n the reduction produces (|n| ≤ 150).
const (
	exactLog2e = 1.44269504088896338700e+00
	exactLn2Hi = 6.93147180369123816490e-01 // 0x3FE62E42FEE00000
	exactLn2Lo = 1.90821492927058770002e-10 // 0x3DEA39EF35793C76
	// ExpOverflow is the smallest float32 whose exponential rounds to +Inf
	// (e^88.72283172607422 is finite, e^88.72283935546875 is not).
	ExpOverflow = 88.72283935546875
	// Below ExpUnderflow, e^x is less than half the smallest float32
	// subnormal (2^-150 ≈ e^-103.97) and rounds to +0.
	ExpUnderflow = -104
)

// Taylor coefficients 1/k! for k = 2..13, for e^r on |r| ≤ ln2/2; the
// truncation error, r^14/14!, is below 4e-18.
const (
	exactC2  = 1.0 / 2
	exactC3  = 1.0 / 6
	exactC4  = 1.0 / 24
	exactC5  = 1.0 / 120
	exactC6  = 1.0 / 720
	exactC7  = 1.0 / 5040
	exactC8  = 1.0 / 40320
	exactC9  = 1.0 / 362880
	exactC10 = 1.0 / 3628800
	exactC11 = 1.0 / 39916800
	exactC12 = 1.0 / 479001600
	exactC13 = 1.0 / 6227020800
)

// Exp returns e^x rounded to float32: the module's exponential. Exact
// attention, spi's Softmax and SiLU use it, so every op that exposes an
// exponential gives the same bits for the same input, on every GOARCH and
// CPU. (Exp32 is the other one: the approximation the vectorised ExpSum
// kernels compute lane by lane, within 2 ulp, used by Fast attention only.)
//
// It works in float64 and rounds once at the end: x = n·ln2 + r with
// |r| ≤ ln2/2 (Cody–Waite, ln2 split in two), e^r by its degree-13 Taylor
// polynomial (Estrin's scheme), and the scaling by 2^n exact in float64. The
// float64 result is within ~1e-15 relative of e^x, so the final rounding is
// the correctly rounded one except for inputs whose e^x lies within that
// distance of a float32 rounding boundary. That bounds the error by 1 ulp;
// measured, Exp returns exactly float32(math.Exp(float64(x))) for every
// float32 x (TestExp32Exhaustive checks all 2.2e9 inputs with a finite,
// nonzero result; TestExp32 a 1-in-61 sweep of all 2^32 bit patterns and the
// edges of the range, in every test run). Results in the subnormal range
// get the same single rounding as any other.
//
// Every operation is a separately rounded IEEE float64 multiply or add (each
// product is converted explicitly, which forbids the compiler to fuse it
// into an FMA), math.Floor is exact, and no table or math.Exp is used, so
// Exp returns the same bits on every GOARCH and CPU. (math.Exp itself does
// not: it takes an FMA path on some machines.)
func Exp(x float32) float32 {
	switch {
	case x != x:
		return x
	case x >= ExpOverflow:
		return float32(math.Inf(1))
	case x < ExpUnderflow:
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
	a1 := float64(exactC3*r) + exactC2
	a2 := float64(exactC5*r) + exactC4
	a3 := float64(exactC7*r) + exactC6
	a4 := float64(exactC9*r) + exactC8
	a5 := float64(exactC11*r) + exactC10
	a6 := float64(exactC13*r) + exactC12
	b0 := float64(a1*r2) + a0
	b1 := float64(a3*r2) + a2
	b2 := float64(a5*r2) + a4
	c0 := float64(b1*r4) + b0
	c1 := float64(a6*r4) + b2
	p := float64(c1*r8) + c0
	// n is in [-151, 128]: 2^n is a normal float64 and the product exact.
	return float32(p * math.Float64frombits(uint64(int64(n)+1023)<<52))
}
