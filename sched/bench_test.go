package sched_test

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/corelane/corelane/sched"
)

// The benchmarks run Pool and the usual Go baselines in the same run, with
// key=value names so benchstat can pivot on impl or sched:
//
//	go test -run '^$' -bench . -count 10 ./sched | tee raw.txt
//	benchstat -col /impl raw.txt
//
// Timings are never asserted: the shared VMs show p99 of 70–90 µs whatever
// the code does; benchstat reports medians.

// spin is ~1.5 ns of dependent integer work per iteration, calibrated below.
//
//go:noinline
func spin(iters int) uint64 {
	x := uint64(iters)
	for i := 0; i < iters; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

var (
	calibrate  sync.Once
	nsPerIter  float64
	sinkResult atomic.Uint64
)

// itersFor returns the spin iterations that take d on an unloaded core (the
// fastest of several timings, so load elsewhere does not inflate the work).
func itersFor(d time.Duration) int {
	calibrate.Do(func() {
		const n = 2_000_000
		best := time.Duration(1 << 62)
		for range 15 {
			t0 := time.Now()
			sinkResult.Add(spin(n))
			best = min(best, time.Since(t0))
		}
		nsPerIter = float64(best) / n
	})
	return max(1, int(float64(d)/nsPerIter+0.5))
}

// calibrated returns the iteration count at which run(iters) takes target,
// by the median of repeated timings: calls to spin overlap in the
// out-of-order core, so the loop shape, not spin alone, is what is timed.
// Under load a round can be off, so it repeats until a round lands within
// 5% of the target.
func calibrated(target time.Duration, guess int, run func(iters int)) int {
	iters := guess
	for range 12 {
		got := seqTime(func() { run(iters) })
		if d := float64(got-target) / float64(target); d > -0.05 && d < 0.05 {
			break
		}
		iters = max(1, int(float64(iters)*float64(target)/float64(got)+0.5))
	}
	return iters
}

// seqTime is the median wall time of f run alone, the speed-up reference.
func seqTime(f func()) time.Duration {
	ts := make([]time.Duration, 31)
	for i := range ts {
		t0 := time.Now()
		f()
		ts[i] = time.Since(t0)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2]
}

var (
	timerOnce sync.Once
	timerCost time.Duration
)

// measure runs f b.N times, timing each call, and reports the median as
// p50-ns (less the cost of reading the clock twice). The targets are
// medians: on these VMs the mean is dominated by multi-ms preemptions by
// other processes. It returns the median.
func measure(b *testing.B, f func()) time.Duration {
	timerOnce.Do(func() {
		ts := make([]time.Duration, 100_001)
		for i := range ts {
			t0 := time.Now()
			ts[i] = time.Since(t0)
		}
		timerCost = median(ts)
	})
	ts := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range ts {
		t0 := time.Now()
		f()
		ts[i] = time.Since(t0)
	}
	b.StopTimer()
	med := max(median(ts)-timerCost, 0)
	b.ReportMetric(float64(med.Nanoseconds()), "p50-ns")
	return med
}

func median(ts []time.Duration) time.Duration {
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2]
}

// splitter counts, through a trace sink, the chunks helpers ran.
type splitter struct{ chunks, caller atomic.Int64 }

func (s *splitter) sink(e sched.Event) {
	if r, ok := e.(sched.Region); ok {
		s.chunks.Add(int64(r.Chunks))
		s.caller.Add(int64(r.CallerChunks))
	}
}

func (s *splitter) report(b *testing.B) {
	if c := s.chunks.Load(); c > 0 {
		b.ReportMetric(float64(c-s.caller.Load())/float64(c), "helper-frac")
	}
}

func newPool(b *testing.B, opts ...sched.Option) *sched.Pool {
	p, err := sched.NewPool(opts...)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

// chanPool is the classic long-lived worker pool fed by a channel.
type chanPool struct {
	tasks chan func()
	wg    sync.WaitGroup
}

func newChanPool(b *testing.B, workers int) *chanPool {
	c := &chanPool{tasks: make(chan func())}
	for range workers {
		go func() {
			for f := range c.tasks {
				f()
				c.wg.Done()
			}
		}()
	}
	b.Cleanup(func() { close(c.tasks) })
	return c
}

// impl runs body over [0, n) cut into tasks contiguous ranges.
type impl struct {
	name string
	run  func(n, tasks int, body func(start, end int))
}

func baselines(b *testing.B) []impl {
	cp := newChanPool(b, 2)
	return []impl{
		{"waitgroup", func(n, tasks int, body func(int, int)) {
			var wg sync.WaitGroup
			c := sched.ChunkFor(n, tasks)
			for s := 0; s < n; s += c {
				wg.Add(1)
				go func() { body(s, min(s+c, n)); wg.Done() }()
			}
			wg.Wait()
		}},
		{"errgroup", func(n, tasks int, body func(int, int)) {
			var g errgroup.Group
			c := sched.ChunkFor(n, tasks)
			for s := 0; s < n; s += c {
				g.Go(func() error { body(s, min(s+c, n)); return nil })
			}
			_ = g.Wait()
		}},
		{"chanpool", func(n, tasks int, body func(int, int)) {
			c := sched.ChunkFor(n, tasks)
			for s := 0; s < n; s += c {
				cp.wg.Add(1)
				cp.tasks <- func() { body(s, min(s+c, n)) }
			}
			cp.wg.Wait()
		}},
		{"sequential", func(n, tasks int, body func(int, int)) { sched.Sequential.ForRange(n, 1, body) }},
	}
}

// BenchmarkRegion: the fixed cost of a region whose 2 tasks do nothing.
func BenchmarkRegion(b *testing.B) {
	var sp splitter
	p := newPool(b, sched.WithWorkers(2))
	traced := newPool(b, sched.WithWorkers(2), sched.WithTrace(sp.sink))
	empty := func(int, int) {}
	b.Run("work=empty/tasks=2/impl=pool", func(b *testing.B) {
		measure(b, func() { p.ForRange(2, 1, empty) })
		for range 10_000 { // the split, from a traced twin
			traced.ForRange(2, 1, empty)
		}
		sp.report(b)
	})
	for _, im := range baselines(b) {
		b.Run("work=empty/tasks=2/impl="+im.name, func(b *testing.B) {
			measure(b, func() { im.run(2, 2, empty) })
		})
	}
}

// BenchmarkSmall finds where splitting starts to pay: n iterations of
// ~50 ns on 2 tasks (grain 1 forces the split) against one call.
func BenchmarkSmall(b *testing.B) {
	p := newPool(b, sched.WithWorkers(2))
	out := make([]uint64, 256)
	iters := calibrated(256*50*time.Nanosecond, itersFor(50*time.Nanosecond), func(iters int) {
		for i := range out {
			out[i] = spin(iters)
		}
	})
	body := func(s, e int) {
		for i := s; i < e; i++ {
			out[i] = spin(iters)
		}
	}
	for _, n := range []int{4, 10, 20, 40, 80, 160} {
		b.Run(fmt.Sprintf("work=%dx50ns/impl=pool", n), func(b *testing.B) {
			measure(b, func() { p.ForRange(n, 1, body) })
		})
		b.Run(fmt.Sprintf("work=%dx50ns/impl=sequential", n), func(b *testing.B) {
			measure(b, func() { body(0, n) })
		})
	}
}

type loopCase struct {
	sched string
	chunk int
}

func (c loopCase) name() string { return fmt.Sprintf("sched=%s/chunk=%d", c.sched, c.chunk) }

func loopScheduler(b *testing.B, kind string) sched.LoopScheduler {
	ls, _, err := sched.ParseSchedule(kind)
	if err != nil {
		b.Fatal(err)
	}
	return ls
}

// BenchmarkLoop: 1024 iterations of ~50 ns (~51 µs of work), the loop gcc's
// OpenMP runs in 31.9 µs on these machines.
func BenchmarkLoop(b *testing.B) {
	const n = 1024
	out := make([]uint64, n)
	iters := calibrated(n*50*time.Nanosecond, itersFor(50*time.Nanosecond), func(iters int) {
		for i := range n {
			out[i] = spin(iters)
		}
	})
	each := func(i int) { out[i] = spin(iters) }
	rng := func(s, e int) {
		for i := s; i < e; i++ {
			out[i] = spin(iters)
		}
	}
	seq := seqTime(func() { rng(0, n) })
	b.Logf("sequential reference %v (%.2f ns per spin iteration, %d iterations per 50 ns)", seq, nsPerIter, iters)
	report := func(b *testing.B, med time.Duration, sp *splitter) {
		b.ReportMetric(float64(seq)/float64(med), "speedup")
		if sp != nil {
			sp.report(b)
		}
	}
	var sp splitter
	p := newPool(b, sched.WithWorkers(2), sched.WithTrace(sp.sink))
	for _, c := range []loopCase{{"static", 1}, {"static", 32}, {"dynamic", 1}, {"dynamic", 32}, {"guided", 1}, {"guided", 8}, {"workstealing", 1}, {"workstealing", 32}} {
		kind := c.sched
		if !(c.sched == "static" && c.chunk == 1) {
			kind = fmt.Sprintf("%s,%d", c.sched, c.chunk)
		}
		if c.sched == "static" && c.chunk == 1 {
			c = loopCase{"static", n / 2} // contiguous blocks
		}
		ls := loopScheduler(b, kind)
		b.Run("work=1024x50ns/"+c.name()+"/impl=pool", func(b *testing.B) {
			sp = splitter{}
			med := measure(b, func() {
				if err := p.For(0, n, ls, c.chunk, each); err != nil {
					b.Fatal(err)
				}
			})
			report(b, med, &sp)
		})
	}
	b.Run("work=1024x50ns/sched=forrange/chunk=128/impl=pool", func(b *testing.B) {
		sp = splitter{}
		med := measure(b, func() { p.ForRange(n, 1, rng) })
		report(b, med, &sp)
	})
	var usp splitter
	up := newPool(b, sched.WithWorkers(2), sched.WithPinning(false), sched.WithTrace(usp.sink))
	b.Run("work=1024x50ns/sched=forrange/chunk=128/impl=pool-unpinned", func(b *testing.B) {
		usp = splitter{}
		med := measure(b, func() { up.ForRange(n, 1, rng) })
		report(b, med, &usp)
	})
	for _, im := range baselines(b) {
		b.Run("work=1024x50ns/sched=static/chunk=512/impl="+im.name, func(b *testing.B) {
			med := measure(b, func() { im.run(n, 2, rng) })
			report(b, med, nil)
		})
	}
}

// BenchmarkImbalanced: 64 iterations, iteration i costing i units, ~1.3 ms
// in all; speed-up against one core, and the share of the ideal (2x).
func BenchmarkImbalanced(b *testing.B) {
	const n = 64
	out := make([]uint64, n)
	unit := calibrated(1300*time.Microsecond, itersFor(1300*time.Microsecond/(n*(n-1)/2)), func(unit int) {
		for i := range n {
			out[i] = spin(i * unit)
		}
	})
	each := func(i int) { out[i] = spin(i * unit) }
	seq := seqTime(func() {
		for i := range n {
			each(i)
		}
	})
	b.Logf("sequential reference %v", seq)
	var sp splitter
	pinned := newPool(b, sched.WithWorkers(2), sched.WithTrace(sp.sink))
	unpinned := newPool(b, sched.WithWorkers(2), sched.WithPinning(false), sched.WithTrace(sp.sink))
	for _, c := range []struct{ kind, name, impl string }{
		{"static", "static", "pool"}, {"static,1", "static-rr", "pool"}, {"dynamic,1", "dynamic", "pool"},
		{"guided,1", "guided", "pool"}, {"workstealing,1", "workstealing", "pool"},
		{"dynamic,1", "dynamic", "pool-unpinned"}, {"guided,1", "guided", "pool-unpinned"},
		{"workstealing,1", "workstealing", "pool-unpinned"},
	} {
		ls := loopScheduler(b, c.kind)
		p := pinned
		if c.impl == "pool-unpinned" {
			p = unpinned
		}
		b.Run("sched="+c.name+"/impl="+c.impl, func(b *testing.B) {
			sp = splitter{}
			med := measure(b, func() {
				if err := p.For(0, n, ls, 1, each); err != nil {
					b.Fatal(err)
				}
			})
			speedup := float64(seq) / float64(med)
			b.ReportMetric(speedup, "speedup")
			b.ReportMetric(100*speedup/float64(p.Parallelism()), "%ideal")
			sp.report(b)
		})
	}
	b.Run("sched=none/impl=sequential", func(b *testing.B) {
		measure(b, func() {
			for i := range n {
				each(i)
			}
		})
	})
}

// BenchmarkSpin measures the spin window's trade-off: a ~51 µs region after
// the caller spent gap on other work. region-µs is the region alone;
// cpu-µs is the process CPU time per iteration, gap and region included,
// so cpu-µs minus 2·region-µs minus gap is roughly what the helper burned
// spinning while idle.
func BenchmarkSpin(b *testing.B) {
	const n = 1024
	out := make([]uint64, n)
	iters := calibrated(n*50*time.Nanosecond, itersFor(50*time.Nanosecond), func(iters int) {
		for i := range n {
			out[i] = spin(iters)
		}
	})
	rng := func(s, e int) {
		for i := s; i < e; i++ {
			out[i] = spin(iters)
		}
	}
	for _, gap := range []time.Duration{10 * time.Microsecond, 100 * time.Microsecond, time.Millisecond} {
		gapIters := itersFor(gap)
		for _, sw := range []time.Duration{0, 20 * time.Microsecond, 200 * time.Microsecond, 2 * time.Millisecond} {
			p := newPool(b, sched.WithWorkers(2), sched.WithSpin(sw))
			b.Run(fmt.Sprintf("gap=%v/spin=%v", gap, sw), func(b *testing.B) {
				var region time.Duration
				cpu0 := processCPU()
				for range b.N {
					sinkResult.Add(spin(gapIters)) // the caller's serial work
					t0 := time.Now()
					p.ForRange(n, 1, rng)
					region += time.Since(t0)
				}
				b.ReportMetric(float64(region.Microseconds())/float64(b.N), "region-µs")
				if c := processCPU(); c > 0 {
					b.ReportMetric(float64((c-cpu0).Microseconds())/float64(b.N), "cpu-µs")
				}
			})
			p.Close()
		}
	}
	runtime.GC()
}

// BenchmarkForRangeStream: a ForRange region over 256 MiB of rows of 2 KiB
// (grain 32 rows), each row summed as uint64s, as a matrix-vector product
// streams its weights, with the range split into seats (split=seats, the
// default: a contiguous part per participant, the rest stolen in halves)
// or into one shared sequence of chunks (split=shared). MB/s is the bytes
// read.
func BenchmarkForRangeStream(b *testing.B) {
	const rowWords, rows = 256, 1 << 17
	buf := make([]uint64, rowWords*rows)
	for i := range buf {
		buf[i] = uint64(i)
	}
	sums := make([]uint64, rows)
	body := func(start, end int) {
		for r := start; r < end; r++ {
			var s0, s1, s2, s3 uint64
			row := buf[r*rowWords : (r+1)*rowWords]
			for i := 0; i < len(row); i += 4 {
				s0 += row[i]
				s1 += row[i+1]
				s2 += row[i+2]
				s3 += row[i+3]
			}
			sums[r] = s0 + s1 + s2 + s3
		}
	}
	p := newPool(b, sched.WithWorkers(2))
	for _, split := range []string{"seats", "shared"} {
		b.Run(fmt.Sprintf("split=%s/rows=%d/row=2KiB/impl=pool", split, rows), func(b *testing.B) {
			defer sched.SetRangeSeats(split == "seats")()
			b.SetBytes(int64(len(buf) * 8))
			for i := 0; i < b.N; i++ {
				p.ForRange(rows, 32, body)
			}
		})
	}
}
