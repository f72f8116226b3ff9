package spi

import (
	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/quant"
)

// WithExactFloat returns a context whose MatVec, MatMul and MatMulShared
// compute F32 and F16 weights in one scalar order when on is true: each
// output element is Σ_k w[r,k]·x[k] summed over k in order from +0, every
// product and sum rounded to float32 (binary16 weights widened exactly
// first) — the order of a plain C loop, and of Exact attention's scores.
// Its results are then the same bits under every kernel variant and on
// every ISA, as the quantized products' are; by default (on = false) F32
// and F16 weights use the kernels' reassociated SIMD dot, which is faster
// but differs between variants in the last bits. Quantized weights are
// unaffected: they always have one order.
func (c Context) WithExactFloat(on bool) Context {
	c.exact = on
	return c
}

// ExactFloat reports whether c computes F32 and F16 weights in one scalar
// order (WithExactFloat).
func (c Context) ExactFloat() bool { return c.exact }

// exactRows is how many F16 weight rows floatExact widens at a time.
const exactRows = 16

// floatExact computes F32/F16 weight rows [start, end) for every token with
// the kernels' ExactScores (one sequential float32 dot per output, lanes of
// a SIMD variant on different rows): with one activation row (rs = 1) it
// sets st[j] = Σ_d x[d]·w[j·cols + d].
func (p *product) floatExact(start, end int) {
	scores := p.c.b.ops.ExactScores
	rows, cols := p.w.Rows, p.w.Cols
	if p.w.Type == quant.F32 {
		wf, _ := quant.AsF32(p.w.Data)
		w := wf[start*cols : end*cols]
		for t := 0; t < p.n; t++ {
			scores(p.dst[t*rows+start:t*rows+end], p.x[t*cols:(t+1)*cols], 1, w, cols)
		}
		return
	}
	wh, _ := quant.AsF16(p.w.Data)
	buf, b := scratch.Float32s(exactRows * cols)
	defer b.Release()
	widen := p.c.b.ops.WidenF16
	for r0 := start; r0 < end; r0 += exactRows {
		r1 := min(r0+exactRows, end)
		w := buf[:(r1-r0)*cols]
		widen(w, wh[r0*cols:r1*cols])
		for t := 0; t < p.n; t++ {
			scores(p.dst[t*rows+r0:t*rows+r1], p.x[t*cols:(t+1)*cols], 1, w, cols)
		}
	}
}
