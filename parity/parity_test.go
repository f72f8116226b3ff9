package parity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/spi"
)

// kernelUse says how an op's result depends on the kernel variant.
type kernelUse int

const (
	// backendKernels: the op runs the Backend's kernels (spi.WithKernels),
	// so it has cells under every variant.
	backendKernels kernelUse = iota
	// noKernels: the op uses no variant's kernel (the elementwise ops are
	// plain Go), so one variant proves what every other would repeat.
	noKernels
)

// parityOp is one row of the matrix: it runs on a context and returns its
// output.
type parityOp struct {
	name           string
	acrossVariants bool // the bits must also equal the generic variant's
	kernels        kernelUse
	// panels: the shape is there for the SIMD kernels' weight panels
	// and row chunks; the generic kernels have none, so under generic it
	// would only repeat a smaller shape at many times the cost.
	panels bool
	run    func(c spi.Context) ([]float32, error)
	// reference, if set, computes the op's Sequential output another way
	// (say, the package spi delegates to, on the Backend's variant): one
	// cell per variant compares the two. It depends on no schedule, so it
	// is not repeated per column: the schedule cells carry it to them.
	reference func(c spi.Context) ([]float32, error)
}

// firstDiff returns the first index where a and b differ in bits, or -1.
func firstDiff(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

func diffErr(got, want []float32, what string) error {
	i := firstDiff(got, want)
	if i < 0 {
		return nil
	}
	if len(got) != len(want) {
		return fmt.Errorf("%s: %d values, want %d", what, len(got), len(want))
	}
	n := 0
	for j := range got {
		if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
			n++
		}
	}
	return fmt.Errorf("%s: out[%d] = %v (%#08x), want %v (%#08x); %d of %d values differ",
		what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]), n, len(got))
}

// A pool cell is re-run until a helper has executed a chunk in it, at most
// maxAttempts times and for about attemptBudget.
const (
	maxAttempts   = 200
	attemptBudget = 2 * time.Second
)

// minChunks is the fewest chunks the widest region of a pool cell must
// have: with two, a combine in completion order could not change a sum.
const minChunks = 3

// cell is the outcome of one (variant, op, schedule).
type cell struct {
	err      error // the op failed, or its bits differ from Sequential's
	attempts int
	helped   bool  // a helper executed a chunk (pool columns)
	widest   int64 // most chunks in one region, over all attempts
}

// runCell runs op on col and compares every run with want (the output
// under Sequential). A permutation column runs once; a pool column runs
// until its trace shows a helper executing a chunk.
func runCell(op parityOp, ctx spi.Context, col column, want []float32) cell {
	var c cell
	t0 := time.Now()
	for {
		c.attempts++
		if col.probe != nil {
			col.probe.reset()
		}
		got, err := op.run(ctx.WithSchedule(col.s))
		if err != nil {
			c.err = err
			return c
		}
		if err := diffErr(got, want, fmt.Sprintf("run %d", c.attempts)); err != nil {
			c.err = err
			return c
		}
		if col.probe == nil {
			return c
		}
		c.widest = max(c.widest, col.probe.widest.Load())
		if col.probe.helper.Load() > 0 {
			c.helped = true
			return c
		}
		if c.attempts >= maxAttempts || time.Since(t0) > attemptBudget {
			return c
		}
	}
}

// verdict turns a cell into a test result, and reports whether it counts:
// false for a failure, and for a cell of a pool without a join wait in
// which no helper ever executed a chunk (it proves nothing, but the pool
// is not at fault).
func (c cell) verdict(t *testing.T, col column) (counts bool) {
	t.Helper()
	switch {
	case c.err != nil:
		t.Errorf("differs from sequential: %v", c.err)
	case col.probe != nil && c.widest < minChunks:
		t.Errorf("the widest region had %d chunks, want at least %d: enlarge the op's shape", c.widest, minChunks)
	case col.probe != nil && !c.helped && col.mustHelp:
		t.Errorf("no helper executed a chunk in %d runs, despite the join wait: the cell proves nothing", c.attempts)
	case col.probe != nil && !c.helped:
		t.Logf("no helper executed a chunk in %d runs: not counted", c.attempts)
		return false
	default:
		return true
	}
	return false
}

// tally counts what the matrix proved.
type tally struct {
	mu                        sync.Mutex
	pool, perm, cross         int
	fail, uncounted           int
	poolRuns                  int // runs of the pool cells, the proving one included
	ops                       map[string]bool
	columnCounted, columnRuns map[string]int
}

// add records one cell: counted, failed (t failed), or neither.
func (ty *tally) add(t *testing.T, op, col string, kind *int, counts bool, runs int) {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	if ty.ops == nil {
		ty.ops, ty.columnCounted, ty.columnRuns = map[string]bool{}, map[string]int{}, map[string]int{}
	}
	ty.ops[op] = true
	if kind == &ty.pool {
		ty.poolRuns += runs
	}
	ty.columnRuns[col]++
	switch {
	case t.Failed():
		ty.fail++
	case counts:
		*kind++
		ty.columnCounted[col]++
	default:
		ty.uncounted++
	}
}

// orderedVariants returns the variants this CPU runs, generic first.
func orderedVariants() []string {
	vs := []string{"generic"}
	for _, v := range kernels.Variants() {
		if v != "generic" {
			vs = append(vs, v)
		}
	}
	return vs
}

// genericRefs computes, once per op, the generic variant's output under
// Sequential, for the cross-variant cells.
type genericRefs struct {
	mu   sync.Mutex
	ctx  spi.Context
	outs map[string][]float32
}

func (g *genericRefs) get(op parityOp) ([]float32, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if out, ok := g.outs[op.name]; ok {
		return out, nil
	}
	out, err := op.run(g.ctx)
	if err != nil {
		return nil, err
	}
	g.outs[op.name] = out
	return out, nil
}

// allOps is every row of the matrix.
func allOps(t *testing.T) []parityOp {
	r := rand.New(rand.NewPCG(42, 7))
	return append(ops(t, r), attentionOps(r)...)
}

// onOneGoroutine reports whether a cell of col runs on one goroutine only
// (the permutation columns; the reference and cross-variant cells run
// under Sequential). Under the race detector such cells are left out:
// the detector has nothing to check there, and the run without -race,
// which make test also does, proves them.
func onOneGoroutine(col *column) bool { return col == nil || col.probe == nil }

// TestParity is the matrix: kernel variants × ops × schedules.
func TestParity(t *testing.T) {
	concurrency(t)
	cols := columns(t)
	opList := allOps(t)
	variants := orderedVariants()
	gb, err := spi.New(spi.WithKernels("generic"), spi.WithSchedule(sched.Sequential))
	if err != nil {
		t.Fatal(err)
	}
	refs := &genericRefs{ctx: gb.Context(), outs: map[string][]float32{}}
	var ty tally
	for _, variant := range variants {
		b, err := spi.New(spi.WithKernels(variant), spi.WithSchedule(sched.Sequential))
		if err != nil {
			t.Fatal(err)
		}
		t.Run("variant="+variant, func(t *testing.T) {
			for _, op := range opList {
				switch {
				case op.kernels == noKernels && variant != variants[0]:
					continue
				case op.panels && variant == "generic":
					continue
				}
				t.Run("op="+op.name, func(t *testing.T) {
					base := b.Context()
					if _, err := op.run(base); err != nil { // warm-up: scratch, tables
						t.Fatal(err)
					}
					want, err := op.run(base)
					if err != nil {
						t.Fatal(err)
					}
					for _, col := range cols {
						if raceEnabled && onOneGoroutine(&col) {
							continue
						}
						t.Run("sched="+col.name, func(t *testing.T) {
							c := runCell(op, base, col, want)
							counts := c.verdict(t, col)
							kind := &ty.pool
							if col.probe == nil {
								kind = &ty.perm
							}
							ty.add(t, op.name, col.name, kind, counts, c.attempts)
						})
					}
					if raceEnabled {
						return // the rest runs under Sequential
					}
					if op.reference != nil {
						t.Run("sched=sequential-vs-reference", func(t *testing.T) {
							ref, err := op.reference(base)
							if err == nil {
								err = diffErr(want, ref, "against the reference")
							}
							if err != nil {
								t.Error(err)
							}
							ty.add(t, op.name, "vs-reference", &ty.cross, true, 1)
						})
					}
					if op.acrossVariants && variant != "generic" {
						t.Run("sched=sequential-vs-generic", func(t *testing.T) {
							g, err := refs.get(op)
							if err == nil {
								err = diffErr(want, g, "against generic")
							}
							if err != nil {
								t.Error(err)
							}
							ty.add(t, op.name, "vs-generic", &ty.cross, true, 1)
						})
					}
				})
			}
		})
	}
	var colNames []string
	for _, c := range cols {
		if raceEnabled && onOneGoroutine(&c) {
			continue
		}
		colNames = append(colNames, c.name)
		// A column that counted nothing proved nothing: for a pool
		// without a join wait that means its helpers never ran a chunk.
		if n := ty.columnRuns[c.name]; n > 0 && ty.columnCounted[c.name] == 0 {
			t.Errorf("column %s: none of its %d cells counted", c.name, n)
		}
	}
	total := ty.pool + ty.perm + ty.cross
	t.Logf("parity: %d cells proven (%d failed, %d not counted: no helper ran a chunk on the hardware pool): "+
		"%d pool cells in which a helper executed a chunk (%d runs), %d permutation cells, %d cross-variant and reference cells; "+
		"%d ops, %d columns [%s], variants %v (ops without kernels under %s only)",
		total, ty.fail, ty.uncounted, ty.pool, ty.poolRuns, ty.perm, ty.cross,
		len(ty.ops), len(colNames), strings.Join(colNames, " "), variants, variants[0])
}
