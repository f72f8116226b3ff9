package gguf_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
)

// everyValue has one key per value type, arrays of each element type, the
// empty and non-ASCII edge cases, and arrays of arrays.
func everyValue() []gguf.KV {
	nan := math.Float32frombits(0x7fc00001)
	return []gguf.KV{
		{"u8", gguf.Uint8(200)}, {"i8", gguf.Int8(-100)}, {"u16", gguf.Uint16(65000)}, {"i16", gguf.Int16(-32000)},
		{"u32", gguf.Uint32(4000000000)}, {"i32", gguf.Int32(-2000000000)}, {"f32", gguf.Float32(nan)},
		{"bool.t", gguf.Bool(true)}, {"bool.f", gguf.Bool(false)}, {"str", gguf.String("héllo, 世界")},
		{"str.empty", gguf.String("")}, {"u64", gguf.Uint64(0xFEDCBA9876543210)}, {"i64", gguf.Int64(-0x123456789ABCDEF)},
		{"f64", gguf.Float64(math.Inf(-1))},
		{"a.u8", gguf.Array([]uint8{0, 255})}, {"a.i8", gguf.Array([]int8{-128, 127})},
		{"a.u16", gguf.Array([]uint16{1, 65535})}, {"a.i16", gguf.Array([]int16{-32768, 7})},
		{"a.u32", gguf.Array([]uint32{})}, {"a.i32", gguf.Array([]int32{-1, 2, 3})},
		{"a.f32", gguf.Array([]float32{0.5, float32(math.Copysign(0, -1)), nan})},
		{"a.bool", gguf.Array([]bool{true, false, true})}, {"a.str", gguf.Array([]string{"", "a b", "<0x0A>", "▁x"})},
		{"a.u64", gguf.Array([]uint64{math.MaxUint64})}, {"a.i64", gguf.Array([]int64{math.MinInt64})},
		{"a.f64", gguf.Array([]float64{1e300, -2.25})},
		{"a.nested", gguf.Arrays(gguf.Array([]string{"x"}), gguf.Arrays(gguf.Array([]float64{1})), gguf.Array([]bool{}))},
		{"a.nested.empty", gguf.Arrays()},
	}
}

// tensorsOf makes tensors of several types (data patterned so that a
// misplaced byte shows) including a 0-dim and a zero-size one.
func tensorsOf() []gguf.Tensor {
	mk := func(name string, typ quant.Type, dims ...int64) gguf.Tensor {
		t := gguf.Tensor{Name: name, Type: typ, Dims: dims}
		t.Data = make([]byte, t.Bytes())
		for i := range t.Data {
			t.Data[i] = byte(i*7 + len(name))
		}
		return t
	}
	return []gguf.Tensor{
		mk("f32", quant.F32, 5, 3), mk("q4k", quant.Q4K, 512, 2), mk("f16.odd", quant.FP16, 3),
		mk("scalar", quant.F32), mk("empty", quant.Q8_0, 0, 4), mk("q6k", quant.Q6K, 256, 1, 2, 1),
		mk("q5_0", quant.Q5_0, 64, 3),
	}
}

func encode(t *testing.T, f *gguf.File) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gguf.Encode(&buf, f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sameFile(t *testing.T, got, want *gguf.File) {
	t.Helper()
	if len(got.KV) != len(want.KV) {
		t.Fatalf("%d kvs, want %d", len(got.KV), len(want.KV))
	}
	for i, kv := range want.KV {
		if got.KV[i].Key != kv.Key || !got.KV[i].Value.Equal(kv.Value) {
			t.Errorf("kv %d: %s = %v, want %s = %v", i, got.KV[i].Key, got.KV[i].Value, kv.Key, kv.Value)
		}
	}
	if len(got.Tensors) != len(want.Tensors) {
		t.Fatalf("%d tensors, want %d", len(got.Tensors), len(want.Tensors))
	}
	for i, w := range want.Tensors {
		g := got.Tensors[i]
		if g.Name != w.Name || g.Type != w.Type || len(g.Dims) != len(w.Dims) || !bytes.Equal(g.Data, w.Data) {
			t.Errorf("tensor %d: %s %v %v (%d bytes), want %s %v %v (%d bytes)", i, g.Name, g.Type, g.Dims, len(g.Data), w.Name, w.Type, w.Dims, len(w.Data))
			continue
		}
		for d := range w.Dims {
			if g.Dims[d] != w.Dims[d] {
				t.Errorf("tensor %s dims %v, want %v", w.Name, g.Dims, w.Dims)
			}
		}
	}
}

// TestRoundTrip: Encode then Parse gives back every value and tensor, for
// both versions and several alignments, with tensor data aligned and
// inside the encoded bytes.
func TestRoundTrip(t *testing.T) {
	for _, align := range []uint32{0, 1, 8, 32, 64, 4096} {
		for _, version := range []uint32{2, 3} {
			kvs := everyValue()
			if align != 0 {
				kvs = append([]gguf.KV{{"general.alignment", gguf.Uint32(align)}}, kvs...)
			}
			in := &gguf.File{Version: version, KV: kvs, Tensors: tensorsOf()}
			data := encode(t, in)
			f, err := gguf.Parse(data)
			if err != nil {
				t.Fatalf("align %d v%d: %v", align, version, err)
			}
			sameFile(t, f, in)
			wantAlign := int64(align)
			if align == 0 {
				wantAlign = 32
			}
			if f.Version != version || f.Alignment != wantAlign || f.DataOffset%wantAlign != 0 {
				t.Errorf("align %d v%d: version %d alignment %d data offset %d", align, version, f.Version, f.Alignment, f.DataOffset)
			}
			base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
			for _, tn := range f.Tensors {
				if tn.Offset%wantAlign != 0 || tn.Offset < f.DataOffset {
					t.Errorf("tensor %s at %d: not aligned to %d in the data section", tn.Name, tn.Offset, wantAlign)
				}
				if len(tn.Data) > 0 && uintptr(unsafe.Pointer(&tn.Data[0]))-base != uintptr(tn.Offset) {
					t.Errorf("tensor %s: Data is not the view at Offset %d", tn.Name, tn.Offset)
				}
				if cap(tn.Data) != len(tn.Data) {
					t.Errorf("tensor %s: cap %d > len %d, an append would overwrite the file", tn.Name, cap(tn.Data), len(tn.Data))
				}
			}
			// Encoding the parsed file again gives the same bytes.
			if again := encode(t, f); !bytes.Equal(again, data) {
				t.Errorf("align %d v%d: re-encoding changed the bytes", align, version)
			}
		}
	}
}

// TestEncodeRejects: the writer refuses what the reader would.
func TestEncodeRejects(t *testing.T) {
	good := func() *gguf.File { return &gguf.File{KV: []gguf.KV{{"a", gguf.Uint8(1)}}, Tensors: tensorsOf()[:1]} }
	cases := map[string]func(f *gguf.File){
		"version 1":         func(f *gguf.File) { f.Version = 1 },
		"empty key":         func(f *gguf.File) { f.KV[0].Key = "" },
		"duplicate key":     func(f *gguf.File) { f.KV = append(f.KV, f.KV[0]) },
		"alignment u64":     func(f *gguf.File) { f.KV = append(f.KV, gguf.KV{"general.alignment", gguf.Uint64(32)}) },
		"alignment 3":       func(f *gguf.File) { f.KV = append(f.KV, gguf.KV{"general.alignment", gguf.Uint32(3)}) },
		"nested scalar":     func(f *gguf.File) { f.KV[0].Value = gguf.Arrays(gguf.Uint8(1)) },
		"duplicate tensor":  func(f *gguf.File) { f.Tensors = append(f.Tensors, f.Tensors[0]) },
		"long name":         func(f *gguf.File) { f.Tensors[0].Name = strings.Repeat("x", 65) },
		"five dims":         func(f *gguf.File) { f.Tensors[0].Dims = []int64{1, 1, 1, 1, 15} },
		"negative dim":      func(f *gguf.File) { f.Tensors[0].Dims = []int64{-15} },
		"short data":        func(f *gguf.File) { f.Tensors[0].Data = f.Tensors[0].Data[1:] },
		"unknown type":      func(f *gguf.File) { f.Tensors[0].Type = 99 },
		"partial block row": func(f *gguf.File) { f.Tensors[0].Type = quant.Q8_0 },
	}
	for name, mutate := range cases {
		f := good()
		mutate(f)
		if err := gguf.Encode(&bytes.Buffer{}, f); err == nil || !strings.HasPrefix(err.Error(), "gguf: Encode: ") {
			t.Errorf("%s: Encode error %v", name, err)
		}
	}
	if err := gguf.Encode(&bytes.Buffer{}, good()); err != nil {
		t.Fatalf("the unmutated file: %v", err)
	}
}

// TestAccessors: each typed accessor reads the types it documents, and
// tells a missing key from a wrong type or a value that does not fit,
// naming the key and the type found.
func TestAccessors(t *testing.T) {
	f, err := gguf.Parse(encode(t, &gguf.File{KV: append(everyValue(),
		gguf.KV{"u64.small", gguf.Uint64(7)}, gguf.KV{"i64.neg", gguf.Int64(-7)}, gguf.KV{"u64.max", gguf.Uint64(math.MaxUint64)},
		gguf.KV{"a.u32.big", gguf.Array([]uint32{1, math.MaxUint32})}, gguf.KV{"f32.one", gguf.Float32(1.5)})}))
	if err != nil {
		t.Fatal(err)
	}
	wrap := func(v any, err error) func() (any, error) { return func() (any, error) { return v, err } }
	cases := []struct {
		name string
		call func() (any, error)
		want any
		err  error  // nil: success
		msg  string // substring of the error
	}{
		{"String", wrap(f.String("str")), "héllo, 世界", nil, ""},
		{"String empty", wrap(f.String("str.empty")), "", nil, ""},
		{"String of u8", wrap(f.String("u8")), nil, gguf.ErrType, `key "u8": wrong metadata type: want string, found u8`},
		{"String missing", wrap(f.String("nope")), nil, gguf.ErrMissingKey, `key "nope"`},
		{"Bool", wrap(f.Bool("bool.t")), true, nil, ""},
		{"Bool false", wrap(f.Bool("bool.f")), false, nil, ""},
		{"Bool of u8", wrap(f.Bool("u8")), nil, gguf.ErrType, "found u8"},
		{"Uint32 of u8", wrap(f.Uint32("u8")), uint32(200), nil, ""},
		{"Uint32 of u32", wrap(f.Uint32("u32")), uint32(4000000000), nil, ""},
		{"Uint32 of small u64", wrap(f.Uint32("u64.small")), uint32(7), nil, ""},
		{"Uint32 of big u64", wrap(f.Uint32("u64")), nil, gguf.ErrType, "fits in uint32"},
		{"Uint32 of negative", wrap(f.Uint32("i16")), nil, gguf.ErrType, "non-negative"},
		{"Uint32 of f32", wrap(f.Uint32("f32")), nil, gguf.ErrType, "found f32"},
		{"Uint32 of string", wrap(f.Uint32("str")), nil, gguf.ErrType, "found string"},
		{"Uint32 missing", wrap(f.Uint32("nope")), nil, gguf.ErrMissingKey, `"nope"`},
		{"Uint64", wrap(f.Uint64("u64")), uint64(0xFEDCBA9876543210), nil, ""},
		{"Uint64 of i32 negative", wrap(f.Uint64("i32")), nil, gguf.ErrType, "non-negative"},
		{"Int of i8", wrap(f.Int("i8")), int64(-100), nil, ""},
		{"Int of u32", wrap(f.Int("u32")), int64(4000000000), nil, ""},
		{"Int of i64", wrap(f.Int("i64")), int64(-0x123456789ABCDEF), nil, ""},
		{"Int of negative i64", wrap(f.Int("i64.neg")), int64(-7), nil, ""},
		{"Int of max u64", wrap(f.Int("u64.max")), nil, gguf.ErrType, "fits in int64"},
		{"Int of bool", wrap(f.Int("bool.t")), nil, gguf.ErrType, "found bool"},
		{"Float32", wrap(f.Float32("f32.one")), float32(1.5), nil, ""},
		{"Float32 of f64", wrap(f.Float32("f64")), nil, gguf.ErrType, "want f32, found f64"},
		{"Float64 of f32", wrap(f.Float64("f32.one")), 1.5, nil, ""},
		{"Float64", wrap(f.Float64("f64")), math.Inf(-1), nil, ""},
		{"Float64 of i32", wrap(f.Float64("i32")), nil, gguf.ErrType, "found i32"},
		{"Strings", wrap(f.Strings("a.str")), []string{"", "a b", "<0x0A>", "▁x"}, nil, ""},
		{"Strings of f32s", wrap(f.Strings("a.f32")), nil, gguf.ErrType, "want array[string], found array[f32]"},
		{"Strings of string", wrap(f.Strings("str")), nil, gguf.ErrType, "found string"},
		{"Float32s", wrap(f.Float32s("a.f64")), nil, gguf.ErrType, "found array[f64]"},
		{"Int32s of i32", wrap(f.Int32s("a.i32")), []int32{-1, 2, 3}, nil, ""},
		{"Int32s of u16", wrap(f.Int32s("a.u16")), []int32{1, 65535}, nil, ""},
		{"Int32s of i8", wrap(f.Int32s("a.i8")), []int32{-128, 127}, nil, ""},
		{"Int32s of big u32", wrap(f.Int32s("a.u32.big")), nil, gguf.ErrType, "element 1 does not"},
		{"Int32s of big u64", wrap(f.Int32s("a.u64")), nil, gguf.ErrType, "element 0 does not"},
		{"Int32s of min i64", wrap(f.Int32s("a.i64")), nil, gguf.ErrType, "element 0 does not"},
		{"Int32s of strings", wrap(f.Int32s("a.str")), nil, gguf.ErrType, "found array[string]"},
		{"Int32s of u32", wrap(f.Int32s("u32")), nil, gguf.ErrType, "found u32"},
		{"Int32s of empty u32s", wrap(f.Int32s("a.u32")), []int32{}, nil, ""},
	}
	for _, c := range cases {
		got, err := c.call()
		if c.err == nil {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if !equalAny(got, c.want) {
				t.Errorf("%s: %#v, want %#v", c.name, got, c.want)
			}
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(fmt.Sprint(err), c.msg) {
			t.Errorf("%s: error %v, want %v containing %q", c.name, err, c.err, c.msg)
		}
		if c.err == gguf.ErrType && errors.Is(err, gguf.ErrMissingKey) || c.err == gguf.ErrMissingKey && errors.Is(err, gguf.ErrType) {
			t.Errorf("%s: error %v matches both sentinels", c.name, err)
		}
	}
	// The slices are copies: changing one does not change the file.
	a, _ := f.Strings("a.str")
	a[0] = "changed"
	if b, _ := f.Strings("a.str"); b[0] != "" {
		t.Errorf("Strings returned the file's own slice")
	}
	if keys := f.Keys(); len(keys) != len(f.KV) || keys[0] != "u8" || keys[len(keys)-1] != "f32.one" {
		t.Errorf("Keys: %v", keys)
	}
	if v, ok := f.Lookup("a.nested"); !ok || v.Type() != gguf.TypeArray || v.ElemType() != gguf.TypeArray || v.Len() != 3 {
		t.Errorf("Lookup(a.nested) = %v, %v", v, ok)
	} else if inner := v.Any().([]gguf.Value); inner[1].ElemType() != gguf.TypeArray || inner[1].Any().([]gguf.Value)[0].Any().([]float64)[0] != 1 {
		t.Errorf("a.nested[1] = %v", inner[1])
	}
}

func equalAny(a, b any) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }

// TestOpen: Open maps the file, OpenWith{NoMmap} and {HugePages} read it,
// all equal Parse of the bytes; Close drops the views; errors name the path.
func TestOpen(t *testing.T) {
	in := &gguf.File{KV: everyValue(), Tensors: tensorsOf()}
	data := encode(t, in)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.gguf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []gguf.Options{{}, {NoMmap: true}, {HugePages: true}, {HugePages: true, NoMmap: true}} {
		f, err := gguf.OpenWith(path, o)
		if err != nil {
			t.Fatal(err)
		}
		sameFile(t, f, in)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if f.Tensors[0].Data != nil {
			t.Errorf("%+v: Data kept after Close", o)
		}
		if err := f.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	}
	if _, err := gguf.Open(filepath.Join(dir, "missing.gguf")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := gguf.Open(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	bad := filepath.Join(dir, "bad.gguf")
	os.WriteFile(bad, data[:len(data)-100], 0o644) // into the last tensor (the padding after it may go)
	_, err := gguf.Open(bad)
	var fe *gguf.FormatError
	if !errors.As(err, &fe) || fe.Path != bad || !strings.Contains(err.Error(), bad+": tensor") || !errors.Is(err, gguf.ErrTruncated) {
		t.Errorf("truncated file: %v", err)
	}
	empty := filepath.Join(dir, "empty.gguf")
	os.WriteFile(empty, nil, 0o644)
	if _, err := gguf.Open(empty); !errors.Is(err, gguf.ErrTruncated) {
		t.Errorf("empty file: %v", err)
	}
}

// TestTypeNames: the ggml type table agrees with package quant on every
// type quant implements.
func TestTypeNames(t *testing.T) {
	for _, typ := range quant.Types() {
		tn := gguf.Tensor{Type: typ, Dims: []int64{int64(typ.BlockSize()), 3}}
		if gguf.TypeName(typ) != typ.String() || tn.Bytes() != int64(3*typ.BlockBytes()) {
			t.Errorf("%v: name %q, bytes %d, want %q and %d", typ, gguf.TypeName(typ), tn.Bytes(), typ.String(), 3*typ.BlockBytes())
		}
	}
	for id, want := range map[quant.Type]string{10: "q2_K", 23: "iq4_xs", 30: "bf16", 4: "q4_2 (removed)", 99: "type(99)"} {
		if got := gguf.TypeName(id); got != want {
			t.Errorf("TypeName(%d) = %q, want %q", id, got, want)
		}
	}
}
