package spi

import (
	"fmt"

	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
)

// Matrix is a weight matrix of Rows output features by Cols input
// features, row-major, in one of the GGUF types F32, F16, Q8_0, Q4_K, Q5_K,
// Q6_K. Data is the tensor's bytes as stored in a GGUF file (Rows rows of
// quant.RowSize(Type, Cols) bytes); it is viewed in place, never copied.
type Matrix struct {
	Type       quant.Type
	Rows, Cols int
	Data       []byte
}

// rowBytes validates m and returns the bytes of one row.
func (m Matrix) rowBytes(op string) (int, error) {
	switch m.Type {
	case quant.F32, quant.FP16, quant.Q8_0, quant.Q4K, quant.Q5K, quant.Q6K:
	default:
		return 0, fmt.Errorf("spi: %s: %w: weight type %v (want f32, f16, q8_0, q4_K, q5_K or q6_K)", op, quant.ErrUnknownType, m.Type)
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

func (c Context) matMul(op string, dst []float32, w Matrix, x []float32, n int) error {
	if _, err := w.rowBytes(op); err != nil {
		return err
	}
	if n <= 0 {
		return shapeErr(op, "n = %d tokens, want at least 1", n)
	}
	if len(x) != n*w.Cols {
		return shapeErr(op, "x has %d values, want %d (%d tokens × %d columns)", len(x), n*w.Cols, n, w.Cols)
	}
	if len(dst) != n*w.Rows {
		return shapeErr(op, "dst has %d values, want %d (%d tokens × %d rows)", len(dst), n*w.Rows, n, w.Rows)
	}
	for i, v := range x {
		if v != v || v > maxFinite || v < -maxFinite {
			return fmt.Errorf("spi: %s: %w: x[%d] = %v", op, quant.ErrNotFinite, i, v)
		}
	}
	c.traceOp(op)
	k := &c.b.ops
	switch w.Type {
	case quant.F32:
		wf, err := quant.AsF32(w.Data)
		if err != nil {
			return fmt.Errorf("spi: %s: %w", op, err)
		}
		c.floatMatMul(dst, w.Rows, w.Cols, x, n, func(r int, _ []float32) []float32 { return wf[r*w.Cols : (r+1)*w.Cols] })
		return nil
	case quant.FP16:
		wh, err := quant.AsF16(w.Data)
		if err != nil {
			return fmt.Errorf("spi: %s: %w", op, err)
		}
		c.floatMatMul(dst, w.Rows, w.Cols, x, n, func(r int, buf []float32) []float32 {
			quant.ToFloat32(buf, wh[r*w.Cols:(r+1)*w.Cols])
			return buf
		})
		return nil
	case quant.Q4K:
		return quantMatMul(c, op, dst, w, x, n, quant.AsQ4K, quant.AsQ8K, k.QuantizeQ8K, k.MatVecQ4K, k.MatMulQ4K)
	case quant.Q5K:
		return quantMatMul(c, op, dst, w, x, n, quant.AsQ5K, quant.AsQ8K, k.QuantizeQ8K, k.MatVecQ5K, k.MatMulQ5K)
	case quant.Q6K:
		return quantMatMul(c, op, dst, w, x, n, quant.AsQ6K, quant.AsQ8K, k.QuantizeQ8K, k.MatVecQ6K, k.MatMulQ6K)
	default: // quant.Q8_0, checked by rowBytes
		return quantMatMul(c, op, dst, w, x, n, quant.AsQ8_0, quant.AsQ8_0, k.QuantizeQ8_0, k.MatVecQ8_0, k.MatMulQ8_0)
	}
}

const maxFinite = 3.4028234663852886e38

// floatMatMul computes F32/F16 weights with the kernels' DotF32: one call
// per output element over a whole row, so the result does not depend on the
// schedule (DotF32's order depends only on the length).
func (c Context) floatMatMul(dst []float32, rows, cols int, x []float32, n int, row func(r int, buf []float32) []float32) {
	dot := c.b.ops.DotF32
	c.s.ForRange(rows, grainRows(cols), func(start, end int) {
		buf, b := scratch.Float32s(cols)
		defer b.Release()
		for r := start; r < end; r++ {
			wr := row(r, buf)
			for t := 0; t < n; t++ {
				dst[t*rows+r] = dot(wr, x[t*cols:(t+1)*cols])
			}
		}
	})
}

// grainRows is the fewest rows worth a task: about 64K multiply-adds.
func grainRows(cols int) int {
	g := (1 << 16) / cols
	if g < 1 {
		g = 1
	}
	return g
}

func quantMatMul[W, X any](c Context, op string, dst []float32, w Matrix, x []float32, n int,
	asW func([]byte) ([]W, error), asX func([]byte) ([]X, error),
	quantize func([]X, []float32),
	mv func([]float32, []W, []X), mm func([]float32, int, []W, []X, int, *kernels.Prep)) error {
	wb, err := asW(w.Data)
	if err != nil {
		return fmt.Errorf("spi: %s: weights: %w", op, err)
	}
	at := quant.ActivationType(w.Type)
	xRow, _ := quant.RowSize(at, w.Cols)
	xbytes, buf := scratch.Bytes(n * xRow)
	defer buf.Release()
	xb, err := asX(xbytes)
	if err != nil {
		return fmt.Errorf("spi: %s: scratch: %w", op, err)
	}
	nb := len(xb) / n
	// Quantize each token's activations; a row's result depends on that row
	// alone, so the split cannot change it.
	c.s.ForRange(n, 1, func(start, end int) {
		quantize(xb[start*nb:end*nb], x[start*w.Cols:end*w.Cols])
	})
	rows := w.Rows
	if n == 1 {
		c.s.ForRange(rows, grainRows(w.Cols), func(start, end int) {
			mv(dst[start:end], wb[start*nb:end*nb], xb)
		})
		return nil
	}
	if c.dim("MatMul") == "cols" {
		// Each chunk is a product of its own columns: the kernel prepares
		// them per call.
		c.s.ForRange(n, 1, func(start, end int) {
			mm(dst[start*rows:], rows, wb, xb[start*nb:end*nb], end-start, nil)
		})
		return nil
	}
	// One product split over rows: every chunk shares one preparation of
	// the columns.
	prep := kernels.NewPrep()
	defer kernels.PutPrep(prep)
	c.s.ForRange(rows, grainRows(w.Cols*n), func(start, end int) {
		mm(dst[start:], rows, wb[start*nb:end*nb], xb, n, prep)
	})
	return nil
}
