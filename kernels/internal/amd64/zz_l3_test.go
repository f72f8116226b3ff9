package amd64

import (
	"fmt"
	"os"
	"sort"
	"testing"
	"time"
	"unsafe"
)

//go:noescape
func zzRead(p *byte, n int)

func TestZZL3(t *testing.T) {
	if os.Getenv("ZZL3") == "" {
		t.Skip()
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for _, n := range []int{256 << 10, 768 << 10, 4 << 20, 9437184, 13762560, 24 << 20} {
		var ds []float64
		for r := 0; r < 21; r++ {
			reps := max(1, (64<<20)/n)
			t0 := time.Now()
			for i := 0; i < reps; i++ {
				zzRead(&buf[0], n)
			}
			ds = append(ds, float64(n*reps)/float64(time.Since(t0)))
		}
		sort.Float64s(ds)
		fmt.Printf("read %6d KB: %.1f GB/s (median), best %.1f\n", n>>10, ds[10], ds[20])
	}
	_ = unsafe.Pointer(nil)
}
