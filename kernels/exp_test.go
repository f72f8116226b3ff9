package kernels

import (
	"math"
	"os"
	"sync"
	"testing"
)

// ulpDist returns the distance between a and b in float32 units in the last
// place (0 when equal, including two zeros of either sign).
func ulpDist(a, b float32) uint32 {
	ia, ib := orderedBits(a), orderedBits(b)
	if ia > ib {
		return uint32(ia - ib)
	}
	return uint32(ib - ia)
}

// orderedBits maps float32 bits to a signed integer that orders like the
// floats, with +0 and -0 both at 0.
func orderedBits(f float32) int64 {
	b := math.Float32bits(f)
	if b&0x80000000 != 0 {
		return -int64(b & 0x7FFFFFFF)
	}
	return int64(b)
}

// refExp is the reference the exponential is measured against.
func refExp(x float32) float32 { return float32(math.Exp(float64(x))) }

func TestExpEdges(t *testing.T) {
	inf := float32(math.Inf(1))
	for _, c := range []struct{ x, want float32 }{
		{0, 1},
		{float32(math.Copysign(0, -1)), 1},
		{inf, inf},
		{-inf, 0},
		{ExpOverflow, inf},
		{math.Nextafter32(ExpOverflow, 0), refExp(math.Nextafter32(ExpOverflow, 0))},
		{math.MaxFloat32, inf},
		{-math.MaxFloat32, 0},
		{ExpUnderflow, 0},
		{-103.97207, refExp(-103.97207)},
		{math.SmallestNonzeroFloat32, 1},
		{-math.SmallestNonzeroFloat32, 1},
	} {
		if got := Exp(c.x); math.Float32bits(got) != math.Float32bits(c.want) {
			t.Errorf("Exp(%g) = %g (%#x), want %g (%#x)", c.x, got, math.Float32bits(got), c.want, math.Float32bits(c.want))
		}
	}
	if got := Exp(float32(math.NaN())); got == got {
		t.Errorf("Exp(NaN) = %g, want NaN", got)
	}
	if math.Nextafter32(ExpOverflow, 0) >= ExpOverflow || math.IsInf(float64(refExp(math.Nextafter32(ExpOverflow, 0))), 1) ||
		!math.IsInf(float64(refExp(ExpOverflow)), 1) {
		t.Errorf("ExpOverflow %g is not the overflow threshold of float32(math.Exp)", float32(ExpOverflow))
	}
	if refExp(ExpUnderflow) != 0 || refExp(math.Nextafter32(ExpUnderflow, 0)) != 0 {
		t.Errorf("float32(math.Exp(%d)) is not 0", ExpUnderflow)
	}
}

// TestExp sweeps the float32 line — every stride-th bit pattern, offset so
// that the sweep also lands on odd patterns, plus every pattern near the
// finite-range edges — and asserts that Exp is within 1 ulp of
// float32(math.Exp) everywhere. It reports how many inputs differ at all.
func TestExp(t *testing.T) {
	stride := uint32(61)
	if testing.Short() || raceEnabled {
		stride = 997
	}
	var n, off1 int
	var worst float32
	check := func(x float32) {
		got, want := Exp(x), refExp(x)
		n++
		if got != got || want != want {
			if (got != got) != (want != want) {
				t.Fatalf("Exp(%g) = %g, want %g", x, got, want)
			}
			return
		}
		switch d := ulpDist(got, want); {
		case d > 1:
			t.Fatalf("Exp(%g) [%#x] = %g [%#x], want %g [%#x]: %d ulp",
				x, math.Float32bits(x), got, math.Float32bits(got), want, math.Float32bits(want), d)
		case d == 1:
			off1++
			worst = x
		}
	}
	for b := uint64(7); b < 1<<32; b += uint64(stride) {
		check(math.Float32frombits(uint32(b)))
	}
	// Dense near the ends of the range where the result is finite and
	// nonzero, and around 0.
	for _, c := range []float32{ExpOverflow, ExpUnderflow, -87.33655, 0} {
		x := c
		for i := 0; i < 1<<14; i++ {
			check(x)
			x = math.Nextafter32(x, float32(math.Inf(-1)))
		}
		x = c
		for i := 0; i < 1<<14; i++ {
			check(x)
			x = math.Nextafter32(x, float32(math.Inf(1)))
		}
	}
	t.Logf("Exp: %d inputs, %d off by 1 ulp from float32(math.Exp) (last at %g), none by more", n, off1, worst)
}

// TestExpExhaustive checks every float32 in (-104, ExpOverflow), which
// holds every input whose exponential is finite and nonzero (about 2.2e9
// inputs, two to five minutes on two cores). It runs only with
// CORELANE_EXP_EXHAUSTIVE=1.
func TestExpExhaustive(t *testing.T) {
	if os.Getenv("CORELANE_EXP_EXHAUSTIVE") == "" {
		t.Skip("set CORELANE_EXP_EXHAUSTIVE=1 to check every input")
	}
	// Non-negative inputs [0, ExpOverflow) and negative ones (-104, -0].
	ranges := [][2]uint32{
		{0, math.Float32bits(ExpOverflow)},
		{0x80000000, math.Float32bits(ExpUnderflow)},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var n, off1 int
	for _, r := range ranges {
		const parts = 8
		step := (r[1] - r[0]) / parts
		for p := uint32(0); p < parts; p++ {
			lo, hi := r[0]+p*step, r[0]+(p+1)*step
			if p == parts-1 {
				hi = r[1]
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				var cn, c1 int
				for b := lo; b < hi; b++ {
					x := math.Float32frombits(b)
					got, want := Exp(x), refExp(x)
					cn++
					if d := ulpDist(got, want); d > 0 {
						if d > 1 {
							t.Errorf("Exp(%g) = %g, want %g: %d ulp", x, got, want, d)
							return
						}
						c1++
					}
				}
				mu.Lock()
				n += cn
				off1 += c1
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	t.Logf("Exp: all %d inputs in (-104, %g) checked, %d off by 1 ulp from float32(math.Exp), none by more", n, float32(ExpOverflow), off1)
}
