//go:build !race

package sched

// stressRegions is the regions each of TestStress's 64 goroutines runs
// (128,000 in all); see stress_race_test.go for -race.
const stressRegions = 2000
