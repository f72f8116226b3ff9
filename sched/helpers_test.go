package sched

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"
)

// testSpin keeps idle test pools from burning the 2 CPUs between tests.
const testSpin = 50 * time.Microsecond

// newTestPool returns a pool with n workers (helpers oversubscribed past the
// cores when n asks for more, unpinned then), closed when the test ends.
func newTestPool(t testing.TB, n int, opts ...Option) *Pool {
	t.Helper()
	if !haveThreads && n > 1 {
		t.Skipf("%s: no threads, so no %d-worker pool", noThreadsReason, n)
	}
	base := []Option{WithWorkers(n), WithSpin(testSpin)}
	if n > runtime.GOMAXPROCS(0) {
		base = append(base, WithOversubscribe(), WithPinning(false))
	}
	p, err := NewPool(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if p.Parallelism() != n && haveThreads {
		t.Fatalf("%s: Parallelism %d, want %d", p.Name(), p.Parallelism(), n)
	}
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Error(err)
		}
	})
	return p
}

// testPools returns pools with 1, 2 and 4 workers.
func testPools(t testing.TB) []*Pool {
	if !haveThreads {
		return []*Pool{newTestPool(t, 1)}
	}
	return []*Pool{newTestPool(t, 1), newTestPool(t, 2), newTestPool(t, 4)}
}

// ranges collects [start, end) pairs from concurrent bodies.
type ranges struct {
	mu sync.Mutex
	rs [][2]int
}

func (r *ranges) add(start, end int) {
	r.mu.Lock()
	r.rs = append(r.rs, [2]int{start, end})
	r.mu.Unlock()
}

// checkCover fails unless rs are non-empty, non-inverted, disjoint and cover
// [start, end) exactly. It works at the int limits.
func checkCover(t testing.TB, what string, start, end int, rs [][2]int) {
	t.Helper()
	if err := cover(start, end, rs); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func cover(start, end int, rs [][2]int) error {
	rs = append([][2]int(nil), rs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	if start >= end {
		if len(rs) != 0 {
			return fmt.Errorf("empty loop [%d,%d) got ranges %v", start, end, rs)
		}
		return nil
	}
	at := start
	for i, r := range rs {
		if r[0] >= r[1] {
			return fmt.Errorf("range %d %v is empty or inverted", i, r)
		}
		if r[0] != at {
			return fmt.Errorf("range %d %v starts at %d, want %d (gap or overlap)", i, r, r[0], at)
		}
		at = r[1]
	}
	if at != end {
		return fmt.Errorf("ranges end at %d, want %d", at, end)
	}
	return nil
}

// counts checks that every index ran exactly once.
func checkCounts(t testing.TB, what string, counts []int32) {
	t.Helper()
	for i, c := range counts {
		if c != 1 {
			t.Fatalf("%s: index %d ran %d times", what, i, c)
		}
	}
}

func schedulers() map[string]func() LoopScheduler {
	return map[string]func() LoopScheduler{
		"static": Static, "static-blocks": staticBlocks, "dynamic": Dynamic,
		"guided": Guided, "workstealing": WorkStealing,
	}
}

func newRand(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, seed>>7))
}

// waitGoroutines polls until the goroutine count drops to want.
func waitGoroutines(t testing.TB, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= want {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("goroutines: %d, want %d\n%s", n, want, buf)
		}
		time.Sleep(time.Millisecond)
	}
}

// events records trace events.
type events struct {
	mu sync.Mutex
	ev []Event
}

func (e *events) sink(ev Event) {
	e.mu.Lock()
	e.ev = append(e.ev, ev)
	e.mu.Unlock()
}

func (e *events) regions() []Region {
	e.mu.Lock()
	defer e.mu.Unlock()
	var rs []Region
	for _, ev := range e.ev {
		if r, ok := ev.(Region); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

func (e *events) downgrades() []Downgraded {
	e.mu.Lock()
	defer e.mu.Unlock()
	var ds []Downgraded
	for _, ev := range e.ev {
		if d, ok := ev.(Downgraded); ok {
			ds = append(ds, d)
		}
	}
	return ds
}

func newSeeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// isPanicOf reports whether v, recovered from a region, is a *PanicError
// of want.
func isPanicOf(v, want any) bool {
	pe, ok := v.(*PanicError)
	return ok && pe.Value == want
}
