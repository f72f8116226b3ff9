//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/kernels/arm64"
	"github.com/corelane/corelane/quant"
)

// The activation quantizers of kernels/arm64, adapted to Ops (neon and
// dotprod share them: the dot-product extension has nothing to add). The
// adapters check the lengths (a mismatch panics) before the assembly
// touches memory.
var _ = addARM64(func(variant string, o *Ops) {
	switch variant {
	case "neon", "dotprod":
		o.QuantizeQ8K = quantizeRows[quant.BlockQ8K](arm64.QuantizeQ8KNEON, quant.QK_K)
		o.QuantizeQ8_0 = quantizeRows[quant.BlockQ8_0](arm64.QuantizeQ8_0NEON, quant.QK8)
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
