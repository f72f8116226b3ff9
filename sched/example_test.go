package sched_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/corelane/corelane/sched"
)

// Sequential runs a region as one call on the calling goroutine.
func ExampleSequential() {
	sched.Sequential.ForRange(10, 3, func(start, end int) {
		fmt.Printf("body(%d, %d)\n", start, end)
	})
	// Output: body(0, 10)
}

// A dedicated pool splits a region into disjoint ranges; writes to disjoint
// outputs need no locking and are visible when ForRange returns.
func ExampleNewPool() {
	p, err := sched.NewPool(sched.WithWorkers(2))
	if err != nil {
		panic(err)
	}
	defer p.Close()

	squares := make([]int, 1000)
	p.ForRange(len(squares), 100, func(start, end int) {
		for i := start; i < end; i++ {
			squares[i] = i * i
		}
	})
	fmt.Println(squares[999], p.Parallelism() >= 1)
	// Output: 998001 true
}

// For runs a loop under a DotMP-style loop scheduler: here guided, whose
// pieces start at ceil(n/threads) and shrink toward the chunk.
func ExamplePool_For() {
	p, err := sched.NewPool()
	if err != nil {
		panic(err)
	}
	defer p.Close()

	var sum atomic.Int64
	if err := p.For(1, 101, sched.Guided(), 4, func(i int) { sum.Add(int64(i)) }); err != nil {
		panic(err)
	}
	fmt.Println(sum.Load())

	// A chunk of 0 is an error, never a silent default.
	fmt.Println(p.For(0, 10, sched.Dynamic(), 0, func(int) {}))
	// Output:
	// 5050
	// sched: For(0, 10, dynamic, chunk 0): sched: chunk must be at least 1
}

// Reduce gives the same float bits under every schedule: the chunks are
// fixed by n and chunk, and the partial sums are combined in chunk order.
func ExampleReduce() {
	xs := make([]float32, 10_000)
	for i := range xs {
		xs[i] = 1 / float32(i+1)
	}
	sum := func(s sched.Schedule) float32 {
		return sched.Reduce(s, len(xs), 256,
			func(start, end int) float32 {
				var acc float32
				for _, x := range xs[start:end] {
					acc += x
				}
				return acc
			},
			func(acc, x float32) float32 { return acc + x })
	}
	fmt.Println(sum(sched.Sequential) == sum(sched.Hardware()))
	// Output: true
}

// Runtime reads the loop schedule from CORELANE_SCHEDULE, as OpenMP reads
// OMP_SCHEDULE; ParseSchedule is the same parser.
func ExampleParseSchedule() {
	ls, chunk, err := sched.ParseSchedule("dynamic,8")
	fmt.Println(ls, chunk, err)
	_, _, err = sched.ParseSchedule("fastest")
	fmt.Println(err)
	// Output:
	// dynamic 8 <nil>
	// sched: bad loop schedule: unknown kind "fastest" (want static, dynamic, guided or workstealing)
}

// TryRange returns the error of the lowest failing range, whatever order
// the ranges ran in: a body that checks its indices in order makes that the
// error of the lowest failing index under every schedule.
func ExampleTryRange() {
	check := func(start, end int) error {
		for i := start; i < end; i++ {
			if i%30 == 29 {
				return fmt.Errorf("index %d failed", i)
			}
		}
		return nil
	}
	fmt.Println(sched.TryRange(sched.Sequential, 100, 10, check))
	fmt.Println(sched.TryRange(sched.Shuffle(7, 4), 100, 10, check))
	// Output:
	// index 29 failed
	// index 29 failed
}

// Shuffle runs the chunks of a region one after another in a seeded
// order: a test schedule under which an order-dependent result changes
// reproducibly.
func ExampleShuffle() {
	s := sched.Shuffle(1, 2)
	var order []int
	s.ForRange(40, 10, func(start, end int) { order = append(order, start) })
	fmt.Println(len(order), s.Name())
	// Output: 4 shuffle(2,seed 1)
}

// A panic in a body reaches the caller as a *PanicError, which keeps the
// panicking goroutine's stack and unwraps to the value.
func ExamplePanicError() {
	p, err := sched.NewPool(sched.WithWorkers(2))
	if err != nil {
		panic(err)
	}
	defer p.Close()
	errBad := errors.New("bad row")
	defer func() {
		pe := recover().(*sched.PanicError)
		fmt.Println(errors.Is(pe, errBad), strings.Contains(string(pe.Stack), "ExamplePanicError"))
	}()
	p.ForRange(1000, 10, func(start, end int) {
		if start <= 500 && 500 < end {
			panic(errBad)
		}
	})
	// Output: true true
}

// Traced shows an engine what happened to its own regions on a pool it
// shares (typically Hardware): here a region that could not have the cores
// because it was nested in a body of another pool's region.
func ExampleTraced() {
	outer, err := sched.NewPool(sched.WithWorkers(2), sched.WithOversubscribe(), sched.WithPinning(false))
	if err != nil {
		panic(err)
	}
	defer outer.Close()
	shared, err := sched.NewPool(sched.WithWorkers(2), sched.WithOversubscribe(), sched.WithPinning(false))
	if err != nil {
		panic(err)
	}
	defer shared.Close()
	mine := sched.Traced(shared, func(e sched.Event) {
		if d, ok := e.(sched.Downgraded); ok && d.What == "region" {
			fmt.Printf("ran inline: %d tasks wanted\n", d.Requested)
		}
	})
	outer.ForEach(2, 1, func(i int) {
		if i == 0 {
			mine.ForRange(1000, 1, func(start, end int) {})
		}
	})
	// Output: ran inline: 2 tasks wanted
}

// ConfigureHardware sets the shared pool's options. Call it first thing in
// main: once anything has used the pool, it is an error.
func ExampleConfigureHardware() {
	_ = sched.ConfigureHardware(sched.WithSpin(50 * time.Microsecond)) // nil before the first use
	h := sched.Hardware()
	err := sched.ConfigureHardware(sched.WithSpin(0))
	fmt.Println(errors.Is(err, sched.ErrHardwareStarted), h.Parallelism() >= 1)
	// Output: true true
}

// RunPinned runs a loop of many short regions (a decode loop) from a thread
// pinned to the core the pool's helpers leave free. Where the pool has no
// such core (one core, or pinning refused), it says why and runs nothing,
// so the caller chooses what to do instead.
func ExamplePool_RunPinned() {
	p := sched.Hardware()
	var sum atomic.Int64
	loop := func() {
		for step := 0; step < 100; step++ {
			p.ForRange(1000, 100, func(start, end int) { sum.Add(int64(end - start)) })
		}
	}
	if err := p.RunPinned(loop); err != nil {
		if !errors.Is(err, sched.ErrNotPinned) {
			panic(err) // the pool has the core, but the kernel refused the pin
		}
		loop() // no core of its own for the caller here: run unpinned
	}
	fmt.Println(sum.Load())
	// Output: 100000
}
