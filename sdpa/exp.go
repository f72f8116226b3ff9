package sdpa

import "github.com/corelane/corelane/kernels"

// The bounds of exp32 (see kernels.ExactExp32).
const (
	expOverflow  = kernels.ExactExpOverflow
	expUnderflow = kernels.ExactExpUnderflow
)

// exp32 returns e^x rounded to float32: the exponential of Exact mode,
// kernels.ExactExp32 (within 1 ulp of the correctly rounded value, measured
// to be the correctly rounded one for every float32, and the same bits on
// every machine; TestExp32Exhaustive and TestExactGolden pin it).
func exp32(x float32) float32 { return kernels.ExactExp32(x) }
