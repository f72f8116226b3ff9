package gguf_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/spi"
)

func readFloats(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// dequantRows returns the float32 values of rows of cols values of type t.
func dequantRows(t *testing.T, typ quant.Type, b []byte, rows, cols int) []float32 {
	t.Helper()
	out := make([]float32, rows*cols)
	if typ == quant.FP16 {
		h, err := quant.AsF16(b)
		if err != nil {
			t.Fatal(err)
		}
		quant.ToFloat32(out, h)
		return out
	}
	if err := quant.Dequantize(typ, out, b); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestTinyMatMul is the end-to-end check: every 2-D tensor of tiny.gguf,
// read through this package, times the stored activations reproduces
// ggml's mul_mat outputs within the README's bounds. Quantized weights go
// through kernels.MatMul with ggml's own quantized activations (and with
// ours, which must be the same bytes); F16 weights, which kernels.MatMul
// does not take, go through spi. Then spi.MatMul from the f32 activations,
// the path an engine takes, must meet the README's model-level bound.
func TestTinyMatMul(t *testing.T) {
	dir, m := loadManifest(t)
	f, err := gguf.Open(filepath.Join(dir, m.GGUF.Path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	be, err := spi.New(spi.WithSchedule(sched.Sequential))
	if err != nil {
		t.Fatal(err)
	}
	ctx := be.Context()
	if len(m.Matmuls) != 24 {
		t.Fatalf("manifest lists %d products, want 24 (12 tensors × N = 1, 7)", len(m.Matmuls))
	}
	for _, mm := range m.Matmuls {
		tn, ok := f.Tensor(mm.Tensor)
		if !ok {
			t.Fatalf("no tensor %q", mm.Tensor)
		}
		K, M, N := mm.K, mm.M, mm.N
		if gguf.TypeName(tn.Type) != mm.Type || len(tn.Dims) != 2 || tn.Dims[0] != int64(K) || tn.Dims[1] != int64(M) {
			t.Fatalf("%s: %s %v, manifest %s K=%d M=%d", mm.Tensor, gguf.TypeName(tn.Type), tn.Dims, mm.Type, K, M)
		}
		want := readFloats(t, filepath.Join(dir, mm.Out.Path))
		xf := readFloats(t, filepath.Join(dir, mm.Activation))
		xq, err := os.ReadFile(filepath.Join(dir, mm.ActQuant))
		if err != nil {
			t.Fatal(err)
		}
		at, err := quant.ParseType(mm.VecDotType)
		if err != nil {
			t.Fatal(err)
		}
		w := dequantRows(t, tn.Type, tn.Data, M, K)
		xh := dequantRows(t, at, xq, N, K)
		got := make([]float32, N*M)
		if tn.Type == quant.FP16 {
			// ggml rounds the activations to f16; spi multiplies f32, so
			// feed it the f16 values (exact in f32).
			err = ctx.MatMul(got, spi.Matrix{Type: tn.Type, Rows: M, Cols: K, Data: tn.Data}, xh, N)
		} else {
			mine := make([]byte, len(xq))
			for j := 0; j < N; j++ {
				row := len(xq) / N
				if err := kernels.QuantizeActivations(at, mine[j*row:(j+1)*row], xf[j*K:(j+1)*K]); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(mine, xq) {
				t.Errorf("%s N=%d: our %s activations differ from ggml's", mm.Tensor, N, at)
			}
			err = kernels.MatMul(tn.Type, got, M, tn.Data, xq, N)
		}
		if err != nil {
			t.Fatalf("%s: %v", mm.Tensor, err)
		}
		worst, exact := 0.0, 0
		for j := 0; j < N; j++ {
			for r := 0; r < M; r++ {
				var scale float64
				for k := 0; k < K; k++ {
					scale += math.Abs(float64(w[r*K+k]) * float64(xh[j*K+k]))
				}
				g, e := got[j*M+r], want[j*M+r]
				d := math.Abs(float64(g) - float64(e))
				if d > 1e-6*scale {
					t.Errorf("%s N=%d row %d col %d: %v, ggml %v: |diff| %.3g > 1e-6·Σ|ŵx̂| = %.3g", mm.Tensor, N, r, j, g, e, d, 1e-6*scale)
				}
				worst = max(worst, d/scale)
				if math.Float32bits(g) == math.Float32bits(e) {
					exact++
				}
			}
		}
		t.Logf("%-26s %-4s N=%d: max |ours−ggml|/Σ|ŵx̂| = %.2g (bound 1e-6), %d/%d bit-identical", mm.Tensor, mm.Type, N, worst, exact, N*M)

		// The engine's path: spi from f32 activations.
		bound := 1e-2
		if tn.Type == quant.FP16 {
			bound = 1e-4
		}
		err = ctx.MatMul(got, spi.Matrix{Type: tn.Type, Rows: M, Cols: K, Data: tn.Data}, xf, N)
		if errors.Is(err, quant.ErrUnknownType) {
			t.Logf("%-26s %-4s N=%d: spi.MatMul has no %s weights yet (%v)", mm.Tensor, mm.Type, N, mm.Type, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: spi: %v", mm.Tensor, err)
		}
		for j := 0; j < N; j++ {
			for r := 0; r < M; r++ {
				var scale float64
				for k := 0; k < K; k++ {
					scale += math.Abs(float64(w[r*K+k]) * float64(xf[j*K+k]))
				}
				if d := math.Abs(float64(got[j*M+r]) - float64(want[j*M+r])); d > bound*scale {
					t.Errorf("%s N=%d row %d col %d via spi: %v, ggml %v: |diff| %.3g > %g·Σ|ŵx|", mm.Tensor, N, r, j, got[j*M+r], want[j*M+r], d, bound)
				}
			}
		}
	}
}
