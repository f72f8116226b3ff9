package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/internal/hugemem"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/sched"
)

// bwBytes is the buffer readBandwidth streams: far larger than any
// last-level cache, so every pass reads DRAM.
const bwBytes = 512 << 20

// readBandwidth returns the best of a few passes' read rate (bytes per
// second) of s over buf, each task summing its share with the kernels'
// float32 dot of the share with itself (one load stream, the SIMD loads a
// matvec does).
func readBandwidth(s sched.Schedule, buf []float32) float64 {
	dot := kernels.Current().DotF32
	tasks := s.Parallelism()
	grain := (len(buf) + tasks - 1) / tasks
	sink := make([]float32, tasks+1)
	best := 0.0
	for pass := 0; pass < 4; pass++ {
		start := time.Now()
		s.ForRange(len(buf), grain, func(lo, hi int) {
			sink[lo/grain] += dot(buf[lo:hi], buf[lo:hi])
		})
		if r := float64(4*len(buf)) / time.Since(start).Seconds(); r > best {
			best = r
		}
	}
	return best
}

// measureBandwidth returns the read bandwidth (bytes per second) of one
// thread and of the hardware pool, keyed by thread count. With huge, the
// buffer comes from hugemem, as the weights then do: the roofline compares
// the weights' stream with a read of the same kind of memory.
func measureBandwidth(huge bool, progress func(string)) map[int]float64 {
	progress("measuring DRAM read bandwidth")
	defer progress("")
	var buf []float32
	if huge {
		b, err := hugemem.Alloc(bwBytes)
		if err != nil {
			fmt.Fprintf(os.Stderr, "corelane: %v: the bandwidth is measured over Go heap memory instead\n", err)
		} else {
			defer b.Free()
			buf = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b.Bytes))), bwBytes/4)
		}
	}
	if buf == nil {
		buf = make([]float32, bwBytes/4)
	}
	for i := range buf {
		buf[i] = 1
	}
	hw := sched.Hardware()
	return map[int]float64{1: readBandwidth(sched.Sequential, buf), hw.Parallelism(): readBandwidth(hw, buf)}
}

// reportRoofline prints what the weights alone bound decode at: weight
// bytes read per token against the read bandwidth, and how close each run
// came. The bandwidth is measured before the runs (before) and now, after
// them; a shared machine's bandwidth moves from minute to minute, so the
// roofline takes the better of the two for each thread count (the decode
// percentages are then, if anything, low).
func reportRoofline(out io.Writer, bytesPerToken int, results []runResult, before map[int]float64, huge bool, progress func(string)) {
	after := measureBandwidth(huge, progress)
	hw := sched.Hardware().Parallelism()
	bw := map[int]float64{}
	for n, b := range after {
		bw[n] = max(b, before[n])
	}
	pages := "Go heap memory"
	if huge {
		pages = "memory with huge pages requested, as for the weights"
	}
	fmt.Fprintf(out, "roofline: %.1f MB of weights per token; DRAM read %.1f GB/s on 1 thread, %.1f GB/s on %d (the better of %.1f / %.1f before the runs and %.1f / %.1f after, over %d MiB of %s)\n",
		float64(bytesPerToken)/1e6, bw[1]/1e9, bw[hw]/1e9, hw, before[1]/1e9, before[hw]/1e9, after[1]/1e9, after[hw]/1e9, bwBytes>>20, pages)
	if l3 := cpuid.CPU.Cache.L3; l3 > 0 && bytesPerToken < l3 {
		fmt.Fprintf(out, "roofline: the weights fit in the %d MiB last-level cache: decode reads them from there, not from DRAM\n", l3>>20)
	}
	for _, r := range results {
		if r.decodeN == 0 || r.decode <= 0 {
			continue
		}
		b, ok := bw[r.threads]
		if !ok {
			continue
		}
		roof := b / float64(bytesPerToken)
		got := float64(r.decodeN) / r.decode.Seconds()
		fmt.Fprintf(out, "roofline: %s %s decode %.2f tok/s = %.0f%% of the %.2f tok/s the bandwidth allows\n", r.sched, r.mode, got, 100*got/roof, roof)
	}
}

// probeBytes is the size of each buffer choosePages reads: four times the
// largest L3 it was run on, so each read, after one of the other buffer,
// starts outside the caches.
const probeBytes = 128 << 20

// choosePages decides where a random model's weights go when -hugepages is
// not given: it reads a buffer from hugemem (huge pages requested) and one
// from the Go heap alternately, probeRounds times each, and takes huge pages
// if the median of the rounds' time ratios (huge / heap) is below
// hugeMargin. Huge pages cost memory the kernel cannot page out, so a tie
// goes to the heap. Huge pages are not always faster: on one Zen 5 guest, reads from
// them took about 1.1× as long as from 4 KiB pages, and decode 1.14×
// (bench/results/2026-12-05-zen5-decode2t); on a Zen 3 guest they made
// the matvecs 13% faster (bench/results/2026-12-03-zen3-kq). why says what
// was measured.
func choosePages(progress func(string)) (huge bool, why string) {
	const probeRounds, hugeMargin = 15, 0.97
	progress("measuring reads from huge and from 4 KiB pages")
	defer progress("")
	before, known := hugemem.HugeBytes()
	b, err := hugemem.Alloc(probeBytes)
	if err != nil {
		return false, fmt.Sprintf("the Go heap: no memory for the page probe from hugemem (%v)", err)
	}
	defer b.Free()
	hp := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b.Bytes))), probeBytes/4)
	heap := make([]float32, probeBytes/4)
	for i := range heap {
		hp[i], heap[i] = 1, 1
	}
	if after, ok := hugemem.HugeBytes(); known && ok && after-before < probeBytes/2 {
		return false, fmt.Sprintf("the Go heap: the system granted no huge pages (%d of %d MiB probed)", max(after-before, 0)>>20, probeBytes>>20)
	}
	dot := kernels.Current().DotF32
	var sink float32
	read := func(x []float32) time.Duration {
		t0 := time.Now()
		sink += dot(x, x)
		return time.Since(t0)
	}
	ratios := make([]float64, probeRounds)
	for r := range ratios {
		var th, t4 time.Duration
		if r%2 == 0 {
			th, t4 = read(hp), read(heap)
		} else {
			t4, th = read(heap), read(hp)
		}
		ratios[r] = th.Seconds() / t4.Seconds()
	}
	slices.Sort(ratios)
	med := ratios[probeRounds/2]
	place := "the Go heap (4 KiB pages)"
	if med < hugeMargin {
		huge, place = true, "huge pages"
	}
	_ = sink
	return huge, fmt.Sprintf("%s: reading %d MiB from huge pages took %.2f× the time of reading it from 4 KiB pages (median of %d alternating reads; huge pages below %.2f×; -hugepages=true|false decides instead)",
		place, probeBytes>>20, med, probeRounds, hugeMargin)
}

// reportPages says where the weights are and how much of the process's
// memory the system put in huge pages, so that -hugepages is seen to take
// effect (or not: transparent huge pages off, no free 2 MiB frames).
func reportPages(out io.Writer, huge, file bool, weightBytes int64, chosen string) {
	if chosen != "" {
		fmt.Fprintf(out, "pages: weights in %s\n", chosen)
	}
	switch {
	case !huge && file:
		fmt.Fprintf(out, "pages: weights mapped from the file (-hugepages reads them into huge pages)\n")
		return
	case !huge && chosen == "":
		fmt.Fprintf(out, "pages: weights in the Go heap (-hugepages=false)\n")
		return
	case !huge:
		return
	}
	hb, ok := hugemem.HugeBytes()
	if !ok {
		fmt.Fprintf(out, "pages: huge pages requested for the weights; how many were granted is not known on this system\n")
		return
	}
	fmt.Fprintf(out, "pages: huge pages requested for the %.1f MB of weights; %.1f MB of the process's memory is in huge pages\n", float64(weightBytes)/1e6, float64(hb)/1e6)
}
