//go:build !purego

package amd64

import "unsafe"

// Q4_K · Q8_K kernels (q4k_amd64.s). The Go twin of every function here is
// dotQ4KGeneric in package kernels: each output element has exactly its bits
// (the package contract of kernels: exact integer sums, then the fixed float
// order without fused multiply-adds).
//
// Pointers: w points at rows·nb consecutive blockQ4K (row r at block r·nb),
// x at nb (MatVec) or 4·nb (MatMul4, column c at block c·nb) consecutive
// blockQ8K whose quants lie in [-127, 127]. Only those blocks and the listed
// outputs are accessed; nothing is written but dst. The caller checks every
// length: these functions check nothing. rows ≥ 0, nb ≥ 0 (nb = 0 gives
// +0 results). Activation blocks are read in place; no alignment is needed.

// Q8KPair is the activation layout of the MatMul8 kernels: block b of two
// activation columns side by side, so that one zmm register holds the same
// 32-value sub-block of both columns (and one weight sub-block, with one
// scale, multiplies both).
type Q8KPair struct {
	Qs    [8][64]int8   // sub-block j: its 32 quants in column 0, then in column 1
	BSums [2][16]int16  // the bsums of column 0, then of column 1
	D     [2][8]float32 // the scale of column 0 eight times, then of column 1
}

// Q8KQuad is the activation layout of MatVecQ4KPackedAVX512VNNIGFNI, one
// per Q8_K block, packed once per product: the kernel reads a weight block's
// 128 quant bytes with two plain 64-byte loads and splits each into its low
// and high nibbles, which puts sub-blocks 0 | 2, 1 | 3, 4 | 6 and 5 | 7 of
// the block side by side, and they take the d and dmin of four blocks at
// once.
type Q8KQuad struct {
	Qs    [8][32]int8   // the block's quants by sub-block, in the order 0, 2, 1, 3, 4, 6, 5, 7
	D     [4][2]float32 // the scales of this block and the next three (0 past the row), each twice
	BSums [16]int16     // the block's bsums
}

// MatVecQ4KAVX2 sets dst[r] = dotQ4KGeneric(w[r·nb:(r+1)·nb], x[:nb]) for
// r < rows, prefetching the weights pf bytes ahead of the block it reads
// (prefetches never fault: any pf is safe, and none changes a result).
// Requires AVX2, F16C.
//
//go:noescape
func MatVecQ4KAVX2(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ4KAVXVNNI is MatVecQ4KAVX2 with VEX VPDPWSSD. Requires AVX2, F16C,
// AVX-VNNI.
//
//go:noescape
func MatVecQ4KAVXVNNI(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ4KAVX512 is MatVecQ4KAVX2 on zmm registers. Requires AVX512F,
// AVX512BW, AVX512VL, F16C.
//
//go:noescape
func MatVecQ4KAVX512(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ4KAVX512VNNI is MatVecQ4KAVX512 with VPDPWSSD. Requires AVX512F,
// AVX512BW, AVX512VL, AVX512VNNI, F16C.
//
//go:noescape
func MatVecQ4KAVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ4KAVX512VNNIGFNI is MatVecQ4KAVX512VNNI with the nibbles split by one
// VGF2P8AFFINEQB a chunk instead of a shift and a mask: the same bits.
// Requires AVX512F, AVX512BW, AVX512VL, AVX512VNNI, GFNI, F16C.
//
//go:noescape
func MatVecQ4KAVX512VNNIGFNI(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatVecQ4KPackedAVX512VNNIGFNI is MatVecQ4KAVX512VNNIGFNI on the
// activations packed as nb Q8KQuad (xp): the same bits. Requires AVX512F,
// AVX512BW, AVX512VL, AVX512VNNI, GFNI, F16C.
//
//go:noescape
func MatVecQ4KPackedAVX512VNNIGFNI(dst *float32, w, xp unsafe.Pointer, rows, nb, pf int)

// MatMul4Q4KAVX2 sets dst[c·ldd+r] = dotQ4KGeneric(w[r·nb:(r+1)·nb],
// x[c·nb:(c+1)·nb]) for r < rows and c < 4 (ldd in elements): each weight
// block is decoded once for the four columns. Requires AVX2, F16C.
//
//go:noescape
func MatMul4Q4KAVX2(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul4Q4KAVXVNNI is MatMul4Q4KAVX2 with VEX VPDPWSSD. Requires AVX2,
// F16C, AVX-VNNI.
//
//go:noescape
func MatMul4Q4KAVXVNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul4Q4KAVX512 is MatMul4Q4KAVX2 on zmm registers. Requires AVX512F,
// AVX512BW, AVX512VL, F16C.
//
//go:noescape
func MatMul4Q4KAVX512(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul4Q4KAVX512VNNI is MatMul4Q4KAVX512 with VPDPWSSD. Requires
// AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C.
//
//go:noescape
func MatMul4Q4KAVX512VNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul8Q4KAVX2 sets dst[c·ldd+r] = dotQ4KGeneric(w[r·nb:(r+1)·nb],
// x[c·nb:(c+1)·nb]) for r < rows and c < 8: MatMul4Q4KAVX2 over eight
// columns, read where they are (not packed), so that each weight block is
// decoded once for eight dots. Requires AVX2, F16C.
//
//go:noescape
func MatMul8Q4KAVX2(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul8Q4KAVXVNNI is MatMul8Q4KAVX2 with VEX VPDPWSSD. Requires AVX2,
// F16C, AVX-VNNI.
//
//go:noescape
func MatMul8Q4KAVXVNNI(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)

// MatMul8Q4KAVX512 sets dst[c·ldd+r] = dotQ4KGeneric(row r, column c) for
// r < rows and c < 8, over one segment of nb blocks of every row: row r's
// segment starts at w + r·(nb·144 + wskip) bytes, and xp points at the
// segment of the eight activation columns packed as four column pairs of
// Q8KPair (pair p at xp + p·xstride bytes, its block b at + b·640). Each
// weight block is decoded once for the eight columns.
//
// Each row keeps 128 float32 sums (the eight columns' lanes of acc and
// accm). mode bit 0 (SegResume) starts them from acc[128r:][:128] instead
// of zero; mode bit 1 (SegFinish) adds them up into dst, else they are
// stored back into acc. A row computed in consecutive segments (SegFinish
// on the last only, SegResume on all but the first) gets exactly the bits
// of one pass over the row. It reads and writes acc[:128·rows] unless mode
// is SegFinish alone (acc may then be nil). Requires AVX512F, AVX512BW,
// AVX512VL, F16C.
//
//go:noescape
func MatMul8Q4KAVX512(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// MatMul8Q4KAVX512VNNI is MatMul8Q4KAVX512 with VPDPWSSD. Requires AVX512F,
// AVX512BW, AVX512VL, AVX512VNNI, F16C.
//
//go:noescape
func MatMul8Q4KAVX512VNNI(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)
