package quant

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckScales(t *testing.T) {
	// Every type: all-zero blocks are fine; an Inf or NaN in each scale
	// field, in the third block, is found and named.
	for typ, fields := range scaleFields {
		bb := typ.BlockBytes()
		data := make([]byte, 4*bb)
		if err := CheckScales(typ, data); err != nil {
			t.Errorf("%v zeros: %v", typ, err)
		}
		for _, f := range fields {
			bads := [][]byte{{0x00, 0x7c}, {0x01, 0x7e}, {0x00, 0xfc}} // binary16 +Inf, NaN, −Inf
			if typ == Q8K || typ == F32 {
				bads = [][]byte{{0, 0, 0x80, 0x7f}, {1, 0, 0xc0, 0x7f}, {0, 0, 0x80, 0xff}} // float32
			}
			for _, bad := range bads {
				d := make([]byte, 4*bb)
				p := d[2*bb+f.off:]
				copy(p, bad)
				err := CheckScales(typ, d)
				if !errors.Is(err, ErrNotFinite) || !strings.Contains(err.Error(), "block 2") || !strings.Contains(err.Error(), f.name) {
					t.Errorf("%v %s = % x: %v, want ErrNotFinite naming block 2 and %s", typ, f.name, bad, err, f.name)
				}
			}
		}
		// The largest finite binary16 scale and a subnormal are fine.
		if typ != Q8K && typ != F32 {
			d := make([]byte, bb)
			for _, f := range fields {
				d[f.off], d[f.off+1] = 0xff, 0x7b
			}
			if err := CheckScales(typ, d); err != nil {
				t.Errorf("%v 65504: %v", typ, err)
			}
		}
		if err := CheckScales(typ, make([]byte, bb+1)); !errors.Is(err, ErrLength) {
			t.Errorf("%v partial block: %v, want ErrLength", typ, err)
		}
	}
	if err := CheckScales(Type(99), nil); !errors.Is(err, ErrUnknownType) {
		t.Errorf("type 99: %v", err)
	}
}
