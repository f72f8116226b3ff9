package quant

import (
	"errors"
	"fmt"
)

// Type is a ggml tensor type. Its value is ggml's type id, as stored in GGUF
// tensor headers.
type Type uint32

// The ggml type ids this package implements.
const (
	F32  Type = 0
	FP16 Type = 1 // the type id; F16 is the Go type of one value
	Q4_0 Type = 2
	Q4_1 Type = 3
	Q5_0 Type = 6
	Q5_1 Type = 7
	Q8_0 Type = 8
	Q8_1 Type = 9
	Q4K  Type = 12
	Q5K  Type = 13
	Q6K  Type = 14
	Q8K  Type = 15
)

// Sentinel errors. Every error this package returns wraps one of them, so a
// caller can test with errors.Is.
var (
	// ErrShape is the module's one shape sentinel: kernels.ErrShape,
	// sdpa.ErrShape and spi.ErrShape are this value, so errors.Is(err,
	// spi.ErrShape) holds for a shape error from any layer.
	ErrShape = errors.New("bad shape")
	// ErrLength (a byte or value count that is not whole blocks) is a shape
	// error too: errors.Is(err, ErrShape) holds for it.
	ErrLength      error = &subError{"bad length", ErrShape}
	ErrUnknownType       = errors.New("unknown type")
	ErrAlignment         = errors.New("misaligned")
	ErrNotFinite         = errors.New("non-finite input")
)

// subError is a sentinel that is also its parent for errors.Is.
type subError struct {
	msg    string
	parent error
}

func (e *subError) Error() string { return e.msg }
func (e *subError) Unwrap() error { return e.parent }

type typeInfo struct {
	name       string
	blockVals  int // values per block
	blockBytes int // bytes per block
}

var types = map[Type]typeInfo{
	F32:  {"f32", 1, 4},
	FP16: {"f16", 1, 2},
	Q4_0: {"q4_0", 32, 18},
	Q4_1: {"q4_1", 32, 20},
	Q5_0: {"q5_0", 32, 22},
	Q5_1: {"q5_1", 32, 24},
	Q8_0: {"q8_0", 32, 34},
	Q8_1: {"q8_1", 32, 36},
	Q4K:  {"q4_K", 256, 144},
	Q5K:  {"q5_K", 256, 176},
	Q6K:  {"q6_K", 256, 210},
	Q8K:  {"q8_K", 256, 292},
}

// Types lists every type this package implements, in id order.
func Types() []Type {
	return []Type{F32, FP16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1, Q4K, Q5K, Q6K, Q8K}
}

// String returns ggml's name for t ("q4_K", "f16", ...).
func (t Type) String() string {
	if ti, ok := types[t]; ok {
		return ti.name
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Valid reports whether t is a type this package implements.
func (t Type) Valid() bool { _, ok := types[t]; return ok }

// BlockSize returns the number of values one block of t holds (1 for F32
// and F16), or 0 for an unknown type.
func (t Type) BlockSize() int { return types[t].blockVals }

// BlockBytes returns the number of bytes one block of t takes, or 0 for an
// unknown type.
func (t Type) BlockBytes() int { return types[t].blockBytes }

// ParseType accepts ggml's type names: "f32", "f16", "q8_0", "q4_K",
// "q5_K", "q6_K", "q8_K", "q4_0", "q4_1", "q5_0", "q5_1", "q8_1".
func ParseType(name string) (Type, error) {
	for _, t := range Types() {
		if types[t].name == name {
			return t, nil
		}
	}
	return 0, fmt.Errorf("quant: %w %q (known: f32, f16, q4_0, q4_1, q5_0, q5_1, q8_0, q8_1, q4_K, q5_K, q6_K, q8_K)", ErrUnknownType, name)
}

// RowSize returns the bytes one row of n values of type t takes. It is an
// error if t is unknown, n is negative, or n is not a multiple of t's block
// size.
func RowSize(t Type, n int) (int, error) {
	ti, ok := types[t]
	if !ok {
		return 0, fmt.Errorf("quant: RowSize: %w %d", ErrUnknownType, uint32(t))
	}
	if n < 0 || n%ti.blockVals != 0 {
		return 0, fmt.Errorf("quant: RowSize: %w: %d values is not a multiple of the %s block size %d", ErrLength, n, ti.name, ti.blockVals)
	}
	return n / ti.blockVals * ti.blockBytes, nil
}

// ActivationType returns the type a dot product quantizes the other operand
// to: Q8_K for the K-quants, Q8_0 for Q8_0, Q4_0 and Q5_0, Q8_1 for Q4_1 and
// Q5_1 (as ggml's CPU backend does). F32 and FP16 pair with F32.
func ActivationType(t Type) Type {
	switch t {
	case Q4K, Q5K, Q6K, Q8K:
		return Q8K
	case Q8_0, Q4_0, Q5_0:
		return Q8_0
	case Q4_1, Q5_1, Q8_1:
		return Q8_1
	}
	return F32
}
