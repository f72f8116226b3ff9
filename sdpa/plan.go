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

// Tiling. None of these depends on the schedule or the worker count, and in
// Exact mode none of them changes the result; in Fast mode fastBlock and
// fastChunk fix the reduction order (see the package documentation).
const (
	// exactRows is the number of query rows in an Exact unit of work.
	exactRows = 8
	// exactKeyBlock is the number of keys whose K (or V) rows one Exact
	// tile reads before moving on: 64 keys of HeadDim 64 are 16 KiB, which
	// stays in L1 while every row of the tile uses them.
	exactKeyBlock = 64
	// fastRows is the number of query rows in a Fast unit of work.
	fastRows = 64
	// fastBlock is the key-block size of Fast's online softmax.
	fastBlock = 512
	// fastLd is the row stride of a transposed K or V block: one cache
	// line more than fastBlock, so that writing a column of the block
	// touches HeadDim different cache sets instead of a few.
	fastLd = fastBlock + 16
	// transposeStrip is how many values of d transposeWiden writes per
	// pass: 16 rows of a transposed block stay in L1 while it is written.
	transposeStrip = 16
	// fastChunk is the number of keys in one Fast decode chunk, a multiple
	// of fastBlock.
	fastChunk = 512
	// fastTransposeMinSeqQ: Fast transposes each K/V block (and computes
	// a block's scores and weighted sum with calls that span the block)
	// when SeqQ is at least this, so that the transpose is shared by the
	// rows of a tile.
	fastTransposeMinSeqQ = 4
	// fastSplitMaxSeqQ: Fast splits the keys into chunks of fastChunk when
	// SeqQ is at most this and SeqKV is more than one chunk.
	fastSplitMaxSeqQ = 8
)

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
	transposed    bool        // Fast only: K/V blocks transposed (see fastScores)

	rows     int // query rows per unit
	tiles    int // row tiles per (batch, head)
	chunks   int // key chunks per tile (Fast decode), else 1
	chunkLen int // keys per chunk
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

// unit identifies one unit of work: batch b, head h, query rows [i0, i1),
// key chunk c.
type unit struct{ b, h, i0, i1, c int }

func (p *plan) unit(u int) unit {
	c := u % p.chunks
	u /= p.chunks
	t := u % p.tiles
	bh := u / p.tiles
	i0 := t * p.rows
	return unit{b: bh / p.sh.Heads, h: bh % p.sh.Heads, i0: i0, i1: min(i0+p.rows, p.sh.SeqQ), c: c}
}

// Offsets of row i of head h in q/out, and of key j of the K/V head that
// query head h reads in k/v.
func (p *plan) qOff(b, h, i int) int {
	return b*p.qsB + h*p.qsH + i*p.qsI
}

func (p *plan) kvOff(b, h, j int) int {
	return b*p.ksB + (h/p.group)*p.ksG + j*p.ksJ
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
	p.rows, p.chunks, p.chunkLen = exactRows, 1, sh.SeqKV
	if p.mode == Fast {
		p.rows = fastRows
		p.transposed = sh.SeqQ >= fastTransposeMinSeqQ
		if sh.SeqQ <= fastSplitMaxSeqQ && sh.SeqKV > fastChunk {
			p.chunkLen = fastChunk
			p.chunks = (sh.SeqKV + fastChunk - 1) / fastChunk
		}
	}
	p.tiles = (sh.SeqQ + p.rows - 1) / p.rows
	units := sh.Batch * sh.Heads * p.tiles * p.chunks
	forRange := s.ForRange
	if p.work() < minWork[p.mode] {
		forRange = sched.Sequential.ForRange
	}
	switch {
	case p.mode == Exact:
		forRange(units, 1, func(start, end int) {
			buf := getScratch(p.rows*sh.SeqKV + exactKeyBlock*sh.HeadDim)
			defer putScratch(buf)
			for u := start; u < end; u++ {
				exactTile(p, p.unit(u), out, q, k, v, *buf)
			}
		})
	case p.chunks == 1:
		forRange(units, 1, func(start, end int) {
			buf := getScratch(fastScratch(p))
			defer putScratch(buf)
			for u := start; u < end; u++ {
				fastTile(p, p.unit(u), out, q, k, v, *buf, nil)
			}
		})
	default:
		// Decode: every (row, chunk) unit leaves its partial softmax state
		// in part; then each row combines its chunks in chunk order. The
		// combine is ~1/(2·fastChunk) of the work, so it runs inline.
		part := newPartials(sh.Batch*sh.Heads*sh.SeqQ, p.chunks, sh.HeadDim)
		forRange(units, 1, func(start, end int) {
			buf := getScratch(fastScratch(p))
			defer putScratch(buf)
			for u := start; u < end; u++ {
				fastTile(p, p.unit(u), out, q, k, v, *buf, part)
			}
		})
		for b := range sh.Batch {
			for h := range sh.Heads {
				for i := range sh.SeqQ {
					r := (b*sh.Heads+h)*sh.SeqQ + i
					o := p.qOff(b, h, i)
					combine(p, part, r, out[o:o+sh.HeadDim])
				}
			}
		}
	}
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
			d[i] = t[h]
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
			dst[i] = t[h]
		}
	}
}

// f16Table maps every binary16 bit pattern to its float32 value (exact):
// quant's shared 256 KiB table.
var f16Table = quant.F16Table

// Scratch buffers, reused across calls and tasks.
var scratch sync.Pool

func getScratch(n int) *[]float32 {
	if b, ok := scratch.Get().(*[]float32); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]float32, n)
	return &b
}

func putScratch(b *[]float32) { scratch.Put(b) }
