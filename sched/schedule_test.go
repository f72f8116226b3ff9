package sched

import (
	"math"
	"testing"
	"time"
	"unsafe"
)

func TestTasksForChunkFor(t *testing.T) {
	for _, c := range []struct{ n, grain, par, tasks int }{
		{0, 1, 4, 0}, {-3, 1, 4, 0}, {1, 1, 4, 1}, {5, 1, 4, 4}, {5, 2, 4, 3}, {5, 5, 4, 1},
		{5, 6, 4, 1}, {100, 0, 4, 4}, {100, 10, 0, 1}, {math.MaxInt, 1, 8, 8},
		{math.MaxInt, math.MaxInt, 8, 1}, {math.MaxInt, math.MaxInt - 1, 8, 2},
	} {
		if got := TasksFor(c.n, c.grain, c.par); got != c.tasks {
			t.Errorf("TasksFor(%d, %d, %d) = %d, want %d", c.n, c.grain, c.par, got, c.tasks)
		}
	}
	for _, c := range []struct{ n, tasks, chunk int }{
		{0, 4, 0}, {1, 4, 1}, {5, 4, 2}, {8, 4, 2}, {9, 4, 3}, {7, 0, 7}, {math.MaxInt, 2, math.MaxInt/2 + 1},
	} {
		if got := ChunkFor(c.n, c.tasks); got != c.chunk {
			t.Errorf("ChunkFor(%d, %d) = %d, want %d", c.n, c.tasks, got, c.chunk)
		}
	}
}

// TestSplitShapes checks every small shape ForRange can produce, including
// n not a multiple of the task count (n=5 on 4 tasks): no empty or inverted
// range, nothing shorter than grain except the last, no range longer than
// a head chunk, and a tail of finer chunks at least tasks head chunks long
// wherever the grain allows finer chunks.
func TestSplitShapes(t *testing.T) {
	for n := 1; n <= 300; n++ {
		for grain := 1; grain <= 24; grain++ {
			for tasks := 1; tasks <= 16; tasks++ {
				sp := splitRange(n, grain, tasks)
				var rs [][2]int
				for k := range sp.nchunks {
					lo, hi := sp.piece(k, n)
					if hi-lo < grain && hi != n {
						t.Fatalf("n=%d grain=%d tasks=%d: range %d [%d,%d) shorter than grain", n, grain, tasks, k, lo, hi)
					}
					if hi-lo > sp.chunk {
						t.Fatalf("n=%d grain=%d tasks=%d: range %d [%d,%d) longer than the head chunk %d", n, grain, tasks, k, lo, hi, sp.chunk)
					}
					rs = append(rs, [2]int{lo, hi})
				}
				if err := cover(0, n, rs); err != nil {
					t.Fatalf("n=%d grain=%d tasks=%d: %v", n, grain, tasks, err)
				}
				if rest := n - sp.head*sp.chunk; sp.head > 0 && (rest < tasks*sp.chunk || sp.tail >= sp.chunk) {
					t.Fatalf("n=%d grain=%d tasks=%d: %+v leaves a tail of %d", n, grain, tasks, sp, rest)
				}
			}
		}
	}
	// Two tasks over 2048 rows: six head chunks of 256, then 64s.
	if sp := splitRange(2048, 1, 2); sp != (split{head: 6, chunk: 256, tail: 64, nchunks: 14}) {
		t.Fatalf("splitRange(2048, 1, 2) = %+v", sp)
	}
	// A grain that allows no finer chunks: one length, as before.
	if sp := splitRange(2048, 256, 2); sp.head != 0 || sp.tail != 256 || sp.nchunks != 8 {
		t.Fatalf("splitRange(2048, 256, 2) = %+v", sp)
	}
	// The trailing-range trap: n=5 on 4 tasks is 3 ranges of ceil(5/4)=2.
	if c := ChunkFor(5, 4); c != 2 || (5-1)/c+1 != 3 {
		t.Fatalf("ChunkFor(5, 4) = %d", c)
	}
	// Near the int limit the chunk count must not overflow.
	for _, tasks := range []int{2, 4, 64} {
		sp := splitRange(math.MaxInt, 1, tasks)
		lo, hi := sp.piece(sp.nchunks-1, math.MaxInt)
		if lo < 0 || hi != math.MaxInt || hi-lo > sp.tail {
			t.Fatalf("MaxInt split on %d tasks: %+v, last [%d,%d)", tasks, sp, lo, hi)
		}
	}
}

func TestSequential(t *testing.T) {
	for _, n := range []int{0, 1, 5, 1000} {
		for _, grain := range []int{0, 1, 3, 2000} {
			var calls [][2]int
			Sequential.ForRange(n, grain, func(s, e int) { calls = append(calls, [2]int{s, e}) })
			if n == 0 && len(calls) != 0 || n > 0 && (len(calls) != 1 || calls[0] != [2]int{0, n}) {
				t.Fatalf("ForRange(%d, %d): calls %v, want one call f(0, %d)", n, grain, calls, n)
			}
			var order []int
			Sequential.ForEach(n, grain, func(i int) { order = append(order, i) })
			for i, v := range order {
				if v != i {
					t.Fatalf("ForEach order %v", order)
				}
			}
			if len(order) != n {
				t.Fatalf("ForEach ran %d of %d", len(order), n)
			}
		}
	}
	if Sequential.Parallelism() != 1 || Sequential.Name() != "sequential" {
		t.Fatal(Sequential.Parallelism(), Sequential.Name())
	}
}

func TestGrainFor(t *testing.T) {
	for _, c := range []struct {
		per  time.Duration
		want int
	}{{50 * time.Nanosecond, 80}, {5 * time.Microsecond, 1}, {time.Microsecond, 4}, {0, 4000}, {700 * time.Nanosecond, 6}} {
		if got := GrainFor(c.per); got != c.want {
			t.Errorf("GrainFor(%v) = %d, want %d", c.per, got, c.want)
		}
	}
}

// TestRegionGroup pins the claim group's size that region's comment gives.
func TestRegionGroup(t *testing.T) {
	var r region
	if g := unsafe.Offsetof(r.each) + unsafe.Sizeof(r.each) - unsafe.Offsetof(r.next); g != 112 {
		t.Fatalf("the claim group is %d bytes", g)
	}
}
