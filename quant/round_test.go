package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestNearestInt(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	check := func(f float32) {
		if got, want := nearestInt(f), int32(math.RoundToEven(float64(f))); got != want {
			t.Fatalf("nearestInt(%v) = %d, want %d", f, got, want)
		}
	}
	for i := -300; i <= 300; i++ {
		check(float32(i) / 2) // every tie in a range, both signs
		check(float32(i)/2 + 1e-3)
	}
	for _, f := range []float32{0, float32(math.Copysign(0, -1)), 4194303, -4194303, 4194302.5, -4194302.5, 0.49999997, -0.49999997} {
		check(f)
	}
	for range 100000 {
		check(float32((r.Float64()*2 - 1) * 4194303))
		check(float32(r.NormFloat64() * 40))
	}
	// Outside its range the trick's bits are what ggml's callers clamp.
	if got := nearestInt(float32(math.Inf(1))); got != -4194304 {
		t.Errorf("nearestInt(+Inf) = %d, want -4194304", got)
	}
	if got := nearestInt(float32(math.Inf(-1))); got != -4194304 {
		t.Errorf("nearestInt(-Inf) = %d, want -4194304", got)
	}
	inf := float32(math.Inf(1))
	if got := nearestInt(inf * 0); got != 0 { // the default NaN, as ggml gets it
		t.Errorf("nearestInt(Inf·0) = %d, want 0", got)
	}
}

func TestTruncInt32(t *testing.T) {
	cases := []struct {
		f    float32
		want int32
	}{
		{0, 0}, {1.9, 1}, {-1.9, -1}, {16.5, 16}, {2147483520, 2147483520}, {-2147483648, math.MinInt32},
		{2147483648, math.MinInt32}, {-2147483904, math.MinInt32},
		{float32(math.Inf(1)), math.MinInt32}, {float32(math.Inf(-1)), math.MinInt32}, {float32(math.NaN()), math.MinInt32},
	}
	for _, c := range cases {
		if got := truncInt32(c.f); got != c.want {
			t.Errorf("truncInt32(%v) = %d, want %d", c.f, got, c.want)
		}
	}
}

func TestRoundInt8(t *testing.T) {
	cases := []struct {
		f    float32
		want int8
	}{
		{0, 0}, {0.49999997, 0}, {0.5, 1}, {-0.5, -1}, {1.5, 2}, {2.5, 3}, {-2.5, -3}, {126.5, 127}, {-127, -127},
		{127.5, -128}, // C's (int8_t)128: the low byte
		{float32(math.Inf(1)), 0}, {float32(math.Inf(-1)), 0}, {float32(math.NaN()), 0}, {3e9, 0},
	}
	for _, c := range cases {
		if got := roundInt8(c.f); got != c.want {
			t.Errorf("roundInt8(%v) = %d, want %d", c.f, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 100000 {
		f := float32(r.NormFloat64() * 60)
		if got, want := roundInt8(f), int8(int32(math.Round(float64(f)))); got != want {
			t.Fatalf("roundInt8(%v) = %d, want %d", f, got, want)
		}
	}
}
