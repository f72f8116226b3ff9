package gguf

import (
	"fmt"

	"github.com/corelane/corelane/quant"
)

// ValueType is a GGUF metadata value type, as stored in the file.
type ValueType uint32

// The GGUF metadata value types.
const (
	TypeUint8   ValueType = 0
	TypeInt8    ValueType = 1
	TypeUint16  ValueType = 2
	TypeInt16   ValueType = 3
	TypeUint32  ValueType = 4
	TypeInt32   ValueType = 5
	TypeFloat32 ValueType = 6
	TypeBool    ValueType = 7
	TypeString  ValueType = 8
	TypeArray   ValueType = 9
	TypeUint64  ValueType = 10
	TypeInt64   ValueType = 11
	TypeFloat64 ValueType = 12
)

var valueTypeNames = [...]string{"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64"}

// String returns the type's short name ("u32", "string", "array", ...).
func (t ValueType) String() string {
	if int(t) < len(valueTypeNames) {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// valid reports whether t is one of the 13 GGUF value types.
func (t ValueType) valid() bool { return t <= TypeFloat64 }

// size returns the encoded size of a fixed-size value, 0 for strings and
// arrays.
func (t ValueType) size() int64 {
	switch t {
	case TypeUint8, TypeInt8, TypeBool:
		return 1
	case TypeUint16, TypeInt16:
		return 2
	case TypeUint32, TypeInt32, TypeFloat32:
		return 4
	case TypeUint64, TypeInt64, TypeFloat64:
		return 8
	}
	return 0
}

// minSize is the fewest bytes one encoded value of type t takes: a
// string's length, an array's element type and count.
func (t ValueType) minSize() int64 {
	switch t {
	case TypeString:
		return 8
	case TypeArray:
		return 12
	}
	return t.size()
}

// ggmlType describes one ggml tensor type: its name and block geometry.
type ggmlType struct {
	name       string
	blockVals  int64 // values per block
	blockBytes int64 // bytes per block
}

// ggmlTypes lists every tensor type id of ggml (d99724f), including those
// package quant does not implement, so that any file's tensor sizes can be
// checked and unsupported types named.
var ggmlTypes = map[uint32]ggmlType{
	0: {"f32", 1, 4}, 1: {"f16", 1, 2}, 2: {"q4_0", 32, 18}, 3: {"q4_1", 32, 20},
	6: {"q5_0", 32, 22}, 7: {"q5_1", 32, 24}, 8: {"q8_0", 32, 34}, 9: {"q8_1", 32, 36},
	10: {"q2_K", 256, 84}, 11: {"q3_K", 256, 110}, 12: {"q4_K", 256, 144}, 13: {"q5_K", 256, 176},
	14: {"q6_K", 256, 210}, 15: {"q8_K", 256, 292},
	16: {"iq2_xxs", 256, 66}, 17: {"iq2_xs", 256, 74}, 18: {"iq3_xxs", 256, 98}, 19: {"iq1_s", 256, 50},
	20: {"iq4_nl", 32, 18}, 21: {"iq3_s", 256, 110}, 22: {"iq2_s", 256, 82}, 23: {"iq4_xs", 256, 136},
	24: {"i8", 1, 1}, 25: {"i16", 1, 2}, 26: {"i32", 1, 4}, 27: {"i64", 1, 8}, 28: {"f64", 1, 8},
	29: {"iq1_m", 256, 56}, 30: {"bf16", 1, 2},
	34: {"tq1_0", 256, 54}, 35: {"tq2_0", 256, 66},
	39: {"mxfp4", 32, 17}, 40: {"nvfp4", 64, 36}, 41: {"q1_0", 128, 18}, 42: {"q2_0", 64, 18},
}

// removedTypes are ids ggml once used and no longer reads from files.
var removedTypes = map[uint32]string{
	4: "q4_2", 5: "q4_3", 31: "q4_0_4_4", 32: "q4_0_4_8", 33: "q4_0_8_8",
	36: "iq4_nl_4_4", 37: "iq4_nl_4_8", 38: "iq4_nl_8_8",
}

// TypeName returns ggml's name for a tensor type id, including the types
// package quant does not implement ("q3_K", "iq4_xs", "bf16", ...), or
// "type(N)" for an id ggml does not define.
func TypeName(t quant.Type) string {
	if g, ok := ggmlTypes[uint32(t)]; ok {
		return g.name
	}
	if name, ok := removedTypes[uint32(t)]; ok {
		return name + " (removed)"
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}
