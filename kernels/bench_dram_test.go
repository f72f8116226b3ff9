package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
)

// BenchmarkMatVecDRAMQ8: the Q6_K and Q8_0 matvec at the FFN shape
// (14336×4096) read from memory, not from the 32 MB L3: each iteration
// multiplies the next of dramMatrices matrices (more weight bytes in all
// than any last-level cache here), so nothing the previous iterations read
// is still cached. threads=2 splits the rows in two halves, one goroutine
// each. The weight bandwidth (MB/s) is the number to hold against
// BenchmarkMemRead of the peer harness.
func BenchmarkMatVecDRAMQ8(b *testing.B) {
	const rows, dramMatrices = 14336, 4
	nbK, nb8 := benchK/256, benchK/32
	r := rand.New(rand.NewPCG(23, 24))
	xk, x8 := randQ8K(r, nbK), randQ8_0(r, nb8)
	dst := make([]float32, rows)
	var q6 [dramMatrices][]quant.BlockQ6K
	var q8 [dramMatrices][]quant.BlockQ8_0
	for m := range dramMatrices {
		q6[m], q8[m] = randQ6K(r, rows*nbK), randQ8_0(r, rows*nb8)
	}
	types := []struct {
		name  string
		bytes int
		run   func(k Ops, m, r0, r1 int)
	}{
		{"q6_K", rows * nbK * 210, func(k Ops, m, r0, r1 int) { k.MatVecQ6K(dst[r0:r1], q6[m][r0*nbK:r1*nbK], xk) }},
		{"q8_0", rows * nb8 * 34, func(k Ops, m, r0, r1 int) { k.MatVecQ8_0(dst[r0:r1], q8[m][r0*nb8:r1*nb8], x8) }},
	}
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				for _, threads := range []int{1, 2} {
					b.Run(fmt.Sprintf("rows=%d/k=%d/threads=%d", rows, benchK, threads), func(b *testing.B) {
						b.SetBytes(int64(tt.bytes))
						for i := 0; i < b.N; i++ {
							m := i % dramMatrices
							if threads == 1 {
								tt.run(k, m, 0, rows)
								continue
							}
							done := make(chan struct{})
							go func() { tt.run(k, m, rows/2, rows); close(done) }()
							tt.run(k, m, 0, rows/2)
							<-done
						}
						per256(b, rows*benchK)
					})
				}
			})
		})
	}
}
