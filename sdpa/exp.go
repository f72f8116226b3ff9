package sdpa

import "github.com/corelane/corelane/kernels"

// The bounds of exp32 (see kernels.Exp).
const (
	expOverflow  = kernels.ExpOverflow
	expUnderflow = kernels.ExpUnderflow
)

// exp32 is the exponential of Exact mode: kernels.Exp, the module's one
// correctly rounded float32 exp (same bits on every GOARCH and CPU; its
// tests, exhaustive over the float32 range, are in package kernels).
func exp32(x float32) float32 { return kernels.Exp(x) }
