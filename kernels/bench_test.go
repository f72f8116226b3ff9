package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/blas/blas32"

	"github.com/corelane/corelane/internal/hugemem"
	"github.com/corelane/corelane/quant"
)

// Benchmarks per op, per variant, named key=value so benchstat can pivot:
//
//	go test -run=NONE -bench=. -count=10 ./kernels | tee new.txt
//	benchstat -col /variant new.txt
//
// Quantized ops report ns per 256 weights (ns/256w); b.SetBytes counts the
// weight bytes, so MB/s is weight bandwidth.

const benchK = 4096 // values per row

func benchVariants(b *testing.B, f func(b *testing.B, k Ops)) {
	for _, name := range Variants() {
		b.Run("variant="+name, func(b *testing.B) {
			restore, err := Use(name)
			if err != nil {
				b.Fatal(err)
			}
			defer restore()
			f(b, Current())
		})
	}
}

func per256(b *testing.B, values int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(values)/256), "ns/256w")
}

type benchData struct {
	q4 []quant.BlockQ4K
	q5 []quant.BlockQ5K
	q6 []quant.BlockQ6K
	q8 []quant.BlockQ8_0
	l4 []quant.BlockQ4_0
	l5 []quant.BlockQ5_0
	hf []quant.F16
	xf []float32
	xk []quant.BlockQ8K
	x8 []quant.BlockQ8_0
}

func newBenchData(rows, cols int) *benchData { return newBenchDataK(rows, cols, benchK) }

// newBenchDataK is newBenchData with rows of k values.
func newBenchDataK(rows, cols, k int) *benchData {
	r := rand.New(rand.NewPCG(11, 12))
	nbK, nb8 := k/256, k/32
	return &benchData{
		q4: randQ4K(r, rows*nbK), q5: randQ5K(r, rows*nbK), q6: randQ6K(r, rows*nbK), q8: randQ8_0(r, rows*nb8),
		l4: randQ4_0(r, rows*nb8), l5: randQ5_0(r, rows*nb8),
		hf: randF16s(r, rows*k), xf: randF32(r, cols*k, 1),
		xk: randQ8K(r, cols*nbK), x8: randQ8_0(r, cols*nb8),
	}
}

// randF16s returns n binary16 values of N(0, 1).
func randF16s(r *rand.Rand, n int) []quant.F16 {
	h := make([]quant.F16, n)
	for i := range h {
		h[i] = quant.FromFloat32(float32(r.NormFloat64()))
	}
	return h
}

var sink float32

func BenchmarkDot(b *testing.B) {
	d := newBenchData(1, 1)
	types := []struct {
		name  string
		bytes int
		run   func(k Ops) float32
	}{
		{"q4_K", len(d.q4) * 144, func(k Ops) float32 { return k.DotQ4K(d.q4, d.xk) }},
		{"q5_K", len(d.q5) * 176, func(k Ops) float32 { return k.DotQ5K(d.q5, d.xk) }},
		{"q6_K", len(d.q6) * 210, func(k Ops) float32 { return k.DotQ6K(d.q6, d.xk) }},
		{"q8_0", len(d.q8) * 34, func(k Ops) float32 { return k.DotQ8_0(d.q8, d.x8) }},
		{"q4_0", len(d.l4) * 18, func(k Ops) float32 { return k.DotQ4_0(d.l4, d.x8) }},
		{"q5_0", len(d.l5) * 22, func(k Ops) float32 { return k.DotQ5_0(d.l5, d.x8) }},
	}
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				b.Run(fmt.Sprintf("n=%d", benchK), func(b *testing.B) {
					b.SetBytes(int64(tt.bytes))
					for i := 0; i < b.N; i++ {
						sink += tt.run(k)
					}
					per256(b, benchK)
				})
			})
		})
	}
}

// BenchmarkMatVec: a 4096×4096 weight matrix times one activation row, one
// thread (the weights of the K-quants fit in L2/L3 on the target machines).
func BenchmarkMatVec(b *testing.B) {
	const rows = 4096
	d := newBenchData(rows, 1)
	dst := make([]float32, rows)
	types := []struct {
		name  string
		bytes int
		run   func(k Ops)
	}{
		{"q4_K", len(d.q4) * 144, func(k Ops) { k.MatVecQ4K(dst, d.q4, d.xk) }},
		{"q5_K", len(d.q5) * 176, func(k Ops) { k.MatVecQ5K(dst, d.q5, d.xk) }},
		{"q6_K", len(d.q6) * 210, func(k Ops) { k.MatVecQ6K(dst, d.q6, d.xk) }},
		{"q8_0", len(d.q8) * 34, func(k Ops) { k.MatVecQ8_0(dst, d.q8, d.x8) }},
		{"q4_0", len(d.l4) * 18, func(k Ops) { k.MatVecQ4_0(dst, d.l4, d.x8) }},
		{"q5_0", len(d.l5) * 22, func(k Ops) { k.MatVecQ5_0(dst, d.l5, d.x8) }},
		{"f16", len(d.hf) * 2, func(k Ops) { k.MatVecF16(dst, d.hf, d.xf[:benchK]) }},
	}
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				b.Run(fmt.Sprintf("rows=%d/k=%d", rows, benchK), func(b *testing.B) {
					b.SetBytes(int64(tt.bytes))
					for i := 0; i < b.N; i++ {
						tt.run(k)
					}
					per256(b, rows*benchK)
				})
			})
		})
	}
}

// BenchmarkMatMul: 4096×4096 weights times 64 activation rows (prefill),
// and llama-3.2-1b's ffn_down shape, 2048×8192 times 32 (long rows: the
// activation columns of a tile no longer fit in L1).
func BenchmarkMatMul(b *testing.B) {
	for _, sh := range []struct{ rows, k, cols int }{{4096, benchK, 64}, {2048, 8192, 32}} {
		rows, k, cols := sh.rows, sh.k, sh.cols
		d := newBenchDataK(rows, cols, k)
		dst := make([]float32, rows*cols)
		types := []struct {
			name  string
			bytes int
			run   func(k Ops)
		}{
			{"q4_K", len(d.q4) * 144, func(k Ops) { k.MatMulQ4K(dst, rows, d.q4, d.xk, cols, nil) }},
			{"q5_K", len(d.q5) * 176, func(k Ops) { k.MatMulQ5K(dst, rows, d.q5, d.xk, cols, nil) }},
			{"q6_K", len(d.q6) * 210, func(k Ops) { k.MatMulQ6K(dst, rows, d.q6, d.xk, cols, nil) }},
			{"q8_0", len(d.q8) * 34, func(k Ops) { k.MatMulQ8_0(dst, rows, d.q8, d.x8, cols, nil) }},
		}
		for _, tt := range types {
			b.Run("type="+tt.name, func(b *testing.B) {
				benchVariants(b, func(b *testing.B, ops Ops) {
					b.Run(fmt.Sprintf("rows=%d/k=%d/cols=%d", rows, k, cols), func(b *testing.B) {
						b.SetBytes(int64(tt.bytes))
						for i := 0; i < b.N; i++ {
							tt.run(ops)
						}
						b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
					})
				})
			})
		}
	}
}

func BenchmarkDequantize(b *testing.B) {
	d := newBenchData(1, 1)
	dst := make([]float32, benchK)
	types := []struct {
		name  string
		bytes int
		run   func(k Ops)
	}{
		{"q4_K", len(d.q4) * 144, func(k Ops) { k.DequantQ4K(dst, d.q4) }},
		{"q5_K", len(d.q5) * 176, func(k Ops) { k.DequantQ5K(dst, d.q5) }},
		{"q6_K", len(d.q6) * 210, func(k Ops) { k.DequantQ6K(dst, d.q6) }},
		{"q8_0", len(d.q8) * 34, func(k Ops) { k.DequantQ8_0(dst, d.q8) }},
	}
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				b.Run(fmt.Sprintf("n=%d", benchK), func(b *testing.B) {
					b.SetBytes(int64(tt.bytes))
					for i := 0; i < b.N; i++ {
						tt.run(k)
					}
					per256(b, benchK)
				})
			})
		})
	}
}

func BenchmarkQuantize(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	src := randF32(r, benchK, 1)
	xk := make([]quant.BlockQ8K, benchK/256)
	x8 := make([]quant.BlockQ8_0, benchK/32)
	for _, tt := range []struct {
		name string
		run  func(k Ops)
	}{
		{"q8_K", func(k Ops) { k.QuantizeQ8K(xk, src) }},
		{"q8_0", func(k Ops) { k.QuantizeQ8_0(x8, src) }},
	} {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				b.Run(fmt.Sprintf("n=%d", benchK), func(b *testing.B) {
					b.SetBytes(benchK * 4)
					for i := 0; i < b.N; i++ {
						tt.run(k)
					}
					per256(b, benchK)
				})
			})
		})
	}
}

// BenchmarkF32 includes gonum's blas32 as the baseline a Go user would
// otherwise pick (variant=gonum).
func BenchmarkF32(b *testing.B) {
	const n = benchK
	r := rand.New(rand.NewPCG(15, 16))
	x, y, dst := randF32(r, n, 1), randF32(r, n, 1), make([]float32, n)
	ops := []struct {
		name string
		run  func(k Ops)
	}{
		{"dot", func(k Ops) { sink += k.DotF32(x, y) }},
		{"axpy", func(k Ops) { k.Axpy(1e-3, x, y) }},
		{"scale", func(k Ops) { k.Scale(1, y) }},
		{"max", func(k Ops) { sink += k.Max(x) }},
		{"expsum", func(k Ops) { sink += k.ExpSum(dst, x, 4) }},
		{"swiglu", func(k Ops) { k.SwiGLU(dst, x, y) }},
	}
	for _, op := range ops {
		b.Run("op="+op.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					b.SetBytes(n * 4)
					for i := 0; i < b.N; i++ {
						op.run(k)
					}
				})
			})
			gx := blas32.Vector{N: n, Inc: 1, Data: x}
			gy := blas32.Vector{N: n, Inc: 1, Data: y}
			var gonum func()
			switch op.name {
			case "dot":
				gonum = func() { sink += blas32.Dot(gx, gy) }
			case "axpy":
				gonum = func() { blas32.Axpy(1e-3, gx, gy) }
			case "scale":
				gonum = func() { blas32.Scal(1, gy) }
			}
			if gonum != nil {
				b.Run(fmt.Sprintf("variant=gonum/n=%d", n), func(b *testing.B) {
					b.SetBytes(n * 4)
					for i := 0; i < b.N; i++ {
						gonum()
					}
				})
			}
		})
	}
}

// BenchmarkMatVecDRAM: the FFN shape (14336×4096) read from memory, not from
// the 32 MB L3: iteration i multiplies matrix i mod dramMatrices, more
// weight bytes in all (4 × 33 MB for Q4_K) than the last-level cache holds,
// so what the previous iterations read is gone. threads=2 splits the rows
// in two halves, one goroutine each. MB/s is weight bandwidth, the number to
// hold against the peer harness's BenchmarkMemRead. generic is left out
// (pure Go, two orders of magnitude slower).
func BenchmarkMatVecDRAM(b *testing.B) {
	const rows, dramMatrices = 14336, 4
	nbK := benchK / 256
	r := rand.New(rand.NewPCG(21, 22))
	nb8 := benchK / 32
	xk, x8 := randQ8K(r, nbK), randQ8_0(r, nb8)
	dst := make([]float32, rows)
	// pages=heap: the Go heap (4 KiB pages unless transparent huge pages
	// are "always"); pages=huge: the same bytes in memory from hugemem, as
	// gguf.Options.HugePages and corelane profile keep weights.
	pages := []string{"heap", "huge"}
	var q4 [2][dramMatrices][]quant.BlockQ4K
	var q5 [2][dramMatrices][]quant.BlockQ5K
	var q6 [2][dramMatrices][]quant.BlockQ6K
	var q8 [2][dramMatrices][]quant.BlockQ8_0
	for m := range dramMatrices {
		q4[0][m], q5[0][m] = randQ4K(r, rows*nbK), randQ5K(r, rows*nbK)
		q6[0][m], q8[0][m] = randQ6K(r, rows*nbK), randQ8_0(r, rows*nb8)
		q4[1][m], q5[1][m] = hugeCopy(b, q4[0][m]), hugeCopy(b, q5[0][m])
		q6[1][m], q8[1][m] = hugeCopy(b, q6[0][m]), hugeCopy(b, q8[0][m])
	}
	types := []struct {
		name  string
		bytes int
		run   func(k Ops, p, m, r0, r1 int) // rows r0..r1-1 of matrix m in pages p
	}{
		{"q4_K", rows * nbK * 144, func(k Ops, p, m, r0, r1 int) { k.MatVecQ4K(dst[r0:r1], q4[p][m][r0*nbK:r1*nbK], xk) }},
		{"q5_K", rows * nbK * 176, func(k Ops, p, m, r0, r1 int) { k.MatVecQ5K(dst[r0:r1], q5[p][m][r0*nbK:r1*nbK], xk) }},
		{"q6_K", rows * nbK * 210, func(k Ops, p, m, r0, r1 int) { k.MatVecQ6K(dst[r0:r1], q6[p][m][r0*nbK:r1*nbK], xk) }},
		{"q8_0", rows * nb8 * 34, func(k Ops, p, m, r0, r1 int) { k.MatVecQ8_0(dst[r0:r1], q8[p][m][r0*nb8:r1*nb8], x8) }},
	}
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				if Forced() == "generic" {
					b.Skip("generic: not a DRAM-bound kernel")
				}
				for _, threads := range []int{1, 2} {
					for p, pg := range pages {
						b.Run(fmt.Sprintf("rows=%d/k=%d/threads=%d/pages=%s", rows, benchK, threads, pg), func(b *testing.B) {
							b.SetBytes(int64(tt.bytes))
							dramLoop(b, threads, rows, dramMatrices, func(m, r0, r1 int) { tt.run(k, p, m, r0, r1) })
						})
					}
				}
			})
		})
	}
}

// dramLoop is the timed loop of the DRAM benchmarks: iteration i runs rows
// [0, rows) of matrix i mod mats, on one goroutine (threads=1) or split in
// two halves, one goroutine each (threads=2); then it reports ns/256w for
// rows of benchK values.
func dramLoop(b *testing.B, threads, rows, mats int, run func(m, r0, r1 int)) {
	for i := 0; i < b.N; i++ {
		m := i % mats
		if threads == 1 {
			run(m, 0, rows)
			continue
		}
		done := make(chan struct{})
		go func() { run(m, rows/2, rows); close(done) }()
		run(m, 0, rows/2)
		<-done
	}
	per256(b, rows*benchK)
}

// BenchmarkMatVecDRAMPaired times each default MatVec from DRAM against a
// plain read of another matrix of the same type from DRAM, alternating the
// two within every iteration, and reports the ratio of their rates (ratio:
// the kernel's weight bandwidth over the read's). A shared host's DRAM
// bandwidth moves from second to second: two runs a minute apart (a
// benchmark, then ../shared/peer's membw) can differ by 20%, while the two
// halves of one iteration, milliseconds apart, see nearly the same machine.
// The read is DotF32 of the weight bytes, taken as float32, with
// themselves: one stream of 64-byte loads without software prefetch, like
// membw's read loop (read-MB/s, reported too, can be set beside membw's
// figure from the same run). Reading the weights themselves gives both
// sides the same pages (pages=heap: the Go heap's, 4 KiB unless
// transparent huge pages are "always"; pages=huge: hugemem's). Random bit
// patterns include subnormals, which cost DotF32 nothing on the CPUs
// measured (bench/results says where). Iteration
// i runs the kernel over matrix i mod 4 and reads matrix (i+2) mod 4, so
// three matrices (over 100 MB) pass between two touches of one: each pass
// starts outside the caches.
func BenchmarkMatVecDRAMPaired(b *testing.B) {
	const rows, mats = 14336, 4
	nbK, nb8 := benchK/256, benchK/32
	r := rand.New(rand.NewPCG(23, 24))
	xk, x8 := randQ8K(r, nbK), randQ8_0(r, nb8)
	types := []struct {
		name     string
		bytes    int
		matrices func(b *testing.B, huge bool) (dramKernel, [4][]float32)
	}{
		{"q4_K", rows * nbK * 144, func(b *testing.B, huge bool) (dramKernel, [4][]float32) {
			return dramMatrices(b, huge, nbK, func() []quant.BlockQ4K { return randQ4K(r, rows*nbK) },
				func(k Ops, d []float32, w []quant.BlockQ4K) { k.MatVecQ4K(d, w, xk) })
		}},
		{"q5_K", rows * nbK * 176, func(b *testing.B, huge bool) (dramKernel, [4][]float32) {
			return dramMatrices(b, huge, nbK, func() []quant.BlockQ5K { return randQ5K(r, rows*nbK) },
				func(k Ops, d []float32, w []quant.BlockQ5K) { k.MatVecQ5K(d, w, xk) })
		}},
		{"q6_K", rows * nbK * 210, func(b *testing.B, huge bool) (dramKernel, [4][]float32) {
			return dramMatrices(b, huge, nbK, func() []quant.BlockQ6K { return randQ6K(r, rows*nbK) },
				func(k Ops, d []float32, w []quant.BlockQ6K) { k.MatVecQ6K(d, w, xk) })
		}},
		{"q8_0", rows * nb8 * 34, func(b *testing.B, huge bool) (dramKernel, [4][]float32) {
			return dramMatrices(b, huge, nb8, func() []quant.BlockQ8_0 { return randQ8_0(r, rows*nb8) },
				func(k Ops, d []float32, w []quant.BlockQ8_0) { k.MatVecQ8_0(d, w, x8) })
		}},
	}
	k := Current()
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			for _, pages := range []string{"heap", "huge"} {
				run, f := tt.matrices(b, pages == "huge")
				var sink float32
				read := func(m, lo, hi int) { sink += k.DotF32(f[m][lo:hi], f[m][lo:hi]) }
				for _, threads := range []int{1, 2} {
					b.Run(fmt.Sprintf("rows=%d/k=%d/threads=%d/pages=%s", rows, benchK, threads, pages), func(b *testing.B) {
						var tk, tr time.Duration
						for i := 0; i < b.N; i++ {
							m := i % mats
							t0 := time.Now()
							split(threads, rows, func(r0, r1 int) { run(k, m, r0, r1) })
							t1 := time.Now()
							split(threads, len(f[0]), func(lo, hi int) { read((m+2)%mats, lo, hi) })
							tr += time.Since(t1)
							tk += t1.Sub(t0)
						}
						kernel := float64(tt.bytes) * float64(b.N) / tk.Seconds() / 1e6
						mem := float64(4*len(f[0])) * float64(b.N) / tr.Seconds() / 1e6
						b.ReportMetric(0, "ns/op")
						b.ReportMetric(kernel, "kernel-MB/s")
						b.ReportMetric(mem, "read-MB/s")
						b.ReportMetric(kernel/mem, "ratio")
					})
				}
				_ = sink
			}
		})
	}
}

// dramKernel runs a matvec over rows r0..r1-1 of matrix m (of 4).
type dramKernel func(k Ops, m, r0, r1 int)

// dramMatrices makes four matrices with gen, in the Go heap or (huge) in
// hugemem, and returns mv over rows of them (nb blocks a row) and each
// matrix's bytes as float32 values (the last len mod 4 bytes left out).
func dramMatrices[B any](b *testing.B, huge bool, nb int, gen func() []B, mv func(k Ops, dst []float32, w []B)) (dramKernel, [4][]float32) {
	var w [4][]B
	var f [4][]float32
	var z B
	for m := range w {
		w[m] = gen()
		if huge {
			w[m] = hugeCopy(b, w[m])
		}
		f[m] = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(w[m]))), len(w[m])*int(unsafe.Sizeof(z))/4)
	}
	dst := make([]float32, len(w[0])/nb)
	return func(k Ops, m, r0, r1 int) { mv(k, dst[r0:r1], w[m][r0*nb:r1*nb]) }, f
}

// split runs f over [0, n) on one goroutine (threads=1) or in two halves,
// one goroutine each (threads=2), as dramLoop does.
func split(threads, n int, f func(lo, hi int)) {
	if threads == 1 {
		f(0, n)
		return
	}
	done := make(chan struct{})
	go func() { f(n/2, n); close(done) }()
	f(0, n/2)
	<-done
}

// hugeCopy returns a copy of src in memory from hugemem, freed when the
// benchmark ends.
func hugeCopy[T any](b *testing.B, src []T) []T {
	var z T
	buf, err := hugemem.Alloc(len(src) * int(unsafe.Sizeof(z)))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { buf.Free() })
	dst := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(buf.Bytes))), len(src))
	copy(dst, src)
	return dst
}
