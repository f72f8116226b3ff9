//go:build !purego

package amd64

import "unsafe"

// Row dequantizers. src points to nb blocks laid out as quant.BlockQ4K,
// BlockQ5K, BlockQ6K or BlockQ8_0 (mirrored in blocks.go), dst to nb·256
// float32 (nb·32 for Q8_0); nb may be 0. Exactly those bytes are read and
// written. The results are bit-identical to the Go twins: the same float32
// operations with the same roundings, no FMA.

// DequantQ4KAVX2 writes x = (d·sc)·q − dmin·m for nb Q4_K super-blocks.
// Twin: quant.DequantizeRowQ4K.
//
//go:noescape
func DequantQ4KAVX2(dst *float32, src unsafe.Pointer, nb int)

// DequantQ4KAVX512 is DequantQ4KAVX2 by table lookup: per sub-block the 16
// possible values are computed as the twin computes them, then selected with
// VPERMPS. Twin: quant.DequantizeRowQ4K.
//
//go:noescape
func DequantQ4KAVX512(dst *float32, src unsafe.Pointer, nb int)

// DequantQ5KAVX2 writes x = (d·sc)·q − dmin·m for nb Q5_K super-blocks.
// Twin: quant.DequantizeRowQ5K.
//
//go:noescape
func DequantQ5KAVX2(dst *float32, src unsafe.Pointer, nb int)

// DequantQ5KAVX512 is DequantQ5KAVX2 converting 16 values at a time. Twin:
// quant.DequantizeRowQ5K.
//
//go:noescape
func DequantQ5KAVX512(dst *float32, src unsafe.Pointer, nb int)

// DequantQ6KAVX2 writes x = (d·scale)·q for nb Q6_K super-blocks. Twin:
// quant.DequantizeRowQ6K.
//
//go:noescape
func DequantQ6KAVX2(dst *float32, src unsafe.Pointer, nb int)

// DequantQ6KAVX512 is DequantQ6KAVX2 converting 16 values at a time. Twin:
// quant.DequantizeRowQ6K.
//
//go:noescape
func DequantQ6KAVX512(dst *float32, src unsafe.Pointer, nb int)

// DequantQ8_0AVX2 writes x = float32(q)·d for nb Q8_0 blocks. Twin:
// quant.DequantizeRowQ8_0.
//
//go:noescape
func DequantQ8_0AVX2(dst *float32, src unsafe.Pointer, nb int)

// DequantQ8_0AVX512 is DequantQ8_0AVX2 on 16 lanes. Twin:
// quant.DequantizeRowQ8_0.
//
//go:noescape
func DequantQ8_0AVX512(dst *float32, src unsafe.Pointer, nb int)

// DequantQ4KAVX512 converts d and dmin with one load: dmin must follow d.
var _ = [1]struct{}{}[unsafe.Offsetof(blockQ4K{}.dmin)-unsafe.Offsetof(blockQ4K{}.d)-2]
