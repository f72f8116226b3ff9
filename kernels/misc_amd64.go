//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/quant"
)

// The float32, dequantization and activation-quantization kernels of
// kernels/internal/amd64, adapted to Ops. Every adapter checks its lengths (a
// mismatch panics, as the generic kernels do) before the assembly touches
// memory.
//
// Which code each variant gets is in the amd64 table (register_amd64.go).

func dotF32(f func(a, b []float32) float32) func(a, b []float32) float32 {
	return func(a, b []float32) float32 { return f(a, b[:len(a)]) }
}

func axpy(f func(alpha float32, x, y []float32)) func(alpha float32, x, y []float32) {
	return func(alpha float32, x, y []float32) { f(alpha, x, y[:len(x)]) }
}

func expSum(f func(dst, x []float32, sub float32) float32) func(dst, x []float32, sub float32) float32 {
	return func(dst, x []float32, sub float32) float32 { return f(dst[:len(x)], x, sub) }
}

// blockPtr returns the address of the first block, or nil for none.
func blockPtr[B any](b []B) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

func f32Ptr(x []float32) *float32 {
	if len(x) == 0 {
		return nil
	}
	return &x[0]
}

// dequantK adapts a K-quant row dequantizer (256 values a block).
func dequantK[B quant.BlockQ4K | quant.BlockQ5K | quant.BlockQ6K](f func(dst *float32, src unsafe.Pointer, nb int)) func([]float32, []B) {
	return func(dst []float32, src []B) {
		if len(dst) != len(src)*quant.QK_K {
			panic("kernels: dequantize: len(dst) != 256·len(src)")
		}
		f(f32Ptr(dst), blockPtr(src), len(src))
	}
}

func dequantQ8_0(f func(dst *float32, src unsafe.Pointer, nb int)) func([]float32, []quant.BlockQ8_0) {
	return func(dst []float32, src []quant.BlockQ8_0) {
		if len(dst) != len(src)*quant.QK8 {
			panic("kernels: dequantize q8_0: len(dst) != 32·len(src)")
		}
		f(f32Ptr(dst), blockPtr(src), len(src))
	}
}

func quantizeQ8K(f func(dst unsafe.Pointer, src *float32, nb int)) func([]quant.BlockQ8K, []float32) {
	return func(dst []quant.BlockQ8K, src []float32) {
		if len(src) != len(dst)*quant.QK_K {
			panic("kernels: quantize q8_K: len(src) != 256·len(dst)")
		}
		f(blockPtr(dst), f32Ptr(src), len(dst))
	}
}

func quantizeQ8_0(f func(dst unsafe.Pointer, src *float32, nb int)) func([]quant.BlockQ8_0, []float32) {
	return func(dst []quant.BlockQ8_0, src []float32) {
		if len(src) != len(dst)*quant.QK8 {
			panic("kernels: quantize q8_0: len(src) != 32·len(dst)")
		}
		f(blockPtr(dst), f32Ptr(src), len(dst))
	}
}

// matVecF16 adapts a MatVecF16* kernel.
func matVecF16(f func(dst *float32, w *uint16, x *float32, rows, n int)) func([]float32, []quant.F16, []float32) {
	return func(dst []float32, w []quant.F16, x []float32) {
		if len(w) != len(dst)*len(x) {
			panic("kernels: MatVecF16: len(w) != len(dst)·len(x)")
		}
		if len(dst) == 0 {
			return
		}
		if len(x) == 0 {
			clear(dst)
			return
		}
		f(&dst[0], (*uint16)(unsafe.Pointer(&w[0])), &x[0], len(dst), len(x))
	}
}
