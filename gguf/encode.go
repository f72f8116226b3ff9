package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Encode writes f as a GGUF file: version f.Version (3 if 0; 2 and 3 share
// one layout), the metadata f.KV in order, and the tensors f.Tensors in
// order with their Name, Type, Dims and Data. The alignment is the
// general.alignment value of f.KV (a u32 power of two) or 32; each
// tensor's data starts at the next multiple of it after the previous
// one's, and the gaps are zero (a file without tensors ends with its
// metadata, unpadded). f.Alignment, f.DataOffset and the tensors'
// Offset are ignored (Parse computes them).
//
// Encode checks what Parse checks: keys non-empty and unique, tensor names
// unique and at most 64 bytes, at most 4 dims, a ggml type whose block size
// divides Dims[0], and len(Data) == Bytes(). Tensor types package quant
// does not implement are written as they are.
func Encode(w io.Writer, f *File) error {
	version := f.Version
	if version == 0 {
		version = 3
	}
	if version != 2 && version != 3 {
		return fmt.Errorf("gguf: Encode: version %d, want 2 or 3", version)
	}
	align := int64(defaultAlignment)
	seen := make(map[string]bool, len(f.KV))
	for i, kv := range f.KV {
		if kv.Key == "" {
			return fmt.Errorf("gguf: Encode: kv %d: empty key", i)
		}
		if seen[kv.Key] {
			return fmt.Errorf("gguf: Encode: kv %d: duplicate key %q", i, kv.Key)
		}
		seen[kv.Key] = true
		if err := checkValue(kv.Value, 0); err != nil {
			return fmt.Errorf("gguf: Encode: kv %d %q: %w", i, kv.Key, err)
		}
		if kv.Key == alignmentKey {
			v := kv.Value
			if v.typ != TypeUint32 || v.num == 0 || v.num&(v.num-1) != 0 {
				return fmt.Errorf("gguf: Encode: %s is %s, want a u32 power of two", alignmentKey, v)
			}
			align = int64(v.num)
		}
	}
	names := make(map[string]bool, len(f.Tensors))
	sizes := make([]int64, len(f.Tensors))
	for i := range f.Tensors {
		t := &f.Tensors[i]
		if err := checkTensor(t); err != nil {
			return fmt.Errorf("gguf: Encode: tensor %d %q: %w", i, t.Name, err)
		}
		if names[t.Name] {
			return fmt.Errorf("gguf: Encode: tensor %d: duplicate name %q", i, t.Name)
		}
		names[t.Name] = true
		sizes[i] = t.Bytes()
	}

	bw := bufio.NewWriter(w)
	e := &encoder{w: bw}
	e.raw([]byte(magic))
	e.u32(version)
	e.u64(uint64(len(f.Tensors)))
	e.u64(uint64(len(f.KV)))
	for _, kv := range f.KV {
		e.str(kv.Key)
		e.u32(uint32(kv.Value.typ))
		e.value(kv.Value)
	}
	var off int64
	for i, t := range f.Tensors {
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(uint64(d))
		}
		e.u32(uint32(t.Type))
		e.u64(uint64(off))
		off += pad(sizes[i], align)
	}
	if len(f.Tensors) > 0 { // without tensors nothing follows the infos
		e.zeros(pad(e.n, align) - e.n)
	}
	for i, t := range f.Tensors {
		e.raw(t.Data)
		e.zeros(pad(sizes[i], align) - sizes[i])
	}
	if e.err != nil {
		return fmt.Errorf("gguf: Encode: %w", e.err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gguf: Encode: %w", err)
	}
	return nil
}

func pad(n, align int64) int64 { return (n + align - 1) / align * align }

func checkValue(v Value, depth int) error {
	if !v.typ.valid() {
		return fmt.Errorf("unknown value type %d", uint32(v.typ))
	}
	if v.typ != TypeArray {
		return nil
	}
	if depth >= maxDepth {
		return fmt.Errorf("arrays nested deeper than %d levels", maxDepth)
	}
	if vs, ok := v.arr.([]Value); ok {
		for i, u := range vs {
			if u.typ != TypeArray {
				return fmt.Errorf("element %d of an array of arrays is a %s", i, u.describe())
			}
			if err := checkValue(u, depth+1); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
	}
	return nil
}

func checkTensor(t *Tensor) error {
	if len(t.Name) > maxNameLen {
		return fmt.Errorf("name is %d bytes, GGUF allows at most %d", len(t.Name), maxNameLen)
	}
	if len(t.Dims) > maxDims {
		return fmt.Errorf("%d dimensions, at most %d are allowed", len(t.Dims), maxDims)
	}
	for d, x := range t.Dims {
		if x < 0 {
			return fmt.Errorf("dimension %d is %d", d, x)
		}
	}
	if _, ok := product(t.Dims); !ok {
		return fmt.Errorf("dimensions %v: the element count overflows int64", t.Dims)
	}
	g, ok := ggmlTypes[uint32(t.Type)]
	if !ok {
		return fmt.Errorf("unknown ggml type %d", uint32(t.Type))
	}
	ne0 := int64(1)
	if len(t.Dims) > 0 {
		ne0 = t.Dims[0]
	}
	if ne0%g.blockVals != 0 {
		return fmt.Errorf("a row of %d values is not a multiple of the %s block size %d", ne0, g.name, g.blockVals)
	}
	n, _ := product(t.Dims)
	if n/g.blockVals > math.MaxInt64/g.blockBytes {
		return errors.New("the data size overflows int64")
	}
	if int64(len(t.Data)) != t.Bytes() {
		return fmt.Errorf("data is %d bytes, want %d for %v %s", len(t.Data), t.Bytes(), t.Dims, g.name)
	}
	return nil
}

// encoder writes little-endian fields, keeping the first error.
type encoder struct {
	w   *bufio.Writer
	n   int64
	err error
	buf [8]byte
}

func (e *encoder) raw(b []byte) {
	if e.err != nil {
		return
	}
	var k int
	k, e.err = e.w.Write(b)
	e.n += int64(k)
}

func (e *encoder) zeros(n int64) {
	var z [64]byte
	for n > 0 {
		k := min(n, int64(len(z)))
		e.raw(z[:k])
		n -= k
	}
}

func (e *encoder) u8(v uint8) { e.buf[0] = v; e.raw(e.buf[:1]) }
func (e *encoder) u16(v uint16) {
	binary.LittleEndian.PutUint16(e.buf[:], v)
	e.raw(e.buf[:2])
}
func (e *encoder) u32(v uint32) {
	binary.LittleEndian.PutUint32(e.buf[:], v)
	e.raw(e.buf[:4])
}
func (e *encoder) u64(v uint64) {
	binary.LittleEndian.PutUint64(e.buf[:], v)
	e.raw(e.buf[:8])
}
func (e *encoder) str(s string) {
	e.u64(uint64(len(s)))
	e.raw([]byte(s))
}

// scalar writes a fixed-size value of type t whose bits are num.
func (e *encoder) scalar(t ValueType, num uint64) {
	switch t.size() {
	case 1:
		e.u8(uint8(num))
	case 2:
		e.u16(uint16(num))
	case 4:
		e.u32(uint32(num))
	case 8:
		e.u64(num)
	}
}

func (e *encoder) value(v Value) {
	switch v.typ {
	case TypeString:
		e.str(v.str)
		return
	case TypeArray:
		e.u32(uint32(v.elem))
		e.u64(uint64(v.Len()))
		e.elems(v.arr)
		return
	}
	e.scalar(v.typ, v.num)
}

func (e *encoder) elems(a any) {
	switch a := a.(type) {
	case []uint8:
		e.raw(a)
	case []int8:
		for _, x := range a {
			e.u8(uint8(x))
		}
	case []bool:
		for _, x := range a {
			if x {
				e.u8(1)
			} else {
				e.u8(0)
			}
		}
	case []uint16:
		for _, x := range a {
			e.u16(x)
		}
	case []int16:
		for _, x := range a {
			e.u16(uint16(x))
		}
	case []uint32:
		for _, x := range a {
			e.u32(x)
		}
	case []int32:
		for _, x := range a {
			e.u32(uint32(x))
		}
	case []float32:
		for _, x := range a {
			e.u32(math.Float32bits(x))
		}
	case []uint64:
		for _, x := range a {
			e.u64(x)
		}
	case []int64:
		for _, x := range a {
			e.u64(uint64(x))
		}
	case []float64:
		for _, x := range a {
			e.u64(math.Float64bits(x))
		}
	case []string:
		for _, s := range a {
			e.str(s)
		}
	case []Value:
		for _, v := range a {
			e.value(v)
		}
	}
}
