package parity

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/corelane/corelane/sched"
)

// splits counts regions, on the parity pools, that ran as more than one
// chunk.
var splits atomic.Int64

func countSplits(e sched.Event) {
	if r, ok := e.(sched.Region); ok && r.Chunks > 1 {
		splits.Add(1)
	}
}

// namedSchedule is one column of the parity matrix.
type namedSchedule struct {
	name string
	s    sched.Schedule
	// inWorker runs the op from inside a region of a pool, so its own
	// regions are nested.
	inWorker *sched.Pool
}

// reverse runs the chunks of every region in reverse order, sequentially:
// any result that depended on chunk order would change.
type reverse struct{ grainOverride int }

func (reverse) Parallelism() int { return 4 }
func (reverse) Name() string     { return "reverse" }
func (r reverse) ForRange(n, grain int, body func(start, end int)) {
	chunk := sched.ChunkFor(n, sched.TasksFor(n, grain, 4))
	if chunk < 1 {
		return
	}
	for start := (n - 1) / chunk * chunk; start >= 0; start -= chunk {
		body(start, min(n, start+chunk))
	}
}
func (r reverse) ForEach(count, minPerTask int, body func(i int)) {
	for i := count - 1; i >= 0; i-- {
		body(i)
	}
}

// loopSchedule runs ForRange through Pool.For with a loop scheduler: the
// grain-sized pieces of [0, n) are the loop's iterations.
type loopSchedule struct {
	p     *sched.Pool
	name  string
	ls    func() sched.LoopScheduler
	chunk int
}

func (l loopSchedule) Parallelism() int { return l.p.Parallelism() }
func (l loopSchedule) Name() string     { return l.name }
func (l loopSchedule) ForRange(n, grain int, body func(start, end int)) {
	if n <= 0 {
		return
	}
	grain = max(grain, 1)
	pieces := (n + grain - 1) / grain
	if err := l.p.For(0, pieces, l.ls(), l.chunk, func(i int) { body(i*grain, min(n, (i+1)*grain)) }); err != nil {
		panic(err)
	}
}
func (l loopSchedule) ForEach(count, minPerTask int, body func(i int)) {
	if count <= 0 {
		return
	}
	if err := l.p.For(0, count, l.ls(), max(1, minPerTask), body); err != nil {
		panic(err)
	}
}

// schedules returns every schedule of the matrix; the pools close at the
// end of the test.
func schedules(t *testing.T) []namedSchedule {
	t.Helper()
	out := []namedSchedule{{name: "sequential", s: sched.Sequential}, {name: "hardware", s: sched.Hardware()}}
	var pools []*sched.Pool
	for w := 1; w <= 4; w++ {
		p, err := sched.NewPool(sched.WithWorkers(w), sched.WithTrace(countSplits))
		if err != nil {
			t.Fatal(err)
		}
		pools = append(pools, p)
		out = append(out, namedSchedule{name: fmt.Sprintf("pool%d", w), s: p})
	}
	t.Cleanup(func() {
		for _, p := range pools {
			p.Close()
		}
	})
	p := pools[len(pools)-1]
	for _, ls := range []struct {
		name string
		f    func() sched.LoopScheduler
	}{{"static", sched.Static}, {"dynamic", sched.Dynamic}, {"guided", sched.Guided}, {"worksteal", sched.WorkStealing}} {
		out = append(out, namedSchedule{name: "loop-" + ls.name, s: loopSchedule{p: p, name: ls.name, ls: ls.f, chunk: 1}})
	}
	out = append(out, namedSchedule{name: "reverse", s: reverse{}})
	out = append(out, namedSchedule{name: "in-worker", s: pools[1], inWorker: pools[1]})
	return out
}

// run calls op on s; for an in-worker schedule it calls it from every task
// of a region of the pool (each task with its own output), so at least one
// call runs on a pool worker where every region it opens is nested, and
// returns that output.
func (ns namedSchedule) run(op func(s sched.Schedule) []float32) []float32 {
	if ns.inWorker == nil {
		return op(ns.s)
	}
	n := ns.inWorker.Parallelism() + 1
	outs := make([][]float32, n)
	ns.inWorker.ForEach(n, 1, func(i int) { outs[i] = op(ns.inWorker) })
	for i := 1; i < n; i++ {
		if !sameBits(outs[0], outs[i]) {
			panic("in-worker calls disagree with each other")
		}
	}
	return outs[0]
}
