package sched

import "sync/atomic"

// rangeSeats selects how a Pool's ForRange region of up to MaxInt32
// indices hands out its range: true, each participant owns a contiguous
// part that it runs front to back in shrinking pieces, and one that runs
// out takes the back half of the largest part still unclaimed (see seat);
// false, every participant claims the next chunk of one shared sequence
// (see split), as larger ForRange regions and every ForEach region do. A
// variable so that tests and benchmarks can compare the two.
var rangeSeats = true

// seat is one participant's unclaimed part [lo, hi) of a ForRange region,
// packed into one word (lo in the low 32 bits) so that its owner's claim
// and another participant's split are each one compare-and-swap; alone on
// its cache lines.
//
// Why (a matrix-vector product streaming its rows from memory): with one
// shared sequence, consecutive chunks go to different cores, so every
// chunk starts where its core's prefetches did not reach and ends with
// prefetches for a chunk another core runs; a participant's pieces here
// follow one another, so its prefetches run on into its next piece. And a
// region's end waits for one piece, which shrinks with what is left,
// instead of one chunk of a fixed length. A two-thread decode step of
// llama-3.2-1b took 0.94–0.95 of the time (steps alternating between the
// two, bench/results/2026-12-06-zen5-seats/); a 32-token prefill 0.96–1.00.
//
// The pad before v also parts v from the previous seat's: seats are 136
// bytes apart, so no two share a pair of adjacent lines.
type seat struct {
	_ cacheLinePad
	v atomic.Uint64
}

func packRange(lo, hi int) uint64 { return uint64(uint32(lo)) | uint64(uint32(hi))<<32 }

func unpackRange(v uint64) (lo, hi int) { return int(uint32(v)), int(v >> 32) }

// piecesPerPart: an owner's next piece is the larger of the grain and
// 1/piecesPerPart of what its part has left (rounded up to whole grains).
const piecesPerPart = 4

// deal gives each of tasks seats an equal contiguous part of [0, n), its
// bounds multiples of r.grain (the last ends at n).
func (r *region) deal(n, tasks int) {
	g := r.grain
	lo := 0
	for t := range tasks {
		hi := n
		if t+1 < tasks {
			hi = max(lo, (t+1)*n/tasks/g*g)
		}
		r.seats[t].v.Store(packRange(lo, hi))
		lo = hi
	}
}

// claim returns seat's next piece, taking the back half of another seat's
// part when its own is empty; ok is false when no part has anything left.
// Every bound is a multiple of r.grain or n, so every piece is at least
// grain long except one that ends at n.
func (r *region) claim(seat int) (lo, hi int, ok bool) {
	s := &r.seats[seat].v
	g := r.grain
	for {
		v := s.Load()
		lo, hi := unpackRange(v)
		if lo < hi {
			end := min(hi, lo+wholeGrains(ChunkFor(hi-lo, piecesPerPart), g))
			if s.CompareAndSwap(v, packRange(end, hi)) {
				return lo, end, true
			}
			continue
		}
		if !r.steal(seat) {
			return 0, 0, false
		}
	}
}

// steal moves the back half of the largest unclaimed part (all of it when
// it is one grain or less) to seat, which must be empty; false when every
// part is empty.
func (r *region) steal(seat int) bool {
	g := r.grain
	for {
		victim, most := -1, 0
		var vv uint64
		for i := range r.seats {
			if i == seat {
				continue
			}
			v := r.seats[i].v.Load()
			if lo, hi := unpackRange(v); hi-lo > most {
				victim, most, vv = i, hi-lo, v
			}
		}
		if victim < 0 {
			return false
		}
		lo, hi := unpackRange(vv)
		mid := lo
		if hi-lo > g {
			mid = lo + wholeGrains((hi-lo)/2, g)
		}
		if r.seats[victim].v.CompareAndSwap(vv, packRange(lo, mid)) {
			r.seats[seat].v.Store(packRange(mid, hi))
			return true
		}
	}
}

// wholeGrains rounds x up to a whole number of grains g, at least one.
func wholeGrains(x, g int) int { return max(1, ChunkFor(x, g)) * g }
