package quant

import (
	"fmt"
	"testing"
)

const benchN = 4096

// BenchmarkQuantize measures Quantize of one row of benchN N(0,1) values;
// SetBytes counts the float32 input.
func BenchmarkQuantize(b *testing.B) {
	x := gaussian(42, benchN)
	for _, typ := range Types() {
		b.Run(fmt.Sprintf("type=%s/n=%d", typ, benchN), func(b *testing.B) {
			dst := make([]byte, mustRowSize(b, typ, benchN))
			b.SetBytes(4 * benchN)
			for b.Loop() {
				if err := Quantize(typ, dst, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDequantize measures Dequantize of one row of benchN values;
// SetBytes counts the encoded bytes read.
func BenchmarkDequantize(b *testing.B) {
	x := gaussian(42, benchN)
	for _, typ := range Types() {
		b.Run(fmt.Sprintf("type=%s/n=%d", typ, benchN), func(b *testing.B) {
			src := make([]byte, mustRowSize(b, typ, benchN))
			if err := Quantize(typ, src, x); err != nil {
				b.Fatal(err)
			}
			y := make([]float32, benchN)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if err := Dequantize(typ, y, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
