//go:build !purego

package arm64

import "unsafe"

// Dequantizers (ASIMD). Each reads nb blocks from src and writes their
// nb·256 values (nb·32 for Q8_0) to dst, bit-exact with its Go twin in
// package quant (DequantizeRowQ4K, DequantizeRowQ5K, DequantizeRowQ6K,
// DequantizeRowQ8_0). They check nothing; the caller checks every length.

//go:noescape
func DequantQ4KNEON(dst *float32, src unsafe.Pointer, nb int)

//go:noescape
func DequantQ5KNEON(dst *float32, src unsafe.Pointer, nb int)

//go:noescape
func DequantQ6KNEON(dst *float32, src unsafe.Pointer, nb int)

//go:noescape
func DequantQ8_0NEON(dst *float32, src unsafe.Pointer, nb int)
