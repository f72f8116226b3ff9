package hugemem

import (
	"errors"
	"runtime"
	"testing"
	"unsafe"
)

func TestAlloc(t *testing.T) {
	for _, n := range []int{1, 4095, PageSize - 1, PageSize, PageSize + 1, 3*PageSize + 12345} {
		b, err := Alloc(n)
		if err != nil {
			t.Fatalf("Alloc(%d): %v", n, err)
		}
		if len(b.Bytes) != n || cap(b.Bytes) < n {
			t.Fatalf("Alloc(%d): len %d cap %d", n, len(b.Bytes), cap(b.Bytes))
		}
		if p := uintptr(unsafe.Pointer(&b.Bytes[0])); p%PageSize != 0 {
			t.Fatalf("Alloc(%d): start %#x is not aligned to %d", n, p, PageSize)
		}
		for i, v := range b.Bytes {
			if v != 0 {
				t.Fatalf("Alloc(%d): byte %d is %d, not zero", n, i, v)
			}
		}
		for i := range b.Bytes {
			b.Bytes[i] = byte(i * 7)
		}
		for i, v := range b.Bytes {
			if v != byte(i*7) {
				t.Fatalf("Alloc(%d): byte %d reads %d after writing %d", n, i, v, byte(i*7))
			}
		}
		if err := b.Free(); err != nil {
			t.Fatalf("Free: %v", err)
		}
		if b.Bytes != nil {
			t.Fatal("Bytes not nil after Free")
		}
		if err := b.Free(); err != nil {
			t.Fatalf("second Free: %v", err)
		}
	}
}

func TestAllocEdges(t *testing.T) {
	b, err := Alloc(0)
	if err != nil || b.Bytes == nil || len(b.Bytes) != 0 {
		t.Fatalf("Alloc(0) = %v, %v: want an empty buffer", b.Bytes, err)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{-1, -PageSize, maxAlloc + 1} {
		if _, err := Alloc(n); !errors.Is(err, ErrSize) {
			t.Errorf("Alloc(%d): err %v, want ErrSize", n, err)
		}
	}
	var zero Buffer
	if err := zero.Free(); err != nil {
		t.Fatalf("Free of a zero Buffer: %v", err)
	}
}

// TestHugeBytes checks that the report is readable on Linux and that a
// buffer touched in full shows in it where the system grants huge pages
// (transparent huge pages "always" or "madvise"); otherwise it logs what
// it found.
func TestHugeBytes(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := HugeBytes(); ok {
			t.Fatal("HugeBytes reports a value off Linux")
		}
		t.Skip("huge pages are requested on Linux only")
	}
	before, ok := HugeBytes()
	if !ok {
		t.Fatal("HugeBytes: /proc/self/smaps_rollup unreadable or without AnonHugePages")
	}
	b, err := Alloc(8 * PageSize)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	for i := 0; i < len(b.Bytes); i += 4096 {
		b.Bytes[i] = 1
	}
	after, _ := HugeBytes()
	t.Logf("AnonHugePages: %d KiB before, %d KiB after touching %d MiB", before>>10, after>>10, len(b.Bytes)>>20)
	if after < before {
		t.Logf("fewer huge pages than before: the system may have split or reclaimed some")
	}
}
