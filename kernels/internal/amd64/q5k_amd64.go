//go:build !purego

package amd64

import "unsafe"

// Q5_K · Q8_K kernels (q5k_amd64.s). The Go twin of every function here is
// dotQ5KGeneric in package kernels: each output element has exactly its bits
// (the package contract of kernels: exact integer sums, then the fixed float
// order without fused multiply-adds).
//
// Pointers: w points at rows·nb consecutive blockQ5K (row r at block r·nb),
// x at nb (MatVec) or 4·nb (MatMul4, column c at block c·nb) consecutive
// blockQ8K whose quants lie in [-127, 127]. Only those blocks and the listed
// outputs are accessed; nothing is written but dst. The caller checks every
// length: these functions check nothing. rows ≥ 0, nb ≥ 0 (nb = 0 gives
// +0 results). Activation blocks are read in place; no alignment is needed.

// MatVecQ5KAVX2 sets dst[r] = dotQ5KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for
// r < rows, prefetching the weights pf bytes ahead of the block it reads
// (prefetches never fault: any pf is safe, and none changes a result).
// Requires AVX2, F16C.
//
//go:noescape
func MatVecQ5KAVX2(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ5KAVXVNNI is MatVecQ5KAVX2 with VEX VPDPWSSD. Requires AVX2, F16C,
// AVX-VNNI.
//
//go:noescape
func MatVecQ5KAVXVNNI(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ5KAVX512 is MatVecQ5KAVX2 on zmm registers. Requires AVX512F,
// AVX512BW, AVX512VL, F16C.
//
//go:noescape
func MatVecQ5KAVX512(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ5KAVX512VNNI is MatVecQ5KAVX512 with VPDPWSSD. Requires AVX512F,
// AVX512BW, AVX512VL, AVX512VNNI, F16C.
//
//go:noescape
func MatVecQ5KAVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ5KAVX512VNNIGFNI is MatVecQ5KAVX512VNNI with the nibbles split by one
// VGF2P8AFFINEQB a chunk instead of a shift and a mask: the same bits.
// Requires AVX512F, AVX512BW, AVX512VL, AVX512VNNI, GFNI, F16C.
//
//go:noescape
func MatVecQ5KAVX512VNNIGFNI(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatMul4Q5KAVX2 sets dst[c·ldd+r] = dotQ5KGeneric(w[r·nb:(r+1)·nb],
// x[c·nb:(c+1)·nb]) for r < rows and c < 4 (ldd in elements): each weight
// block is decoded once for the four columns. Requires AVX2, F16C.
//
//go:noescape
func MatMul4Q5KAVX2(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul4Q5KAVXVNNI is MatMul4Q5KAVX2 with VEX VPDPWSSD. Requires AVX2,
// F16C, AVX-VNNI.
//
//go:noescape
func MatMul4Q5KAVXVNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul4Q5KAVX512 is MatMul4Q5KAVX2 on zmm registers. Requires AVX512F,
// AVX512BW, AVX512VL, F16C.
//
//go:noescape
func MatMul4Q5KAVX512(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul4Q5KAVX512VNNI is MatMul4Q5KAVX512 with VPDPWSSD. Requires
// AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C.
//
//go:noescape
func MatMul4Q5KAVX512VNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul8Q5KAVX2 sets dst[c·ldd+r] = dotQ5KGeneric(w[r·nb:(r+1)·nb],
// x[c·nb:(c+1)·nb]) for r < rows and c < 8: MatMul4Q5KAVX2 over eight
// columns, read where they are (not packed), so that each weight block is
// decoded once for eight dots. Requires AVX2, F16C.
//
//go:noescape
func MatMul8Q5KAVX2(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul8Q5KAVXVNNI is MatMul8Q5KAVX2 with VEX VPDPWSSD. Requires AVX2,
// F16C, AVX-VNNI.
//
//go:noescape
func MatMul8Q5KAVXVNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul8Q5KAVX512 is MatMul8Q4KAVX512 for Q5_K (176-byte blocks):
// dst[c·ldd+r] = dotQ5KGeneric(row r, column c), with the same segments,
// pairs and modes. Requires AVX512F, AVX512BW, AVX512VL, F16C.
//
//go:noescape
func MatMul8Q5KAVX512(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// MatMul8Q5KAVX512VNNI is MatMul8Q5KAVX512 with VPDPWSSD. Requires AVX512F,
// AVX512BW, AVX512VL, AVX512VNNI, F16C.
//
//go:noescape
func MatMul8Q5KAVX512VNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)
