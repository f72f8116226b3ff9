package parity

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/corelane/corelane/sched"
)

// column is one schedule of the matrix.
type column struct {
	name string
	s    sched.Schedule
	// probe sees the regions run on the column's pool. nil marks a
	// deterministic permutation, which proves something on every run.
	probe *probe
	// mustHelp: the pool makes its caller wait for a helper
	// (sched.WithJoinWait), so a cell where no helper ran a chunk is a
	// failure. Without it (the Hardware pool, as engines get it) such a
	// cell is only left out of the count.
	mustHelp bool
}

// probe counts, from a pool's trace, what the regions of one run did.
type probe struct {
	helper atomic.Int64 // chunks executed by helpers, not the caller
	widest atomic.Int64 // most chunks in one region
}

func (p *probe) sink(e sched.Event) {
	r, ok := e.(sched.Region)
	if !ok {
		return
	}
	p.helper.Add(int64(r.Chunks - r.CallerChunks))
	for {
		w := p.widest.Load()
		if int64(r.Chunks) <= w || p.widest.CompareAndSwap(w, int64(r.Chunks)) {
			return
		}
	}
}

func (p *probe) reset() {
	p.helper.Store(0)
	p.widest.Store(0)
}

// minProcs is the GOMAXPROCS the cells run under: enough for every helper
// of the largest pool to run at the same time as the caller, even where the
// machine has fewer cores (the kernel then time-slices real threads).
const minProcs = 4

// concurrency raises GOMAXPROCS to minProcs for the test.
func concurrency(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < minProcs {
		runtime.GOMAXPROCS(minProcs)
		t.Cleanup(func() { runtime.GOMAXPROCS(old) })
		t.Logf("GOMAXPROCS raised from %d to %d", old, minProcs)
	}
}

// joinWait bounds how long a test pool's caller waits for a helper to
// claim a chunk before it starts (sched.WithJoinWait).
const joinWait = 100 * time.Millisecond

// newPool returns a w-worker pool whatever the machine (oversubscribed
// past its cores), whose caller lets a helper claim a chunk first, traced
// into pr, closed when the test ends.
func newPool(t *testing.T, w int, pr *probe) *sched.Pool {
	t.Helper()
	p, err := sched.NewPool(sched.WithWorkers(w), sched.WithOversubscribe(), sched.WithJoinWait(joinWait),
		sched.WithTrace(pr.sink))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if p.Parallelism() != w {
		t.Fatalf("%s: Parallelism %d, want %d", p.Name(), p.Parallelism(), w)
	}
	return p
}

// reverse runs the finest chunks a region allows (grain indices each) in
// reverse order, sequentially: any result that depended on chunk order
// would change.
type reverse struct{}

func (reverse) Parallelism() int { return 4 }
func (reverse) Name() string     { return "reverse" }
func (reverse) ForRange(n, grain int, body func(start, end int)) {
	if n <= 0 {
		return
	}
	chunk := max(grain, 1)
	for start := (n - 1) / chunk * chunk; start >= 0; start -= chunk {
		body(start, min(n, start+chunk))
	}
}
func (reverse) ForEach(count, minPerTask int, body func(i int)) {
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
func (l loopSchedule) Name() string     { return l.p.Name() + "/" + l.name }
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

// columns returns the schedules of the matrix; the pools close at the end
// of the test.
func columns(t *testing.T) []column {
	t.Helper()
	var cols []column
	if hw := sched.Hardware(); hw.Parallelism() > 1 {
		pr := &probe{}
		cols = append(cols, column{"hardware", sched.Traced(hw, pr.sink), pr, false})
	} else {
		t.Logf("no hardware column: %s has one worker, so it runs every region inline", hw.Name())
	}
	var p4 *sched.Pool
	var p4probe *probe
	for w := 2; w <= 4; w++ {
		pr := &probe{}
		p := newPool(t, w, pr)
		cols = append(cols, column{fmt.Sprintf("pool%d", w), p, pr, true})
		p4, p4probe = p, pr
	}
	for _, ls := range []struct {
		name string
		f    func() sched.LoopScheduler
	}{{"static", sched.Static}, {"dynamic", sched.Dynamic}, {"guided", sched.Guided}, {"worksteal", sched.WorkStealing}} {
		cols = append(cols, column{"loop-" + ls.name, loopSchedule{p: p4, name: ls.name, ls: ls.f, chunk: 1}, p4probe, true})
	}
	cols = append(cols, column{"reverse", reverse{}, nil, false})
	for _, sh := range []struct {
		seed  uint64
		tasks int
	}{{1, 4}, {2, 3}, {3, 2}} {
		cols = append(cols, column{fmt.Sprintf("shuffle%d", sh.seed), sched.Shuffle(sh.seed, sh.tasks), nil, false})
	}
	return cols
}
