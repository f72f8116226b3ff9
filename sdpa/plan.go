package sdpa

import (
	"sync"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// ParallelMinWork is the number of multiply-adds (2·HeadDim per visible
// (query, key) pair) below which an Exact call runs inline on the calling
// goroutine instead of on the schedule.
//
// It is where the hardware pool starts to beat Sequential in
// BenchmarkSDPASmall (decode-like calls, 4 heads, HeadDim 64, the
// threshold disabled) on the 2-core benchmark machine: at 32K
// multiply-adds (~17 µs of Exact work) the two tie, at 64K the pool is
// ahead, at 128K it is 1.8x faster. Below that, handing chunks to a pool
// (a few µs with warm workers; a parked worker needs 100-200 µs to wake,
// while the caller does the work alone) saves less than it costs. See
// bench/results/sdpa.md.
const ParallelMinWork = 1 << 16

// ParallelMinWorkFast is ParallelMinWork for Fast mode, measured the same
// way: the pool loses at 32K multiply-adds (~6 µs of Fast work) and wins
// from 64K (~14 µs).
const ParallelMinWorkFast = 1 << 16

// minWork holds ParallelMinWork and ParallelMinWorkFast; benchmarks lower
// them to measure the parallel path on small calls.
var minWork = [2]int{ParallelMinWork, ParallelMinWorkFast}

// kvElem is the element type of K and V.
type kvElem interface{ float32 | quant.F16 }

// plan is a validated call.
type plan struct {
	sh           Shape
	scale        float32
	causal       bool
	mask         []float32
	maskPerBatch bool
	group        int // Heads / KVHeads
	capacity     int // rows per K/V head in k and v: KVCapacity or SeqKV
	mode         Mode
	// Strides in elements: batch, head and query row in q and out; batch,
	// K/V head and key row in k and v (see Options.Layout and KVLayout).
	qsB, qsH, qsI int
	ksB, ksG, ksJ int
	ops           kernels.Ops // the Runner's kernels

	rows  int // query rows per unit (tile)
	tiles int // tiles per (batch, K/V head)
}

// limit returns the number of keys query row i may see: the keys before
// and at its causal position SeqKV-SeqQ+i, or all of them.
func (p *plan) limit(i int) int {
	if !p.causal {
		return p.sh.SeqKV
	}
	return min(max(p.sh.SeqKV-p.sh.SeqQ+i+1, 0), p.sh.SeqKV)
}

// maskRow returns the mask of query row i of batch b, or nil.
func (p *plan) maskRow(b, i int) []float32 {
	if p.mask == nil {
		return nil
	}
	r := i
	if p.maskPerBatch {
		r += b * p.sh.SeqQ
	}
	n := p.sh.SeqKV
	return p.mask[r*n : r*n+n : r*n+n]
}

// work returns the multiply-adds of the call: 2·HeadDim per visible
// (query, key) pair.
func (p *plan) work() int {
	var keys int
	if p.causal {
		for i := 0; i < p.sh.SeqQ; i++ {
			keys += p.limit(i)
		}
	} else {
		keys = p.sh.SeqQ * p.sh.SeqKV
	}
	// newPlan checked that Batch·Heads·SeqQ·SeqKV·HeadDim·4 fits an int.
	return p.sh.Batch * p.sh.Heads * keys * 2 * p.sh.HeadDim
}

// unit identifies one unit of work: batch b, K/V head h, the tile's rows
// [i0, i1) of the group's flattened rows (see tile.go).
type unit struct{ b, h, i0, i1 int }

func (p *plan) unit(u int) unit {
	t := u % p.tiles
	bg := u / p.tiles
	i0 := t * p.rows
	return unit{b: bg / p.sh.KVHeads, h: bg % p.sh.KVHeads, i0: i0, i1: min(i0+p.rows, p.group*p.sh.SeqQ)}
}

// Offsets of row i of head h in q/out, and of key j of the K/V head that
// query head h reads in k/v.
func (p *plan) qOff(b, h, i int) int {
	return b*p.qsB + h*p.qsH + i*p.qsI
}

func (p *plan) kvOff(b, h, j int) int {
	return b*p.ksB + (h/p.group)*p.ksG + j*p.ksJ
}

// planPool holds plans, so that a call allocates none; release returns
// one.
var planPool = sync.Pool{New: func() any { return new(plan) }}

func (p *plan) release() {
	*p = plan{}
	planPool.Put(p)
}

// runJob is one call's loop body, bound once per pooled value (fn), so
// that handing it to a schedule allocates nothing.
type runJob[T kvElem] struct {
	p      *plan
	out, q []float32
	k, v   []T
	fn     func(start, end int)
}

var (
	runJobsF32 = sync.Pool{New: func() any { j := new(runJob[float32]); j.fn = j.body; return j }}
	runJobsF16 = sync.Pool{New: func() any { j := new(runJob[quant.F16]); j.fn = j.body; return j }}
)

func runJobs[T kvElem]() *sync.Pool {
	var z T
	if _, ok := any(z).(float32); ok {
		return &runJobsF32
	}
	return &runJobsF16
}

func (j *runJob[T]) body(start, end int) {
	p := j.p
	sc := getTileScratch(p)
	defer scratchPool.Put(sc)
	for u := start; u < end; u++ {
		if p.rowWise() {
			rowTile(p, p.unit(u), j.out, j.q, j.k, j.v, sc)
		} else {
			exactTile(p, p.unit(u), j.out, j.q, j.k, j.v, sc)
		}
	}
}

// run computes the call on s.
func run[T kvElem](s sched.Schedule, p *plan, out, q []float32, k, v []T) {
	sh := p.sh
	if len(out) == 0 {
		return
	}
	if s == nil {
		s = sched.Sequential
	}
	p.rows = min(tileRows(sh.SeqKV), p.group*sh.SeqQ)
	p.tiles = (p.group*sh.SeqQ + p.rows - 1) / p.rows
	units := sh.Batch * sh.KVHeads * p.tiles
	if p.work() < minWork[p.mode] {
		s = sched.Sequential
	}
	pool := runJobs[T]()
	j := pool.Get().(*runJob[T])
	j.p, j.out, j.q, j.k, j.v = p, out, q, k, v
	s.ForRange(units, 1, j.fn)
	*j = runJob[T]{fn: j.fn}
	pool.Put(j)
}

// widen returns the float32 values of src: src itself for float32, else
// the exact conversion written to buf (len(buf) ≥ len(src)).
func widen[T kvElem](src []T, buf []float32) []float32 {
	switch s := any(src).(type) {
	case []float32:
		return s
	case []quant.F16:
		d := buf[:len(s)]
		t := f16Table()
		for i, h := range s {
			d[i] = t.At(h)
		}
		return d
	}
	panic("unreachable")
}

// rowsWiden returns the n key rows at src[off + j·ld], j < n, as
// contiguous float32 rows of hd values: a subslice of src when it holds
// float32 rows back to back, else a copy (widened exactly) in buf (len(buf)
// ≥ n·hd).
func rowsWiden[T kvElem](src []T, off, n, hd, ld int, buf []float32) []float32 {
	if ld == hd || n <= 1 {
		return widen(src[off:off+n*hd], buf)
	}
	d := buf[:n*hd]
	for j := range n {
		widenInto(d[j*hd:(j+1)*hd], src[off+j*ld:off+j*ld+hd])
	}
	return d
}

// widenInto writes the float32 values of src to dst (len(dst) == len(src)).
func widenInto[T kvElem](dst []float32, src []T) {
	switch s := any(src).(type) {
	case []float32:
		copy(dst, s)
	case []quant.F16:
		t := f16Table()
		for i, h := range s {
			dst[i] = t.At(h)
		}
	}
}

// f16Table maps every binary16 bit pattern to its float32 value (exact):
// quant's shared 256 KiB table.
var f16Table = quant.F16Table
