package sched

import (
	"math"
	"testing"
)

// seatRegion is a region with tasks seats dealt n indices of grain g, for
// driving claim by hand.
func seatRegion(n, g, tasks int) *region {
	r := &region{seats: make([]seat, tasks), grain: g}
	r.deal(n, tasks)
	return r
}

// TestSeatsByHand follows one participant through the rules: its own part
// front to back, each piece a quarter of what is left rounded up to whole
// grains (never less than one), then the back half of the largest part
// left, in whole grains. Seat 0 of three claims alone; 103 indices of
// grain 5 are dealt [0,30) [30,65) [65,103) (bounds rounded down to
// grains).
func TestSeatsByHand(t *testing.T) {
	r := seatRegion(103, 5, 3)
	var got [][2]int
	for {
		lo, hi, ok := r.claim(0)
		if !ok {
			break
		}
		got = append(got, [2]int{lo, hi})
	}
	want := [][2]int{
		// own part, 30 left: ⌈30/4⌉ = 8 → 10; 20 → 5; then one grain each
		{0, 10}, {10, 15}, {15, 20}, {20, 25}, {25, 30},
		// the largest part is seat 2's [65,103): its back half from
		// 65 + ⌈19⌉₅ = 85; 18 left: ⌈18/4⌉ = 5
		{85, 90}, {90, 95}, {95, 100}, {100, 103},
		// seat 1's [30,65) (35) beats seat 2's [65,85) (20): back half
		// from 30 + ⌈17⌉₅ = 50
		{50, 55}, {55, 60}, {60, 65},
		// seats 1 [30,50) and 2 [65,85) tie at 20: the first found (1)
		// gives [40,50)
		{40, 45}, {45, 50},
		// seat 2 [65,85): back half [75,85)
		{75, 80}, {80, 85},
		// seat 1 [30,40): [35,40); seat 2 [65,75): [70,75); then the
		// single grains left, taken whole
		{35, 40}, {70, 75}, {30, 35}, {65, 70},
	}
	if len(got) != len(want) {
		t.Fatalf("pieces %v\nwant %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("piece %d = %v, want %v\npieces %v", i, got[i], want[i], got)
		}
	}
}

// TestSeatsInterleaved drains seats with the participants' claims
// interleaved in random order (one goroutine, so every interleaving of
// whole claims is reachable and repeatable from the seed), up to the
// largest range a seat holds (MaxInt32 indices): every index is
// handed out exactly once, every piece is at least the grain unless it
// ends at n, and a participant's pieces from its own part come front to
// back.
func TestSeatsInterleaved(t *testing.T) {
	rng := newRand(t)
	for trial := range 20000 {
		n := 1 + rng.IntN(400)
		if trial%50 == 0 {
			n = 1 + rng.IntN(3)
		}
		g := 1 + rng.IntN(24)
		if trial%50 == 1 { // the largest ranges a seat holds, in few pieces
			n = math.MaxInt32 - rng.IntN(1000)
			g = n/(1+rng.IntN(64)) + rng.IntN(1000)
		}
		tasks := 1 + rng.IntN(6) // more than n/g too: some parts empty
		r := seatRegion(n, g, tasks)
		live := make([]int, tasks)
		for i := range live {
			live[i] = i
		}
		var rs [][2]int
		next := make([]int, tasks) // each participant's next own index
		for len(live) > 0 {
			k := rng.IntN(len(live))
			s := live[k]
			before, _ := unpackRange(r.seats[s].v.Load())
			lo, hi, ok := r.claim(s)
			if !ok {
				live = append(live[:k], live[k+1:]...)
				continue
			}
			if hi-lo < g && hi != n {
				t.Fatalf("trial %d n=%d g=%d tasks=%d: piece [%d,%d) shorter than the grain", trial, n, g, tasks, lo, hi)
			}
			if lo == before && lo < next[s] {
				t.Fatalf("trial %d: seat %d went back from %d to %d", trial, s, next[s], lo)
			}
			next[s] = hi
			rs = append(rs, [2]int{lo, hi})
		}
		if err := cover(0, n, rs); err != nil {
			t.Fatalf("trial %d n=%d g=%d tasks=%d: %v (pieces %v)", trial, n, g, tasks, err, rs)
		}
	}
}

// TestForRangeBeyondSeats: a range of MaxInt32 indices is dealt to seats
// and covered exactly; one past MaxInt32 is not dealt to seats (a seat packs its bounds in 32 bits each); it is cut by split
// instead, and still covered exactly. 2³³ indices: past what 32 bits hold.
func TestForRangeBeyondSeats(t *testing.T) {
	if math.MaxInt < 1<<33 {
		t.Skip("int has 32 bits: no range is past what a seat holds")
	}
	for _, p := range testPools(t) {
		// The largest range dealt to seats.
		var at ranges
		p.ForRange(math.MaxInt32, math.MaxInt32/8, at.add)
		checkCover(t, p.Name()+" ForRange of MaxInt32", 0, math.MaxInt32, at.rs)
		var rs ranges
		shift := 33 // a variable: the constant would not compile where int has 32 bits
		n := 1<<shift + 1000
		p.ForRange(n, n/8, rs.add)
		checkCover(t, p.Name()+" ForRange past MaxInt32", 0, n, rs.rs)
		if p.Parallelism() > 1 && len(rs.rs) != int(splitRange(n, n/8, p.Parallelism()).nchunks) {
			t.Fatalf("%s: %d ranges, want split's %d", p.Name(), len(rs.rs), splitRange(n, n/8, p.Parallelism()).nchunks)
		}
	}
}
