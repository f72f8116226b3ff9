package kernels

import "unsafe"

// quantBytes returns the bytes of a block slice (test helper).
func quantBytes[B any](b []B) []byte {
	if len(b) == 0 {
		return nil
	}
	var z B
	return unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*int(unsafe.Sizeof(z)))
}
