package spi

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/corelane/corelane/internal/hugemem"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// BenchmarkOverhead: what spi adds to the bare kernels. impl=kernels does
// the work of a one-token MatVec with the kernels package's checked entry
// points (quantize the activation, then the matvec), impl=spi calls
// Context.MatVec on the same matrix and input; both on one thread with the
// registry's default kernels:
//
//	go test -run=NONE -bench=Overhead -count=10 ./spi > o.txt
//	benchstat -col /impl o.txt
func BenchmarkOverhead(b *testing.B) {
	const rows, cols = 4096, 4096
	be, err := New(WithSchedule(sched.Sequential))
	if err != nil {
		b.Fatal(err)
	}
	ctx := be.Context()
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0} {
		w := benchMatrix(b, typ, rows, cols)
		x := make([]float32, cols)
		for i := range x {
			x[i] = float32(i%13)*0.25 - 1.5
		}
		at := quant.ActivationType(typ)
		xs, err := quant.RowSize(at, cols)
		if err != nil {
			b.Fatal(err)
		}
		xq := make([]byte, xs)
		dst := make([]float32, rows)
		for _, impl := range []string{"kernels", "spi"} {
			b.Run(fmt.Sprintf("type=%v/rows=%d/cols=%d/impl=%s", typ, rows, cols, impl), func(b *testing.B) {
				b.SetBytes(int64(len(w.Data)))
				for i := 0; i < b.N; i++ {
					if impl == "spi" {
						err = ctx.MatVec(dst, w, x)
					} else if err = kernels.QuantizeActivations(at, xq, x); err == nil {
						err = kernels.MatVec(typ, dst, w.Data, xq)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkOverheadPaired measures spi's overhead as a ratio the
// machine's slow and fast phases cancel out of: every iteration runs the
// bare kernels and spi on the same 4096×4096 matrix and input, back to
// back, the order swapped every iteration, each timed on its own.
// spi/kernels is the sum of spi's times over the sum of the bare ones
// (1.05: spi takes 5% longer); kernels-ns and spi-ns are the per-call
// means. tokens=1 is a decode step's MatVec, tokens=32 a prefill's MatMul.
// (On two threads the sides alternate in blocks of pairedBlock calls; see
// below.)
// threads=1: the bare side quantizes the activations and calls
// kernels.MatVec or kernels.MatMul, spi runs Context.MatVec or MatMul on
// sched.Sequential; threads=2: the bare side quantizes, then splits the
// rows in two halves, one goroutine each, and spi runs on
// sched.Hardware() (its chunk queue).
//
//	go test -run=NONE -bench=OverheadPaired -count=10 ./spi > o.txt
//	benchstat -filter '.unit:spi/kernels' o.txt
func BenchmarkOverheadPaired(b *testing.B) {
	const rows, cols = 4096, 4096
	seq, err := New(WithSchedule(sched.Sequential))
	if err != nil {
		b.Fatal(err)
	}
	hw, err := New(WithSchedule(sched.Hardware()))
	if err != nil {
		b.Fatal(err)
	}
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0} {
		w := benchMatrix(b, typ, rows, cols)
		rb := len(w.Data) / rows
		at := quant.ActivationType(typ)
		xs, err := quant.RowSize(at, cols)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{1, 32} {
			x := make([]float32, n*cols)
			for i := range x {
				x[i] = float32(i%13)*0.25 - 1.5
			}
			xq, dst := make([]byte, n*xs), make([]float32, n*rows)
			// part computes rows [r0, r1) of the product on xq.
			part := func(r0, r1 int) error {
				if n == 1 {
					return kernels.MatVec(typ, dst[r0:r1], w.Data[r0*rb:r1*rb], xq)
				}
				return kernels.MatMul(typ, dst[r0:], rows, w.Data[r0*rb:r1*rb], xq, n)
			}
			for _, threads := range []int{1, 2} {
				ctx := seq.Context()
				if threads == 2 {
					ctx = hw.Context()
				}
				bare := func() error {
					if err := kernels.QuantizeActivations(at, xq, x); err != nil {
						return err
					}
					if threads == 1 {
						return part(0, rows)
					}
					done := make(chan error)
					go func() { done <- part(rows/2, rows) }()
					return errors.Join(part(0, rows/2), <-done)
				}
				viaSPI := func() error {
					if n == 1 {
						return ctx.MatVec(dst, w, x)
					}
					return ctx.MatMul(dst, w, x, n)
				}
				b.Run(fmt.Sprintf("type=%v/rows=%d/cols=%d/tokens=%d/threads=%d", typ, rows, cols, n, threads), func(b *testing.B) {
					if err := errors.Join(bare(), viaSPI()); err != nil {
						b.Fatal(err)
					}
					var tBare, tSPI time.Duration
					timed := func(f func() error, k int) time.Duration {
						t0 := time.Now()
						for range k {
							if err := f(); err != nil {
								b.Fatal(err)
							}
						}
						return time.Since(t0)
					}
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if threads == 1 {
							if i%2 == 0 {
								tBare += timed(bare, 1)
								tSPI += timed(viaSPI, 1)
							} else {
								tSPI += timed(viaSPI, 1)
								tBare += timed(bare, 1)
							}
							continue
						}
						// Two threads: the pool's idle helper spins for
						// sched.DefaultSpin after each region and holds a
						// core meanwhile, which would slow a bare call
						// right after an spi one. So each iteration waits
						// for the helper to park, then times a block of
						// bare calls and a block of spi calls, each side
						// after one untimed call that wakes its second
						// thread, as a decode's back-to-back products run.
						time.Sleep(sched.DefaultSpin + 300*time.Microsecond)
						if err := bare(); err != nil {
							b.Fatal(err)
						}
						tBare += timed(bare, pairedBlock)
						if err := viaSPI(); err != nil {
							b.Fatal(err)
						}
						tSPI += timed(viaSPI, pairedBlock)
					}
					calls := b.N
					if threads == 2 {
						calls *= pairedBlock
					}
					b.ReportMetric(float64(tSPI)/float64(tBare), "spi/kernels")
					b.ReportMetric(float64(tBare.Nanoseconds())/float64(calls), "kernels-ns")
					b.ReportMetric(float64(tSPI.Nanoseconds())/float64(calls), "spi-ns")
				})
			}
		}
	}
}

// pairedBlock is how many calls of each side BenchmarkOverheadPaired times
// in a row on two threads.
const pairedBlock = 8

// BenchmarkOverheadDRAM is BenchmarkOverhead at the FFN shape streaming
// from memory: iteration i multiplies matrix i mod 4, 14336×4096 each (33
// MB in Q4_K to 62 MB in Q8_0, four times that in all, more than a
// last-level cache holds), in huge pages as corelane profile keeps weights. threads=1: impl=kernels is the
// bare quantize and matvec, impl=spi Context.MatVec on sched.Sequential;
// threads=2: impl=kernels splits the rows in two halves, one goroutine
// each, impl=spi runs Context.MatVec on sched.Hardware() (its chunk queue,
// eight chunks). MB/s is weight bandwidth, to hold against the peer
// harness's BenchmarkMemRead:
//
//	go test -run=NONE -bench=OverheadDRAM -count=10 ./spi > o.txt
//	benchstat -col /impl -row /type,/threads o.txt
func BenchmarkOverheadDRAM(b *testing.B) {
	const rows, cols, mats = 14336, 4096, 4
	seq, err := New(WithSchedule(sched.Sequential))
	if err != nil {
		b.Fatal(err)
	}
	hw, err := New(WithSchedule(sched.Hardware()))
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float32, cols)
	for i := range x {
		x[i] = float32(i%13)*0.25 - 1.5
	}
	dst := make([]float32, rows)
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0} {
		ws := dramMatrices(b, typ, rows, cols, mats)
		at := quant.ActivationType(typ)
		xs, err := quant.RowSize(at, cols)
		if err != nil {
			b.Fatal(err)
		}
		xq := make([]byte, xs)
		rb := len(ws[0].Data) / rows
		bare := func(w Matrix, r0, r1 int) error {
			return kernels.MatVec(typ, dst[r0:r1], w.Data[r0*rb:r1*rb], xq)
		}
		for _, threads := range []int{1, 2} {
			for _, impl := range []string{"kernels", "spi"} {
				ctx := seq.Context()
				if threads == 2 {
					ctx = hw.Context()
				}
				b.Run(fmt.Sprintf("type=%v/rows=%d/cols=%d/threads=%d/impl=%s", typ, rows, cols, threads, impl), func(b *testing.B) {
					b.SetBytes(int64(len(ws[0].Data)))
					for i := 0; i < b.N; i++ {
						w := ws[i%mats]
						switch {
						case impl == "spi":
							err = ctx.MatVec(dst, w, x)
						case threads == 1:
							if err = kernels.QuantizeActivations(at, xq, x); err == nil {
								err = bare(w, 0, rows)
							}
						default:
							if err = kernels.QuantizeActivations(at, xq, x); err == nil {
								done := make(chan error)
								go func() { done <- bare(w, rows/2, rows) }()
								err = errors.Join(bare(w, 0, rows/2), <-done)
							}
						}
						if err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// dramMatrices returns n rows×cols matrices of typ in memory from hugemem
// (freed when the benchmark ends): benchMatrix's first 256 rows, quantized
// once and repeated (quantizing hundreds of MB with the reference
// quantizers would take minutes), each copy with its own bytes.
func dramMatrices(b *testing.B, typ quant.Type, rows, cols, n int) []Matrix {
	const distinct = 256
	tile := benchMatrix(b, typ, distinct, cols)
	ms := make([]Matrix, n)
	for i := range ms {
		buf, err := hugemem.Alloc(rows / distinct * len(tile.Data))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { buf.Free() })
		for off := 0; off < len(buf.Bytes); off += len(tile.Data) {
			copy(buf.Bytes[off:], tile.Data)
		}
		ms[i] = Matrix{Type: typ, Rows: rows, Cols: cols, Data: buf.Bytes}
	}
	return ms
}

// BenchmarkDecodeDRAM: one llama-3.2-1b layer's decode products (1 token),
// each alone and all in a row (m=all): Q/K/V and gate/up as MatMulShared,
// the output projection, ffn_down in Q6_K. Iteration i runs layer i mod 8,
// each layer's 37 MB of weights its own (296 MB in all, in huge pages), so
// the weights stream from memory as in a decode step. MB/s is weight
// bandwidth; against BenchmarkOverheadDRAM's one big matrix it shows what
// the smaller products and their regions cost.
func BenchmarkDecodeDRAM(b *testing.B) {
	const d, kv, ff, layers = 2048, 512, 8192, 8
	q, k, v := dramMatrices(b, quant.Q4K, d, d, layers), dramMatrices(b, quant.Q4K, kv, d, layers), dramMatrices(b, quant.Q6K, kv, d, layers)
	o := dramMatrices(b, quant.Q4K, d, d, layers)
	g, u := dramMatrices(b, quant.Q4K, ff, d, layers), dramMatrices(b, quant.Q4K, ff, d, layers)
	down := dramMatrices(b, quant.Q6K, d, ff, layers)
	x := make([]float32, ff)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	o1, o2, o3 := make([]float32, ff), make([]float32, ff), make([]float32, kv)
	type decodeProduct struct {
		name string
		ms   []Matrix // layer 0's, for the byte count
		run  func(ctx Context, l int) error
	}
	products := []decodeProduct{
		{"qkv", []Matrix{q[0], k[0], v[0]}, func(ctx Context, l int) error {
			return ctx.MatMulShared([][]float32{o1[:d], o2[:kv], o3}, []Matrix{q[l], k[l], v[l]}, x[:d], 1)
		}},
		{"o", []Matrix{o[0]}, func(ctx Context, l int) error { return ctx.MatVec(o1[:d], o[l], x[:d]) }},
		{"gate_up", []Matrix{g[0], u[0]}, func(ctx Context, l int) error {
			return ctx.MatMulShared([][]float32{o1, o2}, []Matrix{g[l], u[l]}, x[:d], 1)
		}},
		{"down", []Matrix{down[0]}, func(ctx Context, l int) error { return ctx.MatVec(o1[:d], down[l], x) }},
	}
	all := products
	products = append(products, decodeProduct{"all", []Matrix{q[0], k[0], v[0], o[0], g[0], u[0], down[0]}, func(ctx Context, l int) error {
		var err error
		for _, p := range all {
			err = errors.Join(err, p.run(ctx, l))
		}
		return err
	}})
	for _, sc := range benchSchedules() {
		be, err := New(WithSchedule(sc.s))
		if err != nil {
			b.Fatal(err)
		}
		ctx := be.Context()
		for _, p := range products {
			bytes := 0
			for _, m := range p.ms {
				bytes += len(m.Data)
			}
			b.Run(fmt.Sprintf("model=llama-3.2-1b/m=%s/sched=%s", p.name, sc.name), func(b *testing.B) {
				b.SetBytes(int64(bytes))
				for i := 0; i < b.N; i++ {
					if err := p.run(ctx, i%layers); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
