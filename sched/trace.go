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

// Downgraded reports a request the machine could not honour in full. The
// pool goes on with Effective instead of Requested.
type Downgraded struct {
	Pool      string // the pool's Name
	What      string // "workers", "pinning", or "threads" (a target without threads)
	Requested int    // workers asked for, or workers to pin
	Effective int    // workers running, or workers pinned
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
