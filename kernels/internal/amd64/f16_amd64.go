//go:build !purego

package amd64

// Fused binary16 · float32 matrix-vector kernels (f16_amd64.s, written by
// simdgen).

// MatVecF16AVX2 sets dst[r] = Σ_i f16(w[r·n+i])·x[i] for r < rows, i < n,
// reading w[:rows·n] (binary16 bits) and x[:n] and writing dst[:rows];
// reassociated and fused like DotF32AVX2. Twin: kernels.matVecF16Generic.
// It needs AVX2, FMA3 and F16C.
//
//go:noescape
func MatVecF16AVX2(dst *float32, w *uint16, x *float32, rows, n int)

// MatVecF16AVX512 is MatVecF16AVX2 on 16 lanes with a masked tail. It
// needs AVX512F.
//
//go:noescape
func MatVecF16AVX512(dst *float32, w *uint16, x *float32, rows, n int)
