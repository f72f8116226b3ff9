//go:build !purego

package kernels

import "github.com/klauspost/cpuid/v2"

// The arm64 variants and the CPU features each one's code uses. The kernels
// themselves live in kernels/internal/arm64; the files *_arm64.go in this package
// adapt them to Ops and add them to arm64Ops.
var arm64Variants = []Variant{
	{Name: "neon", Rank: 10, Requires: []cpuid.FeatureID{cpuid.ASIMD}},
	{Name: "dotprod", Rank: 20, Requires: []cpuid.FeatureID{cpuid.ASIMD, cpuid.ASIMDDP}},
}

// arm64Ops collects, per variant name, functions that fill in that
// variant's ops, added from package-level variable initializers:
//
//	var _ = addARM64(func(variant string, o *Ops) { ... })
var arm64Ops []func(variant string, o *Ops)

func addARM64(f func(variant string, o *Ops)) bool {
	arm64Ops = append(arm64Ops, f)
	return true
}

// archVariants returns the arm64 assembly variants that implement at least
// one op.
func archVariants() []Variant { return withOps(arm64Variants, arm64Ops) }
