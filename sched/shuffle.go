package sched

import (
	"fmt"
	"math/rand/v2"
)

// Shuffle returns a schedule for testing and verification, not for speed.
// ForRange cuts a region into the finest chunks the contract allows —
// grain indices each, the last possibly shorter (at most maxShuffleChunks
// chunks: beyond that the chunks grow) — and runs them one after another on
// the calling goroutine in an order permuted by seed; ForEach runs its
// indices in a permuted order, so the order of its chunks and of the
// indices inside them both change. Parallelism reports tasks (at least 1),
// which ops may read to size their work; it does not change the split.
//
// The permutation of a region depends only on seed and on the region's
// kind, n and grain, never on timing or on other regions: a result that
// depends on the order in which chunks run or finish (a combine in
// completion order, a "first error" in time) changes with the seed, and
// changes the same way on every run, where a Pool changes it only by
// timing luck and only across the coarser chunks it cuts. A failure
// reproduces exactly. Shuffle is safe for concurrent use, nested regions
// included; it allocates O(chunks) per ForRange and O(count) per ForEach.
func Shuffle(seed uint64, tasks int) Schedule {
	return shuffle{seed: seed, tasks: max(tasks, 1)}
}

// maxShuffleChunks bounds the chunks of a Shuffle ForRange region.
const maxShuffleChunks = 1 << 16

type shuffle struct {
	seed  uint64
	tasks int
}

func (s shuffle) Parallelism() int { return s.tasks }
func (s shuffle) Name() string     { return fmt.Sprintf("shuffle(%d,seed %d)", s.tasks, s.seed) }

// perm returns a permutation of [0, n) drawn from the region's stream.
func (s shuffle) perm(kind uint64, n, grain int) []int {
	h := kind*0x9e3779b97f4a7c15 ^ uint64(n)*0xbf58476d1ce4e5b9 ^ uint64(grain)*0x94d049bb133111eb
	return rand.New(rand.NewPCG(s.seed, h)).Perm(n)
}

func (s shuffle) ForRange(n, grain int, body func(start, end int)) {
	if n <= 0 {
		return
	}
	chunk := max(grain, ChunkFor(n, maxShuffleChunks), 1)
	count := (n-1)/chunk + 1
	for _, k := range s.perm(1, count, grain) {
		lo, hi := k*chunk, n // k < count, so lo <= n-1
		if n-lo > chunk {
			hi = lo + chunk
		}
		body(lo, hi)
	}
}

func (s shuffle) ForEach(count, minPerTask int, body func(i int)) {
	if count <= 0 {
		return
	}
	for _, i := range s.perm(2, count, minPerTask) {
		body(i)
	}
}
