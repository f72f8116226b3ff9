package sched

import (
	"fmt"
	"time"
)

// Event is what a WithTrace sink receives: a Downgraded or a Region.
type Event interface {
	event()
	String() string
}

// Downgraded reports a request that could not be honoured in full. The
// pool (or, for What "region", the one region) goes on with Effective
// instead of Requested.
//
// What is "workers", "pinning" or "threads" (a target without threads)
// when a pool starts, and "region" for a region that asked for Requested
// tasks but ran inline (Effective 1) because another region held the cores
// — a region nested in a body, on this pool or another, or a concurrent
// caller — or because the pool was closed. (Package spi adds
// "parallelism".)
type Downgraded struct {
	Pool      string // the pool's Name
	What      string // see above
	Requested int    // workers asked for, workers to pin, or a region's tasks
	Effective int    // workers running, workers pinned, or 1
	Reason    string // why, in words
}

// Region reports one region, when a sink is attached. Chunks counts the
// ranges handed out; CallerChunks those the calling goroutine ran itself,
// so Chunks-CallerChunks ran on pool workers.
type Region struct {
	Pool         string        // the pool's Name
	Name         string        // "ForRange", "ForEach" or "For(<scheduler>)"
	Inline       bool          // ran on the caller alone (one task, busy or closed pool)
	Tasks        int           // participants the region asked for, caller included
	Chunks       int           // ranges handed out
	CallerChunks int           // ranges run by the calling goroutine
	Wall         time.Duration // from entry to return
}

func (Downgraded) event() {}
func (Region) event()     {}

func (d Downgraded) String() string {
	return fmt.Sprintf("sched: %s downgraded %s: requested %d, effective %d: %s",
		d.Pool, d.What, d.Requested, d.Effective, d.Reason)
}

func (r Region) String() string {
	mode := "parallel"
	if r.Inline {
		mode = "inline"
	}
	return fmt.Sprintf("sched: %s %s %s: tasks=%d chunks=%d caller=%d wall=%v",
		r.Pool, r.Name, mode, r.Tasks, r.Chunks, r.CallerChunks, r.Wall)
}

// Traced returns a schedule that runs every region exactly as s does and,
// when s is a *Pool (or a schedule Traced returned for one), also sends
// the events of the regions entered through it to sink, besides the pool's
// own WithTrace sink: a Region event for each, and a Downgraded event
// (What "region") for each that asked for several tasks but ran inline
// because the cores were busy (a nested region, a concurrent caller) or
// the pool closed. So an engine sees what happened to its own regions on a
// shared pool such as Hardware, without a process-wide sink. The view has
// the pool's Name, Parallelism, Downgrades and For; it does not own the
// pool and has no Close.
//
// Any other schedule has no events to report, and a nil sink nothing to
// report to: Traced returns s unchanged then.
func Traced(s Schedule, sink func(Event)) Schedule {
	if sink == nil {
		return s
	}
	switch v := s.(type) {
	case *Pool:
		return &tracedPool{p: v, sink: sink}
	case *tracedPool:
		inner := v.sink
		return &tracedPool{p: v.p, sink: func(e Event) { inner(e); sink(e) }}
	}
	return s
}

// tracedPool is what Traced returns for a pool.
type tracedPool struct {
	p    *Pool
	sink func(Event)
}

func (t *tracedPool) Parallelism() int         { return t.p.Parallelism() }
func (t *tracedPool) Name() string             { return t.p.Name() }
func (t *tracedPool) Downgrades() []Downgraded { return t.p.Downgrades() }
func (t *tracedPool) ForRange(n, grain int, body func(start, end int)) {
	t.p.forRange(n, grain, body, t.sink)
}
func (t *tracedPool) ForEach(count, minPerTask int, body func(i int)) {
	t.p.forEach(count, minPerTask, body, t.sink)
}

// For is Pool.For, reporting to the view's sink.
func (t *tracedPool) For(start, end int, ls LoopScheduler, chunk int, body func(i int)) error {
	return t.p.loop(start, end, ls, chunk, body, t.sink)
}
