package gguf

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error of this package wraps one of them, so a caller
// can test with errors.Is.
var (
	// ErrFormat: the bytes are not a well-formed GGUF file (bad magic, a
	// count or length the file cannot hold, an unknown value or tensor
	// type, misaligned or overlapping tensor data, duplicate names, ...).
	ErrFormat = errors.New("malformed GGUF")
	// ErrTruncated: the file ends before a field or a tensor's data does.
	// Every ErrTruncated error is also an ErrFormat error.
	ErrTruncated = errors.New("truncated GGUF")
	// ErrVersion: the GGUF version is not 2 or 3 (v1, a future version, or
	// a big-endian file).
	ErrVersion = errors.New("unsupported GGUF version")
	// ErrUnsupportedType: a tensor has a ggml type that exists but that
	// package quant does not implement (q2_K, q3_K, the IQ types, bf16,
	// ...). See Options.AllowUnsupportedTypes.
	ErrUnsupportedType = errors.New("unsupported tensor type")
	// ErrMissingKey: a metadata key is absent.
	ErrMissingKey = errors.New("missing metadata key")
	// ErrType: a metadata value has another type than the accessor reads,
	// or a value that does not fit it.
	ErrType = errors.New("wrong metadata type")
)

// FormatError describes a problem with the bytes of a file: which field,
// where it starts, and what is wrong. It wraps ErrFormat (and ErrTruncated
// when the file ends early), ErrVersion or ErrUnsupportedType.
type FormatError struct {
	Path   string // the file, when the error comes from Open
	Field  string // e.g. `kv 3 "general.name": value` or `tensor 2 "output.weight": offset`
	Offset int64  // byte offset in the file of the field (or of the problem)
	Reason string
	kind   error
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString("gguf: ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Reason)
	fmt.Fprintf(&b, " at byte %d", e.Offset)
	return b.String()
}

// Unwrap returns the sentinels the error matches.
func (e *FormatError) Unwrap() []error {
	if e.kind == ErrTruncated {
		return []error{ErrFormat, ErrTruncated}
	}
	return []error{e.kind}
}

func formatErr(kind error, at int64, field, format string, args ...any) *FormatError {
	return &FormatError{Field: field, Offset: at, Reason: fmt.Sprintf(format, args...), kind: kind}
}

func keyMissing(key string) error {
	return fmt.Errorf("gguf: key %q: %w", key, ErrMissingKey)
}

func keyType(key string, v Value, want string) error {
	return fmt.Errorf("gguf: key %q: %w: want %s, found %s", key, ErrType, want, v.describe())
}
