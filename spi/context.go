package spi

import (
	"fmt"
	"sort"
	"strings"

	"github.com/corelane/corelane/sched"
)

// Context carries the schedule (and hints) the ops run on. It is a small
// value: derive a new one per request, per layer, or per op as needed.
type Context struct {
	b     *Backend
	s     sched.Schedule    // what the ops run on: shown, through sched.Traced when the backend has a sink
	shown sched.Schedule    // what Schedule returns
	hints map[string]string // op -> dimension to split

	exact  bool // F32/F16 weight products in one scalar order (WithExactFloat)
	f16act bool // F16 weights multiply binary16-rounded activations (WithF16Activations)
}

// Backend returns the context's backend.
func (c Context) Backend() *Backend { return c.b }

// Schedule returns the schedule the context's ops run on.
func (c Context) Schedule() sched.Schedule { return c.shown }

// WithSchedule returns a context whose ops run on s. It changes how many
// tasks an op uses and nothing else: results are bit-identical. A nil s
// panics, as the WithSchedule Option does: it is a programming error
// (sched.Sequential is the one-thread schedule).
func (c Context) WithSchedule(s sched.Schedule) Context {
	if s == nil {
		panic(errNilSchedule("Context.WithSchedule"))
	}
	return c.on(s)
}

// on returns c running on s, traced when the backend has a sink.
func (c Context) on(s sched.Schedule) Context {
	c.s, c.shown = s, s
	if c.b != nil && c.b.schedTrace != nil {
		c.s = sched.Traced(s, c.b.schedTrace)
	}
	return c
}

// WithParallelism returns a context whose ops use at most n tasks. Asking
// for more than the schedule has is honoured as far as possible and
// reported as a sched.Downgraded event; n < 1 is an error.
func (c Context) WithParallelism(n int) (Context, error) {
	if n < 1 {
		return c, fmt.Errorf("spi: WithParallelism(%d): %w: want at least 1", n, ErrShape)
	}
	have := c.s.Parallelism()
	if n > have {
		c.b.emit(sched.Downgraded{Pool: c.s.Name(), What: "parallelism", Requested: n, Effective: have,
			Reason: fmt.Sprintf("schedule %s runs at most %d tasks", c.s.Name(), have)})
		return c, nil
	}
	if n == have {
		return c, nil
	}
	if n == 1 {
		return c.on(sched.Sequential), nil
	}
	c.s, c.shown = capped{c.s, n}, capped{c.shown, n}
	return c, nil
}

// capped limits a schedule to n tasks by raising the grain.
type capped struct {
	s sched.Schedule
	n int
}

func (c capped) Parallelism() int { return c.n }
func (c capped) Name() string     { return fmt.Sprintf("%s(max %d)", c.s.Name(), c.n) }
func (c capped) ForRange(n, grain int, body func(start, end int)) {
	if g := sched.ChunkFor(n, c.n); g > grain {
		grain = g
	}
	c.s.ForRange(n, grain, body)
}
func (c capped) ForEach(count, minPerTask int, body func(i int)) {
	if g := sched.ChunkFor(count, c.n); g > minPerTask {
		minPerTask = g
	}
	c.s.ForEach(count, minPerTask, body)
}

// parallelDims lists, per op, the dimensions whose indices are independent:
// the ones a schedule may split. The first is the default.
var parallelDims = map[string][]string{
	"MatVec":    {"rows"},
	"MatMul":    {"rows", "cols"},
	"Attention": {"batch", "heads"},
	"RMSNorm":   {"rows"},
	"RoPE":      {"tokens"},
	"RoPEWith":  {"tokens"},
	"Softmax":   {"rows"},
	"SiLU":      {"elements"},
	"SwiGLU":    {"elements"},
	"Add":       {"elements"},
	"Mul":       {"elements"},
	"Scale":     {"elements"},
	"GetRows":   {"rows"},
}

// Ops lists every op of a Context, sorted.
func Ops() []string {
	names := make([]string, 0, len(parallelDims))
	for n := range parallelDims {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ParallelDims returns the independent dimensions of op, the first being
// the one split by default.
func ParallelDims(op string) ([]string, error) {
	d, ok := parallelDims[op]
	if !ok {
		return nil, fmt.Errorf("spi: ParallelDims: unknown op %q (ops: %s)", op, strings.Join(Ops(), ", "))
	}
	return append([]string(nil), d...), nil
}

// ScheduleHint asks that an op split a given dimension.
type ScheduleHint struct {
	Op  string
	Dim string
}

// WithHint returns a context whose op h.Op splits dimension h.Dim. A hint
// naming an unknown op, or a dimension the op does not declare, is
// rejected with a diagnostic listing what it declares. Ops with a single
// parallel dimension accept only that one; Attention always splits batch
// and heads together, so either is accepted and changes nothing.
func (c Context) WithHint(h ScheduleHint) (Context, error) {
	dims, err := ParallelDims(h.Op)
	if err != nil {
		return c, fmt.Errorf("spi: ScheduleHint: %w", err)
	}
	ok := false
	for _, d := range dims {
		ok = ok || d == h.Dim
	}
	if !ok {
		return c, fmt.Errorf("spi: ScheduleHint: op %s has no parallel dimension %q (it declares: %s)", h.Op, h.Dim, strings.Join(dims, ", "))
	}
	m := make(map[string]string, len(c.hints)+1)
	for k, v := range c.hints {
		m[k] = v
	}
	m[h.Op] = h.Dim
	c.hints = m
	return c, nil
}

func (c Context) dim(op string) string {
	if d, ok := c.hints[op]; ok {
		return d
	}
	return parallelDims[op][0]
}

func (c Context) traceOp(op string) {
	if c.b.trace != nil {
		c.b.emit(OpEvent{Op: op, Schedule: c.s.Name(), Tasks: c.s.Parallelism()})
	}
}
