package quant

import (
	"testing"
	"unsafe"
)

// TestBlockLayout checks that every block struct has ggml's size and field
// offsets (README §4, §10.1, §11), so that views of GGUF bytes are correct.
func TestBlockLayout(t *testing.T) {
	type field struct {
		name      string
		off, want uintptr
	}
	cases := []struct {
		typ         Type
		size, align uintptr
		fields      []field
	}{
		{Q4K, unsafe.Sizeof(BlockQ4K{}), unsafe.Alignof(BlockQ4K{}), []field{
			{"D", unsafe.Offsetof(BlockQ4K{}.D), 0}, {"DMin", unsafe.Offsetof(BlockQ4K{}.DMin), 2},
			{"Scales", unsafe.Offsetof(BlockQ4K{}.Scales), 4}, {"Qs", unsafe.Offsetof(BlockQ4K{}.Qs), 16}}},
		{Q5K, unsafe.Sizeof(BlockQ5K{}), unsafe.Alignof(BlockQ5K{}), []field{
			{"D", unsafe.Offsetof(BlockQ5K{}.D), 0}, {"DMin", unsafe.Offsetof(BlockQ5K{}.DMin), 2},
			{"Scales", unsafe.Offsetof(BlockQ5K{}.Scales), 4}, {"Qh", unsafe.Offsetof(BlockQ5K{}.Qh), 16},
			{"Qs", unsafe.Offsetof(BlockQ5K{}.Qs), 48}}},
		{Q6K, unsafe.Sizeof(BlockQ6K{}), unsafe.Alignof(BlockQ6K{}), []field{
			{"Ql", unsafe.Offsetof(BlockQ6K{}.Ql), 0}, {"Qh", unsafe.Offsetof(BlockQ6K{}.Qh), 128},
			{"Scales", unsafe.Offsetof(BlockQ6K{}.Scales), 192}, {"D", unsafe.Offsetof(BlockQ6K{}.D), 208}}},
		{Q8K, unsafe.Sizeof(BlockQ8K{}), unsafe.Alignof(BlockQ8K{}), []field{
			{"D", unsafe.Offsetof(BlockQ8K{}.D), 0}, {"Qs", unsafe.Offsetof(BlockQ8K{}.Qs), 4},
			{"BSums", unsafe.Offsetof(BlockQ8K{}.BSums), 260}}},
		{Q8_0, unsafe.Sizeof(BlockQ8_0{}), unsafe.Alignof(BlockQ8_0{}), []field{
			{"D", unsafe.Offsetof(BlockQ8_0{}.D), 0}, {"Qs", unsafe.Offsetof(BlockQ8_0{}.Qs), 2}}},
		{Q8_1, unsafe.Sizeof(BlockQ8_1{}), unsafe.Alignof(BlockQ8_1{}), []field{
			{"D", unsafe.Offsetof(BlockQ8_1{}.D), 0}, {"S", unsafe.Offsetof(BlockQ8_1{}.S), 2},
			{"Qs", unsafe.Offsetof(BlockQ8_1{}.Qs), 4}}},
		{Q4_0, unsafe.Sizeof(BlockQ4_0{}), unsafe.Alignof(BlockQ4_0{}), []field{
			{"D", unsafe.Offsetof(BlockQ4_0{}.D), 0}, {"Qs", unsafe.Offsetof(BlockQ4_0{}.Qs), 2}}},
		{Q4_1, unsafe.Sizeof(BlockQ4_1{}), unsafe.Alignof(BlockQ4_1{}), []field{
			{"D", unsafe.Offsetof(BlockQ4_1{}.D), 0}, {"M", unsafe.Offsetof(BlockQ4_1{}.M), 2},
			{"Qs", unsafe.Offsetof(BlockQ4_1{}.Qs), 4}}},
		{Q5_0, unsafe.Sizeof(BlockQ5_0{}), unsafe.Alignof(BlockQ5_0{}), []field{
			{"D", unsafe.Offsetof(BlockQ5_0{}.D), 0}, {"Qh", unsafe.Offsetof(BlockQ5_0{}.Qh), 2},
			{"Qs", unsafe.Offsetof(BlockQ5_0{}.Qs), 6}}},
		{Q5_1, unsafe.Sizeof(BlockQ5_1{}), unsafe.Alignof(BlockQ5_1{}), []field{
			{"D", unsafe.Offsetof(BlockQ5_1{}.D), 0}, {"M", unsafe.Offsetof(BlockQ5_1{}.M), 2},
			{"Qh", unsafe.Offsetof(BlockQ5_1{}.Qh), 4}, {"Qs", unsafe.Offsetof(BlockQ5_1{}.Qs), 8}}},
	}
	wantSize := map[Type]uintptr{Q4K: 144, Q5K: 176, Q6K: 210, Q8K: 292, Q8_0: 34, Q8_1: 36, Q4_0: 18, Q4_1: 20, Q5_0: 22, Q5_1: 24}
	wantAlign := map[Type]uintptr{Q8K: 4} // the float32 D; the rest hold F16s
	for _, c := range cases {
		if c.size != wantSize[c.typ] || c.size != uintptr(c.typ.BlockBytes()) {
			t.Errorf("%s: Sizeof = %d, want %d (BlockBytes %d)", c.typ, c.size, wantSize[c.typ], c.typ.BlockBytes())
		}
		if want := max(wantAlign[c.typ], 2); c.align != want {
			t.Errorf("%s: Alignof = %d, want %d", c.typ, c.align, want)
		}
		for _, f := range c.fields {
			if f.off != f.want {
				t.Errorf("%s.%s: Offsetof = %d, want %d", c.typ, f.name, f.off, f.want)
			}
		}
	}
	if unsafe.Sizeof(F16(0)) != 2 {
		t.Errorf("Sizeof(F16) = %d, want 2", unsafe.Sizeof(F16(0)))
	}
}

// TestKScaleMinPacking checks KScaleMin against README §4.1 for every
// value of every packed field.
func TestKScaleMinPacking(t *testing.T) {
	for v := range 64 {
		for j := range 8 {
			var sc, m [8]uint8
			sc[j], m[j] = uint8(v), uint8(63-v)
			var p [KScaleSize]byte
			for i := range 4 {
				p[i] = sc[i] | (sc[i+4]>>4)<<6
				p[i+4] = m[i] | (m[i+4]>>4)<<6
				p[i+8] = sc[i+4]&15 | (m[i+4]&15)<<4
			}
			for k := range 8 {
				gs, gm := KScaleMin(&p, k)
				if gs != sc[k] || gm != m[k] {
					t.Fatalf("KScaleMin(%v, %d) = %d, %d; want %d, %d", p, k, gs, gm, sc[k], m[k])
				}
			}
		}
	}
}
