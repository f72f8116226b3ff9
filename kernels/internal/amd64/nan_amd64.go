//go:build !purego

package amd64

// CanonNaNsAVX2 replaces every NaN of dst[:n] with the quiet NaN 0x7fc00000
// and leaves every other value as it is. It reads and writes only dst[:n]
// (a 32-byte group is stored back only when it holds a NaN). Twin:
// kernels.canonNaNs. It needs AVX2.
//
//go:noescape
func CanonNaNsAVX2(dst *float32, n int)
