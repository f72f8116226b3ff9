package sched

import (
	"errors"
	"math"
	"sync/atomic"
	"testing"
)

// TestReduceDeterministic: a float32 sum gives the same bits under every
// schedule, and equals the chunk-order fold done by hand.
func TestReduceDeterministic(t *testing.T) {
	rng := newRand(t)
	xs := make([]float32, 100_003)
	for i := range xs {
		xs[i] = float32(rng.NormFloat64()) * float32(math.Pow(10, float64(rng.IntN(8))-4))
	}
	const chunk = 512
	part := func(s, e int) float32 {
		var acc float32
		for _, x := range xs[s:e] {
			acc += x
		}
		return acc
	}
	add := func(a, b float32) float32 { return a + b }
	var want float32
	for s := 0; s < len(xs); s += chunk {
		want += part(s, min(s+chunk, len(xs)))
	}
	schedules := []Schedule{Sequential, Hardware()}
	for _, p := range testPools(t) {
		schedules = append(schedules, p)
	}
	for _, s := range schedules {
		for range 20 {
			if got := Reduce(s, len(xs), chunk, part, add); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("%s: %x, want %x", s.Name(), math.Float32bits(got), math.Float32bits(want))
			}
		}
	}
	// Small and degenerate shapes.
	if got := Reduce(Sequential, 0, 4, part, add); got != 0 {
		t.Fatal(got)
	}
	calls := 0
	Reduce(Hardware(), 3, 4, func(s, e int) int { calls++; return e - s }, func(a, b int) int { t.Fatal("combine called"); return 0 })
	if calls != 1 {
		t.Fatal(calls)
	}
	order := Reduce(newTestPool(t, 4), 10, 3, func(s, e int) []int { return []int{s} },
		func(a, b []int) []int { return append(a, b...) })
	if len(order) != 4 || order[0] != 0 || order[1] != 3 || order[2] != 6 || order[3] != 9 {
		t.Fatalf("combine order %v", order)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("chunk 0 accepted")
		}
	}()
	Reduce(Sequential, 10, 0, part, add)
}

func TestTryRange(t *testing.T) {
	bad := errors.New("bad")
	for _, s := range []Schedule{Sequential, newTestPool(t, 2), newTestPool(t, 4)} {
		var calls atomic.Int32
		err := TryRange(s, 10_000, 1, func(lo, hi int) error {
			calls.Add(1)
			if lo == 0 {
				return bad
			}
			return nil
		})
		if !errors.Is(err, bad) {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if err := TryRange(s, 100, 1, func(int, int) error { return nil }); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d ranges started before the error stopped the rest", s.Name(), calls.Load())
	}
}
