//go:build !purego

package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/quant"
)

// BenchmarkPrefetchDistance: the Q4_K and Q5_K matvecs on the FFN shape
// (14336×4096) streaming from memory, as BenchmarkMatVecDRAM (four
// matrices in huge pages, iteration i on matrix i mod 4; threads=2 splits
// the rows in two halves), at several software prefetch distances in
// weight blocks (pf=default: kqPrefetchFor's choice for this CPU). How
// kqPrefetchFor's distances were chosen, and how to check them on another
// CPU:
//
//	go test -run=NONE -bench=PrefetchDistance -count=8 ./kernels > pf.txt
//	benchstat -col /pf -row /type,/variant,/threads pf.txt
func BenchmarkPrefetchDistance(b *testing.B) {
	const rows, mats = 14336, 4
	nbK := benchK / 256
	r := rand.New(rand.NewPCG(31, 32))
	xk := randQ8K(r, nbK)
	dst := make([]float32, rows)
	var q4 [mats][]quant.BlockQ4K
	var q5 [mats][]quant.BlockQ5K
	for m := range mats {
		q4[m], q5[m] = hugeCopy(b, randQ4K(r, rows*nbK)), hugeCopy(b, randQ5K(r, rows*nbK))
	}
	types := []struct {
		name  string
		bytes int // of one matrix
		run   func(k Ops, m, r0, r1 int)
	}{
		{"q4_K", rows * nbK * 144, func(k Ops, m, r0, r1 int) { k.MatVecQ4K(dst[r0:r1], q4[m][r0*nbK:r1*nbK], xk) }},
		{"q5_K", rows * nbK * 176, func(k Ops, m, r0, r1 int) { k.MatVecQ5K(dst[r0:r1], q5[m][r0*nbK:r1*nbK], xk) }},
	}
	def := kqPrefetchBlocks
	defer func() { kqPrefetchBlocks = def }()
	for _, tt := range types {
		b.Run("type="+tt.name, func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k Ops) {
				if Forced() == "generic" {
					b.Skip("generic: no prefetch")
				}
				for _, pf := range []int{0, 16, 32, 48, 64, 96, 128} {
					name := fmt.Sprint(pf)
					if pf == 0 {
						pf, name = def, "default"
					}
					for _, threads := range []int{1, 2} {
						b.Run(fmt.Sprintf("pf=%s/rows=%d/k=%d/threads=%d", name, rows, benchK, threads), func(b *testing.B) {
							kqPrefetchBlocks = pf
							defer func() { kqPrefetchBlocks = def }()
							b.SetBytes(int64(tt.bytes))
							dramLoop(b, threads, rows, mats, func(m, r0, r1 int) { tt.run(k, m, r0, r1) })
						})
					}
				}
			})
		})
	}
}

// TestKQPrefetchFor: Zen 5 (AMD family 26) prefetches 96 blocks ahead,
// every other CPU 32, each with a reason.
func TestKQPrefetchFor(t *testing.T) {
	for _, c := range []struct {
		vendor cpuid.Vendor
		family int
		want   int
	}{
		{cpuid.AMD, 26, 96},
		{cpuid.AMD, 25, 32},
		{cpuid.AMD, 23, 32},
		{cpuid.AMD, 27, 32},
		{cpuid.Intel, 6, 32},
		{cpuid.Intel, 26, 32},
		{cpuid.VendorUnknown, 26, 32},
	} {
		got, why := kqPrefetchFor(c.vendor, c.family)
		if got != c.want || why == "" {
			t.Errorf("kqPrefetchFor(%v, %d) = %d, %q; want %d with a reason", c.vendor, c.family, got, why, c.want)
		}
	}
}

// TestQ6KPrefetchFor: avx512gfni's Q6_K matvec prefetches 24 KiB ahead on
// Zen 5 (AMD family 26), 8 KiB on every other CPU, each with a reason.
func TestQ6KPrefetchFor(t *testing.T) {
	for _, c := range []struct {
		vendor cpuid.Vendor
		family int
		want   int
	}{
		{cpuid.AMD, 26, 24 << 10},
		{cpuid.AMD, 25, 8 << 10},
		{cpuid.AMD, 27, 8 << 10},
		{cpuid.Intel, 6, 8 << 10},
		{cpuid.Intel, 26, 8 << 10},
		{cpuid.VendorUnknown, 26, 8 << 10},
	} {
		got, why := q6kPrefetchFor(c.vendor, c.family)
		if got != c.want || why == "" {
			t.Errorf("q6kPrefetchFor(%v, %d) = %d, %q; want %d and a reason", c.vendor, c.family, got, why, c.want)
		}
	}
}
