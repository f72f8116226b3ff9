//go:build linux

package kernels

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// guardedBytes returns an n-byte slice whose last byte is the last byte
// before a PROT_NONE page, so any read past the end faults. The start is
// aligned to align bytes when n is a multiple of align (the block types
// need 2- or 4-byte alignment), which puts the end exactly at the page.
func guardedBytes(t testing.TB, n int) []byte {
	t.Helper()
	b, free := guardedBytesTemp(t, n)
	t.Cleanup(free)
	return b
}

// guardedBytesTemp is guardedBytes for a caller that frees the memory itself
// (tests that make thousands of guarded copies, which would otherwise stay
// mapped until the test ends).
func guardedBytesTemp(t testing.TB, n int) ([]byte, func()) {
	t.Helper()
	page := unix.Getpagesize()
	size := (n+page-1)/page*page + page
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	if err := unix.Mprotect(mem[size-page:], unix.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return mem[size-page-n : size-page : size-page], func() { unix.Munmap(mem) }
}

// guarded copies a block (or float32) slice into guarded memory so that it
// ends exactly at a PROT_NONE page.
func guarded[T any](t testing.TB, src []T) []T {
	t.Helper()
	out, free := guardedTemp(t, src)
	t.Cleanup(free)
	return out
}

// guardedTemp is guarded for a caller that frees the copy itself.
func guardedTemp[T any](t testing.TB, src []T) ([]T, func()) {
	t.Helper()
	var z T
	sz := int(unsafe.Sizeof(z))
	if len(src) == 0 {
		return src[:0], func() {}
	}
	if (len(src)*sz)%int(unsafe.Alignof(z)) != 0 {
		t.Fatalf("guarded: %d×%d bytes cannot end on a page with %d-byte alignment", len(src), sz, unsafe.Alignof(z))
	}
	b, free := guardedBytesTemp(t, len(src)*sz)
	out := unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(src))
	copy(out, src)
	return out, free
}

const haveGuardPages = true
