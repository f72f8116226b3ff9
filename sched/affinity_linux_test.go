//go:build linux

package sched

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestPinning reads each helper's affinity back from the kernel: one
// logical CPU each, distinct physical cores, none of them the first usable
// core (left to the callers). Where the kernel refuses, the pool must say so.
func TestPinning(t *testing.T) {
	var ev events
	p, err := NewPool(WithSpin(testSpin), WithTrace(ev.sink))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Parallelism() < 2 {
		t.Skipf("%s: one usable core, no helper to pin", p.Name())
	}
	for _, d := range ev.downgrades() {
		if d.What == "pinning" {
			t.Logf("pinning refused here, and reported: %v", d)
			if !strings.Contains(p.Name(), "unpinned") {
				t.Fatalf("Name %q hides the refusal", p.Name())
			}
			return
		}
	}
	topo := probeTopology()
	seen := map[string]bool{}
	for _, w := range p.workers {
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(w.tid, &set); err != nil {
			t.Fatalf("thread %d: %v", w.tid, err)
		}
		if set.Count() != 1 || !set.IsSet(w.cpu) {
			t.Fatalf("helper %d (thread %d): affinity has %d CPUs, want only %d", w.seat, w.tid, set.Count(), w.cpu)
		}
		if w.cpu == topo.cpus[0] {
			t.Fatalf("helper %d pinned to the callers' core %d", w.seat, w.cpu)
		}
		if w.tid == unix.Getpid() {
			t.Fatalf("helper %d runs on the main thread", w.seat)
		}
		b, err := os.ReadFile(filepath.Join(sysCPU, "cpu"+strconv.Itoa(w.cpu), "topology", "thread_siblings_list"))
		if err != nil {
			t.Fatal(err)
		}
		if core := strings.TrimSpace(string(b)); seen[core] {
			t.Fatalf("two helpers on the core with siblings %s", core)
		} else {
			seen[core] = true
		}
		t.Logf("helper %d: thread %d pinned to CPU %d", w.seat, w.tid, w.cpu)
	}
	// The main thread keeps the whole process mask.
	var main unix.CPUSet
	if err := unix.SchedGetaffinity(unix.Getpid(), &main); err != nil || main.Count() < p.Parallelism() {
		t.Fatalf("main thread mask %d CPUs, %v", main.Count(), err)
	}
}

// TestTopologyFrom groups a made-up SMT machine by its sibling lists.
func TestTopologyFrom(t *testing.T) {
	root := t.TempDir()
	siblings := []string{"0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7"}
	for cpu, s := range siblings {
		dir := filepath.Join(root, "cpu"+strconv.Itoa(cpu), "topology")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "thread_siblings_list"), []byte(s+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ allowed, cpus []int }{
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, []int{0, 1, 2, 3}},
		{[]int{4, 5, 6, 7}, []int{4, 5, 6, 7}},
		{[]int{0, 4, 5}, []int{0, 5}},
		{[]int{2, 3, 6}, []int{2, 3}},
	} {
		topo := topologyFrom(root, c.allowed)
		if !topo.pinnable || !reflect.DeepEqual(topo.cpus, c.cpus) || topo.cores != len(c.cpus) {
			t.Fatalf("allowed %v: %+v, want cpus %v", c.allowed, topo, c.cpus)
		}
	}
	if got := formatCPUs([]int{0, 1, 2, 5, 7, 8}); got != "0-2,5,7-8" {
		t.Fatal(got)
	}
	// No sibling map: counts from CPUID, no pinning, and a reason.
	topo := topologyFrom(root, []int{0, 9})
	if topo.pinnable || topo.cores < 1 || !strings.Contains(topo.note, "sibling") {
		t.Fatalf("missing sysfs: %+v", topo)
	}
	p := newPool(config{workers: 2, pin: true, spin: testSpin, pinFunc: pinThread}, topology{cores: 2, note: topo.note, affinity: "0-1"})
	defer p.Close()
	if p.Parallelism() == 2 && (len(p.Downgrades()) != 1 || p.Downgrades()[0].What != "pinning") {
		t.Fatalf("unpinnable topology: %s %v", p.Name(), p.Downgrades())
	}
}

// threadCPU returns the CPU time the kernel has charged to a thread.
func threadCPU(t *testing.T, tid int) time.Duration {
	b, err := os.ReadFile("/proc/self/task/" + strconv.Itoa(tid) + "/schedstat")
	if err != nil {
		t.Skip("schedstat unavailable:", err)
	}
	ns, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(ns)
}

// TestIdlePoolStopsSpinning: after the spin window an idle pool's helpers
// park, and their CPU time stops growing; a region then wakes them.
func TestIdlePoolStopsSpinning(t *testing.T) {
	p, err := NewPool(WithWorkers(2), WithSpin(2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Parallelism() < 2 {
		t.Skip("no helper")
	}
	tid := p.workers[0].tid
	p.ForRange(1000, 1, func(int, int) {})
	time.Sleep(20 * time.Millisecond) // well past the spin window
	before := threadCPU(t, tid)
	time.Sleep(200 * time.Millisecond)
	grew := threadCPU(t, tid) - before
	t.Logf("helper CPU time over 200 ms idle: %v", grew)
	if grew > 10*time.Millisecond {
		t.Fatalf("idle helper used %v of CPU in 200 ms", grew)
	}
	counts := make([]int32, 500)
	p.ForEach(len(counts), 1, func(i int) { counts[i]++ })
	checkCounts(t, "after parking", counts)
}

// TestRunPinned: f runs on a thread other than the caller's and the main
// one, pinned to the callers' core alone; the caller's mask is untouched;
// a panic in f comes back as a *PanicError.
func TestRunPinned(t *testing.T) {
	p, err := NewPool(WithSpin(testSpin))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.callerCPU < 0 {
		err := p.RunPinned(func() { t.Error("f ran on a pool without a callers' core") })
		if !errors.Is(err, ErrNotPinned) || !strings.Contains(err.Error(), p.Name()) {
			t.Fatalf("RunPinned on %s: %v", p.Name(), err)
		}
		t.Skipf("%s: no callers' core to pin to (%v)", p.Name(), err)
	}
	// The caller keeps its thread, so that f cannot be given it and its
	// own mask can be read back after.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		t.Fatal(err)
	}
	caller := threadID()
	var set unix.CPUSet
	tid, ran := 0, false
	if err := p.RunPinned(func() {
		ran, tid = true, threadID()
		if err := unix.SchedGetaffinity(0, &set); err != nil {
			t.Error(err)
		}
		// The pool's regions work from there.
		counts := make([]int32, 1000)
		p.ForEach(len(counts), 1, func(i int) { counts[i]++ })
		checkCounts(t, "pinned caller", counts)
	}); err != nil {
		t.Fatal(err)
	}
	if !ran {
		t.Fatal("f did not run")
	}
	if tid == caller || tid == unix.Getpid() {
		t.Fatalf("f ran on thread %d (caller %d, main %d)", tid, caller, unix.Getpid())
	}
	if set.Count() != 1 || !set.IsSet(probeTopology().cpus[0]) {
		t.Fatalf("f's thread has %d CPUs in its mask, want only the callers' core %d", set.Count(), probeTopology().cpus[0])
	}
	var after unix.CPUSet
	if err := unix.SchedGetaffinity(0, &after); err != nil || after != before {
		t.Fatalf("caller's mask changed: %v", err)
	}
	func() {
		defer func() {
			pe, ok := recover().(*PanicError)
			if !ok || pe.Value != "boom" {
				t.Fatalf("recovered %v, want a *PanicError of boom", pe)
			}
		}()
		p.RunPinned(func() { panic("boom") })
		t.Fatal("RunPinned returned after a panic in f")
	}()
}

// TestRunPinnedRefused: where pinning fails, RunPinned says so and does
// not run f; a pool without helpers has no callers' core.
func TestRunPinnedRefused(t *testing.T) {
	p, err := NewPool(WithSpin(testSpin))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.callerCPU < 0 {
		t.Skipf("%s: no callers' core", p.Name())
	}
	p.pin = func(int) error { return errors.New("sched_setaffinity: operation not permitted") }
	if err := p.RunPinned(func() { t.Error("f ran") }); err == nil || !strings.Contains(err.Error(), "not permitted") {
		t.Fatalf("RunPinned with a refused pin: %v", err)
	}
	if err := p.RunPinned(nil); err == nil || !strings.Contains(err.Error(), "nil function") {
		t.Fatalf("RunPinned(nil): %v", err)
	}
	one, err := NewPool(WithWorkers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if err := one.RunPinned(func() { t.Error("f ran") }); !errors.Is(err, ErrNotPinned) {
		t.Fatalf("RunPinned on %s: %v", one.Name(), err)
	}
}
