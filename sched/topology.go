package sched

import (
	"runtime"

	"github.com/klauspost/cpuid/v2"
)

// topology is what the pool needs to know about the machine.
type topology struct {
	// cpus holds one logical CPU per physical core the process may use, in
	// ascending order, when the sibling map is known (pinnable). Otherwise it
	// is nil and cores alone says how many physical cores there are.
	cpus  []int
	cores int
	// pinnable is false where workers cannot be pinned; note says why.
	pinnable bool
	note     string
	// affinity describes the process affinity mask, for messages.
	affinity string
}

// cpuidCores estimates the physical cores among logical usable CPUs from
// the CPUID counts, for platforms without a sibling map. It never returns
// less than 1.
func cpuidCores(logical int) int {
	cores := logical
	if tpc := cpuid.CPU.ThreadsPerCore; tpc > 1 {
		cores = logical / tpc
	}
	if pc := cpuid.CPU.PhysicalCores; pc > 0 && pc < cores {
		cores = pc
	}
	return max(cores, 1)
}

// usableCores caps the topology's cores by GOMAXPROCS.
func usableCores(t topology) (cores int, capped bool) {
	procs := runtime.GOMAXPROCS(0)
	if procs < t.cores {
		return procs, true
	}
	return t.cores, false
}
