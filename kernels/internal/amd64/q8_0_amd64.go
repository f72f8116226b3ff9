//go:build !purego

package amd64

import "unsafe"

//go:generate go run ./simdgen

// Q8_0 · Q8_0 kernels (q8_0_amd64.s, written by simdgen). w points at
// quant.BlockQ8_0 weight blocks (34 bytes), nb blocks a row, with every dot
// in exactly the order of kernels.dotQ8_0Generic, their Go twin
// (bit-identical results, except that a NaN may carry another payload).
// Every byte is a valid quant on either side, -128 included. Callers check
// every length; the kernels check nothing and read or write nothing beyond
// what each doc states.

// MatVecQ8_0AVX2 sets dst[r] = dot(w[r·nb:(r+1)·nb], x[:nb]) for r < rows,
// reading w[:rows·nb] and x[:nb] (Q8_0 blocks) and writing dst[:rows],
// one row at a time. It needs AVX2 and F16C.
//
//go:noescape
func MatVecQ8_0AVX2(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ8_0AVXVNNI is MatVecQ8_0AVX2 for CPUs with AVX-VNNI.
//
//go:noescape
func MatVecQ8_0AVXVNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ8_0AVX512 is MatVecQ8_0AVX2 for CPUs with AVX-512 F, BW and VL.
//
//go:noescape
func MatVecQ8_0AVX512(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ8_0AVX512VNNI is MatVecQ8_0AVX2 for CPUs with AVX-512 F, BW, VL
// and VNNI.
//
//go:noescape
func MatVecQ8_0AVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVX2 sets dst[c·ldd + r] = dot(w[r·nb:(r+1)·nb], column c) for
// r < rows and c < 2, where xp holds two activation columns of nb blocks
// packed by kernels.packQ8_0 for this kernel (192 bytes a block). It reads
// w[:rows·nb] and xp[:nb·192] and writes only those 2·rows elements of dst.
// It needs AVX2 and F16C.
//
//go:noescape
func MatMulQ8_0AVX2(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVXVNNI is MatMulQ8_0AVX2 for CPUs with AVX-VNNI (its own
// packing: quants and seeds instead of sign-extended words).
//
//go:noescape
func MatMulQ8_0AVXVNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVX512 is MatMulQ8_0AVX2 for CPUs with AVX-512 F, BW and VL,
// with eight columns (768 bytes a packed block).
//
//go:noescape
func MatMulQ8_0AVX512(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVX512VNNI is MatMulQ8_0AVX512 for CPUs with AVX-512 VNNI
// (packed as for MatMulQ8_0AVXVNNI).
//
//go:noescape
func MatMulQ8_0AVX512VNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)
