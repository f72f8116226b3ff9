package scratch

import (
	"testing"
	"unsafe"
)

func TestBytesAlignedAndSized(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 255, 256, 257, 1000, 4096, 1<<20 + 3} {
		b, buf := Bytes(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Bytes(%d): len %d cap %d", n, len(b), cap(b))
		}
		if n > 0 && uintptr(unsafe.Pointer(&b[0]))%Align != 0 {
			t.Fatalf("Bytes(%d) at %p: not %d-byte aligned", n, &b[0], Align)
		}
		for i := range b { // the whole length is writable
			b[i] = byte(i)
		}
		buf.Release()
	}
}

func TestFloat32s(t *testing.T) {
	f, buf := Float32s(1000)
	defer buf.Release()
	if len(f) != 1000 || uintptr(unsafe.Pointer(&f[0]))%Align != 0 {
		t.Fatalf("Float32s(1000): len %d at %p", len(f), &f[0])
	}
	if f0, b0 := Float32s(0); f0 != nil {
		t.Fatalf("Float32s(0) = %v, want nil", f0)
	} else {
		b0.Release()
	}
}

func TestFloat64s(t *testing.T) {
	f, buf := Float64s(1000)
	defer buf.Release()
	if len(f) != 1000 || uintptr(unsafe.Pointer(&f[0]))%Align != 0 {
		t.Fatalf("Float64s(1000): len %d at %p", len(f), &f[0])
	}
	f[999] = 1 // the whole length is usable
	if f0, b0 := Float64s(0); f0 != nil {
		t.Fatalf("Float64s(0) = %v, want nil", f0)
	} else {
		b0.Release()
	}
}

func TestSizeClasses(t *testing.T) {
	cases := []struct{ n, class int }{{0, minClass}, {1, minClass}, {256, 8}, {257, 9}, {512, 9}, {513, 10}, {1 << 20, 20}, {1<<20 + 1, 21}}
	for _, c := range cases {
		if got := class(c.n); got != c.class {
			t.Errorf("class(%d) = %d, want %d", c.n, got, c.class)
		}
		if got := Get(c.n); len(got.mem) < c.n+Align-1 {
			t.Errorf("Get(%d) holds %d bytes", c.n, len(got.mem))
		}
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	for _, n := range []int{100, 5000, 300000} {
		Get(n).Release()
		if a := testing.AllocsPerRun(100, func() {
			b, buf := Bytes(n)
			b[0] = 1
			buf.Release()
		}); a != 0 {
			t.Errorf("Bytes(%d)/Release: %v allocations per call, want 0", n, a)
		}
	}
}
