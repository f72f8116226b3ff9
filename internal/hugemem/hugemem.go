// Package hugemem allocates large, long-lived buffers (model weights)
// backed by 2 MiB transparent huge pages where the operating system offers
// them.
//
// Why: a decode step streams every weight byte once. With 4 KiB pages that
// is a TLB miss, and a page walk, every 4 KiB; with 2 MiB pages one every
// 2 MiB. On the Zen 3 guest this was measured on, a Q4_K matrix-vector
// product streaming from DRAM ran about 13% faster from huge pages
// (bench/results/2026-12-03-zen3-kq). It is not so everywhere: on a Zen 5
// guest, plain reads from huge pages took about 1.1× as long as from the
// Go heap's 4 KiB pages, and decode 1.14× on one thread
// (bench/results/2026-12-05-zen5-decode2t); corelane profile measures
// both before it chooses.
//
// On Linux, Alloc maps anonymous memory aligned to 2 MiB and asks for huge
// pages with madvise(MADV_HUGEPAGE). That is a request, not a guarantee:
// with transparent huge pages set to "never", or when the kernel finds no
// free 2 MiB frames, the buffer is made of 4 KiB pages and works the same.
// HugeBytes tells how much the process actually got, so that a caller can
// report it rather than assume it. Elsewhere Alloc is a plain make.
package hugemem

import (
	"errors"
	"fmt"
)

// PageSize is the huge page size Alloc aligns to.
const PageSize = 2 << 20

// Buffer is memory from Alloc. Bytes is valid until Free.
type Buffer struct {
	Bytes []byte
	free  func() error
}

// Free releases the buffer. Afterwards Bytes is nil, and any slice of it
// taken before must not be used (on Linux the memory is unmapped: using it
// faults). Free of a zero Buffer, or a second Free, does nothing.
func (b *Buffer) Free() error {
	f := b.free
	b.free, b.Bytes = nil, nil
	if f == nil {
		return nil
	}
	return f()
}

// ErrSize is returned for a negative size, or one too large to map.
var ErrSize = errors.New("hugemem: size out of range")

// Alloc returns a zeroed buffer of n bytes whose start is aligned to
// PageSize, backed by huge pages where the system grants them.
func Alloc(n int) (Buffer, error) {
	if n < 0 || n > maxAlloc {
		return Buffer{}, fmt.Errorf("%w: %d bytes", ErrSize, n)
	}
	if n == 0 {
		return Buffer{Bytes: []byte{}}, nil
	}
	return alloc(n)
}

// maxAlloc keeps the rounded-up mapping length within an int.
const maxAlloc = int(^uint(0)>>1) - 2*PageSize
