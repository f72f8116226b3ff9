package gguf

import (
	"fmt"
	"math"
)

// Value is one metadata value: a scalar of one of the GGUF value types, a
// string, or an array of one element type (arrays of arrays included).
// Values are immutable; the zero Value is the u8 0.
type Value struct {
	typ  ValueType
	elem ValueType // element type of an array
	num  uint64    // integers (signed as two's complement), float bits, bool
	str  string
	arr  any // []uint8 ... []float64, []bool, []string or []Value (arrays of arrays)
}

// Uint8 returns a u8 value. The constructors, one per value type, make
// what Encode writes.
func Uint8(v uint8) Value { return Value{typ: TypeUint8, num: uint64(v)} }

// Int8 returns an i8 value.
func Int8(v int8) Value { return Value{typ: TypeInt8, num: uint64(int64(v))} }

// Uint16 returns a u16 value.
func Uint16(v uint16) Value { return Value{typ: TypeUint16, num: uint64(v)} }

// Int16 returns an i16 value.
func Int16(v int16) Value { return Value{typ: TypeInt16, num: uint64(int64(v))} }

// Uint32 returns a u32 value.
func Uint32(v uint32) Value { return Value{typ: TypeUint32, num: uint64(v)} }

// Int32 returns an i32 value.
func Int32(v int32) Value { return Value{typ: TypeInt32, num: uint64(int64(v))} }

// Uint64 returns a u64 value.
func Uint64(v uint64) Value { return Value{typ: TypeUint64, num: v} }

// Int64 returns an i64 value.
func Int64(v int64) Value { return Value{typ: TypeInt64, num: uint64(v)} }

// Float32 returns an f32 value (its bits are kept, NaN payloads included).
func Float32(v float32) Value { return Value{typ: TypeFloat32, num: uint64(math.Float32bits(v))} }

// Float64 returns an f64 value.
func Float64(v float64) Value { return Value{typ: TypeFloat64, num: math.Float64bits(v)} }

// String returns a string value.
func String(v string) Value { return Value{typ: TypeString, str: v} }

// Bool returns a bool value.
func Bool(v bool) Value {
	if v {
		return Value{typ: TypeBool, num: 1}
	}
	return Value{typ: TypeBool}
}

// Elem is the Go type of an array element of a fixed type.
type Elem interface {
	uint8 | int8 | uint16 | int16 | uint32 | int32 | float32 | bool | string | uint64 | int64 | float64
}

// Array returns an array value holding a copy of xs; its element type
// follows from T (uint8 → u8, float32 → f32, string → string, ...).
func Array[T Elem](xs []T) Value {
	c := append([]T{}, xs...)
	var elem ValueType
	switch any(c).(type) {
	case []uint8:
		elem = TypeUint8
	case []int8:
		elem = TypeInt8
	case []uint16:
		elem = TypeUint16
	case []int16:
		elem = TypeInt16
	case []uint32:
		elem = TypeUint32
	case []int32:
		elem = TypeInt32
	case []float32:
		elem = TypeFloat32
	case []bool:
		elem = TypeBool
	case []string:
		elem = TypeString
	case []uint64:
		elem = TypeUint64
	case []int64:
		elem = TypeInt64
	case []float64:
		elem = TypeFloat64
	}
	return Value{typ: TypeArray, elem: elem, arr: c}
}

// Arrays returns an array whose elements are arrays (GGUF allows nesting;
// each inner array has its own element type). Encode rejects an element
// that is not an array.
func Arrays(vs ...Value) Value {
	return Value{typ: TypeArray, elem: TypeArray, arr: append([]Value{}, vs...)}
}

// Type returns the value's type.
func (v Value) Type() ValueType { return v.typ }

// ElemType returns the element type of an array (TypeArray for an array of
// arrays). It is meaningless for other values.
func (v Value) ElemType() ValueType { return v.elem }

// Len returns the number of elements of an array, and 0 for other values.
func (v Value) Len() int {
	if v.typ != TypeArray {
		return 0
	}
	switch a := v.arr.(type) {
	case nil:
		return 0
	case []uint8:
		return len(a)
	case []int8:
		return len(a)
	case []uint16:
		return len(a)
	case []int16:
		return len(a)
	case []uint32:
		return len(a)
	case []int32:
		return len(a)
	case []float32:
		return len(a)
	case []bool:
		return len(a)
	case []string:
		return len(a)
	case []uint64:
		return len(a)
	case []int64:
		return len(a)
	case []float64:
		return len(a)
	case []Value:
		return len(a)
	}
	return 0
}

// Any returns the value as a Go value: uint8, int8, uint16, int16, uint32,
// int32, float32, bool, string, uint64, int64 or float64 for scalars, and
// a fresh slice of those (or []Value for an array of arrays) for arrays.
func (v Value) Any() any {
	switch v.typ {
	case TypeUint8:
		return uint8(v.num)
	case TypeInt8:
		return int8(v.num)
	case TypeUint16:
		return uint16(v.num)
	case TypeInt16:
		return int16(v.num)
	case TypeUint32:
		return uint32(v.num)
	case TypeInt32:
		return int32(v.num)
	case TypeFloat32:
		return math.Float32frombits(uint32(v.num))
	case TypeBool:
		return v.num != 0
	case TypeString:
		return v.str
	case TypeUint64:
		return v.num
	case TypeInt64:
		return int64(v.num)
	case TypeFloat64:
		return math.Float64frombits(v.num)
	case TypeArray:
		return copyArray(v.arr)
	}
	return nil
}

func copyArray(a any) any {
	switch a := a.(type) {
	case []uint8:
		return append([]uint8{}, a...)
	case []int8:
		return append([]int8{}, a...)
	case []uint16:
		return append([]uint16{}, a...)
	case []int16:
		return append([]int16{}, a...)
	case []uint32:
		return append([]uint32{}, a...)
	case []int32:
		return append([]int32{}, a...)
	case []float32:
		return append([]float32{}, a...)
	case []bool:
		return append([]bool{}, a...)
	case []string:
		return append([]string{}, a...)
	case []uint64:
		return append([]uint64{}, a...)
	case []int64:
		return append([]int64{}, a...)
	case []float64:
		return append([]float64{}, a...)
	case []Value:
		return append([]Value{}, a...)
	}
	return nil
}

// Equal reports whether v and u have the same type and the same contents,
// comparing floats bit for bit (so a NaN equals the same NaN).
func (v Value) Equal(u Value) bool {
	if v.typ != u.typ {
		return false
	}
	switch v.typ {
	case TypeString:
		return v.str == u.str
	case TypeArray:
		return v.elem == u.elem && arraysEqual(v.arr, u.arr)
	}
	return v.num == u.num
}

func arraysEqual(a, b any) bool {
	switch a := a.(type) {
	case []uint8:
		return sliceEqual(a, b)
	case []int8:
		return sliceEqual(a, b)
	case []uint16:
		return sliceEqual(a, b)
	case []int16:
		return sliceEqual(a, b)
	case []uint32:
		return sliceEqual(a, b)
	case []int32:
		return sliceEqual(a, b)
	case []bool:
		return sliceEqual(a, b)
	case []string:
		return sliceEqual(a, b)
	case []uint64:
		return sliceEqual(a, b)
	case []int64:
		return sliceEqual(a, b)
	case []float32:
		return sliceEqualBy(a, b, func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) })
	case []float64:
		return sliceEqualBy(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	case []Value:
		return sliceEqualBy(a, b, Value.Equal)
	}
	return false
}

func sliceEqual[T comparable](a []T, b any) bool {
	return sliceEqualBy(a, b, func(x, y T) bool { return x == y })
}

func sliceEqualBy[T any](a []T, b any, eq func(x, y T) bool) bool {
	bs, ok := b.([]T)
	if !ok || len(a) != len(bs) {
		return false
	}
	for i := range a {
		if !eq(a[i], bs[i]) {
			return false
		}
	}
	return true
}

// String formats the value for people: `u32 2048`, `string "llama"`,
// `array[string] of 32000`. Use Any or the File accessors for the data.
func (v Value) String() string {
	switch v.typ {
	case TypeString:
		return fmt.Sprintf("string %q", v.str)
	case TypeArray:
		return fmt.Sprintf("array[%s] of %d", v.elem, v.Len())
	}
	return fmt.Sprintf("%s %v", v.typ, v.Any())
}

// describe names the type of v for error messages: "u64", "array[f32]".
func (v Value) describe() string {
	if v.typ == TypeArray {
		return "array[" + v.elem.String() + "]"
	}
	return v.typ.String()
}

// integer returns an integer value: u for the unsigned types, i for the
// signed ones (signed reports which); ok is false for other types.
func (v Value) integer() (u uint64, i int64, signed, ok bool) {
	switch v.typ {
	case TypeUint8, TypeUint16, TypeUint32, TypeUint64:
		return v.num, 0, false, true
	case TypeInt8, TypeInt16, TypeInt32, TypeInt64:
		return 0, int64(v.num), true, true
	}
	return 0, 0, false, false
}
