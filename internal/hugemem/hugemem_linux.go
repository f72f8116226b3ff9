package hugemem

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

func alloc(n int) (Buffer, error) {
	size := uintptr(n+PageSize-1) &^ (PageSize - 1)
	// One page more than needed, so that an aligned start exists; the
	// unaligned head and the tail are unmapped again.
	p, err := unix.MmapPtr(-1, 0, nil, size+PageSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return Buffer{}, fmt.Errorf("hugemem: mmap of %d bytes: %w", size+PageSize, err)
	}
	head := -uintptr(p) & (PageSize - 1)
	start := unsafe.Add(p, head)
	if head > 0 {
		if err := unix.MunmapPtr(p, head); err != nil {
			unix.MunmapPtr(p, size+PageSize)
			return Buffer{}, fmt.Errorf("hugemem: munmap of the head: %w", err)
		}
	}
	if tail := PageSize - head; tail > 0 {
		if err := unix.MunmapPtr(unsafe.Add(start, size), tail); err != nil {
			unix.MunmapPtr(start, size+tail)
			return Buffer{}, fmt.Errorf("hugemem: munmap of the tail: %w", err)
		}
	}
	m := unsafe.Slice((*byte)(start), size)
	// EINVAL means the kernel has no transparent huge pages at all: the
	// buffer then has 4 KiB pages, which HugeBytes reports.
	if err := unix.Madvise(m, unix.MADV_HUGEPAGE); err != nil && err != unix.EINVAL {
		unix.MunmapPtr(start, size)
		return Buffer{}, fmt.Errorf("hugemem: madvise: %w", err)
	}
	return Buffer{Bytes: m[:n:n], free: func() error { return unix.MunmapPtr(start, size) }}, nil
}

// HugeBytes returns how many bytes of the process's anonymous memory are in
// transparent huge pages (AnonHugePages of /proc/self/smaps_rollup), and
// false where that cannot be read.
func HugeBytes() (int64, bool) {
	raw, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return 0, false
	}
	for _, l := range bytes.Split(raw, []byte("\n")) {
		rest, ok := bytes.CutPrefix(l, []byte("AnonHugePages:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}
