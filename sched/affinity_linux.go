//go:build linux

package sched

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// sysCPU is where the kernel publishes CPU topology; a variable so tests can
// point it at a made-up machine.
var sysCPU = "/sys/devices/system/cpu"

// probeTopology reads the process affinity mask and the SMT sibling lists,
// and keeps the lowest allowed logical CPU of each physical core.
func probeTopology() topology {
	var set unix.CPUSet
	// The mask of the thread whose id is the process id (the main thread):
	// the calling thread may be a pinned worker of another pool.
	if err := unix.SchedGetaffinity(unix.Getpid(), &set); err != nil {
		n := runtime.NumCPU()
		return topology{cores: cpuidCores(n), note: fmt.Sprintf("affinity mask unreadable: %v", err),
			affinity: fmt.Sprintf("%d CPUs", n)}
	}
	var allowed []int
	for cpu := 0; cpu < len(set)*64; cpu++ {
		if set.IsSet(cpu) {
			allowed = append(allowed, cpu)
		}
	}
	return topologyFrom(sysCPU, allowed)
}

// topologyFrom groups the allowed CPUs by physical core using the sibling
// lists under root. Where a list is unreadable it falls back to the CPUID
// counts and does not pin, since it cannot know which CPUs share a core.
func topologyFrom(root string, allowed []int) topology {
	t := topology{affinity: formatCPUs(allowed)}
	if len(allowed) == 0 {
		t.cores, t.note = 1, "empty affinity mask"
		return t
	}
	seen := make(map[string]bool)
	for _, cpu := range allowed {
		b, err := os.ReadFile(filepath.Join(root, "cpu"+strconv.Itoa(cpu), "topology", "thread_siblings_list"))
		if err != nil {
			return topology{cores: cpuidCores(len(allowed)), affinity: t.affinity,
				note: fmt.Sprintf("SMT sibling map unreadable: %v", err)}
		}
		key := strings.TrimSpace(string(b))
		if seen[key] {
			continue // an SMT sibling of a core we already have
		}
		seen[key] = true
		t.cpus = append(t.cpus, cpu)
	}
	t.cores, t.pinnable = len(t.cpus), true
	return t
}

// formatCPUs writes a CPU list the way the kernel does: "0-3,8".
func formatCPUs(cpus []int) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(cpus[i]))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(cpus[j]))
		}
		i = j + 1
	}
	return b.String()
}

// pinThread restricts the calling OS thread to one logical CPU. The caller
// must hold runtime.LockOSThread.
var pinThread = func(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("sched_setaffinity(cpu %d): %w", cpu, err)
	}
	return nil
}

// threadID is the kernel id of the calling OS thread.
func threadID() int { return unix.Gettid() }

// onMainThread reports whether the calling goroutine runs on the process's
// main thread.
func onMainThread() bool { return unix.Gettid() == unix.Getpid() }
