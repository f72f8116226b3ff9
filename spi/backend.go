// Package spi is the one surface an inference engine links: a Backend that
// owns a kernel choice and a schedule, and a Context whose ops take plain
// slices with explicit, row-major shapes.
//
// Promises:
//   - Every op validates every dimension before touching memory; bad input
//     is an error naming the op and the mismatch (errors.Is(err, ErrShape)).
//   - ctx.WithSchedule(s) changes how many tasks an op uses and nothing
//     else: for a given kernel variant, every op returns the same bits under
//     every schedule (package parity proves it), except Attention in
//     sdpa.Fast mode, which is tolerance-tested against Exact but is itself
//     bit-identical across schedules.
//   - Quantized MatVec/MatMul return the same bits under every kernel
//     variant and ISA (the kernels' fixed float order); F32 and F16 weights
//     do too on a context WithExactFloat(true).
//   - A request that cannot be honoured in full is honoured as far as
//     possible and reported as a sched.Downgraded event to the trace sink —
//     never silently: the default schedule's own downgrades (a pool started
//     with fewer workers than cores, unpinned, ...), every region of an op
//     that wanted several tasks but ran inline because the cores were busy
//     (a concurrent caller, an op called from inside another region), and
//     WithParallelism asking for more than the schedule has.
package spi

import (
	"fmt"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// ErrShape is wrapped by every argument error of the ops, whichever layer
// found it: it is quant.ErrShape, which kernels.ErrShape and sdpa.ErrShape
// also are.
var ErrShape = quant.ErrShape

func shapeErr(op, format string, args ...any) error {
	return fmt.Errorf("spi: %s: %w: %s", op, ErrShape, fmt.Sprintf(format, args...))
}

// Backend holds what every op of its contexts shares: the kernels, the
// default schedule and the trace sink. It is safe
// for concurrent use.
type Backend struct {
	variant    string
	ops        kernels.Ops
	sched      sched.Schedule
	trace      func(Event)
	schedTrace func(sched.Event) // the Downgraded events of the ops' regions, to trace
}

// Option configures New.
type Option func(*Backend) error

// WithSchedule sets the default schedule of the backend's contexts
// (sched.Hardware() if not given). A nil s panics, here as in
// Context.WithSchedule: it is a programming error, not an input (as for a
// nil parent in package context); sched.Sequential is the one-thread
// schedule.
func WithSchedule(s sched.Schedule) Option {
	if s == nil {
		panic(errNilSchedule("WithSchedule"))
	}
	return func(b *Backend) error {
		b.sched = s
		return nil
	}
}

func errNilSchedule(where string) string {
	return "spi: " + where + "(nil): a nil schedule (sched.Sequential runs an op on the calling goroutine alone)"
}

// WithKernels pins the backend to a kernel variant ("generic", "avx2",
// "avx512vnni", ...) without changing the process-wide registry. An unknown
// or unsupported name is an error listing what this CPU supports.
func WithKernels(variant string) Option {
	return func(b *Backend) error {
		ops, err := kernels.Lookup(variant)
		if err != nil {
			return fmt.Errorf("spi: WithKernels: %w", err)
		}
		b.variant, b.ops = variant, ops
		return nil
	}
}

// Event is what a WithTrace sink receives: a sched.Downgraded when a
// request is honoured only in part, or an OpEvent for every op call.
type Event interface{ String() string }

// WithTrace attaches a sink for the backend's events: an OpEvent for every
// op call, and a sched.Downgraded for every request honoured only in part.
// New replays the default schedule's start-up downgrades to it (for
// sched.Hardware(), those of the shared pool: fewer workers than cores
// under a low GOMAXPROCS, pinning refused, ...); a region of an op that
// asked for several tasks but ran inline because the cores were busy (a
// concurrent caller on the same pool, an op called from inside a body of
// another region) is reported when it happens (through sched.Traced, so
// only the backend's own regions); and so is WithParallelism asking for
// more than the schedule has. The sink is called synchronously from the
// goroutines that run ops, possibly several at once.
func WithTrace(sink func(Event)) Option {
	return func(b *Backend) error {
		b.trace = sink
		return nil
	}
}

// OpEvent reports one op call to a WithTrace sink.
type OpEvent struct {
	Op       string
	Schedule string
	Tasks    int // the schedule's parallelism the op could use
}

func (e OpEvent) String() string {
	return fmt.Sprintf("op %s on %s (%d tasks)", e.Op, e.Schedule, e.Tasks)
}

// New returns a backend. By default it uses the kernels the registry picked
// for this CPU and sched.Hardware(). Without WithKernels, a bad
// CORELANE_KERNELS setting (an unknown variant, or one this CPU cannot run)
// is New's error, as it is the process's start-up error (kernels.InitErr):
// the backend never runs another variant than the one asked for.
func New(opts ...Option) (*Backend, error) {
	b := &Backend{}
	for _, o := range opts {
		if err := o(b); err != nil {
			return nil, err
		}
	}
	if b.variant == "" {
		if err := kernels.InitErr(); err != nil {
			return nil, fmt.Errorf("spi: New: %w", err)
		}
		ops, err := kernels.Lookup("")
		if err != nil {
			return nil, err
		}
		b.ops = ops
	}
	if b.sched == nil {
		b.sched = sched.Hardware()
	}
	if b.trace != nil {
		b.schedTrace = func(e sched.Event) {
			if d, ok := e.(sched.Downgraded); ok {
				b.trace(d)
			}
		}
		if p, ok := b.sched.(interface{ Downgrades() []sched.Downgraded }); ok {
			for _, d := range p.Downgrades() {
				b.trace(d)
			}
		}
	}
	return b, nil
}

// Variant names the kernel variant the backend was pinned to, or "" for
// the registry's choice at New.
func (b *Backend) Variant() string { return b.variant }

// Context returns a context on the backend's default schedule.
func (b *Backend) Context() Context { return Context{b: b}.on(b.sched) }

func (b *Backend) emit(e Event) {
	if b.trace != nil {
		b.trace(e)
	}
}
