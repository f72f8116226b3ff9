package quant

import "math"

// F16 is an IEEE 754 binary16 value, stored as its bits (Go has no float16).
type F16 uint16

// Float32 converts h to float32 exactly (subnormals, ±Inf and NaN included).
func (h F16) Float32() float32 { return math.Float32frombits(f16ToF32Bits(uint16(h))) }

// FromFloat32 converts f to binary16 as ggml does: round to nearest, ties to
// even; overflow goes to ±Inf; binary16 subnormals are produced; any NaN
// becomes 0x7E00 with its sign kept.
func FromFloat32(f float32) F16 { return F16(f32ToF16Bits(math.Float32bits(f))) }

func f16ToF32Bits(h uint16) uint32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1F
	man := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F: // Inf or NaN: keep the payload
		return sign | 0x7F800000 | man<<13
	case exp != 0: // normal
		return sign | (exp+112)<<23 | man<<13
	case man == 0: // ±0
		return sign
	}
	// Subnormal: value = man · 2^-24. Normalise the mantissa.
	e := uint32(113) // biased float32 exponent of 2^-14
	for man&0x400 == 0 {
		man <<= 1
		e--
	}
	return sign | e<<23 | (man&0x3FF)<<13
}

func f32ToF16Bits(b uint32) uint16 {
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xFF
	man := b & 0x7FFFFF
	if exp == 0xFF {
		if man != 0 {
			return sign | 0x7E00 // NaN, canonical quiet, sign kept
		}
		return sign | 0x7C00
	}
	// Unbiased exponent e = exp-127; binary16 normal range is e in [-14, 15].
	e := exp - 127
	if e > 15 {
		return sign | 0x7C00
	}
	if e >= -14 {
		// Normal: 10 mantissa bits kept, 13 rounded away (RNE).
		h := uint32(e+15)<<10 | man>>13
		rest := man & 0x1FFF
		if rest > 0x1000 || (rest == 0x1000 && h&1 == 1) {
			h++ // may carry into the exponent, up to Inf: correct
		}
		return sign | uint16(h)
	}
	// Subnormal or zero result: value = m · 2^-24 with m = round(|f| · 2^24).
	if exp == 0 {
		return sign // float32 subnormals are far below half of 2^-24
	}
	full := man | 0x800000  // 24-bit significand, value = full · 2^(e-23)
	shift := uint32(-e - 1) // to units of 2^-24: shift right by (-24 - (e-23)) = -e-1
	if shift > 24 {
		return sign
	}
	h := full >> shift
	rest := full & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rest > half || (rest == half && h&1 == 1) {
		h++ // may become the smallest normal (0x400): correct
	}
	return sign | uint16(h)
}
