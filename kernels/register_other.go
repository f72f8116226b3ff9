//go:build purego || !(amd64 || arm64)

package kernels

// archVariants: none; only the generic kernels exist on this target or in
// a purego build.
func archVariants() []Variant { return nil }

// archTuning is Report.Tuning: nothing is tuned per CPU here.
func archTuning() []string { return nil }
