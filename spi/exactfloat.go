package spi

import (
	"github.com/corelane/corelane/quant"
)

// WithExactFloat returns a context whose MatVec, MatMul and MatMulShared
// compute F32 and F16 weights in one fixed order when on is true: each
// output element is Σ_k w[r,k]·x[k] with every product (exact in float64)
// added in k order to a float64 sum from +0, rounded once to float32 at the
// end (binary16 weights widened exactly first). The result is then the same
// bits under every kernel variant and schedule and on every ISA — the
// products are exact, so no fused multiply-add can change them — and more
// accurate than any float32 order. By default (on = false) F32 and F16
// weights use the kernels' reassociated SIMD dot, whose bits differ
// between variants. Quantized weights are unaffected: they always have one
// order. The exact products are portable Go (four rows at a time, each in
// its own order), about as fast as the SIMD dot when decoding, where
// reading the weights bounds both, and slower for long prompts.
func (c Context) WithExactFloat(on bool) Context {
	c.exact = on
	return c
}

// ExactFloat reports whether c computes F32 and F16 weights in one fixed
// order (WithExactFloat).
func (c Context) ExactFloat() bool { return c.exact }

// floatExact computes F32/F16 weight rows [start, end) for every token in
// the order WithExactFloat documents.
func (p *product) floatExact(start, end int) {
	rows, cols := p.w.Rows, p.w.Cols
	if p.w.Type == quant.F32 {
		wf, _ := quant.AsF32(p.w.Data)
		for t := 0; t < p.n; t++ {
			exactRowsF32(p.dst[t*rows+start:t*rows+end], wf[start*cols:end*cols], p.x[t*cols:(t+1)*cols])
		}
		return
	}
	wh, _ := quant.AsF16(p.w.Data)
	for t := 0; t < p.n; t++ {
		exactRowsF16(p.dst[t*rows+start:t*rows+end], wh[start*cols:end*cols], p.x[t*cols:(t+1)*cols])
	}
}

// exactRowsF32 sets dst[r] = Σ_k w[r·n+k]·x[k] (n = len(x)), each a float64
// sum in k order; four rows run interleaved, each its own chain. The
// products are exact in float64, so a fused multiply-add would give the
// same sums; the explicit conversions keep the compiler from fusing anyway
// (scripts/fmacheck).
func exactRowsF32(dst, w, x []float32) {
	n := len(x)
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		w0, w1, w2, w3 := w[r*n:][:n], w[(r+1)*n:][:n], w[(r+2)*n:][:n], w[(r+3)*n:][:n]
		var s0, s1, s2, s3 float64
		for k, v := range x {
			xv := float64(v)
			s0 += float64(float64(w0[k]) * xv)
			s1 += float64(float64(w1[k]) * xv)
			s2 += float64(float64(w2[k]) * xv)
			s3 += float64(float64(w3[k]) * xv)
		}
		dst[r], dst[r+1], dst[r+2], dst[r+3] = float32(s0), float32(s1), float32(s2), float32(s3)
	}
	for ; r < len(dst); r++ {
		wr := w[r*n:][:n]
		var s float64
		for k, v := range x {
			s += float64(float64(wr[k]) * float64(v))
		}
		dst[r] = float32(s)
	}
}

// exactRowsF16 is exactRowsF32 for binary16 weights.
func exactRowsF16(dst []float32, w []quant.F16, x []float32) {
	t := quant.F16Table()
	n := len(x)
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		w0, w1, w2, w3 := w[r*n:][:n], w[(r+1)*n:][:n], w[(r+2)*n:][:n], w[(r+3)*n:][:n]
		var s0, s1, s2, s3 float64
		for k, v := range x {
			xv := float64(v)
			s0 += float64(float64(t.At(w0[k])) * xv)
			s1 += float64(float64(t.At(w1[k])) * xv)
			s2 += float64(float64(t.At(w2[k])) * xv)
			s3 += float64(float64(t.At(w3[k])) * xv)
		}
		dst[r], dst[r+1], dst[r+2], dst[r+3] = float32(s0), float32(s1), float32(s2), float32(s3)
	}
	for ; r < len(dst); r++ {
		wr := w[r*n:][:n]
		var s float64
		for k, v := range x {
			s += float64(float64(t.At(wr[k])) * float64(v))
		}
		dst[r] = float32(s)
	}
}
