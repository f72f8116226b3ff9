package sdpa

import "math"

// Constants of exp32. ln2Hi has 21 trailing zero bits, so n·ln2Hi is exact
// for every n the reduction produces (|n| ≤ 150).
const (
	expLog2e = 1.44269504088896338700e+00
	expLn2Hi = 6.93147180369123816490e-01 // 0x3FE62E42FEE00000
	expLn2Lo = 1.90821492927058770002e-10 // 0x3DEA39EF35793C76
	// expOverflow is the smallest float32 whose exponential rounds to +Inf
	// (e^88.72283172607422 is finite, e^88.72283935546875 is not).
	expOverflow = 88.72283935546875
	// Below expUnderflow, e^x is less than half the smallest float32
	// subnormal (2^-150 ≈ e^-103.97) and rounds to +0.
	expUnderflow = -104
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

// exp32 returns e^x rounded to float32. It is the exponential of Exact mode.
//
// It works in float64 and rounds once at the end: x = n·ln2 + r with
// |r| ≤ ln2/2 (Cody–Waite, ln2 split in two), e^r by its degree-13 Taylor
// polynomial in Horner form, and the scaling by 2^n exact in float64. The
// float64 result is within ~1e-15 relative of e^x, so the final rounding is
// the correctly rounded one except for inputs whose e^x lies within that
// distance of a float32 rounding boundary: the result is always within 1 ulp
// of float32(math.Exp(float64(x))), and TestExp32 measures it over the whole
// float32 range (including the subnormal results, which the single final
// rounding handles like any other).
//
// Every operation is a separately rounded IEEE float64 multiply or add (each
// product is converted explicitly, which forbids the compiler to fuse it
// into an FMA), math.Floor is exact, and no table or math.Exp is used, so
// exp32 returns the same bits on every GOARCH and CPU. (math.Exp itself does
// not: it takes an FMA path on some machines.)
func exp32(x float32) float32 {
	switch {
	case x != x:
		return x
	case x >= expOverflow:
		return float32(math.Inf(1))
	case x < expUnderflow:
		return 0
	}
	xd := float64(x)
	n := math.Floor(float64(xd*expLog2e) + 0.5)
	r := float64(xd-float64(n*expLn2Hi)) - float64(n*expLn2Lo)
	p := float64(expC13*r) + expC12
	p = float64(p*r) + expC11
	p = float64(p*r) + expC10
	p = float64(p*r) + expC9
	p = float64(p*r) + expC8
	p = float64(p*r) + expC7
	p = float64(p*r) + expC6
	p = float64(p*r) + expC5
	p = float64(p*r) + expC4
	p = float64(p*r) + expC3
	p = float64(p*r) + expC2
	p = float64(p*r) + 1
	p = float64(p*r) + 1
	// n is in [-151, 128]: 2^n is a normal float64 and the product exact.
	return float32(p * math.Float64frombits(uint64(int64(n)+1023)<<52))
}
