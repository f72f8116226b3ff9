package sched

import (
	"math"
	"sync"
	"sync/atomic"
)

// Reduce computes part over the chunks [0, chunk), [chunk, 2·chunk), … of
// [0, n) (the last may be shorter) on s, and folds the partial results in
// chunk order on the calling goroutine:
//
//	combine(…combine(combine(part(0, c), part(c, 2c)), part(2c, 3c))…, part(…, n))
//
// The chunking depends on n and chunk only, never on the schedule or its
// worker count, and so does the order of every combine: a float sum gives the
// same bits under Sequential and under any Pool. One chunk returns part(0, n)
// without calling combine; n <= 0 returns the zero T. Reduce keeps one T per
// chunk, so pick chunk for the granularity of the work (a few µs per chunk,
// see InlineBelow), not for the number of workers. A chunk below 1 panics:
// it is a programming error, not an input.
func Reduce[T any](s Schedule, n, chunk int, part func(start, end int) T, combine func(acc, x T) T) T {
	var zero T
	if chunk < 1 {
		panic("sched: Reduce with chunk < 1")
	}
	if n <= 0 {
		return zero
	}
	chunks := (n-1)/chunk + 1
	if chunks == 1 {
		return part(0, n)
	}
	parts := make([]T, chunks)
	s.ForEach(chunks, 1, func(i int) {
		lo := i * chunk
		hi := n
		if n-lo > chunk {
			hi = lo + chunk
		}
		parts[i] = part(lo, hi)
	})
	acc := parts[0]
	for _, x := range parts[1:] {
		acc = combine(acc, x)
	}
	return acc
}

// TryRange is ForRange for bodies that can fail. It returns the error of
// the failing range with the lowest start, whatever the schedule and
// whatever finished first: once a range fails, ranges above it that have
// not started are skipped, but every range below it still runs, so the
// lowest failing range always runs and always wins. Chunk boundaries
// differ between schedules (Sequential calls body(0, n) once); a body that
// checks its range in index order and returns at the first failure makes
// TryRange return the error of the lowest failing index under every
// schedule. It works on any Schedule.
func TryRange(s Schedule, n, grain int, body func(start, end int) error) error {
	var (
		lowest atomic.Int64 // start of the lowest failing range so far
		mu     sync.Mutex
		first  error
	)
	lowest.Store(math.MaxInt64)
	s.ForRange(n, grain, func(start, end int) {
		if int64(start) > lowest.Load() {
			return
		}
		if err := body(start, end); err != nil {
			mu.Lock()
			if int64(start) < lowest.Load() {
				lowest.Store(int64(start))
				first = err
			}
			mu.Unlock()
		}
	})
	return first
}
