package quant

import "math"

// Rounding and conversion primitives of ggml's reference quantizers. Each
// reproduces what gcc makes of the C source on x86-64, including the cases C
// leaves undefined, so that quantization is bit-exact on every GOARCH.

// nearestInt is ggml's nearest_int: adding 1.5·2^23 leaves f rounded half
// to even in the low mantissa bits. The trick is exact only for
// |f| ≤ 4194303; beyond that it returns whatever the bits say, as ggml does
// (−4194304 for ±Inf, 0 for a default NaN), and callers clamp the result.
func nearestInt(f float32) int32 {
	// float32(f) rounds a caller's product before the add, so that the
	// compiler cannot fuse the two into an FMA after inlining.
	v := float32(f) + 12582912
	return int32(math.Float32bits(v)&0x7FFFFF) - 0x400000
}

// truncInt32 is C's float-to-integer conversion as gcc emits it on x86-64
// (cvttss2si): toward zero, with NaN, ±Inf and out-of-range values giving
// math.MinInt32, whose low byte is 0. Go's own conversion is
// implementation-specific there (arm64 saturates), hence the explicit range
// test.
func truncInt32(f float32) int32 {
	if f >= -2147483648 && f < 2147483648 {
		return int32(f)
	}
	return math.MinInt32
}

// roundInt8 is C's (int8_t)roundf(v): round half away from zero, then the
// x86-64 conversion (low byte of cvttss2si, so non-finite v gives 0).
func roundInt8(v float32) int8 {
	if !(v >= -2147483648 && v < 2147483648) {
		return 0
	}
	// In float64, v ± 0.5 is exact (or, for |v| < 2^-29, stays strictly
	// between −1 and 1), so truncating it is roundf without a branch on the
	// fraction.
	return int8(int32(float64(v) + math.Copysign(0.5, float64(v))))
}

// abs32 is fabsf.
func abs32(f float32) float32 {
	return math.Float32frombits(math.Float32bits(f) &^ (1 << 31))
}

// firstNonFinite returns the index of the first NaN or ±Inf in x, or −1.
func firstNonFinite(x []float32) int {
	for i, v := range x {
		if math.Float32bits(v)&0x7F800000 == 0x7F800000 {
			return i
		}
	}
	return -1
}
