package kernels

import "math"

// nanBits is the one NaN a quantized dot returns (the quiet NaN with sign
// and payload clear). Which NaN IEEE arithmetic propagates depends on the
// order of operands inside each instruction (x86 keeps the first source's
// payload, and compilers may swap the operands of a commutative add), so
// the dots map every NaN result to this one to keep the same bits in every
// variant.
const nanBits = 0x7fc00000

// canonNaN returns f, or the canonical NaN if f is a NaN.
func canonNaN(f float32) float32 {
	if f != f {
		return math.Float32frombits(nanBits)
	}
	return f
}
