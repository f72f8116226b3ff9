// Package sched decides how many tasks an operation uses and where they run,
// never what it computes.
//
// # Promises
//
// A region (one ForRange, ForEach or For call) calls its body over disjoint,
// non-empty, half-open ranges that together cover the region's index space
// exactly once. A body writes only pre-allocated disjoint outputs and reads
// only inputs that are immutable for the region; every write a body makes
// happens-before the region returns.
//
// A region never waits for a chunk that still needs a pool thread: the
// caller claims chunks (any of them, not necessarily the first: in a
// ForRange region its own part's, then what is left of the others') until
// none is left, then joins only chunks already running. So a region
// completes even if no helper ever starts (a saturated pool, GOMAXPROCS=1,
// a region entered from a worker). One parallel region runs in the process
// at a time, across all pools (they pin their helpers to the same cores): a
// region that finds the cores held by another — in particular a region
// nested inside a body, on the same pool or any other, Hardware included —
// or its pool closed, runs inline on the calling goroutine. A nested region
// runs inline.
//
// A panic in a body stops the chunks nobody has claimed yet and is
// re-raised in the goroutine that entered the region, after every claimed
// chunk has finished, as a *PanicError holding the panic's value and the
// stack of the goroutine that panicked (so the body's frames survive the
// trip from a helper). The pool stays usable.
//
// A request the machine cannot honour (more workers than usable physical
// cores, pinning refused, no threads at all, several tasks while another
// region holds the cores) is honoured as far as possible and reported as a
// Downgraded event, through the WithTrace sink (or a Traced view), and for
// the pool's start in Pool.Downgrades and Pool.Name — never silently.
//
// Hardware is the shared pool; ConfigureHardware sets its options before
// its first use. Shuffle is a schedule for tests: it runs chunks in a
// seeded, reproducible permuted order.
//
// Results that must not depend on the schedule (sums, softmax denominators)
// use Reduce, whose chunking and combine order are independent of the number
// of workers.
package sched

import "time"

// Schedule splits a loop into tasks. Implementations: Sequential, *Pool,
// Traced views of a pool, and Shuffle (for tests).
//
// A region's ranges are disjoint half-open intervals covering [0, n), run
// in no particular order. A body writes only pre-allocated disjoint outputs
// and reads only inputs that are immutable for the region. All writes made
// by bodies happen-before the region returns.
type Schedule interface {
	// Parallelism is the number of tasks the schedule can run at once.
	Parallelism() int
	// Name describes the schedule, e.g. "sequential" or "pool(2,pinned)".
	Name() string
	// ForRange calls body over disjoint ranges covering [0, n), each range
	// at least grain long except possibly the last.
	ForRange(n, grain int, body func(start, end int))
	// ForEach calls body(i) once for every i in [0, count), with at least
	// minPerTask indices per task.
	ForEach(count, minPerTask int, body func(i int))
}

type sequential struct{}

// Sequential runs every region inline as one task: ForRange(n, g, f) calls
// f(0, n) once. It reproduces one-thread behaviour exactly.
var Sequential Schedule = sequential{}

func (sequential) Parallelism() int { return 1 }
func (sequential) Name() string     { return "sequential" }
func (sequential) ForRange(n, grain int, body func(start, end int)) {
	if n > 0 {
		body(0, n)
	}
}
func (sequential) ForEach(count, minPerTask int, body func(i int)) {
	for i := 0; i < count; i++ {
		body(i)
	}
}

// InlineBelow is the amount of work below which a region is not worth
// splitting. BenchmarkSmall (bench/results/sched.md) times n iterations of
// ~50 ns as a 2-task Pool region and as one call: below 80 iterations
// (~4 µs) the region was slower than the call, at 80 and 160 they tied. An
// empty region costs ~0.12 µs, but a helper must also see the region and
// pull its chunks' data into its own cache. Regions get this behaviour
// through grain: choose grain so that one range does at least InlineBelow
// of work (GrainFor), and a region of n <= grain indices has one task and
// runs inline.
const InlineBelow = 4 * time.Microsecond

// GrainFor returns the grain that makes one range cost at least InlineBelow
// when one index costs perIndex: ceil(InlineBelow / perIndex), at least 1.
func GrainFor(perIndex time.Duration) int {
	if perIndex <= 0 {
		return int(InlineBelow / time.Nanosecond) // unknown cost: assume 1 ns per index
	}
	return int((InlineBelow + perIndex - 1) / perIndex)
}

// TasksFor returns how many tasks a region of n indices uses when each task
// takes at least grain indices and at most parallelism tasks run at once:
// min(parallelism, ceil(n/grain)), and at least 1 when n > 0 (0 when n <= 0).
// A grain or parallelism below 1 counts as 1.
func TasksFor(n, grain, parallelism int) int {
	if n <= 0 {
		return 0
	}
	grain = max(grain, 1)
	parallelism = max(parallelism, 1)
	return min(parallelism, (n-1)/grain+1) // ceil without overflow
}

// ChunkFor returns ceil(n/tasks), the range length that splits n indices
// into at most tasks ranges (0 when n <= 0; a tasks below 1 counts as 1).
// Note that n indices in chunks of ChunkFor(n, tasks) may need fewer than
// tasks ranges: n=5 on 4 tasks gives chunks of 2 and three ranges.
func ChunkFor(n, tasks int) int {
	if n <= 0 {
		return 0
	}
	tasks = max(tasks, 1)
	return (n-1)/tasks + 1
}
