package gguf

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/corelane/corelane/internal/hugemem"
)

// Open maps the GGUF file at path read-only into memory and parses it.
// The tensors' Data are zero-copy views of the mapping, valid until Close.
// Where memory mapping is unavailable (or fails) the file is read into
// memory instead, with the same result. A malformed file is a
// *FormatError naming the path, the field and its byte offset.
func Open(path string) (*File, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with options.
func OpenWith(path string, o Options) (*File, error) {
	load := load
	if o.HugePages {
		load = loadHuge
	}
	data, release, err := load(path, o.NoMmap)
	if err != nil {
		return nil, err
	}
	f, err := ParseWith(data, o)
	if err != nil {
		release()
		var fe *FormatError
		if errors.As(err, &fe) {
			fe.Path = path
		}
		return nil, err
	}
	f.release = release
	return f, nil
}

// Close releases the file's memory (unmaps it). Afterwards the tensors'
// Data are nil, and any copy of a Data slice taken before must not be used:
// reading unmapped memory faults. Close is a no-op for a File from Parse
// and after the first call.
func (f *File) Close() error {
	if f.release == nil {
		return nil
	}
	release := f.release
	f.release = nil
	for i := range f.Tensors {
		f.Tensors[i].Data = nil
	}
	return release()
}

// readFile reads an open file into memory: size bytes, or everything up
// to EOF when the size is not known (0).
func readFile(fh *os.File, size int64) ([]byte, func() error, error) {
	var b []byte
	var err error
	if size > 0 {
		if size != int64(int(size)) {
			return nil, nil, fmt.Errorf("gguf: %s: %d bytes do not fit in this platform's memory", fh.Name(), size)
		}
		b = make([]byte, size)
		_, err = io.ReadFull(fh, b)
	} else {
		b, err = io.ReadAll(fh)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("gguf: read %s: %w", fh.Name(), err)
	}
	return b, func() error { return nil }, nil
}

// loadHuge reads path into a buffer from hugemem (Options.HugePages).
func loadHuge(path string, _ bool) ([]byte, func() error, error) {
	fh, size, err := openFile(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if size <= 0 {
		return readFile(fh, size) // size unknown: nothing to allocate ahead
	}
	if size != int64(int(size)) {
		return nil, nil, fmt.Errorf("gguf: %s: %d bytes do not fit in this platform's memory", fh.Name(), size)
	}
	buf, err := hugemem.Alloc(int(size))
	if err != nil {
		return nil, nil, fmt.Errorf("gguf: %s: %w", fh.Name(), err)
	}
	if _, err := io.ReadFull(fh, buf.Bytes); err != nil {
		buf.Free()
		return nil, nil, fmt.Errorf("gguf: read %s: %w", fh.Name(), err)
	}
	return buf.Bytes, buf.Free, nil
}

// openFile opens path and returns it with its size, refusing directories.
func openFile(path string) (*os.File, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("gguf: %w", err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, fmt.Errorf("gguf: %w", err)
	}
	if st.IsDir() {
		fh.Close()
		return nil, 0, fmt.Errorf("gguf: %s is a directory, not a GGUF file", path)
	}
	return fh, st.Size(), nil
}
