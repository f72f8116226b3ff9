package spi

import (
	"math"
	"sync"

	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/kernels"
)

// The elementwise and row ops of a Llama-family decoder layer. Each output
// element depends on its own inputs only, or (RMSNorm, Softmax) on its row,
// which one task computes in a fixed order — so no schedule changes a bit.
// They are written with explicit float32 conversions so that the compiler
// cannot fuse a multiply and an add differently on different machines.

// elemGrain is the fewest elements worth a task for cheap elementwise ops;
// expGrain for those with an exponential (SiLU, SwiGLU: 2–6 ns an element
// on one core, so a decode step's 8192 already take 14–50 µs).
const (
	elemGrain = 1 << 14
	expGrain  = 1 << 11
)

func (c Context) elementwise(op string, n, grain int, j *layerJob) {
	c.traceOp(op)
	c.run(j, n, grain)
}

// The ops' loop bodies. A layerJob holds one call's operands and a body
// bound once per pooled value, so that an op call allocates nothing.
const (
	opRMSNorm = iota
	opRoPE
	opSiLU
	opSwiGLU
	opSoftmax
	opAdd
	opMul
	opScale
	opGetRows
)

type layerJob struct {
	kind             int
	ops              *kernels.Ops
	dst, x, a, b, w  []float32
	dim, heads       int
	eps, alpha, base float32
	pos              []int
	neox             bool
	rot              int       // RoPE: the dimensions rotated per head (0: all)
	freqScale        float64   // RoPE: angle factor (0: 1)
	freqFactors      []float32 // RoPE: per-pair angle divisors (nil: none)
	inv              []float64 // RoPE: base^(−2i/rot), i < rot/2, once per call
	table            Matrix
	rowBytes         int
	ids              []int
	fn               func(start, end int)
}

var jobPool = sync.Pool{New: func() any {
	j := new(layerJob)
	j.fn = j.run
	return j
}}

func getJob(kind int) *layerJob {
	j := jobPool.Get().(*layerJob)
	j.kind = kind
	return j
}

// run executes j over [0, n) on the context's schedule and returns j to
// the pool.
func (c Context) run(j *layerJob, n, grain int) {
	c.s.ForRange(n, grain, j.fn)
	putJob(j)
}

func putJob(j *layerJob) {
	*j = layerJob{fn: j.fn}
	jobPool.Put(j)
}

func (j *layerJob) run(start, end int) {
	switch j.kind {
	case opRMSNorm:
		j.rmsNorm(start, end)
	case opRoPE:
		j.rope(start, end)
	case opSoftmax:
		j.softmax(start, end)
	case opSiLU:
		for i := start; i < end; i++ {
			j.dst[i] = kernels.SiLU(j.x[i])
		}
	case opSwiGLU:
		j.ops.SwiGLU(j.dst[start:end], j.a[start:end], j.b[start:end])
	case opAdd:
		for i := start; i < end; i++ {
			j.dst[i] = j.a[i] + j.b[i]
		}
	case opMul:
		for i := start; i < end; i++ {
			j.dst[i] = j.a[i] * j.b[i]
		}
	case opScale:
		for i := start; i < end; i++ {
			j.dst[i] = j.alpha * j.x[i]
		}
	case opGetRows:
		j.getRows(start, end)
	}
}

// RMSNorm sets each row of dst to x·w/sqrt(mean(x²) + eps): x and dst are
// [rows, dim], w is [dim]. The sum of squares runs in element order in
// float32; the square root is correctly rounded (math.Sqrt).
func (c Context) RMSNorm(dst, x, w []float32, rows, dim int, eps float32) error {
	const op = "RMSNorm"
	if rows <= 0 || dim <= 0 {
		return shapeErr(op, "rows = %d, dim = %d, want positive", rows, dim)
	}
	if len(x) != rows*dim || len(dst) != rows*dim {
		return shapeErr(op, "len(x) = %d, len(dst) = %d, want %d (%d rows × %d)", len(x), len(dst), rows*dim, rows, dim)
	}
	if len(w) != dim {
		return shapeErr(op, "len(w) = %d, want dim = %d", len(w), dim)
	}
	if !(eps >= 0) || math.IsInf(float64(eps), 0) {
		return shapeErr(op, "eps = %v, want a finite value ≥ 0", eps)
	}
	c.traceOp(op)
	j := getJob(opRMSNorm)
	j.dst, j.x, j.w, j.dim, j.eps = dst, x, w, dim, eps
	c.run(j, rows, max(1, elemGrain/dim))
	return nil
}

func (j *layerJob) rmsNorm(start, end int) {
	dim, x, dst, w, eps := j.dim, j.x, j.dst, j.w, j.eps
	r := start
	// Four rows at a time: their sums of squares are four independent
	// chains of adds, each still in element order (one row's chain alone
	// waits on the add latency).
	for ; r+4 <= end; r += 4 {
		x0, x1, x2, x3 := x[r*dim:(r+1)*dim], x[(r+1)*dim:(r+2)*dim], x[(r+2)*dim:(r+3)*dim], x[(r+3)*dim:(r+4)*dim]
		x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
		var s0, s1, s2, s3 float32
		for i, v := range x0 {
			s0 += float32(v * v)
			s1 += float32(x1[i] * x1[i])
			s2 += float32(x2[i] * x2[i])
			s3 += float32(x3[i] * x3[i])
		}
		for k, ss := range [4]float32{s0, s1, s2, s3} {
			rmsScale(dst[(r+k)*dim:(r+k+1)*dim], x[(r+k)*dim:(r+k+1)*dim], w, ss, eps)
		}
	}
	for ; r < end; r++ {
		xr := x[r*dim : (r+1)*dim]
		var ss float32
		for _, v := range xr {
			ss += float32(v * v)
		}
		rmsScale(dst[r*dim:(r+1)*dim], xr, w, ss, eps)
	}
}

// rmsScale sets dr to xr·w/sqrt(ss/len(xr) + eps), ss being xr's sum of
// squares.
func rmsScale(dr, xr, w []float32, ss, eps float32) {
	mean := float32(ss/float32(len(xr))) + eps
	scale := float32(1 / math.Sqrt(float64(mean)))
	w = w[:len(xr)]
	dr = dr[:len(xr)]
	for i, v := range xr {
		dr[i] = float32(v*scale) * w[i]
	}
}

// RoPE rotates x in place: x is [tokens, heads, headDim] and token t sits
// at position pos[t]. Pair i of a head (i < headDim/2) is rotated by the
// angle pos·base^(−2i/headDim). neox=false rotates adjacent elements
// (2i, 2i+1) as Llama's GGUF layout does; neox=true rotates (i, i+headDim/2).
// The angles are computed in float64 and rounded once.
func (c Context) RoPE(x []float32, tokens, heads, headDim int, pos []int, base float32, neox bool) error {
	const op = "RoPE"
	if tokens <= 0 || heads <= 0 || headDim <= 0 || headDim%2 != 0 {
		return shapeErr(op, "tokens = %d, heads = %d, headDim = %d, want positive with headDim even", tokens, heads, headDim)
	}
	if len(x) != tokens*heads*headDim {
		return shapeErr(op, "len(x) = %d, want %d (%d tokens × %d heads × %d)", len(x), tokens*heads*headDim, tokens, heads, headDim)
	}
	if len(pos) != tokens {
		return shapeErr(op, "len(pos) = %d, want tokens = %d", len(pos), tokens)
	}
	if !(base > 1) || math.IsInf(float64(base), 0) {
		return shapeErr(op, "base = %v, want a finite value > 1", base)
	}
	c.traceOp(op)
	j := getJob(opRoPE)
	j.x, j.heads, j.dim, j.pos, j.base, j.neox = x, heads, headDim, pos, base, neox
	c.runRoPE(j, tokens)
	return nil
}

// runRoPE computes j's frequencies base^(−2i/rot), which do not depend on
// the token, once for the call before the tokens are split, then runs j.
func (c Context) runRoPE(j *layerJob, tokens int) {
	rot := j.dim
	if j.rot != 0 {
		rot = j.rot
	}
	inv, b := scratch.Float64s(rot / 2)
	defer b.Release()
	for i := range inv {
		inv[i] = math.Pow(float64(j.base), -2*float64(i)/float64(rot))
	}
	j.inv = inv
	c.run(j, tokens, 1)
}

func (j *layerJob) rope(start, end int) {
	x, heads, headDim, pos, neox, inv := j.x, j.heads, j.dim, j.pos, j.neox, j.inv
	rot := headDim
	if j.rot != 0 {
		rot = j.rot // RoPEWith: the first rot dimensions of each head
	}
	half := rot / 2
	cs, b := scratch.Float32s(2 * half)
	defer b.Release()
	for t := start; t < end; t++ {
		for i := 0; i < half; i++ {
			theta := float64(pos[t]) * inv[i]
			if j.freqFactors != nil {
				theta /= float64(j.freqFactors[i])
			}
			if j.freqScale != 0 {
				theta *= j.freqScale
			}
			cs[2*i], cs[2*i+1] = float32(math.Cos(theta)), float32(math.Sin(theta))
		}
		for h := 0; h < heads; h++ {
			v := x[(t*heads+h)*headDim : (t*heads+h+1)*headDim]
			for i := 0; i < half; i++ {
				a, b := 2*i, 2*i+1
				if neox {
					a, b = i, i+half
				}
				cos, sin := cs[2*i], cs[2*i+1]
				x0, x1 := v[a], v[b]
				v[a] = float32(x0*cos) - float32(x1*sin)
				v[b] = float32(x0*sin) + float32(x1*cos)
			}
		}
	}
}

// SiLU sets dst[i] = x[i]/(1+exp(−x[i])), with kernels.Exp, the module's
// one exponential (Exact attention's too).
func (c Context) SiLU(dst, x []float32) error {
	if len(dst) != len(x) {
		return shapeErr("SiLU", "len(dst) = %d, len(x) = %d", len(dst), len(x))
	}
	j := getJob(opSiLU)
	j.dst, j.x = dst, x
	c.elementwise("SiLU", len(x), expGrain, j)
	return nil
}

// SwiGLU sets dst[i] = kernels.SiLU(a[i])·b[i] (the gate and up
// projections of a Llama feed-forward block) with the Backend's SwiGLU
// kernel: the same bits on every variant and CPU, and the canonical NaN
// for a NaN result.
func (c Context) SwiGLU(dst, a, b []float32) error {
	if len(dst) != len(a) || len(a) != len(b) {
		return shapeErr("SwiGLU", "len(dst) = %d, len(a) = %d, len(b) = %d, want equal", len(dst), len(a), len(b))
	}
	j := getJob(opSwiGLU)
	j.ops, j.dst, j.a, j.b = &c.b.ops, dst, a, b
	c.elementwise("SwiGLU", len(a), expGrain, j)
	return nil
}

// Softmax sets each row of dst (rows × n) to the softmax of that row of x:
// max, exp(x−max) with kernels.Exp (the module's one exponential, Exact
// attention's too) and their sum in element order, then
// a division. A row of −Inf only gives zeros.
func (c Context) Softmax(dst, x []float32, rows, n int) error {
	const op = "Softmax"
	if rows <= 0 || n <= 0 {
		return shapeErr(op, "rows = %d, n = %d, want positive", rows, n)
	}
	if len(x) != rows*n || len(dst) != rows*n {
		return shapeErr(op, "len(x) = %d, len(dst) = %d, want %d (%d × %d)", len(x), len(dst), rows*n, rows, n)
	}
	c.traceOp(op)
	j := getJob(opSoftmax)
	j.dst, j.x, j.dim = dst, x, n
	c.run(j, rows, max(1, elemGrain/n))
	return nil
}

func (j *layerJob) softmax(start, end int) {
	n, x, dst := j.dim, j.x, j.dst
	for r := start; r < end; r++ {
		xr, dr := x[r*n:(r+1)*n], dst[r*n:(r+1)*n]
		m := float32(math.Inf(-1))
		for _, v := range xr {
			if v > m {
				m = v
			}
		}
		if math.IsInf(float64(m), -1) {
			clear(dr)
			continue
		}
		var sum float32
		for i, v := range xr {
			e := kernels.Exp(v - m)
			dr[i] = e
			sum += e
		}
		for i := range dr {
			dr[i] /= sum
		}
	}
}

func binary(c Context, op string, kind int, dst, a, b []float32) error {
	if len(dst) != len(a) || len(a) != len(b) {
		return shapeErr(op, "len(dst) = %d, len(a) = %d, len(b) = %d, want equal", len(dst), len(a), len(b))
	}
	j := getJob(kind)
	j.dst, j.a, j.b = dst, a, b
	c.elementwise(op, len(a), elemGrain, j)
	return nil
}

// Add sets dst[i] = a[i] + b[i] (dst may alias a or b).
func (c Context) Add(dst, a, b []float32) error { return binary(c, "Add", opAdd, dst, a, b) }

// Mul sets dst[i] = a[i]·b[i] (dst may alias a or b).
func (c Context) Mul(dst, a, b []float32) error { return binary(c, "Mul", opMul, dst, a, b) }

// Scale sets dst[i] = alpha·x[i] (dst may alias x).
func (c Context) Scale(dst, x []float32, alpha float32) error {
	if len(dst) != len(x) {
		return shapeErr("Scale", "len(dst) = %d, len(x) = %d", len(dst), len(x))
	}
	j := getJob(opScale)
	j.dst, j.x, j.alpha = dst, x, alpha
	c.elementwise("Scale", len(x), elemGrain, j)
	return nil
}

// GetRows dequantizes the rows ids of table into dst ([len(ids), table.Cols]):
// the embedding lookup. Dequantization is bit-exact with ggml.
func (c Context) GetRows(dst []float32, table Matrix, ids []int) error {
	const op = "GetRows"
	rb, err := table.rowBytes(op)
	if err != nil {
		return err
	}
	if len(dst) != len(ids)*table.Cols {
		return shapeErr(op, "len(dst) = %d, want %d (%d ids × %d)", len(dst), len(ids)*table.Cols, len(ids), table.Cols)
	}
	for i, id := range ids {
		if id < 0 || id >= table.Rows {
			return shapeErr(op, "ids[%d] = %d, want 0 ≤ id < %d", i, id, table.Rows)
		}
	}
	c.traceOp(op)
	j := getJob(opGetRows)
	j.ops, j.dst, j.table, j.rowBytes, j.ids = &c.b.ops, dst, table, rb, ids
	c.run(j, len(ids), max(1, elemGrain/table.Cols))
	return nil
}

// getRows dequantizes rows [start, end) of j.ids. Every length was checked
// before the region started, so Dequantize cannot fail here; if it did,
// that would be a bug in this package, and it panics (the schedule
// re-raises the panic in the caller) rather than leave rows unwritten.
func (j *layerJob) getRows(start, end int) {
	cols, rb := j.table.Cols, j.rowBytes
	for i := start; i < end; i++ {
		id := j.ids[i]
		if err := j.ops.Dequantize(j.table.Type, j.dst[i*cols:(i+1)*cols], j.table.Data[id*rb:(id+1)*rb]); err != nil {
			panic("spi: GetRows: checked rows failed to dequantize: " + err.Error())
		}
	}
}
