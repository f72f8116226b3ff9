package arm64

import (
	"testing"
	"unsafe"
)

// The Q4_K and Q5_K bodies read d, dmin and scales with Q4_K's offsets
// (q4k_q5k_arm64.s, dequant_arm64.s): Q5_K must keep them in place.
func TestQ5KHeadIsQ4KHead(t *testing.T) {
	var a blockQ4K
	var b blockQ5K
	if unsafe.Offsetof(a.d) != unsafe.Offsetof(b.d) || unsafe.Offsetof(a.dmin) != unsafe.Offsetof(b.dmin) ||
		unsafe.Offsetof(a.scales) != unsafe.Offsetof(b.scales) || unsafe.Sizeof(a.scales) != unsafe.Sizeof(b.scales) {
		t.Fatalf("blockQ5K's d, dmin, scales at %d, %d, %d; blockQ4K's at %d, %d, %d",
			unsafe.Offsetof(b.d), unsafe.Offsetof(b.dmin), unsafe.Offsetof(b.scales),
			unsafe.Offsetof(a.d), unsafe.Offsetof(a.dmin), unsafe.Offsetof(a.scales))
	}
}
