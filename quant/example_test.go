package quant_test

import (
	"fmt"
	"math"

	"github.com/corelane/corelane/quant"
)

func ExampleParseType() {
	t, err := quant.ParseType("q4_K")
	fmt.Println(t, uint32(t), t.BlockSize(), t.BlockBytes(), err)

	_, err = quant.ParseType("q4_k")
	fmt.Println(err)
	// Output:
	// q4_K 12 256 144 <nil>
	// quant: unknown type "q4_k" (known: f32, f16, q4_0, q4_1, q5_0, q5_1, q8_0, q8_1, q4_K, q5_K, q6_K, q8_K)
}

func ExampleRowSize() {
	for _, t := range []quant.Type{quant.F32, quant.FP16, quant.Q8_0, quant.Q4K, quant.Q6K} {
		n, _ := quant.RowSize(t, 4096)
		fmt.Printf("%-4s %5d bytes\n", t, n)
	}
	_, err := quant.RowSize(quant.Q4K, 1000)
	fmt.Println(err)
	// Output:
	// f32  16384 bytes
	// f16   8192 bytes
	// q8_0  4352 bytes
	// q4_K  2304 bytes
	// q6_K  3360 bytes
	// quant: RowSize: bad length: 1000 values is not a multiple of the q4_K block size 256
}

func ExampleQuantize() {
	// One row of 512 values: a ramp from -1 to 1.
	x := make([]float32, 512)
	for i := range x {
		x[i] = float32(i)/255.5 - 1
	}
	for _, t := range []quant.Type{quant.Q8_0, quant.Q6K, quant.Q4K} {
		n, _ := quant.RowSize(t, len(x))
		b := make([]byte, n)
		if err := quant.Quantize(t, b, x); err != nil {
			fmt.Println(err)
			return
		}
		y := make([]float32, len(x))
		if err := quant.Dequantize(t, y, b); err != nil {
			fmt.Println(err)
			return
		}
		var maxErr float64
		for i := range x {
			maxErr = math.Max(maxErr, math.Abs(float64(y[i]-x[i])))
		}
		fmt.Printf("%s: %d bytes, max error %.4f\n", t, len(b), maxErr)
	}

	x[7] = float32(math.NaN())
	b := make([]byte, 2*144)
	fmt.Println(quant.Quantize(quant.Q4K, b, x))
	// Output:
	// q8_0: 544 bytes, max error 0.0039
	// q6_K: 420 bytes, max error 0.0139
	// q4_K: 288 bytes, max error 0.0320
	// quant: q4_K row 0 block 0: non-finite input (NaN at index 7)
}

func ExampleAsQ4K() {
	x := make([]float32, 256)
	for i := range x {
		x[i] = float32(i%32) / 8 // every sub-block is 0, 0.125, ..., 3.875
	}
	raw := make([]byte, 144) // e.g. a GGUF tensor's bytes
	if err := quant.Quantize(quant.Q4K, raw, x); err != nil {
		fmt.Println(err)
		return
	}

	blocks, err := quant.AsQ4K(raw) // no copy: blocks[0] is raw[0:144]
	if err != nil {
		fmt.Println(err)
		return
	}
	sc, m := quant.KScaleMin(&blocks[0].Scales, 0)
	fmt.Printf("%d block: d=%.6f dmin=%g sub-block 0: scale %d, min %d\n", len(blocks), blocks[0].D.Float32(), blocks[0].DMin.Float32(), sc, m)

	y := make([]float32, 256)
	quant.DequantizeRowQ4K(y, blocks)
	fmt.Printf("x[0:4] = %.3f -> %.3f\n", x[:4], y[:4])

	_, err = quant.AsQ4K(raw[:100])
	fmt.Println(err)
	// Output:
	// 1 block: d=0.004059 dmin=0 sub-block 0: scale 63, min 0
	// x[0:4] = [0.000 0.125 0.250 0.375] -> [0.000 0.000 0.256 0.256]
	// quant: view q4_K: bad length: 100 bytes is not a whole number of 144-byte blocks
}
