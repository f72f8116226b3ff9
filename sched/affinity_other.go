//go:build !linux

package sched

import (
	"errors"
	"fmt"
	"runtime"
)

// probeTopology knows only the CPUID counts here: there is no portable
// sibling map, so workers are not pinned.
func probeTopology() topology {
	n := runtime.NumCPU()
	return topology{
		cores:    cpuidCores(n),
		note:     fmt.Sprintf("thread affinity is not supported on %s/%s", runtime.GOOS, runtime.GOARCH),
		affinity: fmt.Sprintf("%d CPUs", n),
	}
}

var pinThread = func(cpu int) error {
	return errors.New("sched: thread affinity is not supported on " + runtime.GOOS)
}

func threadID() int { return 0 }

// onMainThread is false here: nothing is pinned, so any thread will do.
func onMainThread() bool { return false }
