// Package sched decides how many tasks an operation uses and where they run,
// never what it computes.
package sched

// Schedule splits a loop into tasks. Implementations: Sequential, *Pool.
//
// A region's ranges are disjoint half-open intervals covering [0, n). A body
// writes only pre-allocated disjoint outputs and reads only inputs that are
// immutable for the region. All writes made by bodies happen-before the
// region returns.
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
