//go:build race

package sched

// stressRegions is the regions each of TestStress's 64 goroutines runs. The
// race detector slows regions ~20x, so -race runs 300 (19,200 in all); the
// full 2,000 each run without -race.
const stressRegions = 300
