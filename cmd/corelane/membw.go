package main

import (
	"fmt"
	"io"
	"time"

	"github.com/klauspost/cpuid/v2"

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

// reportRoofline prints what the weights alone bound decode at: weight
// bytes read per token against the read bandwidth measured here, now, on
// one thread and on the hardware pool, and how close each run came.
func reportRoofline(out io.Writer, bytesPerToken int, results []runResult, progress func(string)) {
	progress("measuring DRAM read bandwidth")
	buf := make([]float32, bwBytes/4)
	for i := range buf {
		buf[i] = 1
	}
	bw := map[int]float64{1: readBandwidth(sched.Sequential, buf)}
	hw := sched.Hardware()
	bw[hw.Parallelism()] = readBandwidth(hw, buf)
	progress("")
	fmt.Fprintf(out, "roofline: %.1f MB of weights per token; DRAM read %.1f GB/s on 1 thread, %.1f GB/s on %d (measured now over %d MiB)\n",
		float64(bytesPerToken)/1e6, bw[1]/1e9, bw[hw.Parallelism()]/1e9, hw.Parallelism(), bwBytes>>20)
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
