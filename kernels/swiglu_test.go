package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
)

// swiGLUInputs returns gate and up values covering float32: gate walks all
// 2^32 bit patterns in steps of 4099 and up in steps of 4111 from another
// start (so every exponent, both signs, ±0, subnormals, ±Inf and NaNs with
// payloads occur on both sides), followed by pairs of special values.
func swiGLUInputs() (gate, up []float32) {
	for b := uint64(0); b < 1<<32; b += 4099 {
		gate = append(gate, math.Float32frombits(uint32(b)))
		up = append(up, math.Float32frombits(uint32(b*4111/4099+0x9e3779b9)))
	}
	inf := float32(math.Inf(1))
	specials := []float32{0, float32(math.Copysign(0, -1)), 1, -1, inf, -inf, float32(math.NaN()),
		math.Float32frombits(0x7fa5a5a5), math.Float32frombits(0xffc00001), math.Float32frombits(1),
		ExpOverflow, -ExpOverflow, ExpUnderflow, -ExpUnderflow, 88.72283172607422, -88.72283172607422,
		math.MaxFloat32, -math.MaxFloat32, 1e-30, -1e-30}
	for _, g := range specials {
		for _, u := range specials {
			gate, up = append(gate, g), append(up, u)
		}
	}
	return gate, up
}

func sameBitsStrict(a, b []float32) int {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// TestSiLU checks SiLU against the same formula written with math.Exp
// (which Exp equals after rounding to float32 on every finite input, see
// TestExp32), on every gate value of swiGLUInputs.
func TestSiLU(t *testing.T) {
	gate, _ := swiGLUInputs()
	for _, g := range gate {
		e := float32(math.Exp(float64(-g)))
		want := g / (1 + e)
		got := SiLU(g)
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			t.Fatalf("SiLU(%g) = %g (%#08x), want %g (%#08x)", g, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	for _, c := range []struct{ x, want float32 }{{0, 0}, {float32(math.Inf(1)), float32(math.Inf(1))}, {-200, float32(math.Copysign(0, -1))}} {
		if got := SiLU(c.x); math.Float32bits(got) != math.Float32bits(c.want) {
			t.Errorf("SiLU(%g) = %g, want %g", c.x, got, c.want)
		}
	}
}

// TestSwiGLUVariants: every variant returns the generic kernel's bits
// (NaN results the canonical NaN) on swiGLUInputs, at every tail length,
// in place on either input, and writes nothing outside dst.
func TestSwiGLUVariants(t *testing.T) {
	gate, up := swiGLUInputs()
	want := make([]float32, len(gate))
	swiGLUGeneric(want, gate, up)
	for i, w := range want {
		if w != w && math.Float32bits(w) != nanBits {
			t.Fatalf("generic: element %d is NaN %#08x, want the canonical NaN", i, math.Float32bits(w))
		}
		if g := canonNaN(SiLU(gate[i]) * up[i]); math.Float32bits(g) != math.Float32bits(w) {
			t.Fatalf("generic: element %d differs from SiLU(gate)·up", i)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for name, ops := range attnVariants(t) {
		for _, n := range []int{len(gate), 1, 7, 8, 9, 15, 16, 17, 31, 64, 100} {
			off := 0
			if n < len(gate) {
				off = r.IntN(len(gate) - n)
			}
			g, u := guarded(t, gate[off:off+n]), guarded(t, up[off:off+n])
			got, check := attnGuardedOut(t, make([]float32, n))
			ops.SwiGLU(got, g, u)
			check()
			if i := sameBitsStrict(got, want[off:off+n]); i >= 0 {
				t.Fatalf("%s: n = %d: SwiGLU(%g, %g) = %#08x, want %#08x", name, n, g[i], u[i], math.Float32bits(got[i]), math.Float32bits(want[off+i]))
			}
			if n < 64 {
				continue
			}
			inG := append([]float32(nil), gate[off:off+n]...)
			ops.SwiGLU(inG, inG, u)
			inU := append([]float32(nil), up[off:off+n]...)
			ops.SwiGLU(inU, g, inU)
			if sameBitsStrict(inG, want[off:off+n]) >= 0 || sameBitsStrict(inU, want[off:off+n]) >= 0 {
				t.Fatalf("%s: n = %d: in place differs", name, n)
			}
		}
	}
}

func TestSwiGLULengths(t *testing.T) {
	err := SwiGLU(make([]float32, 3), make([]float32, 3), make([]float32, 2))
	if !errors.Is(err, ErrShape) {
		t.Fatalf("SwiGLU with len(up) = 2: err = %v, want ErrShape", err)
	}
	for name, ops := range attnVariants(t) {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: SwiGLU with unequal lengths did not panic", name)
				}
			}()
			ops.SwiGLU(make([]float32, 16), make([]float32, 16), make([]float32, 8))
		}()
	}
}

// TestSwiGLUExhaustive runs every float32 bit pattern as gate through every
// variant against the generic kernel, with up cycling through 1, −0.5, the
// pattern itself and a NaN (about a minute on two cores). It runs only with
// CORELANE_SWIGLU_EXHAUSTIVE=1.
func TestSwiGLUExhaustive(t *testing.T) {
	if os.Getenv("CORELANE_SWIGLU_EXHAUSTIVE") == "" {
		t.Skip("set CORELANE_SWIGLU_EXHAUSTIVE=1 to check every gate value")
	}
	variants := attnVariants(t)
	const chunk = 1 << 20
	const parts = 2
	var wg sync.WaitGroup
	for p := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gate, up := make([]float32, chunk), make([]float32, chunk)
			want, got := make([]float32, chunk), make([]float32, chunk)
			ups := []float32{1, -0.5, 0, float32(math.NaN())}
			for base := uint64(p) * chunk; base < 1<<32; base += parts * chunk {
				for i := range gate {
					b := uint32(base) + uint32(i)
					gate[i] = math.Float32frombits(b)
					up[i] = ups[i%4]
					if i%4 == 2 {
						up[i] = gate[i]
					}
				}
				swiGLUGeneric(want, gate, up)
				for name, ops := range variants {
					ops.SwiGLU(got, gate, up)
					if i := sameBitsStrict(got, want); i >= 0 {
						t.Errorf("%s: SwiGLU(%#08x, %g) = %#08x, want %#08x", name, math.Float32bits(gate[i]), up[i], math.Float32bits(got[i]), math.Float32bits(want[i]))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
