//go:build !purego

package amd64

import "unsafe"

// Q8_0 · Q8_0 kernels (q8_0_amd64.s, written by simdgen). w points at
// quant.BlockQ8_0 weight blocks (34 bytes), nb blocks a row, with every dot
// in exactly the order of kernels.dotQ8_0Generic, their Go twin
// (bit-identical results, except that a NaN may carry another payload).
// Every byte is a valid quant on either side, -128 included. Callers check
// every length; the kernels check nothing and read or write nothing beyond
// what each doc states.

// PackQ8_0Sext writes the nb Q8_0 activation blocks at x into xp (68·nb
// bytes) in the layout MatVecQ8_0PackedAVX2 and MatVecQ8_0PackedAVX512 read: the even
// quants as int16 words (32 bytes a block), then at byte 32·nb the odd
// ones, then at 64·nb the scales as float32. It needs AVX2 and F16C.
//
//go:noescape
func PackQ8_0Sext(xp, x unsafe.Pointer, nb int)

// PackQ8_0VNNI is PackQ8_0Sext for MatVecQ8_0PackedAVXVNNI and
// MatVecQ8_0PackedAVX512VNNI: the quants (32 bytes a block), then at 32·nb eight
// int32 seeds -128·(q[4l] + … + q[4l+3]) a block, then the scales.
//
//go:noescape
func PackQ8_0VNNI(xp, x unsafe.Pointer, nb int)

// MatVecQ8_0AVX2 sets dst[r] = dot(w[r·nb:(r+1)·nb], x[:nb]) for r < rows,
// reading w[:rows·nb] and x[:nb] (Q8_0 blocks) and writing dst[:rows], one
// row at a time. It needs AVX2 and F16C.
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

// MatVecQ8_0PackedAVX2 is MatVecQ8_0AVX2 on x packed by PackQ8_0Sext (xp,
// 68·nb bytes): the same bits, less work per row.
//
//go:noescape
func MatVecQ8_0PackedAVX2(dst *float32, w, xp unsafe.Pointer, rows, nb int)

// MatVecQ8_0PackedAVXVNNI is MatVecQ8_0AVXVNNI on x packed by PackQ8_0VNNI.
//
//go:noescape
func MatVecQ8_0PackedAVXVNNI(dst *float32, w, xp unsafe.Pointer, rows, nb int)

// MatVecQ8_0PackedAVX512 is MatVecQ8_0AVX512 on x packed by PackQ8_0Sext.
//
//go:noescape
func MatVecQ8_0PackedAVX512(dst *float32, w, xp unsafe.Pointer, rows, nb int)

// MatVecQ8_0PackedAVX512VNNI is MatVecQ8_0AVX512VNNI on x packed by
// PackQ8_0VNNI.
//
//go:noescape
func MatVecQ8_0PackedAVX512VNNI(dst *float32, w, xp unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVX2 sets dst[c·ldd + r] = dot(w[r·nb:(r+1)·nb], column c) for
// r < rows and c < 2, where xp holds two activation columns of nb blocks
// packed by kernels.packQ8_0 for this kernel (192 bytes a block:
// sign-extended words and dx). It reads
// w[:rows·nb] and xp[:nb·192] and writes only those 2·rows elements of dst.
// It needs AVX2 and F16C.
//
//go:noescape
func MatMulQ8_0AVX2(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVXVNNI is MatMulQ8_0AVX2 for CPUs with AVX-VNNI, with its
// own packing (x + 128 and dx: 128 bytes a block).
//
//go:noescape
func MatMulQ8_0AVXVNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)

// MatMulQ8_0AVX512VNNI is MatMulQ8_0AVXVNNI for CPUs with AVX-512 F, BW,
// VL and VNNI, with eight columns (512 bytes a packed block). (The avx512
// variant uses MatMulQ8_0AVX2.)
//
//go:noescape
func MatMulQ8_0AVX512VNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)
