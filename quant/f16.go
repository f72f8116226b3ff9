package quant

import (
	"math"
	"sync"
)

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
	a := b & 0x7FFFFFFF // |f|
	switch {
	case a > 0x7F800000:
		return sign | 0x7E00 // NaN, canonical quiet, sign kept
	case a >= 0x47800000: // |f| ≥ 2^16, Inf included
		return sign | 0x7C00
	case a >= 0x38800000: // |f| ≥ 2^-14: a binary16 normal
		// Rebias the exponent (127 → 15) and round the 13 dropped bits to
		// nearest even by adding 0xFFF plus the lowest kept bit: no branch
		// on the data, which is random in a quantizer. A carry out of the
		// mantissa bumps the exponent, up to 0x7C00 = Inf: both correct.
		a -= 112 << 23
		a += 0xFFF + a>>13&1
		return sign | uint16(a>>13)
	case a <= 0x33000000: // |f| ≤ 2^-25, half the smallest subnormal: ties to 0
		return sign
	}
	// Subnormal result m·2^-24 with m = round(|f|·2^24), |f| = full·2^(e-23).
	e := int32(a>>23) - 127       // -25 ≤ e ≤ -15
	full := a&0x7FFFFF | 0x800000 // 24-bit significand
	shift := uint32(-e - 1)       // 14..24: to units of 2^-24
	h := full >> shift
	rest := full & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rest > half || (rest == half && h&1 == 1) {
		h++ // may become the smallest normal (0x400): correct
	}
	return sign | uint16(h)
}

// F16Lookup is a read-only view of the table of the float32 value of
// every binary16 bit pattern: F16Table().At(h) == h.Float32() bit for bit.
// The table is shared by the whole process and cannot be written through
// the view. At inlines to one load; a lookup is several times faster than
// converting the bits, and the 256 KiB table stays in L2, so conversion
// loops over many values should use it.
type F16Lookup struct{ t *[1 << 16]float32 }

// At returns the float32 value of h.
func (l F16Lookup) At(h F16) float32 { return l.t[h] }

// F16Table returns the view of the binary16 table, built on first use.
func F16Table() F16Lookup { return F16Lookup{f16Table()} }

var f16Table = sync.OnceValue(func() *[1 << 16]float32 {
	t := new([1 << 16]float32)
	for i := range t {
		t[i] = F16(i).Float32()
	}
	return t
})

// ToFloat32 converts src to float32 into dst (len(dst) must be at least
// len(src)), exactly, through F16Table.
func ToFloat32(dst []float32, src []F16) {
	t := f16Table()
	dst = dst[:len(src)]
	for i, h := range src {
		dst[i] = t[h]
	}
}
