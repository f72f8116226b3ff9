package gguf_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/corelane/corelane/gguf"
)

// A valid one-tensor file, for the cases that break one field of it:
// one u32 kv and an f32 tensor of 8 values at offset 0.
func oneTensor(mutate func(r *raw)) *raw {
	r := newRaw().header(3, 1, 1)
	r.mark("key0").kv("general.name", uint32(gguf.TypeString)).mark("value0").str("t")
	r.tensor("0", "w", []uint64{8}, 0, 0)
	r.padTo(32).mark("data").zeros(32)
	if mutate != nil {
		mutate(r)
	}
	return r
}

type badCase struct {
	name   string
	data   []byte
	opts   gguf.Options
	is     []error // sentinels the error must match
	field  string  // substring of FormatError.Field
	offset int64   // FormatError.Offset
	reason string  // substring of the message
}

func badCases() []badCase {
	var cs []badCase
	add := func(name string, r *raw, offset int64, field, reason string, is ...error) {
		cs = append(cs, badCase{name: name, data: r.b, is: is, field: field, offset: offset, reason: reason})
	}
	trunc := []error{gguf.ErrFormat, gguf.ErrTruncated}
	format := []error{gguf.ErrFormat}

	add("empty", newRaw(), 0, "magic", "needs 4 bytes", trunc...)
	add("short magic", newRaw().bytes('G', 'G', 'U'), 0, "magic", "needs 4 bytes", trunc...)
	add("bad magic", newRaw().bytes('G', 'G', 'M', 'L', 3, 0, 0, 0), 0, "magic", `"GGML"`, format...)
	add("no version", newRaw().bytes('G', 'G', 'U', 'F', 3), 4, "version", "needs 4 bytes", trunc...)
	for _, v := range []struct {
		v      uint32
		reason string
	}{{0, "version 0"}, {1, "v1 is not supported"}, {4, "version 4"}, {0x03000000, "big-endian"}} {
		r := newRaw().header(v.v, 0, 0)
		add(fmt.Sprintf("version %#x", v.v), r, 4, "version", v.reason, gguf.ErrVersion)
	}
	{
		r := newRaw().bytes('G', 'G', 'U', 'F').u32(3).u32(0)
		add("truncated tensor count", r, 8, "tensor count", "needs 8 bytes", trunc...)
	}
	add("absurd tensor count", newRaw().header(3, 1<<62, 0), 8, "tensor count", "4611686018427387904 tensor infos", trunc...)
	add("absurd kv count", newRaw().header(3, 0, math.MaxUint64), 16, "kv count", "key/value pairs", trunc...)
	{
		r := newRaw().header(3, 0, 2).kv("abc", 0).u8(1).kv("x", 0).mark("v")
		add("kv value past end", r, r.at("v"), `kv 1 "x": value`, "needs 1 bytes", trunc...)
	}
	add("absurd key length", newRaw().header(3, 0, 1).u64(1<<63).zeros(8), 24, "kv 0 key", "string length 9223372036854775808", trunc...)
	add("empty key", newRaw().header(3, 0, 1).kv("", 4).u32(1), 24, "kv 0 key", "empty key", format...)
	{
		r := newRaw().header(3, 0, 2).kv("a", 4).u32(1).mark("k1").kv("a", 4).u32(2)
		add("duplicate key", r, r.at("k1"), `kv 1 key "a"`, "duplicate key (also kv 0)", format...)
	}
	{
		r := newRaw().header(3, 0, 1).str("a").mark("t").u32(13).u32(0)
		add("unknown value type", r, r.at("t"), `kv 0 "a": value type`, "unknown value type 13", format...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 4).mark("v").u16(7)
		add("truncated u32 value", r, r.at("v"), `kv 0 "a": value`, "needs 4 bytes", trunc...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 12).mark("v").u32(7)
		add("truncated f64 value", r, r.at("v"), `kv 0 "a": value`, "needs 8 bytes", trunc...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("b", 7).mark("v").u8(2)
		add("bool byte 2", r, r.at("v"), `kv 0 "b": value`, "bool byte is 2", format...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("s", 8).mark("v").u64(100).bytes('x')
		add("string past end", r, r.at("v"), `kv 0 "s": value`, "string length 100 exceeds the 1 bytes left", trunc...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9).mark("v").u32(13).u64(0)
		add("unknown array element type", r, r.at("v"), `kv 0 "a": value: element type`, "unknown value type 13", format...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9).u32(4).mark("n").u64(1 << 61).u32(0)
		add("absurd array count", r, r.at("n"), `kv 0 "a": value: count`, "u32 elements need at least 4 bytes each", trunc...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9).u32(5).mark("n").u64(3).u32(1).u32(2)
		add("short i32 array", r, r.at("n"), `kv 0 "a": value: count`, "3 i32 elements", trunc...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9).u32(8).u64(4).str("x").str("y").mark("e2").u64(50).bytes('z').u64(0)
		add("string array element past end", r, r.at("e2"), `kv 0 "a": value: element 2`, "string length 50", trunc...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9).u32(7).u64(5).bytes(1, 0, 1).mark("e3").bytes(7, 0)
		add("bool array element 7", r, r.at("e3"), `kv 0 "a": value: element 3`, "bool byte is 7", format...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9)
		for i := 0; i < 64; i++ {
			r.u32(9).u64(1)
		}
		r.mark("deep").u32(4).u64(0)
		add("arrays nested too deep", r, r.at("deep"), `kv 0 "a": value`, "nested deeper than 64", format...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("a", 9).u32(9).u64(2).u32(4).u64(1).u32(7).mark("inner").u32(13).u64(0)
		add("nested array bad element type", r, r.at("inner"), "element 1: element type", "unknown value type 13", format...)
	}
	{
		r := newRaw().header(3, 0, 1).kv("general.alignment", 10).mark("v").u64(32)
		add("alignment not u32", r, r.at("v")-4, `"general.alignment"`, "type is u64, want u32", format...)
	}
	for _, a := range []uint32{0, 48} {
		r := newRaw().header(3, 0, 1).kv("general.alignment", 4).mark("v").u32(a)
		add(fmt.Sprintf("alignment %d", a), r, r.at("v"), `"general.alignment"`, fmt.Sprintf("alignment %d is not a power of two", a), format...)
	}
	{
		long := strings.Repeat("n", 65)
		r := newRaw().header(3, 1, 0).tensor("0", long, []uint64{8}, 0, 0).padTo(32).zeros(32)
		add("tensor name too long", r, r.at("name0"), `tensor 0 "nnnn`, "65 bytes, GGUF allows at most 64", format...)
	}
	{
		r := newRaw().header(3, 2, 0).tensor("0", "w", []uint64{8}, 0, 0).tensor("1", "w", []uint64{8}, 0, 32).padTo(32).zeros(64)
		add("duplicate tensor name", r, r.at("name1"), `tensor 1 "w"`, "duplicate tensor name (also tensor 0)", format...)
	}
	{
		r := newRaw().header(3, 1, 0).mark("name0").str("w").mark("nd").u32(5).zeros(16)
		add("five dims", r, r.at("nd"), `tensor 0 "w": n_dims`, "5 dimensions", format...)
	}
	{
		r := newRaw().header(3, 1, 0).str("w").u32(2).u64(8).mark("d1").u64(1 << 63)
		add("dim past int64", r, r.at("d1"), `tensor 0 "w": dimension 1`, "does not fit in int64", format...)
	}
	{
		r := newRaw().header(3, 1, 0).tensor("0", "w", []uint64{1 << 32, 1 << 32}, 0, 0)
		add("dims overflow", r, r.at("ndims0")+4, `tensor 0 "w": dimensions`, "overflows int64", format...)
	}
	{
		r := newRaw().header(3, 1, 0).tensor("0", "w", []uint64{1 << 62}, 0, 0)
		add("bytes overflow", r, r.at("type0"), `tensor 0 "w": type`, "overflow int64", format...)
	}
	{
		r := newRaw().header(3, 1, 0).str("w").u32(1).u64(8).mark("t").u16(0)
		add("truncated tensor type", r, r.at("t"), `tensor 0 "w": type`, "needs 4 bytes", trunc...)
	}
	add("unknown tensor type", oneTensor(func(r *raw) { patch32(r, "type0", 99) }), oneTensor(nil).at("type0"),
		`tensor 0 "w": type`, "unknown ggml type 99", format...)
	add("removed tensor type", oneTensor(func(r *raw) { patch32(r, "type0", 31) }), oneTensor(nil).at("type0"),
		`tensor 0 "w": type`, "ggml type 31 (q4_0_4_4) was removed", format...)
	{
		r := newRaw().header(3, 1, 0).tensor("0", "w", []uint64{256}, 11, 0).padTo(32).zeros(128)
		add("unsupported q3_K", r, r.at("type0"), `tensor 0 "w": type`, "ggml type 11 (q3_K) is not supported", gguf.ErrUnsupportedType)
	}
	{
		r := newRaw().header(3, 1, 0).tensor("0", "w", []uint64{100, 2}, 12, 0).padTo(32).zeros(512)
		add("row not whole blocks", r, r.at("ndims0")+4, `tensor 0 "w": dimension 0`, "100 values is not a multiple of the q4_K block size 256", format...)
	}
	add("misaligned offset", oneTensor(func(r *raw) { patch64(r, "off0", 16) }), oneTensor(nil).at("off0"),
		`tensor 0 "w": offset`, "offset 16 is not a multiple of the alignment 32", format...)
	{
		r := newRaw().header(3, 1, 1).kv("general.alignment", 4).u32(8).tensor("0", "w", []uint64{8}, 0, 8).padTo(8).zeros(40)
		cs = append(cs, badCase{name: "alignment 8 honoured", data: r.b, is: nil})
		r2 := newRaw().header(3, 1, 1).kv("general.alignment", 4).u32(64).tensor("0", "w", []uint64{8}, 0, 32).padTo(64).zeros(96)
		add("alignment 64 honoured", r2, r2.at("off0"), `tensor 0 "w": offset`, "offset 32 is not a multiple of the alignment 64", format...)
	}
	add("offset past data", oneTensor(func(r *raw) { patch64(r, "off0", 64) }), oneTensor(nil).at("off0"),
		`tensor 0 "w": offset`, "offset 64 + 32 bytes exceeds the data section (32 bytes from byte", trunc...)
	add("data cut short", oneTensor(func(r *raw) { r.b = r.b[:len(r.b)-1] }), oneTensor(nil).at("off0"),
		`tensor 0 "w": offset`, "offset 0 + 32 bytes exceeds the data section (31 bytes", trunc...)
	{
		r := newRaw().header(3, 1, 0).tensor("0", "w", []uint64{8}, 0, 0)
		add("data section past end", r, int64(len(r.b)), "data section", "past the end of the file", trunc...)
	}
	{
		r := newRaw().header(3, 2, 0).tensor("0", "a", []uint64{16}, 0, 0).tensor("1", "b", []uint64{8}, 0, 32).padTo(32).zeros(96)
		add("overlap", r, r.at("off1"), `tensor 1 "b": offset`, `data [32, 64) overlaps tensor 0 "a" at [0, 64)`, format...)
	}
	{
		r := newRaw().header(3, 2, 0).tensor("0", "a", []uint64{8}, 0, 32).tensor("1", "b", []uint64{16}, 0, 0).padTo(32).zeros(96)
		add("overlap out of order", r, r.at("off0"), `tensor 0 "a": offset`, `overlaps tensor 1 "b"`, format...)
	}
	{
		r := newRaw().header(3, 2, 0).tensor("0", "a", []uint64{8}, 0, 0).tensor("1", "b", []uint64{8}, 0, 0).padTo(32).zeros(32)
		add("same offset", r, r.at("off1"), `tensor 1 "b": offset`, "overlaps tensor 0", format...)
	}
	return cs
}

func patch32(r *raw, mark string, v uint32) {
	o := r.at(mark)
	r.b[o], r.b[o+1], r.b[o+2], r.b[o+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func patch64(r *raw, mark string, v uint64) {
	patch32(r, mark, uint32(v))
	o := r.at(mark) + 4
	r.b[o], r.b[o+1], r.b[o+2], r.b[o+3] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
}

// TestMalformed: every malformed input is an error that names the field
// and its byte offset and wraps the right sentinel.
func TestMalformed(t *testing.T) {
	for _, c := range badCases() {
		t.Run(c.name, func(t *testing.T) {
			f, err := gguf.ParseWith(c.data, c.opts)
			if c.is == nil {
				if err != nil {
					t.Fatalf("want success, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; parsed %d kvs, %d tensors", len(f.KV), len(f.Tensors))
			}
			for _, s := range c.is {
				if !errors.Is(err, s) {
					t.Errorf("error %q does not wrap %v", err, s)
				}
			}
			t.Log(err)
			var fe *gguf.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %q is not a *FormatError", err)
			}
			if fe.Offset != c.offset {
				t.Errorf("offset %d, want %d (%v)", fe.Offset, c.offset, err)
			}
			if !strings.Contains(fe.Field, c.field) {
				t.Errorf("field %q, want it to contain %q (%v)", fe.Field, c.field, err)
			}
			if !strings.Contains(err.Error(), c.reason) {
				t.Errorf("error %q lacks %q", err, c.reason)
			}
			if want := fmt.Sprintf("at byte %d", c.offset); !strings.HasSuffix(err.Error(), want) {
				t.Errorf("error %q does not end with %q", err, want)
			}
			// Every prefix of a malformed file is malformed too, and never panics.
			for n := 0; n < len(c.data); n += 1 + n/8 {
				if _, err := gguf.ParseWith(c.data[:n], c.opts); err == nil {
					t.Fatalf("prefix of %d bytes parsed", n)
				}
			}
		})
	}
}

// TestUnsupportedTypeAllowed: AllowUnsupportedTypes reads a q3_K tensor,
// checked and viewed like any other.
func TestUnsupportedTypeAllowed(t *testing.T) {
	r := newRaw().header(3, 1, 0).tensor("0", "w", []uint64{256, 2}, 11, 0).padTo(32).mark("data").zeros(224)
	for i := range r.b[r.at("data"):] {
		r.b[r.at("data")+int64(i)] = byte(i)
	}
	if _, err := gguf.Parse(r.b); !errors.Is(err, gguf.ErrUnsupportedType) {
		t.Fatalf("Parse: %v, want ErrUnsupportedType", err)
	}
	f, err := gguf.ParseWith(r.b, gguf.Options{AllowUnsupportedTypes: true})
	if err != nil {
		t.Fatal(err)
	}
	w := f.Tensors[0]
	if w.Type.Valid() || gguf.TypeName(w.Type) != "q3_K" || w.Bytes() != 220 || len(w.Data) != 220 || w.Data[219] != 219 {
		t.Fatalf("q3_K tensor: type %v (%s) bytes %d data %d", w.Type, gguf.TypeName(w.Type), w.Bytes(), len(w.Data))
	}
	// Its size is still checked against the file.
	if _, err := gguf.ParseWith(r.b[:len(r.b)-5], gguf.Options{AllowUnsupportedTypes: true}); !errors.Is(err, gguf.ErrTruncated) {
		t.Fatalf("short q3_K data: %v", err)
	}
}
