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
//     variant and ISA (the kernels' fixed float order).
//   - A request that cannot be honoured in full (more parallelism than the
//     schedule has) is honoured as far as possible and reported as a
//     sched.Downgraded event to the trace sink — never silently.
package spi

import (
	"errors"
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
	variant string
	ops     kernels.Ops
	sched   sched.Schedule
	trace   func(Event)
}

// Option configures New.
type Option func(*Backend) error

// WithSchedule sets the default schedule of the backend's contexts
// (sched.Hardware() if not given).
func WithSchedule(s sched.Schedule) Option {
	return func(b *Backend) error {
		if s == nil {
			return errors.New("spi: WithSchedule(nil)")
		}
		b.sched = s
		return nil
	}
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

// WithTrace attaches a sink for the backend's events.
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
	return b, nil
}

// Variant names the kernel variant the backend was pinned to, or "" for
// the registry's choice at New.
func (b *Backend) Variant() string { return b.variant }

// Context returns a context on the backend's default schedule.
func (b *Backend) Context() Context { return Context{b: b, s: b.sched} }

func (b *Backend) emit(e Event) {
	if b.trace != nil {
		b.trace(e)
	}
}
