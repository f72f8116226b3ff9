//go:build !linux

package hugemem

import "unsafe"

// alloc is a plain allocation: huge pages are requested on Linux only.
// The start is still aligned to PageSize, as on Linux.
func alloc(n int) (Buffer, error) {
	b := make([]byte, n+PageSize)
	head := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b))) & (PageSize - 1))
	return Buffer{Bytes: b[head : head+n : head+n], free: func() error { return nil }}, nil
}

// HugeBytes reports false: this platform's huge pages are not measured.
func HugeBytes() (int64, bool) { return 0, false }
