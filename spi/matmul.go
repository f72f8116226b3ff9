package spi

import (
	"fmt"
	"sync"

	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
)

// Matrix is a weight matrix of Rows output features by Cols input
// features, row-major, in one of the GGUF types F32, F16, Q8_0, Q4_K, Q5_K,
// Q6_K, Q4_0, Q4_1, Q5_0 or Q5_1. Data is the tensor's bytes as stored in a
// GGUF file (Rows rows of quant.RowSize(Type, Cols) bytes); it is viewed in
// place, never copied.
type Matrix struct {
	Type       quant.Type
	Rows, Cols int
	Data       []byte
}

// rowBytes validates m and returns the bytes of one row.
func (m Matrix) rowBytes(op string) (int, error) {
	switch m.Type {
	case quant.F32, quant.FP16, quant.Q8_0, quant.Q4K, quant.Q5K, quant.Q6K,
		quant.Q4_0, quant.Q4_1, quant.Q5_0, quant.Q5_1:
	default:
		return 0, fmt.Errorf("spi: %s: %w: weight type %v (want f32, f16, q8_0, q4_K, q5_K, q6_K, q4_0, q4_1, q5_0 or q5_1)", op, quant.ErrUnknownType, m.Type)
	}
	if m.Rows <= 0 || m.Cols <= 0 {
		return 0, shapeErr(op, "weight matrix is %d×%d, want positive dimensions", m.Rows, m.Cols)
	}
	if bs := m.Type.BlockSize(); m.Cols%bs != 0 {
		return 0, shapeErr(op, "weight columns: Cols = %d is not a multiple of the %v block size %d", m.Cols, m.Type, bs)
	}
	rb, _ := quant.RowSize(m.Type, m.Cols)
	if len(m.Data) != m.Rows*rb {
		return 0, shapeErr(op, "weight data is %d bytes, want %d for %d×%d %v", len(m.Data), m.Rows*rb, m.Rows, m.Cols, m.Type)
	}
	return rb, nil
}

// MatVec sets dst[r] = Σ_k w[r,k]·x[k] for the w.Rows rows of w.
// len(dst) must be w.Rows and len(x) w.Cols. Quantized weights multiply x
// quantized to quant.ActivationType(w.Type) (as ggml does); every output is
// computed by one kernel call over a whole row, so the split over rows never
// changes a bit.
func (c Context) MatVec(dst []float32, w Matrix, x []float32) error {
	return c.matMul("MatVec", dst, w, x, 1)
}

// MatMul sets dst[t·w.Rows + r] = Σ_k w[r,k]·x[t·w.Cols + k] for n
// activation rows (tokens) t: x is [n, w.Cols] and dst [n, w.Rows],
// row-major. Each element has exactly the bits MatVec gives for that token.
// The work is split over weight rows (default) or over tokens (hint "cols").
func (c Context) MatMul(dst []float32, w Matrix, x []float32, n int) error {
	return c.matMul("MatMul", dst, w, x, n)
}

// MatMulShared is MatMul for several matrices that read the same input —
// the Q, K and V projections of one normed input, or the gate and up
// projections of the FFN: dst[i] = x·ws[i]ᵀ, each [n, ws[i].Rows]. x is
// quantized once for every activation type the matrices read (Q8_K for
// the K-quants, Q8_0 for Q8_0/Q4_0/Q5_0, Q8_1 for Q4_1/Q5_1), not once per
// matrix. Every matrix must have the same Cols; each dst[i] gets exactly
// the bits MatMul would give it.
func (c Context) MatMulShared(dst [][]float32, ws []Matrix, x []float32, n int) error {
	const op = "MatMulShared"
	if len(dst) != len(ws) {
		return shapeErr(op, "%d outputs for %d matrices", len(dst), len(ws))
	}
	if len(ws) == 0 {
		return shapeErr(op, "no matrices")
	}
	for i, w := range ws {
		if w.Cols != ws[0].Cols {
			return shapeErr(op, "ws[%d].Cols = %d, ws[0].Cols = %d: the matrices must read inputs of one width", i, w.Cols, ws[0].Cols)
		}
	}
	return c.matMuls(op, dst, ws, x, n)
}

func (c Context) matMul(op string, dst []float32, w Matrix, x []float32, n int) error {
	d, m := [1][]float32{dst}, [1]Matrix{w}
	return c.matMuls(op, d[:], m[:], x, n)
}

// matMuls validates every operand, quantizes x once per activation type
// and runs each product.
func (c Context) matMuls(op string, dst [][]float32, ws []Matrix, x []float32, n int) error {
	for i, w := range ws {
		if _, err := w.rowBytes(op); err != nil {
			if len(ws) > 1 {
				return fmt.Errorf("%w (ws[%d])", err, i)
			}
			return err
		}
	}
	if n <= 0 {
		return shapeErr(op, "n = %d tokens, want at least 1", n)
	}
	cols := ws[0].Cols
	if len(x) != n*cols {
		return shapeErr(op, "x has %d values, want %d (%d tokens × %d columns)", len(x), n*cols, n, cols)
	}
	for i, w := range ws {
		if len(dst[i]) != n*w.Rows {
			if len(ws) > 1 {
				return shapeErr(op, "dst[%d] has %d values, want %d (%d tokens × %d rows of ws[%d])", i, len(dst[i]), n*w.Rows, n, w.Rows, i)
			}
			return shapeErr(op, "dst has %d values, want %d (%d tokens × %d rows)", len(dst[i]), n*w.Rows, n, w.Rows)
		}
	}
	for i, v := range x {
		if v != v || v > maxFinite || v < -maxFinite {
			return fmt.Errorf("spi: %s: %w: x[%d] = %v", op, quant.ErrNotFinite, i, v)
		}
	}
	c.traceOp(op)
	var acts [3]activations // Q8_K, Q8_0, Q8_1: each quantized on first use
	xh, hb := c.f16Input(ws, x)
	defer func() {
		for i := range acts {
			acts[i].release()
		}
		if hb != nil {
			hb.Release()
		}
	}()
	j := jointPool.Get().(*joint)
	for i, w := range ws {
		p := productPool.Get().(*product)
		p.c, p.w, p.dst, p.x, p.n = c, w, dst[i], x, n
		if w.Type == quant.FP16 {
			p.x = xh
		}
		if at := quant.ActivationType(w.Type); at != quant.F32 {
			a := &acts[actIndex(at)]
			if a.buf == nil {
				c.quantize(a, at, x, n, cols)
			}
			p.xq, p.nb = a.data, cols/at.BlockSize()
		}
		j.ps = append(j.ps, p)
	}
	if n == 1 {
		j.exec(c, cols)
	} else {
		for _, p := range j.ps {
			p.exec()
		}
	}
	for _, p := range j.ps {
		*p = product{fn: p.fn}
		productPool.Put(p)
	}
	clear(j.ps)
	j.ps, j.end = j.ps[:0], j.end[:0]
	jointPool.Put(j)
	return nil
}

// joint is the products of one call. One-token products (a MatVec, or a
// decode step's Q/K/V or gate/up through MatMulShared) run in one region:
// the rows of every matrix, one after the other, split as one range. Q, K
// and V then cost one fork and join instead of one each, and the small K
// and V matrices do not each end in a join where a core waits; every row
// still gets the bits it would get alone.
type joint struct {
	ps  []*product
	end []int // end[i]: the joined range's row after product i's last
	fn  func(start, end int)
}

var jointPool = sync.Pool{New: func() any { j := new(joint); j.fn = j.run; return j }}

// exec runs j's one-token products in one region. A Q4_K or Q6_K product
// goes through the MatMul op with a Prep, which builds what the kernels
// read besides x (Q6_K: x's tables; Q4_K: x packed for the packed
// matrix-vector kernel) once for all its row chunks.
func (j *joint) exec(c Context, cols int) {
	total := 0
	for _, p := range j.ps {
		if t := p.w.Type; t == quant.Q4K || t == quant.Q6K {
			p.prep = kernels.NewPrep()
		}
		total += p.w.Rows
		j.end = append(j.end, total)
	}
	c.s.ForRange(total, grainRows(cols), j.fn)
	for _, p := range j.ps {
		if p.prep != nil {
			kernels.PutPrep(p.prep)
		}
	}
}

// run computes the joined rows [start, end): the part of each product's
// rows that falls in it.
func (j *joint) run(start, end int) {
	lo := 0
	for i, p := range j.ps {
		hi := j.end[i]
		if a, b := max(start, lo), min(end, hi); a < b {
			p.run(a-lo, b-lo)
		}
		lo = hi
	}
}

const maxFinite = 3.4028234663852886e38

func actIndex(at quant.Type) int {
	switch at {
	case quant.Q8K:
		return 0
	case quant.Q8_0:
		return 1
	}
	return 2 // Q8_1
}

// activations is x quantized to one activation type, in scratch memory.
type activations struct {
	buf  *scratch.Buf
	data []byte
}

func (a *activations) release() {
	if a.buf != nil {
		a.buf.Release()
	}
}

// quantJob quantizes the token rows [start, end) of x into a's blocks; a
// row's blocks depend on that row alone, so the split cannot change them.
type quantJob struct {
	ops  *kernels.Ops
	at   quant.Type
	x    []float32
	dst  []byte
	cols int
	fn   func(start, end int) // run, bound once
}

var quantPool = sync.Pool{New: func() any { j := new(quantJob); j.fn = j.run; return j }}

func (j *quantJob) run(start, end int) {
	rb, _ := quant.RowSize(j.at, j.cols)
	dst, x := j.dst[start*rb:end*rb], j.x[start*j.cols:end*j.cols]
	switch j.at {
	case quant.Q8K:
		b, _ := quant.AsQ8K(dst)
		j.ops.QuantizeQ8K(b, x)
	case quant.Q8_0:
		b, _ := quant.AsQ8_0(dst)
		j.ops.QuantizeQ8_0(b, x)
	default:
		b, _ := quant.AsQ8_1(dst)
		j.ops.QuantizeQ8_1(b, x)
	}
}

func (c Context) quantize(a *activations, at quant.Type, x []float32, n, cols int) {
	rb, _ := quant.RowSize(at, cols)
	a.data, a.buf = scratch.Bytes(n * rb)
	j := quantPool.Get().(*quantJob)
	j.ops, j.at, j.x, j.dst, j.cols = &c.b.ops, at, x, a.data, cols
	c.s.ForRange(n, 1, j.fn)
	*j = quantJob{fn: j.fn}
	quantPool.Put(j)
}

// product is one matrix product in flight: its operands and the loop body
// the schedule runs (fn, bound once per pooled value, so that a call
// allocates nothing).
type product struct {
	c      Context
	w      Matrix
	dst    []float32
	x      []float32 // the float input (F32, F16 weights)
	xq     []byte    // the quantized input (quantized weights)
	n, nb  int
	byCols bool
	prep   *kernels.Prep
	fn     func(start, end int)
}

var productPool = sync.Pool{New: func() any { p := new(product); p.fn = p.run; return p }}

// exec runs a product of several tokens on the context's schedule (one
// token: joint.exec): rows split (sharing one preparation of the
// activations), or tokens split with hint "cols"; F32 and FP16 weights
// rows split.
func (p *product) exec() {
	rows, cols := p.w.Rows, p.w.Cols
	switch {
	case p.w.Type == quant.F32 || p.w.Type == quant.FP16:
		p.c.s.ForRange(rows, grainRows(cols), p.fn)
	case p.c.dim("MatMul") == "cols":
		p.byCols = true
		p.c.s.ForRange(p.n, 1, p.fn)
	default:
		p.prep = kernels.NewPrep()
		p.c.s.ForRange(rows, grainRows(cols*p.n), p.fn)
		kernels.PutPrep(p.prep)
	}
}

// run computes rows [start, end) (or tokens, when byCols).
func (p *product) run(start, end int) {
	k := &p.c.b.ops
	switch p.w.Type {
	case quant.F32, quant.FP16:
		p.float(start, end)
	case quant.Q4K:
		rowsOf(p, start, end, quant.AsQ4K, quant.AsQ8K, k.MatVecQ4K, k.MatMulQ4K)
	case quant.Q5K:
		rowsOf(p, start, end, quant.AsQ5K, quant.AsQ8K, k.MatVecQ5K, k.MatMulQ5K)
	case quant.Q6K:
		rowsOf(p, start, end, quant.AsQ6K, quant.AsQ8K, k.MatVecQ6K, k.MatMulQ6K)
	case quant.Q8_0:
		rowsOf(p, start, end, quant.AsQ8_0, quant.AsQ8_0, k.MatVecQ8_0, k.MatMulQ8_0)
	case quant.Q4_0:
		rowsOf(p, start, end, quant.AsQ4_0, quant.AsQ8_0, k.MatVecQ4_0, k.MatMulQ4_0)
	case quant.Q5_0:
		rowsOf(p, start, end, quant.AsQ5_0, quant.AsQ8_0, k.MatVecQ5_0, k.MatMulQ5_0)
	case quant.Q4_1:
		rowsOf(p, start, end, quant.AsQ4_1, quant.AsQ8_1, k.MatVecQ4_1, k.MatMulQ4_1)
	case quant.Q5_1:
		rowsOf(p, start, end, quant.AsQ5_1, quant.AsQ8_1, k.MatVecQ5_1, k.MatMulQ5_1)
	}
}

// rowsOf runs the kernels of one weight type on rows (or tokens) [start,
// end). The views cannot fail: rowBytes and the scratch layout checked
// every length and alignment before the region started.
func rowsOf[W, X any](p *product, start, end int,
	asW func([]byte) ([]W, error), asX func([]byte) ([]X, error),
	mv func([]float32, []W, []X), mm func([]float32, int, []W, []X, int, *kernels.Prep)) {
	wb, _ := asW(p.w.Data)
	xb, _ := asX(p.xq)
	nb, rows := p.nb, p.w.Rows
	switch {
	case p.n == 1 && p.prep == nil:
		mv(p.dst[start:end], wb[start*nb:end*nb], xb)
	case p.byCols:
		// Each chunk is a product of its own columns: the kernel
		// prepares them per call.
		mm(p.dst[start*rows:], rows, wb, xb[start*nb:end*nb], end-start, nil)
	default:
		mm(p.dst[start:], rows, wb[start*nb:end*nb], xb, p.n, p.prep)
	}
}

// float computes F32/F16 weight rows [start, end): F32 with the kernels'
// DotF32, one call per output element over a whole row, F16 with the fused
// MatVecF16, so the result does not depend on the schedule (each element's
// order depends only on the row length).
func (p *product) float(start, end int) {
	if p.c.exact {
		p.floatExact(start, end)
		return
	}
	rows, cols := p.w.Rows, p.w.Cols
	if p.w.Type == quant.FP16 {
		// Fused: the kernel widens the binary16 weights as it multiplies
		// (each element is the DotF32-like dot of its row, so the result
		// does not depend on the schedule either).
		wh, _ := quant.AsF16(p.w.Data)
		mv := p.c.b.ops.MatVecF16
		for t := 0; t < p.n; t++ {
			mv(p.dst[t*rows+start:t*rows+end], wh[start*cols:end*cols], p.x[t*cols:(t+1)*cols])
		}
		return
	}
	dot := p.c.b.ops.DotF32
	wf, _ := quant.AsF32(p.w.Data)
	for r := start; r < end; r++ {
		wr := wf[r*cols : (r+1)*cols]
		for t := 0; t < p.n; t++ {
			p.dst[t*rows+r] = dot(wr, p.x[t*cols:(t+1)*cols])
		}
	}
}

// grainRows is the fewest rows worth a task: about 64K multiply-adds.
func grainRows(cols int) int {
	g := (1 << 16) / cols
	if g < 1 {
		g = 1
	}
	return g
}
