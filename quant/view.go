package quant

import (
	"fmt"
	"unsafe"
)

// blockTypes constrains the generic view to this package's block structs.
type blockTypes interface {
	BlockQ4K | BlockQ5K | BlockQ6K | BlockQ8K | BlockQ8_0 | BlockQ8_1 |
		BlockQ4_0 | BlockQ4_1 | BlockQ5_0 | BlockQ5_1
}

// view reinterprets b as a slice of blocks without copying. b must hold a
// whole number of blocks and start at an address aligned for B.
func view[B blockTypes](t Type, b []byte) ([]B, error) {
	var zero B
	size := int(unsafe.Sizeof(zero))
	if len(b)%size != 0 {
		return nil, fmt.Errorf("quant: view %s: %w: %d bytes is not a whole number of %d-byte blocks", t, ErrLength, len(b), size)
	}
	if len(b) == 0 {
		return []B{}, nil
	}
	if align := uintptr(unsafe.Alignof(zero)); uintptr(unsafe.Pointer(&b[0]))%align != 0 {
		return nil, fmt.Errorf("quant: view %s: %w: data at %#x is not %d-byte aligned", t, ErrAlignment, uintptr(unsafe.Pointer(&b[0])), align)
	}
	return unsafe.Slice((*B)(unsafe.Pointer(&b[0])), len(b)/size), nil
}

// AsQ4K views b (e.g. a GGUF tensor's bytes) as Q4_K blocks without copying.
func AsQ4K(b []byte) ([]BlockQ4K, error) { return view[BlockQ4K](Q4K, b) }

// AsQ5K views b as Q5_K blocks without copying.
func AsQ5K(b []byte) ([]BlockQ5K, error) { return view[BlockQ5K](Q5K, b) }

// AsQ6K views b as Q6_K blocks without copying.
func AsQ6K(b []byte) ([]BlockQ6K, error) { return view[BlockQ6K](Q6K, b) }

// AsQ8K views b as Q8_K blocks without copying (b must be 4-byte aligned).
func AsQ8K(b []byte) ([]BlockQ8K, error) { return view[BlockQ8K](Q8K, b) }

// AsQ8_0 views b as Q8_0 blocks without copying.
func AsQ8_0(b []byte) ([]BlockQ8_0, error) { return view[BlockQ8_0](Q8_0, b) }

// AsQ8_1 views b as Q8_1 blocks without copying.
func AsQ8_1(b []byte) ([]BlockQ8_1, error) { return view[BlockQ8_1](Q8_1, b) }

// AsQ4_0 views b as Q4_0 blocks without copying.
func AsQ4_0(b []byte) ([]BlockQ4_0, error) { return view[BlockQ4_0](Q4_0, b) }

// AsQ4_1 views b as Q4_1 blocks without copying.
func AsQ4_1(b []byte) ([]BlockQ4_1, error) { return view[BlockQ4_1](Q4_1, b) }

// AsQ5_0 views b as Q5_0 blocks without copying.
func AsQ5_0(b []byte) ([]BlockQ5_0, error) { return view[BlockQ5_0](Q5_0, b) }

// AsQ5_1 views b as Q5_1 blocks without copying.
func AsQ5_1(b []byte) ([]BlockQ5_1, error) { return view[BlockQ5_1](Q5_1, b) }

// AsF16 views b as binary16 values without copying (b must be 2-byte aligned).
func AsF16(b []byte) ([]F16, error) {
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("quant: view f16: %w: %d bytes is odd", ErrLength, len(b))
	}
	if len(b) == 0 {
		return []F16{}, nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%2 != 0 {
		return nil, fmt.Errorf("quant: view f16: %w: data at %#x is not 2-byte aligned", ErrAlignment, uintptr(unsafe.Pointer(&b[0])))
	}
	return unsafe.Slice((*F16)(unsafe.Pointer(&b[0])), len(b)/2), nil
}

// AsF32 views b as float32 values without copying (b must be 4-byte aligned).
func AsF32(b []byte) ([]float32, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("quant: view f32: %w: %d bytes is not a multiple of 4", ErrLength, len(b))
	}
	if len(b) == 0 {
		return []float32{}, nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%4 != 0 {
		return nil, fmt.Errorf("quant: view f32: %w: data at %#x is not 4-byte aligned", ErrAlignment, uintptr(unsafe.Pointer(&b[0])))
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4), nil
}
