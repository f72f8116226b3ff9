package sched_test

import (
	"fmt"
	"sync/atomic"

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

// TryRange stops starting new ranges after the first error and returns it.
func ExampleTryRange() {
	err := sched.TryRange(sched.Sequential, 100, 10, func(start, end int) error {
		if end > 50 {
			return fmt.Errorf("range [%d,%d) failed", start, end)
		}
		return nil
	})
	fmt.Println(err)
	// Output: range [0,100) failed
}
