//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || solaris)

package gguf

// load reads path into memory: this platform has no mmap here.
func load(path string, noMmap bool) ([]byte, func() error, error) {
	fh, size, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	return readFile(fh, size)
}
