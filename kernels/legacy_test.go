package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
)

// Every variant's Q4_0 and Q5_0 dots against the generic twins, bit for
// bit: every length up to 2·maxBlocks+1, random blocks, every value of each
// weight byte and of each scale byte in place, and special scales (±0,
// subnormals, the largest finite, ±Inf, quiet and signalling NaNs; a NaN
// result is the canonical one, nan.go).

// legacyScales are binary16 scales worth trying everywhere.
var legacyScales = []quant.F16{0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01}

func randQ4_0(r *rand.Rand, n int) []quant.BlockQ4_0 {
	w := make([]quant.BlockQ4_0, n)
	for i := range w {
		w[i].D = quant.F16(0x2000 + r.IntN(0x1800)) // 2^-7 .. 2^5, both signs below
		if r.IntN(2) == 0 {
			w[i].D |= 0x8000
		}
		for j := range w[i].Qs {
			w[i].Qs[j] = byte(r.Uint32())
		}
	}
	return w
}

func randQ5_0(r *rand.Rand, n int) []quant.BlockQ5_0 {
	w := make([]quant.BlockQ5_0, n)
	for i, b := range randQ4_0(r, n) {
		w[i].D, w[i].Qs = b.D, b.Qs
		for j := range w[i].Qh {
			w[i].Qh[j] = byte(r.Uint32())
		}
	}
	return w
}

func TestLegacyDotsMatchGeneric(t *testing.T) {
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(5, 6))
		check := func(what string, w4 []quant.BlockQ4_0, w5 []quant.BlockQ5_0, x []quant.BlockQ8_0) {
			t.Helper()
			if got, want := k.DotQ4_0(w4, x), dotQ4_0Generic(w4, x); !sameBits(got, want) {
				t.Fatalf("q4_0 %s nb=%d: %v (%#x), generic %v (%#x)", what, len(x), got, bits(got), want, bits(want))
			}
			if got, want := k.DotQ5_0(w5, x), dotQ5_0Generic(w5, x); !sameBits(got, want) {
				t.Fatalf("q5_0 %s nb=%d: %v (%#x), generic %v (%#x)", what, len(x), got, bits(got), want, bits(want))
			}
		}
		for nb := 0; nb <= 2*maxBlocks+1; nb++ {
			for rep := 0; rep < 4; rep++ {
				x := randQ8_0(r, nb)
				if rep == 3 {
					for i := range x {
						for j := range x[i].Qs {
							x[i].Qs[j] = -128
						}
					}
				}
				check("random", randQ4_0(r, nb), randQ5_0(r, nb), x)
			}
		}
		// Every value of every weight byte (scale bytes included), in place,
		// the rest random; then every special scale pair.
		const nb = 3
		w4, w5, x := randQ4_0(r, nb), randQ5_0(r, nb), randQ8_0(r, nb)
		for pos := 0; pos < 22; pos++ {
			for v := 0; v < 256; v++ {
				a4, a5, ax := append([]quant.BlockQ4_0(nil), w4...), append([]quant.BlockQ5_0(nil), w5...), append([]quant.BlockQ8_0(nil), x...)
				b := pos % nb
				switch {
				case pos < 2:
					a4[b].D = a4[b].D&^(0xff<<(8*pos)) | quant.F16(v)<<(8*pos)
					a5[b].D = a4[b].D
					ax[b].D = ax[b].D&^(0xff<<(8*pos)) | quant.F16(v)<<(8*pos)
				case pos < 6:
					a5[b].Qh[pos-2] = byte(v)
					a4[b].Qs[pos-2] = byte(v)
				default:
					a4[b].Qs[pos-6] = byte(v)
					a5[b].Qs[pos-6] = byte(v)
					ax[b].Qs[pos-6] = int8(v)
					ax[b].Qs[pos+10] = int8(v)
				}
				check("byte", a4, a5, ax)
			}
		}
		for _, dw := range legacyScales {
			for _, dx := range legacyScales {
				a4, a5, ax := append([]quant.BlockQ4_0(nil), w4...), append([]quant.BlockQ5_0(nil), w5...), append([]quant.BlockQ8_0(nil), x...)
				a4[1].D, a5[1].D, ax[1].D = dw, dw, dx
				check("scales", a4, a5, ax)
			}
		}
	})
}

func bits(f float32) uint32 { return math.Float32bits(f) }
