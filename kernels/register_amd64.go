//go:build !purego

package kernels

import "github.com/klauspost/cpuid/v2"

// The amd64 variants and the CPU features each one's code uses. The kernels
// themselves live in kernels/internal/amd64; the files *_amd64.go in this package
// adapt them to Ops and add them to amd64Ops.
var amd64Variants = []Variant{
	{Name: "avx2", Rank: 10, Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C}},
	{Name: "avxvnni", Rank: 15, Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVXVNNI}},
	{Name: "avx512", Rank: 20, Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL}},
	{Name: "avx512vnni", Rank: 30, Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VNNI}},
}

// amd64Ops collects, per variant name, functions that fill in that
// variant's ops. Files add to it from package-level variable initializers
// (which run before the registry's init), e.g.
//
//	var _ = addAMD64(func(variant string, o *Ops) { ... })
var amd64Ops []func(variant string, o *Ops)

func addAMD64(f func(variant string, o *Ops)) bool {
	amd64Ops = append(amd64Ops, f)
	return true
}

// archVariants returns the amd64 assembly variants that implement at least
// one op.
func archVariants() []Variant { return withOps(amd64Variants, amd64Ops) }
