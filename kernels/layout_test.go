package kernels

import (
	"reflect"
	"testing"

	"github.com/corelane/corelane/kernels/internal/amd64"
	"github.com/corelane/corelane/kernels/internal/arm64"
	"github.com/corelane/corelane/quant"
)

// checkMirror checks that an arch package's mirror of a quant block has
// the same size, alignment and field offsets.
func checkMirror(t *testing.T, name string, q, m reflect.Type) {
	t.Helper()
	if q.Size() != m.Size() || q.Align() != m.Align() || q.NumField() != m.NumField() {
		t.Fatalf("%s: mirror size/align/fields %d/%d/%d, quant %d/%d/%d", name, m.Size(), m.Align(), m.NumField(), q.Size(), q.Align(), q.NumField())
	}
	for i := 0; i < q.NumField(); i++ {
		if q.Field(i).Offset != m.Field(i).Offset || q.Field(i).Type.Size() != m.Field(i).Type.Size() {
			t.Fatalf("%s field %d (%s): mirror offset %d size %d, quant offset %d size %d", name, i, q.Field(i).Name,
				m.Field(i).Offset, m.Field(i).Type.Size(), q.Field(i).Offset, q.Field(i).Type.Size())
		}
	}
}

var quantBlockTypes = map[string]reflect.Type{
	"BlockQ4K":  reflect.TypeOf(quant.BlockQ4K{}),
	"BlockQ5K":  reflect.TypeOf(quant.BlockQ5K{}),
	"BlockQ6K":  reflect.TypeOf(quant.BlockQ6K{}),
	"BlockQ8K":  reflect.TypeOf(quant.BlockQ8K{}),
	"BlockQ8_0": reflect.TypeOf(quant.BlockQ8_0{}),
	"BlockQ4_0": reflect.TypeOf(quant.BlockQ4_0{}),
	"BlockQ5_0": reflect.TypeOf(quant.BlockQ5_0{}),
}

func TestMirrorLayouts(t *testing.T) {
	for arch, mirrors := range map[string]map[string]any{"amd64": amd64.Mirrors, "arm64": arm64.Mirrors} {
		if len(mirrors) == 0 {
			t.Fatalf("%s mirrors no types", arch)
		}
		// An architecture mirrors the blocks its assembly reads.
		for name, m := range mirrors {
			q, ok := quantBlockTypes[name]
			if !ok {
				t.Fatalf("%s mirrors %s, which this test does not know", arch, name)
			}
			checkMirror(t, arch+"."+name, q, reflect.TypeOf(m))
		}
	}
}
