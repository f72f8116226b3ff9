package gguf

import (
	"math"
	"strconv"

	"github.com/corelane/corelane/quant"
)

// KV is one metadata key/value pair.
type KV struct {
	Key   string
	Value Value
}

// Tensor is one tensor of a file: its header entry and a view of its data.
type Tensor struct {
	Name string
	// Type is the ggml type id. For a file parsed without
	// Options.AllowUnsupportedTypes it is always one package quant
	// implements (Type.Valid()); TypeName names any id.
	Type quant.Type
	// Dims are the sizes, ne0 (the contiguous row width) first. A 2-D
	// weight of Rows×Cols has Dims {Cols, Rows}.
	Dims []int64
	// Offset is the absolute byte offset of the data in the file (the data
	// section start plus the offset stored in the tensor info).
	Offset int64
	// Data is the tensor's Bytes() bytes, a view into the file's memory:
	// read-only (a memory-mapped file faults on a write), valid until the
	// File is closed. Its capacity ends with the tensor.
	Data []byte
}

// NumValues returns the number of values (the product of Dims; 1 for no
// dimensions).
func (t *Tensor) NumValues() int64 {
	n := int64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Bytes returns the size of the tensor's data from its type and dims, or
// -1 for a type id ggml does not define.
func (t *Tensor) Bytes() int64 {
	g, ok := ggmlTypes[uint32(t.Type)]
	if !ok {
		return -1
	}
	return t.NumValues() / g.blockVals * g.blockBytes
}

// Rows returns the product of Dims[1:]: the number of rows of Dims[0]
// values (the Rows of a 2-D weight matrix); 1 for a 1-D tensor.
func (t *Tensor) Rows() int64 {
	n := int64(1)
	for _, d := range t.Dims[min(1, len(t.Dims)):] {
		n *= d
	}
	return n
}

// File is a parsed GGUF file. Its exported fields are read-only after
// Parse or Open: the lookups index them.
type File struct {
	// Version is the GGUF version, 2 or 3 (they share one layout).
	Version uint32
	// Alignment is general.alignment, or 32 when the key is absent.
	Alignment int64
	// DataOffset is the byte offset of the tensor data section: the end of
	// the tensor infos rounded up to Alignment.
	DataOffset int64
	// KV is the metadata in file order.
	KV []KV
	// Tensors are the tensors in file order.
	Tensors []Tensor

	kvIndex map[string]int
	tIndex  map[string]int
	release func() error // unmaps or frees the file's memory; nil for Parse
}

// Keys returns the metadata keys in file order.
func (f *File) Keys() []string {
	keys := make([]string, len(f.KV))
	for i, kv := range f.KV {
		keys[i] = kv.Key
	}
	return keys
}

// Lookup returns the value of key and whether it is present.
func (f *File) Lookup(key string) (Value, bool) {
	i, ok := f.kvIndex[key]
	if !ok {
		return Value{}, false
	}
	return f.KV[i].Value, true
}

// Tensor returns the tensor called name, if the file has one.
func (f *File) Tensor(name string) (*Tensor, bool) {
	i, ok := f.tIndex[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

func (f *File) get(key string) (Value, error) {
	v, ok := f.Lookup(key)
	if !ok {
		return Value{}, keyMissing(key)
	}
	return v, nil
}

// The typed accessors return an error wrapping ErrMissingKey when key is
// absent, and one wrapping ErrType, naming the key and the type found, when
// the value has a type the accessor does not read or does not fit.

// String returns the string value of key.
func (f *File) String(key string) (string, error) {
	v, err := f.get(key)
	if err != nil {
		return "", err
	}
	if v.typ != TypeString {
		return "", keyType(key, v, "string")
	}
	return v.str, nil
}

// Bool returns the bool value of key.
func (f *File) Bool(key string) (bool, error) {
	v, err := f.get(key)
	if err != nil {
		return false, err
	}
	if v.typ != TypeBool {
		return false, keyType(key, v, "bool")
	}
	return v.num != 0, nil
}

// Uint32 returns the value of key, which may have any integer type whose
// value fits in a uint32.
func (f *File) Uint32(key string) (uint32, error) {
	u, err := f.Uint64(key)
	if err != nil {
		return 0, err
	}
	if u > math.MaxUint32 {
		v, _ := f.Lookup(key)
		return 0, keyType(key, v, "an integer that fits in uint32 (the value is "+v.String()+")")
	}
	return uint32(u), nil
}

// Uint64 returns the value of key, which may have any integer type whose
// value is not negative.
func (f *File) Uint64(key string) (uint64, error) {
	v, err := f.get(key)
	if err != nil {
		return 0, err
	}
	u, i, signed, ok := v.integer()
	if !ok {
		return 0, keyType(key, v, "an unsigned integer")
	}
	if signed {
		if i < 0 {
			return 0, keyType(key, v, "a non-negative integer (the value is "+v.String()+")")
		}
		return uint64(i), nil
	}
	return u, nil
}

// Int returns the value of key, which may have any integer type whose
// value fits in an int64.
func (f *File) Int(key string) (int64, error) {
	v, err := f.get(key)
	if err != nil {
		return 0, err
	}
	u, i, signed, ok := v.integer()
	if !ok {
		return 0, keyType(key, v, "an integer")
	}
	if signed {
		return i, nil
	}
	if u > math.MaxInt64 {
		return 0, keyType(key, v, "an integer that fits in int64 (the value is "+v.String()+")")
	}
	return int64(u), nil
}

// Float32 returns the f32 value of key.
func (f *File) Float32(key string) (float32, error) {
	v, err := f.get(key)
	if err != nil {
		return 0, err
	}
	if v.typ != TypeFloat32 {
		return 0, keyType(key, v, "f32")
	}
	return math.Float32frombits(uint32(v.num)), nil
}

// Float64 returns the value of key, an f64 or an f32 (widened exactly).
func (f *File) Float64(key string) (float64, error) {
	v, err := f.get(key)
	if err != nil {
		return 0, err
	}
	switch v.typ {
	case TypeFloat64:
		return math.Float64frombits(v.num), nil
	case TypeFloat32:
		return float64(math.Float32frombits(uint32(v.num))), nil
	}
	return 0, keyType(key, v, "f64 or f32")
}

// Strings returns a copy of the array[string] value of key.
func (f *File) Strings(key string) ([]string, error) {
	v, err := f.get(key)
	if err != nil {
		return nil, err
	}
	a, ok := v.arr.([]string)
	if v.typ != TypeArray || !ok {
		return nil, keyType(key, v, "array[string]")
	}
	return append([]string{}, a...), nil
}

// Float32s returns a copy of the array[f32] value of key.
func (f *File) Float32s(key string) ([]float32, error) {
	v, err := f.get(key)
	if err != nil {
		return nil, err
	}
	a, ok := v.arr.([]float32)
	if v.typ != TypeArray || !ok {
		return nil, keyType(key, v, "array[f32]")
	}
	return append([]float32{}, a...), nil
}

// Int32s returns the array value of key as int32s. The array may have any
// integer element type whose values all fit in an int32.
func (f *File) Int32s(key string) ([]int32, error) {
	v, err := f.get(key)
	if err != nil {
		return nil, err
	}
	if v.typ != TypeArray {
		return nil, keyType(key, v, "an integer array")
	}
	var out []int32
	bad := -1
	switch a := v.arr.(type) {
	case []int32:
		out = append([]int32{}, a...)
	case []uint8:
		out = convert(a, &bad)
	case []int8:
		out = convert(a, &bad)
	case []uint16:
		out = convert(a, &bad)
	case []int16:
		out = convert(a, &bad)
	case []uint32:
		out = convert(a, &bad)
	case []uint64:
		out = convert(a, &bad)
	case []int64:
		out = convert(a, &bad)
	default:
		return nil, keyType(key, v, "an integer array")
	}
	if bad >= 0 {
		return nil, keyType(key, v, "values that fit in int32 (element "+strconv.Itoa(bad)+" does not)")
	}
	return out, nil
}

func convert[T uint8 | int8 | uint16 | int16 | uint32 | uint64 | int64](a []T, bad *int) []int32 {
	out := make([]int32, len(a))
	for i, x := range a {
		if int64(x) < math.MinInt32 || int64(x) > math.MaxInt32 || (x > 0 && uint64(x) > math.MaxInt32) {
			*bad = i
			return nil
		}
		out[i] = int32(x)
	}
	return out
}
