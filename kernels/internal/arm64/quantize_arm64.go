//go:build !purego

package arm64

import "unsafe"

// Activation quantizers (ASIMD). Each reads nb·32 (Q8_0) or nb·256 (Q8_K)
// float32 values from src and writes nb blocks to dst, bit-exact with its
// Go twin in package quant (QuantizeRowQ8_0, QuantizeRowQ8K: ggml's
// reference quantizers). src must be finite; the caller checks that, and
// every length.

// QuantizeQ8_0NEON quantizes nb blocks of 32 values to Q8_0.
//
//go:noescape
func QuantizeQ8_0NEON(dst unsafe.Pointer, src *float32, nb int)

// QuantizeQ8KNEON quantizes nb blocks of 256 values to Q8_K.
//
//go:noescape
func QuantizeQ8KNEON(dst unsafe.Pointer, src *float32, nb int)
