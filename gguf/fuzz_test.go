package gguf_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/internal/refdata"
	"github.com/corelane/corelane/quant"
)

// FuzzParse: no input panics; an accepted file's tensor views lie inside
// the input, at their Offset, aligned, without overlap; and encoding it
// again parses back to the same file.
func FuzzParse(f *testing.F) {
	small := &gguf.File{KV: []gguf.KV{{"general.alignment", gguf.Uint32(8)}, {"a", gguf.Array([]string{"x", ""})},
		{"n", gguf.Arrays(gguf.Array([]int8{-1}))}, {"b", gguf.Bool(true)}},
		Tensors: []gguf.Tensor{{Name: "w", Type: quant.F32, Dims: []int64{2, 1}, Data: make([]byte, 8)},
			{Name: "q", Type: quant.Q8_0, Dims: []int64{32}, Data: make([]byte, 34)}}}
	for _, in := range []*gguf.File{small, {KV: everyValue(), Tensors: tensorsOf()}, {Version: 2}} {
		var buf bytes.Buffer
		if err := gguf.Encode(&buf, in); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	for _, c := range badCases() {
		f.Add(c.data)
	}
	if dir, ok := refdata.Path("gguf"); ok {
		if b, err := os.ReadFile(filepath.Join(dir, "tiny.gguf")); err == nil && len(b) > 19872 {
			f.Add(b[:19872]) // the header of a file ggml wrote, without its data
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []gguf.Options{{}, {AllowUnsupportedTypes: true}} {
			g, err := gguf.ParseWith(data, o)
			if err != nil {
				continue
			}
			checkViews(t, g, data)
			var buf bytes.Buffer
			if err := gguf.Encode(&buf, g); err != nil {
				t.Fatalf("Encode of an accepted file: %v", err)
			}
			h, err := gguf.ParseWith(buf.Bytes(), o)
			if err != nil {
				t.Fatalf("re-encoded file does not parse: %v", err)
			}
			sameFile(t, h, g)
		}
	})
}

func checkViews(t *testing.T, g *gguf.File, data []byte) {
	t.Helper()
	if g.DataOffset < 0 || g.DataOffset%g.Alignment != 0 {
		t.Fatalf("data offset %d, alignment %d", g.DataOffset, g.Alignment)
	}
	type span struct{ lo, hi int64 }
	var spans []span
	for _, tn := range g.Tensors {
		n := int64(len(tn.Data))
		if n != tn.Bytes() || cap(tn.Data) != len(tn.Data) {
			t.Fatalf("tensor %q: %d bytes (cap %d), want %d", tn.Name, n, cap(tn.Data), tn.Bytes())
		}
		if tn.Offset < g.DataOffset || tn.Offset > int64(len(data)) || n > int64(len(data))-tn.Offset || (tn.Offset-g.DataOffset)%g.Alignment != 0 {
			t.Fatalf("tensor %q: [%d, %d) outside the data section [%d, %d) or misaligned", tn.Name, tn.Offset, tn.Offset+n, g.DataOffset, len(data))
		}
		if n == 0 {
			continue
		}
		if unsafe.Pointer(&tn.Data[0]) != unsafe.Pointer(&data[tn.Offset]) {
			t.Fatalf("tensor %q: Data is not the input at Offset %d", tn.Name, tn.Offset)
		}
		for _, s := range spans {
			if tn.Offset < s.hi && s.lo < tn.Offset+n {
				t.Fatalf("tensor %q [%d, %d) overlaps [%d, %d)", tn.Name, tn.Offset, tn.Offset+n, s.lo, s.hi)
			}
		}
		spans = append(spans, span{tn.Offset, tn.Offset + n})
	}
}
