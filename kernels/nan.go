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

// canonNaNs replaces every NaN in dst with the canonical NaN. The Go side
// of an assembly kernel whose instructions may propagate another NaN runs
// it over the elements the kernel wrote (one pass over the outputs, a tiny
// fraction of the work that made them).
func canonNaNs(dst []float32) {
	for i, v := range dst {
		if v != v {
			dst[i] = math.Float32frombits(nanBits)
		}
	}
}
