package sched

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCoverage runs random regions of every kind on pools of 1, 2 and 4
// workers: every index runs exactly once, ranges disjoint, never inverted.
func TestCoverage(t *testing.T) {
	rng := newRand(t)
	pools := testPools(t)
	for trial := range 300 {
		p := pools[trial%len(pools)]
		n := rng.IntN(2000)
		if trial%10 == 0 {
			n = rng.IntN(3) // 0, 1, 2
		}
		grain := 1 + rng.IntN(64)
		var rs ranges
		p.ForRange(n, grain, rs.add)
		checkCover(t, p.Name()+" ForRange", 0, n, rs.rs)
		for i, r := range rs.rs {
			if r[1]-r[0] < grain && r[1] != n {
				t.Fatalf("range %d %v shorter than grain %d", i, r, grain)
			}
		}

		counts := make([]int32, n)
		p.ForEach(n, grain, func(i int) { counts[i]++ }) // disjoint plain writes
		checkCounts(t, p.Name()+" ForEach", counts)

		for name, mk := range schedulers() {
			start := rng.IntN(1000) - 500
			switch trial % 7 {
			case 1:
				start = math.MaxInt - n
			case 2:
				start = math.MinInt
			}
			chunk := 1 + rng.IntN(40)
			counts := make([]int32, n)
			if err := p.For(start, start+n, mk(), chunk, func(i int) { counts[i-start]++ }); err != nil {
				t.Fatal(err)
			}
			checkCounts(t, p.Name()+" For "+name, counts)
		}
	}
}

// TestHappensBefore reads, after the region, plain writes made by bodies on
// other goroutines; the race detector checks the ordering.
func TestHappensBefore(t *testing.T) {
	for _, p := range testPools(t) {
		for range 200 {
			out := make([]int, 257)
			p.ForRange(len(out), 1, func(s, e int) {
				for i := s; i < e; i++ {
					out[i] = i * 3
				}
			})
			var sum struct{ a, b int }
			p.ForEach(2, 1, func(i int) {
				if i == 0 {
					sum.a = 7
				} else {
					sum.b = 9
				}
			})
			for i, v := range out {
				if v != i*3 {
					t.Fatalf("out[%d] = %d", i, v)
				}
			}
			if sum.a != 7 || sum.b != 9 {
				t.Fatal(sum)
			}
		}
	}
}

// TestNestedRunsInline: a region entered from a body runs inline.
func TestNestedRunsInline(t *testing.T) {
	var ev events
	p := newTestPool(t, 2, WithTrace(ev.sink))
	outer := make([][]int32, 64)
	p.ForEach(len(outer), 1, func(i int) {
		outer[i] = make([]int32, 100)
		p.ForEach(100, 1, func(j int) { outer[i][j]++ })
	})
	for _, c := range outer {
		checkCounts(t, "nested", c)
	}
	inline, parallel := 0, 0
	for _, r := range ev.regions() {
		if r.Inline {
			inline++
		} else {
			parallel++
		}
	}
	if inline != 64 || parallel != 1 {
		t.Fatalf("inline %d, parallel %d regions; want 64 nested inline and 1 outer", inline, parallel)
	}
}

// TestSaturatedPool enters a region from inside every worker while all of
// them are busy: it completes.
func TestSaturatedPool(t *testing.T) {
	for _, n := range []int{2, 4} {
		p := newTestPool(t, n)
		var arrived atomic.Int32
		results := make([][]int32, n)
		p.ForEach(n, 1, func(i int) {
			// Every participant holds a chunk before any goes on.
			arrived.Add(1)
			for arrived.Load() < int32(n) {
				runtime.Gosched()
			}
			results[i] = make([]int32, 300)
			p.ForRange(300, 1, func(s, e int) {
				for j := s; j < e; j++ {
					results[i][j]++
				}
			})
			var seq []int32 = make([]int32, 50)
			_ = p.For(0, 50, Dynamic(), 1, func(j int) { seq[j]++ })
			checkCounts(t, "nested For", seq)
		})
		for _, r := range results {
			checkCounts(t, "saturated", r)
		}
	}
}

// TestGOMAXPROCS1 runs regions on a 2-worker pool after GOMAXPROCS drops
// to 1, and starts a pool under GOMAXPROCS=1.
func TestGOMAXPROCS1(t *testing.T) {
	p := newTestPool(t, 2, WithSpin(time.Millisecond))
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	for i := range 10 {
		counts := make([]int32, 1000)
		p.ForRange(len(counts), 1, func(s, e int) {
			for j := s; j < e; j++ {
				counts[j]++
			}
		})
		checkCounts(t, "GOMAXPROCS=1", counts)
		_ = p.For(0, 100, WorkStealing(), 1+i, func(j int) {})
	}
	var ev events
	q, err := NewPool(WithTrace(ev.sink))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if q.Parallelism() != 1 {
		t.Fatalf("%s under GOMAXPROCS=1: Parallelism %d", q.Name(), q.Parallelism())
	}
	if probeTopology().cores > 1 && len(ev.downgrades()) == 0 {
		t.Fatal("GOMAXPROCS=1 below the core count was not reported")
	}
	counts := make([]int32, 10)
	q.ForEach(10, 1, func(i int) { counts[i]++ })
	checkCounts(t, "new pool under GOMAXPROCS=1", counts)
}

// TestClosedPoolRunsInline: Close is idempotent, joins the workers, and a
// region on a closed pool runs inline on the caller.
func TestClosedPoolRunsInline(t *testing.T) {
	before := runtime.NumGoroutine()
	var ev events
	p, err := NewPool(WithWorkers(2), WithSpin(testSpin), WithTrace(ev.sink))
	if err != nil {
		t.Fatal(err)
	}
	p.ForRange(100, 1, func(int, int) {})
	for range 3 {
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	waitGoroutines(t, before)
	var rs ranges
	p.ForRange(100, 1, rs.add)
	checkCover(t, "closed", 0, 100, rs.rs)
	counts := make([]int32, 77)
	if err := p.For(0, 77, Guided(), 2, func(i int) { counts[i]++ }); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, "closed For", counts)
	regs := ev.regions()
	for _, r := range regs[1:] {
		if !r.Inline {
			t.Fatalf("region after Close not inline: %v", r)
		}
	}
	if err := Hardware().Close(); !errors.Is(err, ErrShared) {
		t.Fatalf("Hardware().Close() = %v", err)
	}
}

// oneThread hands the whole loop to the highest thread id.
type oneThread struct {
	start, end, target int
	taken              atomic.Bool
}

func (o *oneThread) LoopInit(start, end, threads, chunk int) {
	o.start, o.end, o.target = start, end, threads-1
	o.taken.Store(false)
}

func (o *oneThread) LoopNext(thread int) (int, int) {
	if thread != o.target || o.taken.Swap(true) {
		return 0, 0
	}
	return o.start, o.end
}

// TestHelperNeverStarts: helpers are held before they can join, so the
// caller must claim their work — for a custom scheduler that gives all of
// it to one such thread, and for every built-in.
func TestHelperNeverStarts(t *testing.T) {
	var hold atomic.Bool
	var ev events
	hook := func(int) {
		for hold.Load() {
			time.Sleep(10 * time.Microsecond)
		}
	}
	for _, n := range []int{2, 4} {
		p := newTestPool(t, n, withJoinHook(hook), WithTrace(ev.sink))
		hold.Store(true)
		mk := schedulers()
		mk["one-thread"] = func() LoopScheduler { return &oneThread{} }
		for name, f := range mk {
			counts := make([]int32, 1000)
			if err := p.For(0, len(counts), f(), 7, func(i int) { counts[i]++ }); err != nil {
				t.Fatal(err)
			}
			checkCounts(t, name, counts)
		}
		var rs ranges
		p.ForRange(500, 1, rs.add)
		checkCover(t, "held ForRange", 0, 500, rs.rs)
		hold.Store(false)
		for _, r := range ev.regions() {
			if r.CallerChunks != r.Chunks {
				t.Fatalf("held helpers ran chunks: %v", r)
			}
		}
	}
}

// TestPanic: a panic stops unclaimed chunks, is re-raised in the caller
// after every claimed chunk has finished, and leaves the pool usable. One
// chunk blocks until the panic is visible to the region, so the panicking
// chunk and the blocked one are the only two that ever run.
func TestPanic(t *testing.T) {
	boom := errors.New("boom")
	for _, n := range []int{2, 4} {
		p := newTestPool(t, n)
		for trial := range 20 {
			var claims, late atomic.Int32
			var blockerDone atomic.Bool
			got := func() (v any) {
				defer func() { v = recover() }()
				p.ForRange(1000, 1, func(s, e int) {
					c := claims.Add(1)
					if p.reg.stop.Load() {
						late.Add(1) // claimed before the stop, started after it
					}
					switch c {
					case 1:
						for !p.reg.stop.Load() {
							runtime.Gosched()
						}
						time.Sleep(time.Millisecond) // others would claim now if they could
						blockerDone.Store(true)
					case 2:
						panic(boom)
					}
				})
				return nil
			}()
			// With 2 participants the blocked chunk and the panicking one are
			// the only ones; with more, each other participant may have had
			// one claim in flight when the stop became visible.
			if n == 2 && claims.Load() != 2 || late.Load() > int32(n-2) {
				t.Fatalf("trial %d: %d chunks ran, %d started after the stop", trial, claims.Load(), late.Load())
			}
			if pe, ok := got.(*PanicError); !ok || pe.Value != boom {
				t.Fatalf("re-raised %v, want a *PanicError of %v", got, boom)
			}
			if !blockerDone.Load() {
				t.Fatal("re-raised before the claimed chunk finished")
			}
			counts := make([]int32, 300)
			p.ForEach(len(counts), 1, func(i int) { counts[i]++ })
			checkCounts(t, "after panic", counts)
		}
		// In For, and on the inline path.
		func() {
			defer func() {
				if v := recover(); !isPanicOf(v, boom) {
					t.Fatalf("For re-raised %v", v)
				}
			}()
			_ = p.For(0, 100, Dynamic(), 1, func(i int) {
				if i == 50 {
					panic(boom)
				}
			})
		}()
		func() {
			defer func() {
				if v := recover(); !isPanicOf(v, boom) {
					t.Fatalf("inline re-raised %v", v)
				}
			}()
			p.ForRange(1, 1, func(int, int) { panic(boom) })
		}()
	}
}

// TestGoexit: runtime.Goexit in a body on a helper is re-raised as a Goexit
// panic, and the helper's seat is taken by a fresh goroutine.
func TestGoexit(t *testing.T) {
	before := runtime.NumGoroutine()
	p, err := NewPool(WithWorkers(2), WithSpin(time.Millisecond))
	if err != nil || p.Parallelism() < 2 {
		t.Skip("needs 2 workers:", err)
	}
	v := func() (v any) {
		defer func() { v = recover() }()
		if !onHelper(p, runtime.Goexit) {
			t.Fatal("no helper joined the region in 10 s")
		}
		return nil
	}()
	if pe, ok := v.(*PanicError); !ok || pe.Value != (Goexit{}) || !errors.As(pe, new(Goexit)) {
		t.Fatalf("re-raised %v, want a *PanicError of Goexit", v)
	}
	for range 50 {
		counts := make([]int32, 200)
		p.ForEach(len(counts), 1, func(i int) { counts[i]++ })
		checkCounts(t, "after Goexit", counts)
	}
	p.Close()
	waitGoroutines(t, before)
}

// stressRegions is the regions each of TestStress's 64 goroutines runs:
// 128,000 in all, with or without -race (about 2.5 s under -race).
const stressRegions = 2000

// TestStress: 64 goroutines run regions of random size and kind on one pool
// at once; afterwards Close leaves no goroutine behind.
func TestStress(t *testing.T) {
	before := runtime.NumGoroutine()
	p, err := NewPool(WithWorkers(2), WithSpin(testSpin))
	if err != nil {
		t.Fatal(err)
	}
	rng := newRand(t)
	var wg sync.WaitGroup
	for g := range 64 {
		seed := rng.Uint64()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newSeeded(seed)
			ls := []LoopScheduler{Static(), Dynamic(), Guided(), WorkStealing()}
			for k := range stressRegions {
				n := r.IntN(300)
				counts := make([]int32, n)
				switch k % 3 {
				case 0:
					p.ForRange(n, 1+r.IntN(20), func(s, e int) {
						for i := s; i < e; i++ {
							counts[i]++
						}
					})
				case 1:
					p.ForEach(n, 1+r.IntN(20), func(i int) { counts[i]++ })
				case 2:
					if err := p.For(0, n, ls[k%4], 1+r.IntN(8), func(i int) { counts[i]++ }); err != nil {
						t.Error(err)
						return
					}
				}
				for i, c := range counts {
					if c != 1 {
						t.Errorf("goroutine %d region %d: index %d ran %d times", g, k, i, c)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	waitGoroutines(t, before)
	t.Logf("64 goroutines x %d regions", stressRegions)
}

// TestDowngradeWorkers: more workers than cores is reported, never silent.
func TestDowngradeWorkers(t *testing.T) {
	var ev events
	p, err := NewPool(WithWorkers(1000), WithSpin(testSpin), WithTrace(ev.sink))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ds := ev.downgrades()
	what := "workers"
	if !haveThreads {
		what = "threads"
	}
	if len(ds) == 0 || ds[0].What != what || ds[0].Requested != 1000 || ds[0].Effective != p.Parallelism() || ds[0].Reason == "" {
		t.Fatalf("downgrades %+v for %s", ds, p.Name())
	}
	if got := p.Downgrades(); len(got) != len(ds) || got[0] != ds[0] {
		t.Fatalf("Downgrades() = %v, sink got %v", got, ds)
	}
	t.Log(ds[0])
	for _, bad := range []Option{WithWorkers(0), WithWorkers(-1), WithSpin(-time.Second)} {
		if _, err := NewPool(bad); err == nil {
			t.Fatal("invalid option accepted")
		}
	}
}

// TestPinningRefused: where the kernel refuses to pin, the pool works
// unpinned and says why.
func TestPinningRefused(t *testing.T) {
	refuse := func(int) error { return errors.New("sched_setaffinity: operation not permitted") }
	var ev events
	p, err := NewPool(WithSpin(testSpin), withPinFunc(refuse), WithTrace(ev.sink))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Parallelism() < 2 {
		t.Skip("1 usable core: nothing to pin")
	}
	var pin *Downgraded
	for _, d := range ev.downgrades() {
		if d.What == "pinning" {
			pin = &d
		}
	}
	if pin == nil || pin.Effective != 0 || !strings.Contains(pin.Reason, "not permitted") {
		t.Fatalf("downgrades %v", ev.downgrades())
	}
	if !strings.Contains(p.Name(), "unpinned") {
		t.Fatalf("Name %q does not say unpinned", p.Name())
	}
	counts := make([]int32, 1000)
	p.ForEach(len(counts), 1, func(i int) { counts[i]++ })
	checkCounts(t, "unpinned", counts)
	t.Log(p.Name(), "|", *pin)
}

// TestRegionEvents: with a sink, each region reports its name, tasks,
// chunks and wall time.
func TestRegionEvents(t *testing.T) {
	var ev events
	p := newTestPool(t, 2, WithTrace(ev.sink))
	p.ForRange(1000, 10, func(int, int) {})
	p.ForEach(1, 1, func(int) {})
	_ = p.For(0, 100, Guided(), 1, func(int) {})
	rs := ev.regions()
	if len(rs) != 3 {
		t.Fatalf("%d region events", len(rs))
	}
	// Seats: at least one piece a participant's part (the helper's may be
	// taken whole by the caller), each at least the grain.
	if r := rs[0]; r.Name != "ForRange" || r.Inline || r.Tasks != 2 || r.Chunks < 2 || r.Chunks > 100 || r.Wall <= 0 || r.Pool != p.Name() {
		t.Fatalf("ForRange event %+v", r)
	}
	if r := rs[1]; r.Name != "ForEach" || !r.Inline || r.Tasks != 1 || r.Chunks != 1 {
		t.Fatalf("ForEach event %+v", r)
	}
	if r := rs[2]; r.Name != "For(guided)" || r.Tasks != 2 || r.Chunks < 2 {
		t.Fatalf("For event %+v", r)
	}
	t.Log(rs[0], rs[2])
}

func TestForErrors(t *testing.T) {
	p := newTestPool(t, 2)
	for _, chunk := range []int{0, -1} {
		if err := p.For(0, 10, Dynamic(), chunk, func(int) {}); !errors.Is(err, ErrChunk) {
			t.Fatalf("chunk %d: %v", chunk, err)
		}
	}
	if err := p.For(0, 10, nil, 1, func(int) {}); err == nil {
		t.Fatal("nil scheduler accepted")
	}
	ran := false
	if err := p.For(5, 5, Dynamic(), 1, func(int) { ran = true }); err != nil || ran {
		t.Fatal(err, ran)
	}
	if err := p.For(5, -5, Dynamic(), 1, func(int) { ran = true }); err != nil || ran {
		t.Fatal(err, ran)
	}
}

func TestHardware(t *testing.T) {
	h := Hardware()
	if h != Hardware() {
		t.Fatal("Hardware is not shared")
	}
	if h.Parallelism() < 1 || h.Parallelism() > runtime.GOMAXPROCS(0) {
		t.Fatalf("%s: Parallelism %d", h.Name(), h.Parallelism())
	}
	t.Logf("%s, downgrades %v", h.Name(), h.Downgrades())
	var rs ranges
	h.ForRange(12345, 100, rs.add)
	checkCover(t, "Hardware", 0, 12345, rs.rs)
}

// TestTargetWithoutThreads: where the target has no threads (wasm), the
// shared pool is sequential and says so; elsewhere it has helpers unless
// the machine has one usable core.
func TestTargetWithoutThreads(t *testing.T) {
	h := Hardware()
	if haveThreads {
		if h.Parallelism() > 1 && strings.Contains(h.Name(), "sequential") {
			t.Fatalf("%s claims to be sequential", h.Name())
		}
		return
	}
	ds := h.Downgrades()
	if h.Parallelism() != 1 || !strings.Contains(h.Name(), "sequential") || len(ds) == 0 || ds[0].What != "threads" {
		t.Fatalf("%s: Parallelism %d, downgrades %v", h.Name(), h.Parallelism(), ds)
	}
	var rs ranges
	h.ForRange(100, 1, rs.add)
	if len(rs.rs) != 1 || rs.rs[0] != [2]int{0, 100} {
		t.Fatalf("ranges %v", rs.rs)
	}
}
