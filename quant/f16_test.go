package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refF16ToF32 decodes binary16 with float64 arithmetic (value = ±m·2^e),
// independently of the bit-shuffling in f16.go.
func refF16ToF32(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, man := int(h>>10&0x1F), float64(h&0x3FF)
	switch exp {
	case 0x1F:
		if man != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	case 0:
		return sign * math.Ldexp(man, -24)
	}
	return sign * math.Ldexp(1024+man, exp-25)
}

// refF32ToF16 encodes with float64 arithmetic: find the binary16 quantum
// for |f|, round |f|/quantum half to even, and re-encode the rounded value.
func refF32ToF16(f float32) uint16 {
	var sign uint16
	if math.Signbit(float64(f)) {
		sign = 0x8000
	}
	a := math.Abs(float64(f))
	switch {
	case math.IsNaN(a):
		return sign | 0x7E00
	case math.IsInf(a, 0):
		return sign | 0x7C00
	}
	q := 0x1p-24 // subnormal quantum
	if a >= 0x1p-14 {
		_, e := math.Frexp(a) // a = frac·2^e, frac in [0.5, 1)
		q = math.Ldexp(1, e-11)
	}
	v := math.RoundToEven(a/q) * q
	switch {
	case v > 65504:
		return sign | 0x7C00
	case v < 0x1p-14:
		return sign | uint16(v/0x1p-24)
	}
	frac, e := math.Frexp(v)
	return sign | uint16(e+14)<<10 | uint16((2*frac-1)*1024)
}

func TestF16ToFloat32AllValues(t *testing.T) {
	for i := range 1 << 16 {
		h := F16(i)
		got, want := h.Float32(), refF16ToF32(uint16(i))
		if math.IsNaN(want) {
			if !math.IsNaN(float64(got)) || math.Signbit(float64(got)) != (i&0x8000 != 0) {
				t.Errorf("F16(%#04x).Float32() = %v (%#08x), want NaN with the same sign", i, got, math.Float32bits(got))
			}
			continue
		}
		if math.Float32bits(got) != math.Float32bits(float32(want)) {
			t.Errorf("F16(%#04x).Float32() = %v, want %v", i, got, want)
		}
	}
}

func TestF16RoundTripAllValues(t *testing.T) {
	for i := range 1 << 16 {
		h := F16(i)
		got := FromFloat32(h.Float32())
		want := h
		if i&0x7C00 == 0x7C00 && i&0x3FF != 0 {
			want = F16(i&0x8000 | 0x7E00) // NaN: canonical quiet, sign kept
		}
		if got != want {
			t.Errorf("FromFloat32(F16(%#04x).Float32()) = %#04x, want %#04x", i, got, want)
		}
	}
}

// f16Edges returns float32 inputs around every rounding decision of the
// conversion: every binary16 value, every midpoint between neighbours and
// the float32 values either side of each, the overflow threshold, the
// underflow boundary, float32 subnormals, infinities and NaN payloads.
func f16Edges() []float32 {
	var xs []float32
	add := func(f float32) {
		xs = append(xs, f, -f,
			math.Nextafter32(f, float32(math.Inf(1))), math.Nextafter32(f, float32(math.Inf(-1))))
	}
	for h := 0; h < 0x7C00; h++ {
		a := refF16ToF32(uint16(h))
		b := refF16ToF32(uint16(h + 1)) // h+1 = 0x7C00 is +Inf: use 65536
		if h+1 == 0x7C00 {
			b = 65536
		}
		add(float32(a))
		add(float32((a + b) / 2)) // exact in float32: 12 significant bits
	}
	for _, f := range []float32{0, 65504, 65519.996, 65520, 65536, 1e10, math.MaxFloat32,
		0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-26, 0x1p-14, 0x1.ffcp-15, 0x1p-126, 0x1p-149, 1e-40} {
		add(f)
	}
	for _, bits := range []uint32{0x7F800000, 0x7FC00000, 0x7F800001, 0x7FFFFFFF, 0x7FA00000, 0x7F802000} {
		xs = append(xs, math.Float32frombits(bits), math.Float32frombits(bits|0x80000000))
	}
	return xs
}

func TestFromFloat32Reference(t *testing.T) {
	check := func(f float32) {
		if got, want := uint16(FromFloat32(f)), refF32ToF16(f); got != want {
			t.Errorf("FromFloat32(%g = %#08x) = %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
	}
	for _, f := range f16Edges() {
		check(f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		check(math.Float32frombits(r.Uint32())) // every exponent, NaNs included
	}
	for range 200000 {
		// Concentrated on the binary16 range, where the rounding happens.
		check(float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(50)-30))))
	}
}

func TestF16Table(t *testing.T) {
	tab := F16Table()
	src := make([]F16, 1<<16)
	for i := range src {
		src[i] = F16(i)
	}
	dst := make([]float32, len(src))
	ToFloat32(dst, src)
	for i := range src {
		want := math.Float32bits(F16(i).Float32())
		if math.Float32bits(tab.At(F16(i))) != want || math.Float32bits(dst[i]) != want {
			t.Fatalf("F16 %#04x: table %#08x, ToFloat32 %#08x, Float32 %#08x", i, math.Float32bits(tab.At(F16(i))), math.Float32bits(dst[i]), want)
		}
	}
}
