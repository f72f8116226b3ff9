// Package scratch is the module's one source of temporary memory: the
// quantized activations and packed layouts of a matrix product, the
// per-task buffers of attention, the row buffers of the float ops. Every
// buffer is 64-byte aligned (a cache line, and the alignment any kernel's
// vector loads prefer), and a Get after a Put of the same size class
// allocates nothing, so an op called in a loop runs allocation-free.
//
// Buffers come in power-of-two size classes, each with its own sync.Pool,
// so a small request never takes (and pins) a large buffer and a large one
// never finds only small ones. The contents of a buffer from Get are
// undefined: callers overwrite what they read.
package scratch

import (
	"math/bits"
	"sync"
	"unsafe"
)

// Align is the alignment of every buffer's first byte.
const Align = 64

// minClass is the smallest size class (1<<minClass bytes).
const minClass = 8

// Buf is a buffer taken from the pool; give it back with Release.
type Buf struct {
	mem   []byte // len 1<<class + Align
	class int
}

var pools [64]sync.Pool

func class(n int) int {
	if n <= 1<<minClass {
		return minClass
	}
	return bits.Len(uint(n - 1))
}

// Get returns a buffer of at least n bytes.
func Get(n int) *Buf {
	if n < 0 {
		panic("scratch: negative size")
	}
	c := class(n)
	if b, ok := pools[c].Get().(*Buf); ok {
		return b
	}
	return &Buf{mem: make([]byte, 1<<c+Align), class: c}
}

// Release returns b to its pool. b and every slice taken from it must not
// be used afterwards.
func (b *Buf) Release() { pools[b.class].Put(b) }

// Bytes returns the first n bytes of b, starting at a 64-byte boundary.
// n must not exceed the size b was got for.
func (b *Buf) Bytes(n int) []byte {
	off := int(-uintptr(unsafe.Pointer(unsafe.SliceData(b.mem))) & (Align - 1))
	return b.mem[off : off+n : off+n]
}

// Float32s returns the first n float32s of b (b must hold 4n bytes).
func (b *Buf) Float32s(n int) []float32 {
	if n == 0 {
		return nil
	}
	p := b.Bytes(4 * n)
	return unsafe.Slice((*float32)(unsafe.Pointer(&p[0])), n)
}

// Float64s returns the first n float64s of b (b must hold 8n bytes).
func (b *Buf) Float64s(n int) []float64 {
	if n == 0 {
		return nil
	}
	p := b.Bytes(8 * n)
	return unsafe.Slice((*float64)(unsafe.Pointer(&p[0])), n)
}

// Bytes is Get(n) followed by b.Bytes(n).
func Bytes(n int) ([]byte, *Buf) {
	b := Get(n)
	return b.Bytes(n), b
}

// Float32s is Get(4n) followed by b.Float32s(n).
func Float32s(n int) ([]float32, *Buf) {
	b := Get(4 * n)
	return b.Float32s(n), b
}

// Float64s is Get(8n) followed by b.Float64s(n).
func Float64s(n int) ([]float64, *Buf) {
	b := Get(8 * n)
	return b.Float64s(n), b
}
