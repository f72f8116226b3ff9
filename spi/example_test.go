package spi_test

import (
	"fmt"
	"math"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

// A quantized matrix-vector product: the weights are Q4_K bytes as a GGUF
// file stores them; the activations stay float32.
func ExampleContext_MatVec() {
	const rows, cols = 4, 256
	vals := make([]float32, rows*cols)
	for i := range vals {
		vals[i] = float32(math.Sin(float64(i)))
	}
	data := make([]byte, rows*144)
	if err := quant.QuantizeRows(quant.Q4K, data, vals, cols); err != nil {
		panic(err)
	}
	w := spi.Matrix{Type: quant.Q4K, Rows: rows, Cols: cols, Data: data}

	b, err := spi.New() // best kernels for this CPU, sched.Hardware()
	if err != nil {
		panic(err)
	}
	x := make([]float32, cols)
	for i := range x {
		x[i] = float32(math.Sin(float64(i)))
	}
	y := make([]float32, rows)
	if err := b.Context().MatVec(y, w, x); err != nil {
		panic(err)
	}
	// The same op on one thread gives the same bits.
	y1 := make([]float32, rows)
	_ = b.Context().WithSchedule(sched.Sequential).MatVec(y1, w, x)
	fmt.Printf("row 0 ≈ %.1f, identical on one thread: %v\n", y[0], math.Float32bits(y[0]) == math.Float32bits(y1[0]))
	// Output: row 0 ≈ 127.1, identical on one thread: true
}

// Bad input is an error that names the op and the mismatch.
func ExampleContext_MatVec_error() {
	b, _ := spi.New(spi.WithSchedule(sched.Sequential))
	w := spi.Matrix{Type: quant.Q4K, Rows: 2, Cols: 256, Data: make([]byte, 2*144)}
	err := b.Context().MatVec(make([]float32, 2), w, make([]float32, 100))
	fmt.Println(err)
	// Output: spi: MatVec: bad shape: x has 100 values, want 256 (1 tokens × 256 columns)
}

// Grouped-query attention over a KV cache, exact mode.
func ExampleContext_Attention() {
	shape := sdpa.Shape{Batch: 1, Heads: 4, KVHeads: 2, SeqQ: 1, SeqKV: 3, HeadDim: 2}
	q := []float32{1, 0, 0, 1, 1, 1, -1, 0}
	k := []float32{1, 0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1}
	v := []float32{1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1}
	out := make([]float32, len(q))
	b, _ := spi.New(spi.WithSchedule(sched.Sequential))
	if err := b.Context().Attention(out, q, k, v, shape, sdpa.Options{Causal: true}); err != nil {
		panic(err)
	}
	fmt.Printf("%.3f\n", out[:2])
	// Output: [3.000 4.000]
}

// ParallelDims and ScheduleHint: which dimensions an op may split.
func ExampleParallelDims() {
	dims, _ := spi.ParallelDims("MatMul")
	fmt.Println(dims)
	b, _ := spi.New(spi.WithSchedule(sched.Sequential))
	_, err := b.Context().WithHint(spi.ScheduleHint{Op: "MatMul", Dim: "heads"})
	fmt.Println(err)
	// Output:
	// [rows cols]
	// spi: ScheduleHint: op MatMul has no parallel dimension "heads" (it declares: rows, cols)
}
