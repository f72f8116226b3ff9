package sched

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/corelane/corelane/internal/testexec"
)

// goroutineID parses the calling goroutine's id from its stack header
// (tests only: it costs a microsecond).
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	id, _ := strconv.ParseUint(string(b[:bytes.IndexByte(b, ' ')]), 10, 64)
	return id
}

// helperBody is the frame a panic's stack must show.
//
//go:noinline
func helperBody(v any) { panic(v) }

// panicOnHelper runs a region on p whose body panics with v on a helper,
// never on the caller. It reports false if no helper joined within 10 s.
// Not inlined, so that the body's frames do not carry the test's name.
//
//go:noinline
func panicOnHelper(p *Pool, v any) (joined bool) {
	return onHelper(p, func() { helperBody(v) })
}

// onHelper runs a region on p whose body calls f once on a helper, never on
// the caller: the caller's chunks wait until a helper has called f (a
// helper may take any chunk, the first included, so the chunk index says
// nothing about the goroutine). It reports whether a helper called f
// within 10 s; f is expected to panic or call runtime.Goexit.
func onHelper(p *Pool, f func()) (joined bool) {
	caller := goroutineID()
	var called atomic.Bool
	t0 := time.Now()
	p.ForRange(64, 1, func(s, e int) {
		if goroutineID() == caller {
			for !called.Load() && time.Since(t0) < 10*time.Second {
				runtime.Gosched()
			}
			return
		}
		if called.CompareAndSwap(false, true) {
			f()
		}
	})
	return called.Load()
}

// TestPanicKeepsBodyStack: a panic on a helper is re-raised in the caller
// as a *PanicError that unwraps to the value and whose stack is the
// helper's, showing the body's frames.
func TestPanicKeepsBodyStack(t *testing.T) {
	boom := errors.New("boom")
	p := newTestPool(t, 2)
	for trial := range 5 {
		v := func() (v any) {
			defer func() { v = recover() }()
			panicOnHelper(p, boom)
			return nil
		}()
		if v == nil {
			t.Fatalf("trial %d: no helper joined the region in 10 s", trial)
		}
		pe, ok := v.(*PanicError)
		if !ok {
			t.Fatalf("re-raised %T %v, want *PanicError", v, v)
		}
		if pe.Value != boom || !errors.Is(pe, boom) {
			t.Fatalf("PanicError %v: Value %v, errors.Is(boom) %v", pe, pe.Value, errors.Is(pe, boom))
		}
		stack := string(pe.Stack)
		for _, frame := range []string{"sched.helperBody", "sched.(*Pool).serve"} {
			if !strings.Contains(stack, frame) {
				t.Fatalf("stack lacks %s:\n%s", frame, stack)
			}
		}
		if strings.Contains(stack, "TestPanicKeepsBodyStack") {
			t.Fatalf("stack is the caller's, not the helper's:\n%s", stack)
		}
		if msg := pe.Error(); !strings.HasPrefix(msg, "boom") || !strings.Contains(msg, "sched.helperBody") {
			t.Fatalf("Error() = %q", msg)
		}
	}
	// A value that is not an error unwraps to nil.
	if (&PanicError{Value: 7}).Unwrap() != nil {
		t.Fatal("Unwrap of a non-error value")
	}
	// A nested region passes the inner PanicError on: the stack stays the
	// innermost body's.
	v := func() (v any) {
		defer func() { v = recover() }()
		p.ForEach(4, 1, func(i int) {
			Sequential.ForRange(1, 1, func(int, int) { p.ForRange(1, 1, func(int, int) { helperBody(boom) }) })
		})
		return nil
	}()
	if pe, ok := v.(*PanicError); !ok || pe.Value != boom || !strings.Contains(string(pe.Stack), "helperBody") {
		t.Fatalf("nested: re-raised %v", v)
	}
}

// TestPanicMessageShowsBody: an unrecovered re-raised panic prints the
// body's frames (checked in a child process that crashes).
func TestPanicMessageShowsBody(t *testing.T) {
	if os.Getenv("SCHED_TEST_CRASH") == "1" {
		p, err := NewPool(WithWorkers(2), WithOversubscribe(), WithPinning(false), WithSpin(testSpin))
		if err != nil {
			panic(err)
		}
		panicOnHelper(p, errors.New("boom from a helper"))
		fmt.Println("no helper joined")
		os.Exit(3)
	}
	if !haveThreads {
		t.Skip(noThreadsReason)
	}
	cmd := testexec.Self("-test.run=^TestPanicMessageShowsBody$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SCHED_TEST_CRASH=1", "GOTRACEBACK=single")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("child: %v, want a panic (exit status 2)\n%s", err, out)
	}
	for _, want := range []string{"panic: boom from a helper", "sched.helperBody", "sched.(*Pool).serve"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Fatalf("crash output lacks %q:\n%s", want, out)
		}
	}
}

// TestNestedAcrossPools: a region entered from a body of another pool's
// parallel region — a dedicated pool or Hardware — runs inline and is
// reported, so the cores are never oversubscribed; once the outer region
// has finished, the same regions run in parallel again.
func TestNestedAcrossPools(t *testing.T) {
	var evA, evB, evH events
	a := newTestPool(t, 2, WithTrace(evA.sink))
	b := newTestPool(t, 2, WithTrace(evB.sink))
	hw := Traced(Hardware(), evH.sink)
	inner := func() {
		var rs ranges
		b.ForRange(1000, 1, rs.add)
		checkCover(t, "nested ForRange", 0, 1000, rs.rs)
		counts := make([]int32, 100)
		if err := b.For(0, 100, Dynamic(), 1, func(i int) { counts[i]++ }); err != nil {
			t.Error(err)
		}
		checkCounts(t, "nested For", counts)
		rs = ranges{}
		hw.ForRange(1000, 1, rs.add)
		checkCover(t, "nested Hardware", 0, 1000, rs.rs)
	}
	const outer = 8
	a.ForEach(outer, 1, func(int) { inner() })
	if rs := evA.regions(); len(rs) != 1 || rs[0].Inline {
		t.Fatalf("outer region %v, want one parallel region", rs)
	}
	for _, r := range evB.regions() {
		if !r.Inline || r.CallerChunks != r.Chunks {
			t.Fatalf("a region nested in another pool's body ran in parallel: %v", r)
		}
	}
	for _, r := range evH.regions() {
		if !r.Inline {
			t.Fatalf("a Hardware region nested in another pool's body ran in parallel: %v", r)
		}
	}
	checkBusy := func(what string, ds []Downgraded, want int, holder string) {
		t.Helper()
		n := 0
		for _, d := range ds {
			if d.What == "region" && d.Effective == 1 && d.Requested > 1 && strings.Contains(d.Reason, holder) {
				n++
			}
		}
		if n != want {
			t.Fatalf("%s: %d region downgrades naming %s, want %d: %v", what, n, holder, want, ds)
		}
	}
	checkBusy("pool b", evB.downgrades(), 2*outer, a.Name())
	if Hardware().Parallelism() > 1 {
		checkBusy("Hardware", evH.downgrades(), outer, a.Name())
	}
	t.Log(evB.downgrades()[0])

	// Not nested any more: parallel again.
	before := len(evB.regions())
	b.ForRange(1000, 1, func(int, int) {})
	if r := evB.regions()[before]; r.Inline {
		t.Fatalf("after the outer region: %v", r)
	}
}

// TestBusyPoolReported: a region entered while another goroutine's region
// holds the cores runs inline and says so, whether it is on the same pool
// or another one.
func TestBusyPoolReported(t *testing.T) {
	var ev, evQ events
	p := newTestPool(t, 2, WithTrace(ev.sink))
	q := newTestPool(t, 3, WithTrace(evQ.sink))
	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	go func() {
		defer close(done)
		p.ForEach(2, 1, func(int) {
			once.Do(func() { close(entered) })
			<-release
		})
	}()
	<-entered
	var rs ranges
	p.ForRange(1000, 1, rs.add)
	checkCover(t, "busy", 0, 1000, rs.rs)
	q.ForEach(50, 1, func(int) {})
	close(release)
	<-done

	var d []Downgraded
	for _, x := range ev.downgrades() {
		if x.What == "region" {
			d = append(d, x)
		}
	}
	if len(d) != 1 || d[0].Requested != 2 || d[0].Effective != 1 || d[0].Pool != p.Name() ||
		!strings.Contains(d[0].Reason, "ForRange ran inline: the pool was running another region") {
		t.Fatalf("same pool: downgrades %v", ev.downgrades())
	}
	dq := evQ.downgrades()
	if len(dq) != 1 || dq[0].What != "region" || dq[0].Requested != 3 || !strings.Contains(dq[0].Reason, p.Name()+" was running a region") {
		t.Fatalf("other pool: downgrades %v", dq)
	}
	t.Log(d[0], "|", dq[0])

	// A one-task region is not a downgrade.
	n := len(ev.downgrades())
	p.ForRange(1, 1, func(int, int) {})
	if len(ev.downgrades()) != n {
		t.Fatal("one-task region reported as a downgrade")
	}
}

// TestTryRangeLowest: TryRange returns the error of the lowest failing
// range under every schedule, shuffled orders included, and runs every
// range below it.
func TestTryRangeLowest(t *testing.T) {
	const n = 5000
	fails := func(i int) bool { return i%613 == 600 || i == 4999 }
	schedules := []Schedule{Sequential, newTestPool(t, 2), newTestPool(t, 4)}
	for seed := range 40 {
		schedules = append(schedules, Shuffle(uint64(seed), 2+seed%5))
	}
	for _, s := range schedules {
		for _, grain := range []int{1, 7, 100} {
			seen := make([]bool, n) // disjoint ranges: plain writes
			err := TryRange(s, n, grain, func(lo, hi int) error {
				for i := lo; i < hi; i++ {
					seen[i] = true
					if fails(i) {
						return fmt.Errorf("index %d failed", i)
					}
				}
				return nil
			})
			if err == nil || err.Error() != "index 600 failed" {
				t.Fatalf("%s grain %d: %v, want index 600 failed", s.Name(), grain, err)
			}
			for i := 0; i <= 600; i++ {
				if !seen[i] {
					t.Fatalf("%s grain %d: index %d, below the failure, was skipped", s.Name(), grain, i)
				}
			}
		}
	}
	if err := TryRange(Shuffle(1, 4), n, 1, func(int, int) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestShuffle: the shuffle schedule covers every region exactly once in
// the finest chunks the grain allows, in an order that depends on the seed
// only.
func TestShuffle(t *testing.T) {
	order := func(s Schedule, n, grain int) (rs [][2]int, each []int) {
		s.ForRange(n, grain, func(lo, hi int) { rs = append(rs, [2]int{lo, hi}) })
		s.ForEach(n, grain, func(i int) { each = append(each, i) })
		return rs, each
	}
	for _, tasks := range []int{0, 1, 4} {
		for _, n := range []int{0, 1, 2, 5, 64, 1000, 4097} {
			for _, grain := range []int{-1, 0, 1, 3, 100} {
				s := Shuffle(99, tasks)
				rs, each := order(s, n, grain)
				checkCover(t, s.Name(), 0, n, rs)
				counts := make([]int32, n)
				for _, i := range each {
					counts[i]++
				}
				checkCounts(t, s.Name()+" ForEach", counts)
				g := max(grain, 1)
				if want := (n + g - 1) / g; len(rs) != want {
					t.Fatalf("%s n=%d grain=%d: %d ranges, want %d of %d", s.Name(), n, grain, len(rs), want, g)
				}
				for _, r := range rs {
					if r[1]-r[0] != g && r[1] != n {
						t.Fatalf("%s n=%d grain=%d: range %v", s.Name(), n, grain, r)
					}
				}
				rs2, each2 := order(Shuffle(99, tasks), n, grain)
				if fmt.Sprint(rs, each) != fmt.Sprint(rs2, each2) {
					t.Fatalf("%s n=%d: not reproducible", s.Name(), n)
				}
			}
		}
	}
	// Different seeds give different orders, and not just ascending ones.
	seen := map[string]bool{}
	for seed := range 20 {
		rs, each := order(Shuffle(uint64(seed), 4), 1000, 1)
		seen[fmt.Sprint(rs)] = true
		ascending := true
		for i := 1; i < len(each); i++ {
			ascending = ascending && each[i] > each[i-1]
		}
		if ascending {
			t.Fatalf("seed %d: ForEach ran in index order", seed)
		}
	}
	if len(seen) < 20 {
		t.Fatalf("20 seeds gave %d distinct chunk orders", len(seen))
	}
	// The chunk count is bounded.
	var rs ranges
	Shuffle(1, 1).ForRange(1<<20, 1, rs.add)
	checkCover(t, "bounded", 0, 1<<20, rs.rs)
	if len(rs.rs) != maxShuffleChunks {
		t.Fatalf("%d chunks, want %d", len(rs.rs), maxShuffleChunks)
	}
	if s := Shuffle(3, 4); s.Parallelism() != 4 || s.Name() != "shuffle(4,seed 3)" {
		t.Fatal(s.Parallelism(), s.Name())
	}
	if Shuffle(3, -2).Parallelism() != 1 {
		t.Fatal("tasks below 1")
	}
}

// TestTraced: a Traced view reports its own regions to its sink, as well
// as to the pool's, and schedules without events come back unchanged.
func TestTraced(t *testing.T) {
	var own, view, view2 events
	p := newTestPool(t, 2, WithTrace(own.sink))
	v := Traced(p, view.sink)
	if v.Name() != p.Name() || v.Parallelism() != p.Parallelism() {
		t.Fatal(v.Name(), v.Parallelism())
	}
	var rs ranges
	v.ForRange(1000, 1, rs.add)
	checkCover(t, "traced", 0, 1000, rs.rs)
	v.ForEach(1, 1, func(int) {})
	loop, ok := v.(interface {
		For(int, int, LoopScheduler, int, func(int)) error
	})
	if !ok {
		t.Fatal("a Traced pool has no For")
	}
	counts := make([]int32, 100)
	if err := loop.For(0, 100, Guided(), 1, func(i int) { counts[i]++ }); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, "traced For", counts)
	p.ForRange(10, 1, func(int, int) {}) // not through the view
	if got, want := len(view.regions()), 3; got != want {
		t.Fatalf("view saw %d regions, want %d", got, want)
	}
	if got, want := len(own.regions()), 4; got != want {
		t.Fatalf("pool sink saw %d regions, want %d", got, want)
	}
	if r := view.regions()[0]; r.Inline || r.Name != "ForRange" || r.Pool != p.Name() {
		t.Fatalf("view event %v", r)
	}
	w := Traced(v, view2.sink)
	w.ForEach(100, 1, func(int) {})
	if len(view.regions()) != 4 || len(view2.regions()) != 1 {
		t.Fatalf("double view: %d, %d regions", len(view.regions()), len(view2.regions()))
	}
	if ds, ok := w.(interface{ Downgrades() []Downgraded }); !ok || len(ds.Downgrades()) != len(p.Downgrades()) {
		t.Fatal("view has no Downgrades")
	}
	if Traced(Sequential, view.sink) != Sequential || Traced(p, nil) != Schedule(p) {
		t.Fatal("Traced wrapped a schedule it cannot observe")
	}
}

// freshHardware lets a test start its own Hardware pool; the process's
// pool comes back when the test ends.
func freshHardware(t *testing.T) {
	hardware.mu.Lock()
	old, oldOpts := hardware.pool.Load(), hardware.opts
	hardware.pool.Store(nil)
	hardware.opts = nil
	hardware.mu.Unlock()
	t.Cleanup(func() {
		hardware.mu.Lock()
		if p := hardware.pool.Load(); p != nil {
			p.shared = false
			p.Close()
		}
		hardware.pool.Store(old)
		hardware.opts = oldOpts
		hardware.mu.Unlock()
	})
}

// TestConfigureHardware: the shared pool starts with the options given
// before its first use, reports its downgrades to the sink given there,
// and refuses options once it runs.
func TestConfigureHardware(t *testing.T) {
	freshHardware(t)
	if err := ConfigureHardware(WithWorkers(0)); err == nil || !strings.Contains(err.Error(), "ConfigureHardware") {
		t.Fatalf("invalid option: %v", err)
	}
	var ev events
	if err := ConfigureHardware(WithWorkers(1000), WithSpin(0), WithTrace(ev.sink)); err != nil {
		t.Fatal(err)
	}
	h := Hardware()
	if h.Spin() != 0 {
		t.Fatalf("Spin %v, want 0", h.Spin())
	}
	ds := ev.downgrades()
	if len(ds) == 0 || ds[0].Requested != 1000 || ds[0].Pool != h.Name() || len(h.Downgrades()) != len(ds) {
		t.Fatalf("downgrades: sink %v, pool %v", ds, h.Downgrades())
	}
	if err := ConfigureHardware(WithSpin(time.Second)); !errors.Is(err, ErrHardwareStarted) || !strings.Contains(err.Error(), h.Name()) {
		t.Fatalf("after start: %v", err)
	}
	h.ForRange(1000, 1, func(int, int) {})
	if len(ev.regions()) != 1 {
		t.Fatalf("sink saw %d regions", len(ev.regions()))
	}
	if err := h.Close(); !errors.Is(err, ErrShared) {
		t.Fatal(err)
	}
	t.Log(h.Name(), ds[0])
}

// TestJoinWait: with WithJoinWait the caller of every parallel region
// waits for a helper to claim a chunk, however small the region, and goes
// on alone only after the wait has run out; the regions still cover their
// ranges. On hardware every region has a helper chunk. Under an emulator
// (the arm64 tests in qemu) a woken helper's thread can go unscheduled for
// the whole wait, so there a region may be the caller's alone, and then its
// wall time must show the full wait.
func TestJoinWait(t *testing.T) {
	var ev events
	const wait = 2 * time.Second
	p := newTestPool(t, 2, WithJoinWait(wait), WithTrace(ev.sink))
	for range 200 {
		var rs ranges
		p.ForRange(8, 1, rs.add)
		checkCover(t, "join wait", 0, 8, rs.rs)
		counts := make([]int32, 30)
		if err := p.For(0, 30, Dynamic(), 1, func(i int) { counts[i]++ }); err != nil {
			t.Fatal(err)
		}
		checkCounts(t, "join wait For", counts)
	}
	alone := 0
	for _, r := range ev.regions() {
		if r.Chunks == r.CallerChunks {
			if !testexec.Emulated() {
				t.Fatalf("no helper chunk despite the join wait: %v", r)
			}
			if r.Wall < wait {
				t.Fatalf("no helper chunk, and the caller did not wait %v: %v", wait, r)
			}
			alone++
		}
	}
	if alone > 0 {
		t.Logf("%d of %d regions ran on the caller alone after the full %v wait (a starved helper)", alone, len(ev.regions()), wait)
	}
	if _, err := NewPool(WithJoinWait(-1)); err == nil {
		t.Fatal("negative join wait accepted")
	}
}

// badInit is a loop scheduler whose LoopInit panics.
type badInit struct{ LoopScheduler }

func (badInit) LoopInit(int, int, int, int) { panic("bad LoopInit") }

// TestMachineReleased: a LoopInit or a sink that panics during a parallel
// region does not keep the cores: the next region runs in parallel.
func TestMachineReleased(t *testing.T) {
	var ev events
	panicky := atomic.Bool{}
	p := newTestPool(t, 2, WithTrace(func(e Event) {
		ev.sink(e)
		if panicky.Load() {
			panic("bad sink")
		}
	}))
	parallelAgain := func(what string) {
		t.Helper()
		if o := machine.owner.Load(); o != nil {
			machine.owner.Store(nil) // or every later region, and Close, would wait
			t.Fatalf("after %s the machine is still held by %s", what, o.Name())
		}
		before := len(ev.regions())
		p.ForRange(100, 1, func(int, int) {})
		if rs := ev.regions(); len(rs) != before+1 || rs[before].Inline {
			t.Fatalf("after %s: %v", what, rs[before:])
		}
	}
	func() {
		defer func() {
			if v := recover(); v != "bad LoopInit" {
				t.Fatalf("recovered %v", v)
			}
		}()
		_ = p.For(0, 100, badInit{Dynamic()}, 1, func(int) {})
	}()
	parallelAgain("a LoopInit panic")
	func() {
		defer func() {
			if v := recover(); v != "bad sink" {
				t.Fatalf("recovered %v", v)
			}
		}()
		panicky.Store(true)
		defer panicky.Store(false)
		p.ForRange(100, 1, func(int, int) {})
	}()
	parallelAgain("a sink panic")
}
