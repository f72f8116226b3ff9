//go:build !purego

package amd64

import "unsafe"

// Activation quantizers. src points to nb·256 float32 (nb·32 for Q8_0),
// dst to nb blocks laid out as quant.BlockQ8K or quant.BlockQ8_0 (mirrored
// in blocks.go); nb may be 0. Every byte of the nb blocks is written, and
// nothing else. The bytes are identical to the Go twins' for finite input;
// for NaN or ±Inf they are unspecified (the kernels package rejects such
// input before calling).

// QuantizeQ8KAVX2 quantizes nb Q8_K blocks: iscale = −127/max (max the
// first value of largest magnitude), qs = min(127, round-half-even(
// iscale·x)), bsums, d = 1/iscale; an all-zero block is zero bytes. Twin:
// quant.QuantizeRowQ8K.
//
//go:noescape
func QuantizeQ8KAVX2(dst unsafe.Pointer, src *float32, nb int)

// QuantizeQ8KAVX512 is QuantizeQ8KAVX2 on 16 lanes. Twin:
// quant.QuantizeRowQ8K.
//
//go:noescape
func QuantizeQ8KAVX512(dst unsafe.Pointer, src *float32, nb int)

// QuantizeQ8_0AVX2 quantizes nb Q8_0 blocks: d = amax/127 stored as fp16
// (round to nearest even), qs = roundf(x·(1/d)) with ties away from zero.
// Twin: quant.QuantizeRowQ8_0.
//
//go:noescape
func QuantizeQ8_0AVX2(dst unsafe.Pointer, src *float32, nb int)

// QuantizeQ8_0AVX512 is QuantizeQ8_0AVX2 on 16 lanes. Twin:
// quant.QuantizeRowQ8_0.
//
//go:noescape
func QuantizeQ8_0AVX512(dst unsafe.Pointer, src *float32, nb int)
