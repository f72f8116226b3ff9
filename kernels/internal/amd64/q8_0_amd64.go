//go:build !purego

package amd64

import "unsafe"

// Q8_0 · Q8_0 row kernels (q8_0_amd64.s). Each sets
//
//	dst[r·inc] = dot(w[r·nb : (r+1)·nb], x[:nb])   for r < rows
//
// where w points at rows·nb blocks of 34 bytes (quant.BlockQ8_0) and x at nb
// blocks, with the dot in exactly the order of kernels.dotQ8_0Generic, its
// Go twin (bit-identical results). The kernels read w[:rows·nb] and x[:nb]
// and write only the rows elements dst[r·inc]; rows == 0 or nb == 0 read
// nothing. Every byte is a valid quant on either side, -128 included.
// Callers check every length; the kernels check nothing.

// MatVecQ8_0AVX2 needs AVX2 and F16C.
//
//go:noescape
func MatVecQ8_0AVX2(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)

// MatVecQ8_0AVXVNNI needs AVX2, AVX-VNNI and F16C.
//
//go:noescape
func MatVecQ8_0AVXVNNI(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)

// MatVecQ8_0AVX512 needs AVX2, AVX512F, AVX512BW, AVX512VL and F16C.
//
//go:noescape
func MatVecQ8_0AVX512(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)

// MatVecQ8_0AVX512VNNI needs AVX2, AVX512F, AVX512BW, AVX512VL, AVX512VNNI
// and F16C.
//
//go:noescape
func MatVecQ8_0AVX512VNNI(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)
