package spi

import (
	"fmt"
	"testing"

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
