//go:build !purego

package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// TestCanonNaNsAVX2 compares the assembly pass with canonNaNs bit for bit
// on every length up to 40 (every tail of the eight-value groups), with a
// NaN of each kind — quiet, signalling, negative, any payload — at every
// position and random neighbours that include ±Inf, ±0 and subnormals;
// the values just outside the slice are NaNs that must stay as they are.
func TestCanonNaNsAVX2(t *testing.T) {
	if !cpuid.CPU.Supports(cpuid.AVX2) {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewPCG(91, 92))
	nans := []uint32{0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 0x7fa5a5a5}
	others := []uint32{0x7f800000, 0xff800000, 0, 0x80000000, 1, 0x807fffff, 0x3f800000, 0x7f7fffff}
	const guard = 0x7f811111 // a NaN outside the slice
	value := func() float32 {
		if r.IntN(4) == 0 {
			return math.Float32frombits(others[r.IntN(len(others))])
		}
		return math.Float32frombits(r.Uint32()&^0x7f800000 | uint32(r.IntN(255))<<23) // finite
	}
	for n := 0; n <= 40; n++ {
		for pos := -1; pos < n; pos++ {
			for _, nb := range nans {
				buf := make([]float32, n+2)
				buf[0], buf[n+1] = math.Float32frombits(guard), math.Float32frombits(guard)
				for i := 1; i <= n; i++ {
					buf[i] = value()
				}
				if pos >= 0 {
					buf[1+pos] = math.Float32frombits(nb)
					if r.IntN(2) == 0 && n > 1 { // and a second NaN somewhere
						buf[1+r.IntN(n)] = math.Float32frombits(nans[r.IntN(len(nans))])
					}
				}
				want := append([]float32(nil), buf...)
				canonNaNs(want[1 : n+1])
				canonNaNsAVX2(buf[1 : n+1])
				for i := range buf {
					if math.Float32bits(buf[i]) != math.Float32bits(want[i]) {
						t.Fatalf("n=%d NaN %#x at %d: element %d is %#x, canonNaNs gives %#x", n, nb, pos, i-1, math.Float32bits(buf[i]), math.Float32bits(want[i]))
					}
				}
				if pos < 0 {
					break
				}
			}
		}
	}
}

// BenchmarkCanonNaNs: the canonical-NaN pass over 8192 outputs with no NaN
// (the common case), Go loop against the assembly.
func BenchmarkCanonNaNs(b *testing.B) {
	if !cpuid.CPU.Supports(cpuid.AVX2) {
		b.Skip("no AVX2")
	}
	dst := randF32(rand.New(rand.NewPCG(93, 94)), 8192, 1)
	for _, impl := range []struct {
		name string
		f    func([]float32)
	}{{"go", canonNaNs}, {"avx2", canonNaNsAVX2}} {
		b.Run("impl="+impl.name+"/n=8192", func(b *testing.B) {
			b.SetBytes(int64(4 * len(dst)))
			for i := 0; i < b.N; i++ {
				impl.f(dst)
			}
		})
	}
}
