package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/corelane/corelane/quant"
)

// Options tune ParseWith and OpenWith. The zero value is what Parse and
// Open use.
type Options struct {
	// AllowUnsupportedTypes accepts tensors whose ggml type package quant
	// does not implement (q2_K, q3_K, iq4_xs, bf16, ...): their infos are
	// checked like any other (block size, range, alignment, overlap), Type
	// holds the raw id and Data their bytes. Without it such a file is an
	// ErrUnsupportedType error naming the first such tensor. Tools that
	// read only the metadata (a tokenizer) set it.
	AllowUnsupportedTypes bool
	// NoMmap makes OpenWith read the file into memory instead of mapping
	// it (the fallback it uses anyway where mmap is unavailable or fails).
	NoMmap bool
	// HugePages makes OpenWith read the file into anonymous memory backed
	// by 2 MiB transparent huge pages (on Linux, where they are enabled;
	// elsewhere plain memory) instead of mapping it, overriding NoMmap.
	// Streaming the weights then takes a TLB miss per 2 MiB instead of per
	// 4 KiB: a Q4_K matrix-vector product read DRAM about 13% faster so on
	// a Zen 3 guest, but on a Zen 5 guest decode took 1.14× as long from
	// huge pages (plain reads 1.1×): measure before choosing (corelane
	// profile does). The cost is the file's size in memory the kernel
	// cannot page out (the page cache the read fills can be evicted),
	// freed by Close.
	// A file whose size is not known ahead (a pipe) is read into ordinary
	// memory: there is nothing to size the huge-page buffer by.
	HugePages bool
}

const (
	magic            = "GGUF"
	defaultAlignment = 32
	maxNameLen       = 64 // GGUF's limit on tensor names, in bytes
	maxDims          = 4  // ggml's GGML_MAX_DIMS
	maxDepth         = 64 // arrays of arrays nested deeper are rejected
	minKVBytes       = 8 + 1 + 4 + 1
	minTensorBytes   = 8 + 4 + 4 + 8
	alignmentKey     = "general.alignment"
)

// Parse parses a GGUF file held in memory. The tensors' Data are views
// into data, which must not change while the File is used. Every malformed
// input is an error (a *FormatError) naming the field and its byte offset;
// Parse never panics and never reads outside data.
func Parse(data []byte) (*File, error) { return ParseWith(data, Options{}) }

// ParseWith is Parse with options.
func ParseWith(data []byte, o Options) (*File, error) {
	p := &parser{b: data, o: o}
	f, err := p.file()
	if err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	b   []byte
	off int64
	o   Options
}

func (p *parser) left() int64 { return int64(len(p.b)) - p.off }

// named prefixes e's field with the field being read.
func named(e *FormatError, format string, args ...any) *FormatError {
	f := fmt.Sprintf(format, args...)
	if e.Field != "" {
		f += ": " + e.Field
	}
	e.Field = f
	return e
}

func (p *parser) take(n int64) ([]byte, *FormatError) {
	if n < 0 || n > p.left() {
		return nil, formatErr(ErrTruncated, p.off, "", "needs %d bytes, the file has %d left (it is %d bytes)", n, p.left(), len(p.b))
	}
	b := p.b[p.off : p.off+n : p.off+n]
	p.off += n
	return b, nil
}

func (p *parser) u32() (uint32, *FormatError) {
	b, e := p.take(4)
	if e != nil {
		return 0, e
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (p *parser) u64() (uint64, *FormatError) {
	b, e := p.take(8)
	if e != nil {
		return 0, e
	}
	return binary.LittleEndian.Uint64(b), nil
}

// count reads a u64 count of items of at least min bytes each and checks
// that the rest of the file can hold them, so that no allocation ever
// follows an untrusted count further than the file's size.
func (p *parser) count(min int64, what string) (int64, *FormatError) {
	at := p.off
	n, e := p.u64()
	if e != nil {
		return 0, e
	}
	if n > uint64(p.left()/min) {
		return 0, formatErr(ErrTruncated, at, "", "%d %s need at least %d bytes each, the file has %d bytes left", n, what, min, p.left())
	}
	return int64(n), nil
}

func (p *parser) str() (string, *FormatError) {
	at := p.off
	n, e := p.u64()
	if e != nil {
		return "", e
	}
	if n > uint64(p.left()) {
		return "", formatErr(ErrTruncated, at, "", "string length %d exceeds the %d bytes left in the file", n, p.left())
	}
	b, _ := p.take(int64(n))
	return string(b), nil
}

// value reads one value of type t.
func (p *parser) value(t ValueType, depth int) (Value, *FormatError) {
	at := p.off
	switch t {
	case TypeString:
		s, e := p.str()
		return String(s), e
	case TypeArray:
		return p.array(depth)
	case TypeBool:
		b, e := p.take(1)
		if e != nil {
			return Value{}, e
		}
		if b[0] > 1 {
			return Value{}, formatErr(ErrFormat, at, "", "bool byte is %d, want 0 or 1", b[0])
		}
		return Value{typ: TypeBool, num: uint64(b[0])}, nil
	}
	if !t.valid() {
		return Value{}, formatErr(ErrFormat, at, "", "unknown value type %d", uint32(t))
	}
	b, e := p.take(t.size())
	if e != nil {
		return Value{}, e
	}
	return scalar(t, b), nil
}

// scalar decodes a fixed-size little-endian value of type t from b.
func scalar(t ValueType, b []byte) Value {
	var u uint64
	switch len(b) {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 4:
		u = uint64(binary.LittleEndian.Uint32(b))
	case 8:
		u = binary.LittleEndian.Uint64(b)
	}
	switch t { // sign-extend
	case TypeInt8:
		u = uint64(int64(int8(u)))
	case TypeInt16:
		u = uint64(int64(int16(u)))
	case TypeInt32:
		u = uint64(int64(int32(u)))
	}
	return Value{typ: t, num: u}
}

func (p *parser) array(depth int) (Value, *FormatError) {
	at := p.off
	if depth >= maxDepth {
		return Value{}, formatErr(ErrFormat, at, "", "arrays nested deeper than %d levels", maxDepth)
	}
	et32, e := p.u32()
	if e != nil {
		return Value{}, named(e, "element type")
	}
	et := ValueType(et32)
	if !et.valid() {
		return Value{}, formatErr(ErrFormat, at, "element type", "unknown value type %d", et32)
	}
	n, e := p.count(et.minSize(), et.String()+" elements")
	if e != nil {
		return Value{}, named(e, "count")
	}
	v := Value{typ: TypeArray, elem: et}
	switch et {
	case TypeString:
		a := make([]string, n)
		for i := range a {
			if a[i], e = p.str(); e != nil {
				return Value{}, named(e, "element %d", i)
			}
		}
		v.arr = a
		return v, nil
	case TypeArray:
		a := make([]Value, n)
		for i := range a {
			if a[i], e = p.array(depth + 1); e != nil {
				return Value{}, named(e, "element %d", i)
			}
		}
		v.arr = a
		return v, nil
	}
	start := p.off
	b, e := p.take(n * et.size()) // count checked n·size against the bytes left
	if e != nil {
		return Value{}, e
	}
	switch et {
	case TypeUint8:
		v.arr = append([]uint8{}, b...)
	case TypeInt8:
		v.arr = decode(b, 1, func(b []byte) int8 { return int8(b[0]) })
	case TypeBool:
		a := make([]bool, n)
		for i, x := range b {
			if x > 1 {
				return Value{}, formatErr(ErrFormat, start+int64(i), fmt.Sprintf("element %d", i), "bool byte is %d, want 0 or 1", x)
			}
			a[i] = x == 1
		}
		v.arr = a
	case TypeUint16:
		v.arr = decode(b, 2, binary.LittleEndian.Uint16)
	case TypeInt16:
		v.arr = decode(b, 2, func(b []byte) int16 { return int16(binary.LittleEndian.Uint16(b)) })
	case TypeUint32:
		v.arr = decode(b, 4, binary.LittleEndian.Uint32)
	case TypeInt32:
		v.arr = decode(b, 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) })
	case TypeFloat32:
		v.arr = decode(b, 4, func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) })
	case TypeUint64:
		v.arr = decode(b, 8, binary.LittleEndian.Uint64)
	case TypeInt64:
		v.arr = decode(b, 8, func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) })
	case TypeFloat64:
		v.arr = decode(b, 8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) })
	}
	return v, nil
}

func decode[T any](b []byte, size int, f func([]byte) T) []T {
	out := make([]T, len(b)/size)
	for i := range out {
		out[i] = f(b[i*size : (i+1)*size])
	}
	return out
}

// tensorInfo is what the checks after the infos need of each tensor.
type tensorInfo struct {
	offsetAt int64 // where the tensor's offset field is
	rel      int64 // the stored offset, relative to the data section
	bytes    int64
}

func (p *parser) file() (*File, error) {
	b, e := p.take(4)
	if e != nil {
		return nil, named(e, "magic")
	}
	if string(b) != magic {
		return nil, formatErr(ErrFormat, 0, "magic", "not a GGUF file: the first bytes are %q, want %q", b, magic)
	}
	vAt := p.off
	version, e := p.u32()
	if e != nil {
		return nil, named(e, "version")
	}
	switch {
	case version == 2 || version == 3:
	case version&0xFFFF == 0 && version != 0:
		return nil, formatErr(ErrVersion, vAt, "version", "version %#x: a big-endian file? only little-endian GGUF is read", version)
	case version == 1:
		return nil, formatErr(ErrVersion, vAt, "version", "GGUF v1 is not supported (v2 and v3 are)")
	default:
		return nil, formatErr(ErrVersion, vAt, "version", "version %d, want 2 or 3", version)
	}
	nt, e := p.count(minTensorBytes, "tensor infos")
	if e != nil {
		return nil, named(e, "tensor count")
	}
	nkv, e := p.count(minKVBytes, "key/value pairs")
	if e != nil {
		return nil, named(e, "kv count")
	}

	f := &File{Version: version, KV: make([]KV, 0, nkv), kvIndex: make(map[string]int, nkv)}
	valueAt := make([]int64, 0, nkv)
	for i := 0; i < int(nkv); i++ {
		keyAt := p.off
		key, e := p.str()
		if e != nil {
			return nil, named(e, "kv %d key", i)
		}
		if key == "" {
			return nil, formatErr(ErrFormat, keyAt, fmt.Sprintf("kv %d key", i), "empty key")
		}
		if j, dup := f.kvIndex[key]; dup {
			return nil, formatErr(ErrFormat, keyAt, fmt.Sprintf("kv %d key %q", i, key), "duplicate key (also kv %d)", j)
		}
		typeAt := p.off
		t, e := p.u32()
		if e != nil {
			return nil, named(e, "kv %d %q: value type", i, key)
		}
		if !ValueType(t).valid() {
			return nil, formatErr(ErrFormat, typeAt, fmt.Sprintf("kv %d %q: value type", i, key), "unknown value type %d", t)
		}
		v, e := p.value(ValueType(t), 0)
		if e != nil {
			return nil, named(e, "kv %d %q: value", i, key)
		}
		f.kvIndex[key] = len(f.KV)
		f.KV = append(f.KV, KV{Key: key, Value: v})
		valueAt = append(valueAt, typeAt+4)
	}

	f.Alignment = defaultAlignment
	if i, ok := f.kvIndex[alignmentKey]; ok {
		v := f.KV[i].Value
		field := fmt.Sprintf("kv %d %q", i, alignmentKey)
		if v.typ != TypeUint32 {
			return nil, formatErr(ErrFormat, valueAt[i]-4, field, "type is %s, want u32", v.describe())
		}
		if v.num == 0 || v.num&(v.num-1) != 0 {
			return nil, formatErr(ErrFormat, valueAt[i], field, "alignment %d is not a power of two", v.num)
		}
		f.Alignment = int64(v.num)
	}

	f.Tensors = make([]Tensor, 0, nt)
	f.tIndex = make(map[string]int, nt)
	infos := make([]tensorInfo, 0, nt)
	for i := 0; i < int(nt); i++ {
		nameAt := p.off
		name, e := p.str()
		if e != nil {
			return nil, named(e, "tensor %d name", i)
		}
		field := fmt.Sprintf("tensor %d %q", i, name)
		if len(name) > maxNameLen {
			return nil, formatErr(ErrFormat, nameAt, field, "name is %d bytes, GGUF allows at most %d", len(name), maxNameLen)
		}
		if j, dup := f.tIndex[name]; dup {
			return nil, formatErr(ErrFormat, nameAt, field, "duplicate tensor name (also tensor %d)", j)
		}
		ndAt := p.off
		nd, e := p.u32()
		if e != nil {
			return nil, named(e, "%s: n_dims", field)
		}
		if nd > maxDims {
			return nil, formatErr(ErrFormat, ndAt, field+": n_dims", "%d dimensions, at most %d are allowed", nd, maxDims)
		}
		dims := make([]int64, nd)
		for d := range dims {
			dAt := p.off
			x, e := p.u64()
			if e != nil {
				return nil, named(e, "%s: dimension %d", field, d)
			}
			if x > math.MaxInt64 {
				return nil, formatErr(ErrFormat, dAt, fmt.Sprintf("%s: dimension %d", field, d), "size %d does not fit in int64", x)
			}
			dims[d] = int64(x)
		}
		nelem, ok := product(dims)
		if !ok {
			return nil, formatErr(ErrFormat, ndAt+4, field+": dimensions", "dimensions %v: the element count overflows int64", dims)
		}
		typeAt := p.off
		tid, e := p.u32()
		if e != nil {
			return nil, named(e, "%s: type", field)
		}
		g, known := ggmlTypes[tid]
		if !known {
			if old, removed := removedTypes[tid]; removed {
				return nil, formatErr(ErrFormat, typeAt, field+": type", "ggml type %d (%s) was removed from ggml and files no longer hold it", tid, old)
			}
			return nil, formatErr(ErrFormat, typeAt, field+": type", "unknown ggml type %d", tid)
		}
		if !quant.Type(tid).Valid() && !p.o.AllowUnsupportedTypes {
			return nil, formatErr(ErrUnsupportedType, typeAt, field+": type", "ggml type %d (%s) is not supported (supported: %s)", tid, g.name, supportedList())
		}
		ne0 := int64(1)
		if nd > 0 {
			ne0 = dims[0]
		}
		if ne0%g.blockVals != 0 {
			return nil, formatErr(ErrFormat, ndAt+4, field+": dimension 0", "a row of %d values is not a multiple of the %s block size %d", ne0, g.name, g.blockVals)
		}
		blocks := nelem / g.blockVals
		if blocks > math.MaxInt64/g.blockBytes {
			return nil, formatErr(ErrFormat, typeAt, field+": type", "%d blocks of %d bytes overflow int64", blocks, g.blockBytes)
		}
		offAt := p.off
		rel, e := p.u64()
		if e != nil {
			return nil, named(e, "%s: offset", field)
		}
		if rel > math.MaxInt64 {
			return nil, formatErr(ErrFormat, offAt, field+": offset", "offset %d does not fit in int64", rel)
		}
		if int64(rel)%f.Alignment != 0 {
			return nil, formatErr(ErrFormat, offAt, field+": offset", "offset %d is not a multiple of the alignment %d", rel, f.Alignment)
		}
		f.tIndex[name] = len(f.Tensors)
		f.Tensors = append(f.Tensors, Tensor{Name: name, Type: quant.Type(tid), Dims: dims})
		infos = append(infos, tensorInfo{offsetAt: offAt, rel: int64(rel), bytes: blocks * g.blockBytes})
	}

	end := p.off
	f.DataOffset = (end + f.Alignment - 1) / f.Alignment * f.Alignment
	size := int64(len(p.b)) - f.DataOffset
	if nt > 0 && size < 0 {
		return nil, formatErr(ErrTruncated, end, "data section", "starts at byte %d (the tensor infos end at %d, alignment %d), past the end of the file (%d bytes)", f.DataOffset, end, f.Alignment, len(p.b))
	}
	for i := range f.Tensors {
		t, in := &f.Tensors[i], infos[i]
		if in.rel > size || in.bytes > size-in.rel {
			return nil, formatErr(ErrTruncated, in.offsetAt, fmt.Sprintf("tensor %d %q: offset", i, t.Name),
				"offset %d + %d bytes exceeds the data section (%d bytes from byte %d; the file is %d bytes)", in.rel, in.bytes, size, f.DataOffset, len(p.b))
		}
		t.Offset = f.DataOffset + in.rel
		t.Data = p.b[t.Offset : t.Offset+in.bytes : t.Offset+in.bytes]
	}
	order := make([]int, len(infos))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return infos[order[a]].rel < infos[order[b]].rel })
	prev := -1
	for _, i := range order {
		in := infos[i]
		if in.bytes == 0 {
			continue
		}
		if prev >= 0 && infos[prev].rel+infos[prev].bytes > in.rel {
			q := infos[prev]
			return nil, formatErr(ErrFormat, in.offsetAt, fmt.Sprintf("tensor %d %q: offset", i, f.Tensors[i].Name),
				"data [%d, %d) overlaps tensor %d %q at [%d, %d)", in.rel, in.rel+in.bytes, prev, f.Tensors[prev].Name, q.rel, q.rel+q.bytes)
		}
		prev = i
	}
	return f, nil
}

// product multiplies dims, reporting false on int64 overflow. A zero
// dimension makes the product 0 whatever the others are.
func product(dims []int64) (int64, bool) {
	n := int64(1)
	for _, d := range dims {
		if d == 0 {
			return 0, true
		}
	}
	for _, d := range dims {
		if n > math.MaxInt64/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

func supportedList() string {
	var names []string
	for _, t := range quant.Types() {
		names = append(names, t.String())
	}
	return strings.Join(names, ", ")
}
