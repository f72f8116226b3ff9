//go:build !purego

package arm64

import "unsafe"

// The quantized dot kernels. Each computes whole rows per call:
//
//	dst[r] = dot(row r of w, x)   for r < rows,
//
// where row r is the nb consecutive weight blocks starting at block r·nb of
// w, and x holds nb activation blocks (Q8_0 for DotQ8_0*, DotQ4_0* and
// DotQ5_0*, Q8_K for the K-quants). Every routine reads exactly rows·nb weight blocks and nb
// activation blocks and writes exactly rows float32 values; it checks
// nothing, so the caller (package kernels) checks every length first. Any
// of rows and nb may be 0 (nb = 0 writes +0 to each row).
//
// The Go twin of each is the generic kernel of the same type in package
// kernels (dotQ8_0Generic, dotQ4KGeneric, dotQ5KGeneric, dotQ6KGeneric,
// dotQ4_0Generic, dotQ5_0Generic):
// the integer work is exact and the float work follows the package doc's
// fixed order, so every result has the bits of the twin (for
// Q4_0 and Q5_0 the order is ggml's generic one, legacy_arm64.s).
//
// The *SDOT routines need ASIMD and FEAT_DotProd; the *NEON routines need
// ASIMD only.

//go:noescape
func DotQ8_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ8_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ4KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ4KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ5KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ5KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ6KSDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ6KNEON(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ4_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ4_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ5_0SDOT(dst *float32, w, x unsafe.Pointer, rows, nb int)

//go:noescape
func DotQ5_0NEON(dst *float32, w, x unsafe.Pointer, rows, nb int)
