package gguf_test

import (
	"encoding/binary"
	"math"
)

// raw builds GGUF bytes field by field, remembering where marked fields
// start, so that a test can break one field and expect the error there.
type raw struct {
	b     []byte
	marks map[string]int64
}

func newRaw() *raw { return &raw{marks: map[string]int64{}} }

func (r *raw) mark(name string) *raw { r.marks[name] = int64(len(r.b)); return r }
func (r *raw) at(name string) int64 {
	off, ok := r.marks[name]
	if !ok {
		panic("no mark " + name)
	}
	return off
}
func (r *raw) bytes(b ...byte) *raw { r.b = append(r.b, b...); return r }
func (r *raw) u8(v uint8) *raw      { return r.bytes(v) }
func (r *raw) u16(v uint16) *raw    { r.b = binary.LittleEndian.AppendUint16(r.b, v); return r }
func (r *raw) u32(v uint32) *raw    { r.b = binary.LittleEndian.AppendUint32(r.b, v); return r }
func (r *raw) u64(v uint64) *raw    { r.b = binary.LittleEndian.AppendUint64(r.b, v); return r }
func (r *raw) f32(v float32) *raw   { return r.u32(math.Float32bits(v)) }
func (r *raw) str(s string) *raw    { r.u64(uint64(len(s))); r.b = append(r.b, s...); return r }

// header writes magic, version and the two counts.
func (r *raw) header(version uint32, tensors, kvs uint64) *raw {
	return r.bytes('G', 'G', 'U', 'F').mark("version").u32(version).
		mark("tensor count").u64(tensors).mark("kv count").u64(kvs)
}

// kv writes a key and a value type; the caller writes the value.
func (r *raw) kv(key string, typ uint32) *raw { return r.str(key).u32(typ) }

// tensor writes one tensor info. Marks: name<i>, ndims<i>, type<i>, off<i>.
func (r *raw) tensor(i string, name string, dims []uint64, typ uint32, off uint64) *raw {
	r.mark("name" + i).str(name).mark("ndims" + i).u32(uint32(len(dims)))
	for _, d := range dims {
		r.u64(d)
	}
	return r.mark("type" + i).u32(typ).mark("off" + i).u64(off)
}

// padTo appends zeros up to a multiple of align.
func (r *raw) padTo(align int) *raw {
	for len(r.b)%align != 0 {
		r.b = append(r.b, 0)
	}
	return r
}

// zeros appends n zero bytes.
func (r *raw) zeros(n int) *raw { r.b = append(r.b, make([]byte, n)...); return r }
