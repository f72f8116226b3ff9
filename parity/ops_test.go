package parity

import (
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/spi"
)

func randVec(r *rand.Rand, n int, scale float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64() * scale)
	}
	return x
}

func matrix(t *testing.T, r *rand.Rand, typ quant.Type, rows, cols int) spi.Matrix {
	t.Helper()
	rb, err := quant.RowSize(typ, cols)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, rows*rb)
	if err := quant.QuantizeRows(typ, data, randVec(r, rows*cols, 0.1), cols); err != nil {
		t.Fatal(err)
	}
	return spi.Matrix{Type: typ, Rows: rows, Cols: cols, Data: data}
}

// tokens is the activation rows of every MatMul: 13 = 8 + 4 + 1 reaches
// the 8-column tile, the 4-column tile and the matrix-vector tail of the
// quantized matmul kernels.
const tokens = 13

// ops returns the rows of the matrix other than attention. Shapes are
// chosen so that every region splits into at least 3 chunks on every pool
// column (runCell checks it).
func ops(t *testing.T, r *rand.Rand) []parityOp {
	var list []parityOp
	matmuls := func(name string, w spi.Matrix, quantized, large bool) {
		x := randVec(r, tokens*w.Cols, 1)
		rows := w.Rows
		list = append(list,
			parityOp{name: "MatVec-" + name, acrossVariants: quantized, kernels: backendKernels, panels: large, run: func(c spi.Context) ([]float32, error) {
				dst := make([]float32, rows)
				return dst, c.MatVec(dst, w, x[:w.Cols])
			}},
			parityOp{name: "MatMul-" + name, acrossVariants: quantized, kernels: backendKernels, panels: large, run: func(c spi.Context) ([]float32, error) {
				dst := make([]float32, tokens*rows)
				return dst, c.MatMul(dst, w, x, tokens)
			}},
		)
		if !large {
			list = append(list, parityOp{name: "MatMul-cols-" + name, acrossVariants: quantized, kernels: backendKernels, run: func(c spi.Context) ([]float32, error) {
				c, err := c.WithHint(spi.ScheduleHint{Op: "MatMul", Dim: "cols"})
				if err != nil {
					return nil, err
				}
				dst := make([]float32, tokens*rows)
				return dst, c.MatMul(dst, w, x, tokens)
			}})
		}
	}
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0, quant.Q4_0, quant.Q5_0, quant.Q4_1, quant.Q5_1, quant.F32, quant.FP16} {
		quantized := typ != quant.F32 && typ != quant.FP16
		// 300 rows of 512: MatVec's grain is 128 rows, so 3 chunks.
		w := matrix(t, r, typ, 300, 512)
		matmuls(typ.String(), w, quantized, false)
		if !quantized {
			// WithExactFloat's products are plain Go in one order (and
			// WithF16Activations rounds their input first).
			x := randVec(r, tokens*w.Cols, 1)
			for _, f16act := range []bool{false, true} {
				name := "MatMul-exactfloat-" + typ.String()
				if f16act {
					name += "-f16act"
				}
				list = append(list, parityOp{name: name, kernels: noKernels, run: func(c spi.Context) ([]float32, error) {
					dst := make([]float32, tokens*w.Rows)
					return dst, c.WithExactFloat(true).WithF16Activations(f16act).MatMul(dst, w, x, tokens)
				}})
			}
		}
	}
	// MatMulShared: one input quantized once for matrices of three
	// activation types.
	{
		ws := []spi.Matrix{matrix(t, r, quant.Q4K, 300, 512), matrix(t, r, quant.Q8_0, 200, 512), matrix(t, r, quant.Q5_1, 300, 512)}
		x := randVec(r, tokens*512, 1)
		list = append(list, parityOp{name: "MatMulShared", acrossVariants: true, kernels: backendKernels, run: func(c spi.Context) ([]float32, error) {
			out := make([]float32, tokens*800)
			dst := [][]float32{out[:tokens*300], out[tokens*300 : tokens*500], out[tokens*500:]}
			return out, c.MatMulShared(dst, ws, x, tokens)
		}})
	}
	// Larger than one weight panel of the Q4_K/Q5_K matmul (kqPanelBytes,
	// 512 KiB: 910 rows of Q4_K at 1024 columns) and than one row chunk
	// of Q6_K's (q6kChunkBytes, 1 MiB: 1248 rows): Sequential's single call
	// crosses the boundary, the split rows do not. (The generic kernels
	// have no panels: these run under the SIMD variants only.)
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K} {
		matmuls(typ.String()+"-1536x1024", matrix(t, r, typ, 1536, 1024), true, true)
	}

	// 160 rows of 256 = 40960 elements: the elementwise grain is 16384,
	// so 3 chunks; RMSNorm and Softmax split 64-row chunks, also 3.
	const nr, dim = 160, 256
	a, b := randVec(r, nr*dim, 1), randVec(r, nr*dim, 1)
	nw := randVec(r, dim, 1)
	pos := make([]int, nr)
	for i := range pos {
		pos[i] = 3 * i
	}
	ropeFactors := make([]float32, dim/16)
	for i := range ropeFactors {
		ropeFactors[i] = 1 + float32(i)/2
	}
	// These ops are plain Go: no kernel of any variant runs in them, so
	// one variant proves them.
	unary := func(name string, f func(c spi.Context, dst []float32) error) parityOp {
		return parityOp{name: name, kernels: noKernels, run: func(c spi.Context) ([]float32, error) {
			dst := make([]float32, nr*dim)
			return dst, f(c, dst)
		}}
	}
	list = append(list,
		unary("RMSNorm", func(c spi.Context, d []float32) error { return c.RMSNorm(d, a, nw, nr, dim, 1e-5) }),
		unary("RoPE", func(c spi.Context, d []float32) error { copy(d, a); return c.RoPE(d, nr, 4, dim/4, pos, 10000, false) }),
		unary("RoPE-neox", func(c spi.Context, d []float32) error { copy(d, a); return c.RoPE(d, nr, 4, dim/4, pos, 10000, true) }),
		unary("RoPEWith", func(c spi.Context, d []float32) error {
			copy(d, a)
			return c.RoPEWith(d, nr, 4, dim/4, pos, spi.RoPEOptions{Dims: dim / 8, Base: 500000, FreqScale: 0.5, FreqFactors: ropeFactors})
		}),
		unary("SiLU", func(c spi.Context, d []float32) error { return c.SiLU(d, a) }),
		unary("Softmax", func(c spi.Context, d []float32) error { return c.Softmax(d, a, nr, dim) }),
		unary("Add", func(c spi.Context, d []float32) error { return c.Add(d, a, b) }),
		unary("Mul", func(c spi.Context, d []float32) error { return c.Mul(d, a, b) }),
		unary("Scale", func(c spi.Context, d []float32) error { return c.Scale(d, a, 0.37) }),
	)
	table := matrix(t, r, quant.Q4K, 50, dim)
	ids := make([]int, 300) // GetRows runs 64 rows of 256 a task: 5 chunks
	for i := range ids {
		ids[i] = r.IntN(table.Rows)
	}
	// SwiGLU runs the Backend's SwiGLU kernel, which has the same bits in
	// every variant.
	list = append(list, parityOp{name: "SwiGLU", acrossVariants: true, kernels: backendKernels, run: func(c spi.Context) ([]float32, error) {
		dst := make([]float32, nr*dim)
		return dst, c.SwiGLU(dst, a, b)
	}})
	// GetRows dequantizes with the Backend's kernels, bit-exact with ggml
	// in every variant, so it also compares across variants.
	list = append(list, parityOp{name: "GetRows", acrossVariants: true, kernels: backendKernels, run: func(c spi.Context) ([]float32, error) {
		dst := make([]float32, len(ids)*dim)
		return dst, c.GetRows(dst, table, ids)
	}})
	return list
}
