//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || solaris

package gguf

import "golang.org/x/sys/unix"

// load maps path read-only and shared (the page cache backs the tensors,
// nothing is copied), or reads it when mapping is not possible.
func load(path string, noMmap bool) ([]byte, func() error, error) {
	fh, size, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if noMmap || size <= 0 || size != int64(int(size)) {
		return readFile(fh, size)
	}
	b, err := unix.Mmap(int(fh.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return readFile(fh, size)
	}
	return b, func() error { return unix.Munmap(b) }, nil
}
