//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/kernels/internal/arm64"
	"github.com/corelane/corelane/quant"
)

// The activation quantizers and the dequantizers of kernels/internal/arm64, adapted
// to Ops (neon and dotprod share them: the dot-product extension has
// nothing to add). The adapters check the lengths (a mismatch panics)
// before the assembly touches memory.
var _ = addARM64(func(variant string, o *Ops) {
	switch variant {
	case "neon", "dotprod":
		o.QuantizeQ8K = quantizeRows[quant.BlockQ8K](arm64.QuantizeQ8KNEON, quant.QK_K)
		o.QuantizeQ8_0 = quantizeRows[quant.BlockQ8_0](arm64.QuantizeQ8_0NEON, quant.QK8)
		o.DequantQ4K = dequantRows[quant.BlockQ4K](arm64.DequantQ4KNEON, quant.QK_K)
		o.DequantQ5K = dequantRows[quant.BlockQ5K](arm64.DequantQ5KNEON, quant.QK_K)
		o.DequantQ6K = dequantRows[quant.BlockQ6K](arm64.DequantQ6KNEON, quant.QK_K)
		o.DequantQ8_0 = dequantRows[quant.BlockQ8_0](arm64.DequantQ8_0NEON, quant.QK8)
	}
})

func quantizeRows[B any](k func(dst unsafe.Pointer, src *float32, nb int), per int) func(dst []B, src []float32) {
	return func(dst []B, src []float32) {
		if len(src) != len(dst)*per {
			panic("kernels: Quantize: len(src) is not len(dst) blocks")
		}
		if len(dst) == 0 {
			return
		}
		k(unsafe.Pointer(&dst[0]), &src[0], len(dst))
	}
}

func dequantRows[B any](k func(dst *float32, src unsafe.Pointer, nb int), per int) func(dst []float32, src []B) {
	return func(dst []float32, src []B) {
		if len(dst) != len(src)*per {
			panic("kernels: Dequant: len(dst) is not the values of len(src) blocks")
		}
		if len(src) == 0 {
			return
		}
		k(&dst[0], unsafe.Pointer(&src[0]), len(src))
	}
}
