//go:build !purego

package amd64

import "unsafe"

// Legacy Q4_0 · Q8_0 and Q5_0 · Q8_0 kernels (legacy_amd64.s, written by
// simdgen), AVX2 and F16C code for every amd64 variant. w points at
// quant.BlockQ4_0 (18 bytes) or BlockQ5_0 (22 bytes) blocks, x at
// BlockQ8_0 blocks, nb a row; every dot has exactly the bits of
// kernels.dotQ4_0Generic / dotQ5_0Generic (ggml's generic order), for every
// byte pattern, except that a NaN may carry another payload. Callers check
// every length; the kernels check nothing.

// MatVecQ4_0AVX2 sets dst[r] = dot(w[r·nb:(r+1)·nb], x[:nb]) for r < rows,
// reading w[:rows·nb] and x[:nb] and writing dst[:rows].
//
//go:noescape
func MatVecQ4_0AVX2(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ5_0AVX2 is MatVecQ4_0AVX2 for Q5_0 weights.
//
//go:noescape
func MatVecQ5_0AVX2(dst *float32, w, x unsafe.Pointer, rows, nb int)
