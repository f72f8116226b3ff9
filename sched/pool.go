package sched

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultSpin is how long an idle worker, or a caller waiting for a running
// chunk, spins before it parks. Waking a parked worker costs 100–200 µs on
// the 2-core VMs this targets, while a spinning one answers in well under a
// microsecond; spinning for about one wake-up's worth of time before parking
// loses at most 2x against an oracle (the ski-rental argument) and keeps an
// idle process at zero CPU 200 µs after its last region. Where other
// processes already oversubscribe the cores, spinning only takes CPU from
// the threads with work: BenchmarkSpin, run on such a machine, favours
// WithSpin(0) there (bench/results/sched.md).
const DefaultSpin = 200 * time.Microsecond

// ErrShared is returned by Close on the pool Hardware returns, which belongs
// to every package of the process and is never closed.
var ErrShared = errors.New("sched: the shared Hardware pool cannot be closed")

// Pool runs regions on the calling goroutine plus Parallelism()-1 worker
// goroutines, each locked to its own OS thread and pinned to its own
// physical core. *Pool implements Schedule.
//
// One parallel region runs in the process at a time, whatever pool it is
// on: every pool pins its helpers to the same physical cores, so a second
// region in parallel would only oversubscribe them. A region that finds the
// cores held by another region — a region nested in a body (on this pool or
// any other, Hardware included), or one of many goroutines calling at once —
// runs inline on its calling goroutine, so regions never wait for each other
// and never deadlock, and reports a Downgraded event (What "region") to the
// sinks. Regions may be entered from any number of goroutines at once.
//
// Chunks are claimed from a shared queue with one atomic add per claim. The
// caller runs chunks too: it posts the region to the helpers it wants, then
// claims chunks (any of them, not necessarily the first) until the queue is
// empty, then joins only chunks already running. A helper that has not
// joined by then is taken back (under a loop scheduler the caller claims
// the pieces meant for that helper's thread id), so the region completes
// even if no helper ever starts.
//
// Idle workers spin for the spin window (WithSpin, DefaultSpin), checking
// only their own mailbox, then park on a channel, so an idle pool uses no
// CPU. A spinning worker never calls runtime.Gosched: in a locked goroutine
// that would hand its OS thread over at the cost of a futex wake.
type Pool struct {
	par        int
	spin       time.Duration
	sink       func(Event)
	name       string
	shared     bool
	downgrades []Downgraded
	workers    []*worker // seat i+1; seat 0 is the calling goroutine
	joinHook   func(seat int)
	joinWait   time.Duration
	pin        func(cpu int) error
	callerCPU  int // the core left to callers, when every helper is pinned; else -1

	_       cacheLinePad
	closed  atomic.Bool // Close has been called: regions run inline
	_       cacheLinePad
	waiting atomic.Bool   // the caller sleeps on done until pending reaches 0
	done    chan struct{} // capacity 1
	reg     region        // the one region on the workers, reused
	seats   []seat        // the ranges of reg's participants, one per seat
	wg      sync.WaitGroup
	close   sync.Once
}

type cacheLinePad [128]byte // two lines: adjacent-line prefetch pairs lines on x86

const (
	running int32 = iota
	parked
)

type worker struct {
	slot  atomic.Pointer[region] // a posted region, or &stopRegion
	state atomic.Int32           // running or parked
	wake  chan struct{}          // capacity 1; a token may be stale
	seat  int
	cpu   int   // the logical CPU pinned to, or -1
	tid   int   // kernel thread id (linux), for tests and diagnostics
	err   error // why pinning failed
	_     cacheLinePad
}

// stopRegion is posted to a worker's slot by Close: the worker exits.
var stopRegion region

type regionKind uint8

const (
	kindRange regionKind = iota // body(start, end) over chunks of [0, n)
	kindEach                    // each(i) over chunks of [0, n)
	kindLoop                    // each(i) over the pieces ls hands out
)

// region is one parallel region. Everything a claim touches — the counter,
// the stop flag, the helper count and the read-only description of the work
// (written by the caller before the region is posted) — shares one padded
// group of 112 bytes, so a helper that joins pulls two adjacent cache lines
// (which x86's adjacent-line prefetch fetches as a pair) instead of one per
// field. (A ForRange region's seats, which its claims change, have lines
// of their own.)
type region struct {
	_       cacheLinePad
	next    atomic.Int64 // next chunk to claim (kindEach; kindRange without seats)
	pending atomic.Int32 // posted helpers neither finished nor taken back
	stop    atomic.Bool  // a body panicked: claim nothing more
	kind    regionKind
	// traced: a sink wants this region's events, so helpers count their
	// chunks. waitClaim (WithJoinWait): a helper reports its first claim
	// in claimed. Both fill padding before n.
	traced    bool
	waitClaim bool
	n         int
	split
	seats []seat // kindRange with seats: each participant's unclaimed range
	grain int    // the seats' alignment and shortest piece
	body  func(start, end int)
	each  func(i int)
	_     cacheLinePad

	claimed      atomic.Bool // a helper has claimed a chunk (waitClaim only)
	extra        func(Event) // a Traced view's sink for this region, or nil
	ls           LoopScheduler
	workerChunks atomic.Int64 // chunks run by helpers, counted when traced
	mu           sync.Mutex
	failed       bool
	failure      *PanicError
}

// machine is held by the one parallel region of the process (see Pool):
// owner is the pool running it, or nil.
var machine struct {
	_     cacheLinePad
	owner atomic.Pointer[Pool]
	_     cacheLinePad
}

// PanicError is what a Pool region re-raises when a body panics: the
// panic's value and the stack of the goroutine that panicked, taken while
// it was still unwinding, so the body's frames are not lost when the panic
// crosses from a helper to the caller. Its Error method prints both, so an
// unrecovered re-raised panic shows the body's frames.
//
// Every panic that leaves a Pool region is a *PanicError, whether the body
// ran on a helper or on the caller, in a parallel region or an inline one
// (a busy pool runs a region inline, so anything else would make the
// panic's type depend on timing); a region nested in a body passes the
// inner *PanicError on unchanged. Sequential, a plain call, lets panics
// through as they are.
type PanicError struct {
	Value any    // the value the body panicked with; Goexit{} if it called runtime.Goexit
	Stack []byte // the panicking goroutine's stack at the panic (runtime/debug.Stack)
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%v\n\nsched: re-raised by the region; the body panicked in:\n%s", e.Value, e.Stack)
}

// Unwrap returns Value if it is an error (so errors.Is and errors.As see
// through a PanicError), else nil.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// newPanicError wraps v, recovered in a deferred call while the panicking
// goroutine is still unwinding (nil: a runtime.Goexit), with that
// goroutine's stack. A *PanicError from a nested region is kept as it is.
func newPanicError(v any) *PanicError {
	if pe, ok := v.(*PanicError); ok {
		return pe
	}
	if v == nil {
		v = Goexit{}
	}
	return &PanicError{Value: v, Stack: debug.Stack()}
}

// Goexit is the Value of the PanicError a parallel region re-raises when a
// body called runtime.Goexit (for example t.FailNow): a region cannot carry
// a Goexit across goroutines. (In an inline region the Goexit proceeds as
// usual.)
type Goexit struct{}

func (Goexit) Error() string {
	return "sched: a body called runtime.Goexit (t.FailNow?); a region reports it as a panic"
}

// work claims and runs chunks as seat until none are left or a body panics,
// and returns how many chunks it ran. It records a panic instead of letting
// it unwind, so the region can finish before re-raising it.
func (r *region) work(seat int) (chunks int) {
	ok := false
	defer func() {
		if !ok {
			r.fail(newPanicError(recover()))
		}
	}()
	if r.kind == kindLoop {
		for !r.stop.Load() {
			s, e := r.ls.LoopNext(seat)
			if s >= e {
				break
			}
			chunks++
			if r.waitClaim && seat != 0 {
				r.claimed.Store(true)
			}
			for i := s; i < e; i++ {
				r.each(i)
			}
		}
		ok = true
		return chunks
	}
	for !r.stop.Load() {
		lo, hi, more := r.take(seat)
		if !more {
			break
		}
		chunks++
		if r.waitClaim && seat != 0 {
			r.claimed.Store(true)
		}
		if r.kind == kindRange {
			r.body(lo, hi)
		} else {
			for i := lo; i < hi; i++ {
				r.each(i)
			}
		}
	}
	ok = true
	return chunks
}

// take claims seat's next range of a kindRange or kindEach region: from
// the seats when it has them, else the next chunk of split's sequence
// (one atomic add); more is false when nothing is left.
func (r *region) take(seat int) (lo, hi int, more bool) {
	if r.seats != nil {
		return r.claim(seat)
	}
	k := r.next.Add(1) - 1
	if k >= r.nchunks {
		return 0, 0, false
	}
	lo, hi = r.piece(k, r.n)
	return lo, hi, true
}

// fail records the first panic and stops further claims.
func (r *region) fail(v *PanicError) {
	r.mu.Lock()
	if !r.failed {
		r.failed, r.failure = true, v
	}
	r.mu.Unlock()
	r.stop.Store(true)
}

// Option configures NewPool.
type Option func(*config) error

type config struct {
	workers  int // 0: one per usable physical core
	pin      bool
	spin     time.Duration
	sink     func(Event)
	joinHook func(seat int)
	joinWait time.Duration
	pinFunc  func(cpu int) error
	// oversubscribe is for tests: start every requested worker, even past
	// the usable cores, so the engine runs with many helpers on any machine.
	oversubscribe bool
}

// WithWorkers asks for n workers, the calling goroutine included: the pool
// starts n-1 helper threads, and Parallelism reports n. More workers than
// usable physical cores are not started (a spinning worker that shares a
// core slows the caller down); the pool runs with the cores it has and
// reports a Downgraded event.
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf("sched: WithWorkers(%d): need at least 1", n)
		}
		c.workers = n
		return nil
	}
}

// WithPinning turns pinning helpers to physical cores on (the default) or
// off. Refused pinning is reported as a Downgraded event.
func WithPinning(on bool) Option {
	return func(c *config) error { c.pin = on; return nil }
}

// WithSpin sets how long idle workers spin before parking (DefaultSpin).
// Zero parks at once: lowest CPU use, and every region pays a wake-up.
func WithSpin(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("sched: WithSpin(%v): negative", d)
		}
		c.spin = d
		return nil
	}
}

// WithTrace attaches a sink that receives the pool's Downgraded events
// (before NewPool returns), a Region event for every region, and a
// Downgraded event (What "region") for every region that asked for several
// tasks but ran inline because the cores were busy or the pool closed. The
// sink is called synchronously from the goroutines that run regions,
// possibly several at once, so it must be quick and safe for concurrent use.
func WithTrace(sink func(Event)) Option {
	return func(c *config) error { c.sink = sink; return nil }
}

// withJoinHook is for tests: f runs in a helper that has seen a region and
// is about to join it.
func withJoinHook(f func(seat int)) Option {
	return func(c *config) error { c.joinHook = f; return nil }
}

// WithOversubscribe is for tests and verification: NewPool starts every
// worker WithWorkers asks for, even past the usable physical cores, and
// reports no Downgraded event for it. Helpers past the cores share them,
// so such a pool is slower, never faster; it exists so that a test on a
// small machine (one core, GOMAXPROCS=1) can still run regions with many
// helpers and real concurrency. Combine it with WithPinning(false): the
// helpers past the cores cannot be pinned, which is reported.
func WithOversubscribe() Option {
	return func(c *config) error { c.oversubscribe = true; return nil }
}

// WithJoinWait is for tests and verification: after posting a parallel
// region to its helpers, the caller waits up to d for a helper to claim a
// chunk before it claims any itself.
// Without it a region of a few microseconds is often over before a helper
// arrives, above all on a loaded machine, so a test would see helpers run
// chunks only by luck. The completion guarantee is unchanged: after d the
// caller goes on alone. It only delays the caller; every region pays for
// it, so never use it for speed.
func WithJoinWait(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("sched: WithJoinWait(%v): negative", d)
		}
		c.joinWait = d
		return nil
	}
}

// withPinFunc is for tests: f replaces the platform's pinning call.
func withPinFunc(f func(cpu int) error) Option {
	return func(c *config) error { c.pinFunc = f; return nil }
}

// ErrHardwareStarted is returned by ConfigureHardware once the shared pool
// is running.
var ErrHardwareStarted = errors.New("sched: the shared Hardware pool is already running")

var hardware struct {
	mu   sync.Mutex
	opts []Option
	pool atomic.Pointer[Pool]
}

// ConfigureHardware sets the options the shared Hardware pool starts with
// (WithWorkers, WithPinning, WithSpin, WithTrace, ...): the pool starts on
// the first call of Hardware, by any package, with the options of the last
// ConfigureHardware before it. Invalid options are an error, and so is a
// call after the pool has started (ErrHardwareStarted, naming the running
// pool): call it first thing in main, before anything that may use the
// pool. A WithTrace sink given here receives the pool's Downgraded events
// when it starts and the events of every region on it; an engine that only
// wants the events of its own ops uses Traced instead.
func ConfigureHardware(opts ...Option) error {
	var cfg config
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return fmt.Errorf("sched: ConfigureHardware: %w", err)
		}
	}
	hardware.mu.Lock()
	defer hardware.mu.Unlock()
	if p := hardware.pool.Load(); p != nil {
		return fmt.Errorf("sched: ConfigureHardware: %w as %s", ErrHardwareStarted, p.Name())
	}
	hardware.opts = append([]Option(nil), opts...)
	return nil
}

// Hardware returns the process's shared pool: by default one worker per
// physical core this process may use (its affinity mask and GOMAXPROCS
// respected, SMT siblings skipped), the calling goroutine being one of
// them, helpers pinned, idle workers spinning DefaultSpin; ConfigureHardware
// changes that before the first call. Where the target has no threads
// (wasm) it runs everything inline, and where pinning is unsupported or
// refused its helpers run unpinned; both are reported by Downgrades, by
// Name, and to a ConfigureHardware WithTrace sink. Close on it returns
// ErrShared.
func Hardware() *Pool {
	if p := hardware.pool.Load(); p != nil {
		return p
	}
	hardware.mu.Lock()
	defer hardware.mu.Unlock()
	if p := hardware.pool.Load(); p != nil {
		return p
	}
	p, err := NewPool(hardware.opts...)
	if err != nil {
		panic(err) // ConfigureHardware checked the options
	}
	p.shared = true
	hardware.pool.Store(p)
	return p
}

// NewPool starts a dedicated pool. By default it has one worker per usable
// physical core, pinned, spinning DefaultSpin when idle. Helpers are pinned
// to the usable cores after the first, which is left to the calling
// goroutines. Options with invalid values are errors; requests the machine
// cannot honour are downgraded and reported (see Downgraded).
func NewPool(opts ...Option) (*Pool, error) {
	cfg := config{pin: true, spin: DefaultSpin, pinFunc: pinThread}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	return newPool(cfg, probeTopology()), nil
}

func newPool(cfg config, topo topology) *Pool {
	p := &Pool{spin: cfg.spin, sink: cfg.sink, joinHook: cfg.joinHook, joinWait: cfg.joinWait, pin: cfg.pinFunc,
		callerCPU: -1, done: make(chan struct{}, 1)}
	var downs []Downgraded
	cores, capped := usableCores(topo)
	procs := runtime.GOMAXPROCS(0)
	requested := cfg.workers
	if requested == 0 {
		requested = topo.cores
	}
	p.par = min(requested, cores)
	if cfg.oversubscribe {
		p.par = requested
	}
	switch {
	case !haveThreads:
		// Reported even when one worker was asked for: the pool cannot
		// have helpers at all, and callers should know why.
		p.par = 1
		downs = append(downs, Downgraded{What: "threads", Requested: requested, Effective: 1,
			Reason: noThreadsReason + ": every region runs inline"})
	case requested > p.par && cfg.workers == 0 && capped:
		downs = append(downs, Downgraded{What: "workers", Requested: requested, Effective: p.par,
			Reason: fmt.Sprintf("GOMAXPROCS=%d is below the %d usable physical cores", procs, topo.cores)})
	case requested > p.par:
		downs = append(downs, Downgraded{What: "workers", Requested: requested, Effective: p.par,
			Reason: fmt.Sprintf("%d physical cores usable (affinity %s, GOMAXPROCS %d)", topo.cores, topo.affinity, procs)})
	}

	helpers := p.par - 1
	mode := "pinned"
	pinning := cfg.pin && helpers > 0
	if pinning && !topo.pinnable {
		downs = append(downs, Downgraded{What: "pinning", Requested: helpers, Effective: 0, Reason: topo.note})
		pinning, mode = false, "unpinned: "+topo.note
	}
	if !cfg.pin {
		mode = "unpinned"
	}

	p.seats = make([]seat, helpers+1)
	ready := make(chan *worker, helpers)
	for i := range helpers {
		w := &worker{seat: i + 1, cpu: -1, wake: make(chan struct{}, 1)}
		if pinning && i+1 < len(topo.cpus) {
			w.cpu = topo.cpus[i+1]
		}
		p.workers = append(p.workers, w)
		p.start(w, ready)
	}
	pinned := 0
	var pinErr error
	for range helpers {
		w := <-ready
		if w.err != nil && pinErr == nil {
			pinErr = w.err
		}
		if w.cpu >= 0 && w.err == nil {
			pinned++
		}
	}
	if pinning && pinned < helpers {
		if pinErr == nil {
			pinErr = fmt.Errorf("%d helpers for %d physical cores", helpers, len(topo.cpus))
		}
		downs = append(downs, Downgraded{What: "pinning", Requested: helpers, Effective: pinned,
			Reason: fmt.Sprintf("pinning failed: %v", pinErr)})
		if pinned == 0 {
			mode = fmt.Sprintf("unpinned: %v", pinErr)
		} else {
			mode = fmt.Sprintf("%d of %d pinned: %v", pinned, helpers, pinErr)
		}
	}
	if pinning && pinned == helpers {
		p.callerCPU = topo.cpus[0]
	}
	switch {
	case !haveThreads:
		p.name = "pool(1,sequential: " + noThreadsReason + ")"
	case helpers == 0:
		p.name = "pool(1)"
	default:
		p.name = fmt.Sprintf("pool(%d,%s)", p.par, mode)
	}
	for i := range downs {
		downs[i].Pool = p.name
		if p.sink != nil {
			p.sink(downs[i])
		}
	}
	p.downgrades = downs
	return p
}

// start runs serve for w on a new goroutine locked to an OS thread other
// than the main one (goLocked).
func (p *Pool) start(w *worker, ready chan<- *worker) {
	p.wg.Add(1)
	goLocked(func() {
		defer p.wg.Done()
		p.serve(w, ready)
	})
}

// goLocked runs body on a new goroutine locked to an OS thread other than
// the main one: the main thread's affinity mask is the process mask the
// topology probe reads, and the runtime never lets the main thread exit, so
// it must never be pinned. The lock is never undone: when the goroutine
// ends, its thread (pinned, perhaps) ends with it instead of returning to
// the runtime with a one-CPU mask.
func goLocked(body func()) {
	go func() {
		runtime.LockOSThread()
		if onMainThread() {
			// While we keep the main thread locked (and blocked), the new
			// goroutine cannot be given it.
			moved := make(chan struct{})
			go func() {
				runtime.LockOSThread()
				close(moved)
				body()
			}()
			<-moved
			runtime.UnlockOSThread()
			return
		}
		body()
	}()
}

// serve is a helper's life on its locked thread: pin it, then run regions
// until Close. A body that calls runtime.Goexit ends the goroutine; a fresh
// one takes the seat.
func (p *Pool) serve(w *worker, ready chan<- *worker) {
	w.tid = threadID()
	if w.cpu >= 0 {
		if err := p.pin(w.cpu); err != nil {
			w.err = err
		}
	}
	if ready != nil {
		ready <- w
	}
	stopped := false
	defer func() {
		if !stopped { // runtime.Goexit in a body
			p.start(w, nil)
		}
	}()
	for {
		r := p.await(w)
		if r == &stopRegion {
			stopped = true
			return
		}
		p.help(r, w.seat)
	}
}

func (p *Pool) help(r *region, seat int) {
	defer p.leave(r)
	n := r.work(seat)
	if r.traced {
		r.workerChunks.Add(int64(n))
	}
}

// leave marks a helper done with r, waking the caller if it sleeps.
func (p *Pool) leave(r *region) {
	if r.pending.Add(-1) == 0 && p.waiting.Load() {
		select {
		case p.done <- struct{}{}:
		default:
		}
	}
}

// await returns the next region posted to w (or &stopRegion): it spins on
// w's slot for the spin window, then parks until post wakes it.
func (p *Pool) await(w *worker) *region {
	for {
		if r := p.spinFor(w); r != nil {
			return r
		}
		w.state.Store(parked)
		// post stores the slot, then loads state; we store state, then load
		// the slot: one of us sees the other, so no wake-up is lost.
		if w.slot.Load() == nil {
			<-w.wake
		}
		w.state.Store(running)
	}
}

func (p *Pool) spinFor(w *worker) *region {
	var deadline time.Time
	for i := 0; ; i++ {
		if r := w.slot.Load(); r != nil {
			if r == &stopRegion {
				return r
			}
			if p.joinHook != nil {
				p.joinHook(w.seat)
			}
			// Join, unless the caller took the region back first.
			if w.slot.CompareAndSwap(r, nil) {
				return r
			}
			continue
		}
		if i&127 == 0 { // read the clock every 128 polls (~0.2 µs)
			now := time.Now()
			if i == 0 {
				deadline = now.Add(p.spin)
			} else if now.After(deadline) {
				return nil
			}
		}
	}
}

func (w *worker) post(r *region) {
	w.slot.Store(r)
	if w.state.Load() == parked {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// Parallelism is the number of workers, the calling goroutine included.
func (p *Pool) Parallelism() int { return p.par }

// Name describes the pool: "pool(2,pinned)", "pool(2,unpinned: <why>)",
// "pool(1)", or "pool(1,sequential: <why>)" where there are no threads.
func (p *Pool) Name() string { return p.name }

// ErrNotPinned is returned by RunPinned on a pool whose helpers are not all
// pinned, or that has none: there is no core left to the caller to pin to.
var ErrNotPinned = errors.New("sched: the pool leaves no core of its own to callers")

// RunPinned runs f on a new goroutine locked to an OS thread pinned to the
// core the pool leaves to its callers (the first usable physical core; the
// helpers are pinned to the others) and returns when f has. A caller that
// runs many short regions in a row, as a decode loop does, is then never
// placed by the OS on a helper's core, where it would share that core with
// the spinning helper while its own sits idle. The thread is not reused:
// it ends with the goroutine. On a pool without that core (see Name) it
// runs nothing and returns an error wrapping ErrNotPinned that says why;
// if the pinning itself fails, the error says so, and f has not run. A nil
// f is an error. A panic in f is re-raised on the caller as a *PanicError.
func (p *Pool) RunPinned(f func()) error {
	if f == nil {
		return errors.New("sched: RunPinned: nil function")
	}
	if p.callerCPU < 0 {
		return fmt.Errorf("%w: %s", ErrNotPinned, p.name)
	}
	var failed *PanicError
	done := make(chan error, 1)
	goLocked(func() {
		if err := p.pin(p.callerCPU); err != nil {
			done <- fmt.Errorf("sched: RunPinned: %w", err)
			return
		}
		ok := false
		defer func() {
			if !ok {
				failed = newPanicError(recover())
			}
			done <- nil
		}()
		f()
		ok = true
	})
	if err := <-done; err != nil {
		return err
	}
	if failed != nil {
		panic(failed)
	}
	return nil
}

// Spin returns how long the pool's idle workers spin before parking
// (WithSpin, DefaultSpin).
func (p *Pool) Spin() time.Duration { return p.spin }

// Downgrades returns the requests this pool could not honour in full when
// it started, the same events WithTrace received then. (The regions that
// ran inline because the cores were busy are reported to the sinks only.)
func (p *Pool) Downgrades() []Downgraded { return append([]Downgraded(nil), p.downgrades...) }

// Close stops and joins the helpers, after the region running on them (if
// any) has finished. Regions entered after Close run inline on their calling
// goroutine. Close is idempotent; it must not be called from a body of the
// pool's own region. On the Hardware pool it returns ErrShared.
func (p *Pool) Close() error {
	if p.shared {
		return ErrShared
	}
	p.close.Do(func() {
		// A region that took the machine before it saw closed is running
		// or about to release it; one that takes it later sees closed.
		p.closed.Store(true)
		for machine.owner.Load() == p {
			time.Sleep(20 * time.Microsecond)
		}
		for _, w := range p.workers {
			w.slot.Store(&stopRegion)
			select {
			case w.wake <- struct{}{}:
			default:
			}
		}
		p.wg.Wait()
	})
	return nil
}

// acquire takes the machine for a parallel region of p. When it fails it
// returns the pool whose region holds it (p itself when p is closed; nil
// when that region has just finished). One compare-and-swap, as a
// per-pool flag would cost: the machine token is also what makes the
// pool's own regions one at a time.
func (p *Pool) acquire() (ok bool, holder *Pool) {
	if p.closed.Load() {
		return false, p
	}
	if machine.owner.Load() != nil || !machine.owner.CompareAndSwap(nil, p) {
		return false, machine.owner.Load()
	}
	// Close stores closed, then loads the owner; we stored the owner,
	// now load closed: one of us sees the other.
	if p.closed.Load() {
		machine.owner.Store(nil)
		return false, p
	}
	return true, nil
}

// release gives back what acquire took.
func (p *Pool) release() { machine.owner.Store(nil) }

// chunksPerTask over-splits a ForEach region (and a ForRange region too
// large for seats) so that a helper that joins late, or a core taken by
// another process, costs at most a quarter of a task's share instead of
// the whole region waiting for it; tailPerTask sets the finer chunks of
// the region's end (see split).
const (
	chunksPerTask = 4
	tailPerTask   = 16
)

// split is how a ForEach region's n indices (or a ForRange region's past
// MaxInt32, which seats cannot hold) are cut into chunks, claimed in order
// by one counter: head chunks of length chunk cover [0, head·chunk), then
// chunks of length tail (the last possibly shorter) cover the rest. The
// tail's chunks are finer so that the task that claims the last one does
// not leave the others waiting long: on two tasks the region ends in
// chunks of 1/32 of it instead of 1/8. A region whose grain allows no
// finer chunks is all tail, of one length. On Zen 5, two threads, the time
// one participant waited for the other at region ends fell from 21 to 7 ms
// a 32-token llama-3.2-1b prefill and from 2.2 to 0.8 ms a decode step;
// the prefill took 0.99 of the time, the decode 1.00: the finer chunks
// cost about what they save there (bench/results/2026-12-05-zen5-prefill/).
// ForRange regions have used seats since (see seat): a two-thread decode
// step took 0.94–0.95 of split's time (bench/results/2026-12-06-zen5-seats/).
type split struct {
	head    int // head chunks
	chunk   int // their length
	tail    int // the length of the rest's chunks
	nchunks int64
}

// splitRange cuts n indices for tasks tasks into chunks of at least grain
// (only the last may be shorter): head chunks of chunk = max(grain,
// ceil(n / (tasks·chunksPerTask))) while at least tasks·chunk indices are
// left after them, then the rest in chunks of tail = max(grain, ceil(n /
// (tasks·tailPerTask))). Every chunk is non-empty.
func splitRange(n, grain, tasks int) split {
	grain = max(grain, 1)
	chunk := max(grain, ChunkFor(n, tasks*chunksPerTask))
	tail := max(grain, ChunkFor(n, tasks*tailPerTask))
	head := 0
	if tail < chunk && n/chunk > tasks {
		head = n/chunk - tasks
	}
	rest := n - head*chunk
	return split{head: head, chunk: chunk, tail: tail, nchunks: int64(head + (rest-1)/tail + 1)}
}

// piece returns chunk k's range of n indices, for 0 <= k < nchunks.
func (s *split) piece(k int64, n int) (lo, hi int) {
	if h := int64(s.head); k < h {
		lo = int(k) * s.chunk
		return lo, lo + s.chunk
	}
	// lo <= n-1 for k < nchunks: no overflow.
	lo = s.head*s.chunk + int(k-int64(s.head))*s.tail
	return lo, lo + min(s.tail, n-lo)
}

// ForRange calls body over disjoint non-empty ranges covering [0, n), each
// at least grain long except possibly the last. A region of one task
// (n <= grain, or Parallelism 1), or one entered while the pool is closed
// or any pool's region holds the cores, calls body(0, n) once on the
// calling goroutine. A panic in body is re-raised as a *PanicError.
func (p *Pool) ForRange(n, grain int, body func(start, end int)) {
	p.forRange(n, grain, body, nil)
}

// ForEach calls body(i) once for every i in [0, count), with at least
// minPerTask indices per task; see ForRange for how it is split.
func (p *Pool) ForEach(count, minPerTask int, body func(i int)) {
	p.forEach(count, minPerTask, body, nil)
}

func (p *Pool) forRange(n, grain int, body func(start, end int), extra func(Event)) {
	if n <= 0 {
		return
	}
	tasks := TasksFor(n, grain, p.par)
	if tasks == 1 {
		p.inline("ForRange", 1, nil, extra, func() int { body(0, n); return 1 })
		return
	}
	if ok, holder := p.acquire(); !ok {
		p.inline("ForRange", tasks, holder, extra, func() int { body(0, n); return 1 })
		return
	}
	r := &p.reg
	r.kind, r.n, r.body = kindRange, n, body
	if rangeSeats && n <= math.MaxInt32 {
		r.seats, r.grain = p.seats[:tasks], max(grain, 1)
		r.deal(n, tasks)
	} else {
		r.split = splitRange(n, grain, tasks)
		r.next.Store(0)
	}
	p.run(r, tasks, extra)
}

func (p *Pool) forEach(count, minPerTask int, body func(i int), extra func(Event)) {
	if count <= 0 {
		return
	}
	all := func() int {
		for i := 0; i < count; i++ {
			body(i)
		}
		return 1
	}
	tasks := TasksFor(count, minPerTask, p.par)
	if tasks == 1 {
		p.inline("ForEach", 1, nil, extra, all)
		return
	}
	if ok, holder := p.acquire(); !ok {
		p.inline("ForEach", tasks, holder, extra, all)
		return
	}
	r := &p.reg
	r.kind, r.n, r.each = kindEach, count, body
	r.split = splitRange(count, minPerTask, tasks)
	r.next.Store(0)
	p.run(r, tasks, extra)
}

// emit sends e to the pool's sink and to extra, when they are set.
func (p *Pool) emit(extra func(Event), e Event) {
	if p.sink != nil {
		p.sink(e)
	}
	if extra != nil {
		extra(e)
	}
}

// inline runs f, which returns the chunks it ran, as a one-task region on
// the calling goroutine. tasks is what the region asked for: above 1 it
// could not have them because holder's region held the cores (or p is
// closed), which is reported as a Downgraded event before f runs. A panic
// in f is re-raised as a *PanicError; a runtime.Goexit goes on unchanged.
func (p *Pool) inline(name string, tasks int, holder *Pool, extra func(Event), f func() int) {
	ok := false
	defer func() {
		if !ok {
			if v := recover(); v != nil { // nil: a Goexit, which goes on
				panic(newPanicError(v))
			}
		}
	}()
	if p.sink == nil && extra == nil {
		f()
		ok = true
		return
	}
	t0 := time.Now()
	if tasks > 1 {
		p.emit(extra, Downgraded{Pool: p.name, What: "region", Requested: tasks, Effective: 1,
			Reason: p.busyReason(name, holder)})
	}
	chunks := f()
	ok = true
	p.emit(extra, Region{Pool: p.name, Name: name, Inline: true, Tasks: 1, Chunks: chunks, CallerChunks: chunks, Wall: time.Since(t0)})
}

// busyReason says why a region of p that wanted several tasks ran inline.
func (p *Pool) busyReason(name string, holder *Pool) string {
	const why = "(a region nested in a body, or a concurrent caller)"
	switch {
	case holder == p && p.closed.Load():
		return name + " ran inline: the pool is closed"
	case holder == p:
		return name + " ran inline: the pool was running another region " + why
	case holder != nil:
		return name + " ran inline: " + holder.name + " was running a region " + why +
			"; pools share the cores, so one region runs in parallel at a time"
	}
	return name + " ran inline: another region held the cores " + why
}

// run executes the prepared region r with tasks participants on the caller
// and tasks-1 helpers. The caller holds the machine; run releases it.
func (p *Pool) run(r *region, tasks int, extra func(Event)) {
	var t0 time.Time
	if r.traced = p.sink != nil || extra != nil; r.traced {
		t0 = time.Now()
		r.extra = extra
		r.workerChunks.Store(0)
	}
	helpers := p.workers[:tasks-1]
	if r.waitClaim = p.joinWait > 0; r.waitClaim {
		r.claimed.Store(false)
	}
	r.stop.Store(false)
	r.pending.Store(int32(len(helpers)))
	for _, w := range helpers {
		w.post(r)
	}
	if r.waitClaim {
		awaitHelper(r, p.joinWait)
	}
	var caller int
	// Deferred so that the region is finished, and the pool released, even
	// when a body on this goroutine calls runtime.Goexit.
	defer p.finish(r, helpers, &caller, t0)
	caller = r.work(0)
}

// awaitHelper waits up to d until a helper has claimed a chunk of r,
// yielding the processor meanwhile.
func awaitHelper(r *region, d time.Duration) {
	deadline := time.Now().Add(d)
	for !r.claimed.Load() && time.Now().Before(deadline) {
		runtime.Gosched()
	}
}

func (p *Pool) finish(r *region, helpers []*worker, caller *int, t0 time.Time) {
	// The queue is empty (or stopped): take back every helper that has not
	// joined, so nothing waits for a thread that has not started (under a
	// loop scheduler the caller claims that helper's pieces here), then
	// join only the chunks already running.
	for _, w := range helpers {
		if w.slot.CompareAndSwap(r, nil) {
			r.pending.Add(-1)
			if r.kind == kindLoop {
				*caller += r.work(w.seat)
			}
		}
	}
	p.join(r)

	failed, failure := r.failed, r.failure
	r.failed, r.failure = false, nil
	traced, extra := r.traced, r.extra
	var ev Region
	if traced {
		workers := int(r.workerChunks.Load())
		ev = Region{Pool: p.name, Name: r.name(), Tasks: len(helpers) + 1,
			Chunks: *caller + workers, CallerChunks: *caller, Wall: time.Since(t0)}
	}
	r.body, r.each, r.ls, r.extra = nil, nil, nil, nil // let the closures go
	r.seats = nil
	// Released before the sinks run: r is not touched after this, and a
	// sink that panics cannot keep the cores from every later region.
	p.release()
	if traced {
		p.emit(extra, ev)
	}
	if failed {
		panic(failure)
	}
}

func (r *region) name() string {
	switch r.kind {
	case kindRange:
		return "ForRange"
	case kindEach:
		return "ForEach"
	}
	return "For(" + schedulerName(r.ls) + ")"
}

// join waits until every helper that joined r has left: spinning for the
// spin window, then sleeping on p.done.
func (p *Pool) join(r *region) {
	if r.pending.Load() == 0 {
		return
	}
	deadline := time.Now().Add(p.spin)
	for i := 1; r.pending.Load() != 0; i++ {
		if i&127 == 0 && time.Now().After(deadline) {
			break
		}
	}
	for r.pending.Load() != 0 {
		p.waiting.Store(true)
		// leave decrements pending, then loads waiting; we store waiting,
		// then load pending: one of us sees the other. A token left over
		// from an earlier region only costs one more turn of this loop.
		if r.pending.Load() == 0 {
			break
		}
		<-p.done
	}
	p.waiting.Store(false)
}
