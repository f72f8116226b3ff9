package quant

import (
	"bytes"
	"math"
	"slices"
	"testing"
)

// inputs are finite rows of 512 values that stress the quantizers' special
// cases: zero sub-blocks and blocks, constants, subnormals, huge values.
func inputs() map[string][]float32 {
	g := gaussian(21, 512)
	in := map[string][]float32{"gaussian": g, "zeros": make([]float32, 512)}
	sparse := slices.Clone(g)
	for i := range sparse {
		if i%64 >= 32 || i%3 == 0 {
			sparse[i] = 0
		}
	}
	in["sparse"] = sparse
	constant := make([]float32, 512)
	for i := range constant {
		constant[i] = -1.7
	}
	in["constant"] = constant
	for name, scale := range map[string]float32{"tiny": 1e-38, "subnormal": 1e-44, "huge": 1e30} {
		x := make([]float32, 512)
		for i, v := range g {
			x[i] = v * scale
		}
		in[name] = x
	}
	return in
}

// TestQuantizeWritesEveryByte: the result does not depend on what dst held
// before (ggml's files were made into zeroed buffers), and src is not
// modified.
func TestQuantizeWritesEveryByte(t *testing.T) {
	for name, x := range inputs() {
		orig := slices.Clone(x)
		for _, typ := range Types() {
			n := mustRowSize(t, typ, len(x))
			zero, guard := make([]byte, n), bytes.Repeat([]byte{0xA5}, n)
			if err := Quantize(typ, zero, x); err != nil {
				t.Fatalf("%s %s: %v", typ, name, err)
			}
			if err := Quantize(typ, guard, x); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(zero, guard) {
				t.Errorf("%s %s: result depends on dst's previous contents", typ, name)
			}
			if !slices.Equal(x, orig) {
				t.Fatalf("%s %s: src modified", typ, name)
			}
		}
	}
}

// TestSpecialInputs checks what README §8 and §10.5 say of the special
// distributions, on inputs made here: zeros dequantize to zeros, fp16-scaled
// types flush subnormal-scale blocks to zero, and values stay finite except
// where an fp16 scale overflows (huge input, as in ggml).
func TestSpecialInputs(t *testing.T) {
	in := inputs()
	for _, typ := range quantTypes {
		for name, x := range in {
			b := make([]byte, mustRowSize(t, typ, len(x)))
			if err := Quantize(typ, b, x); err != nil {
				t.Fatal(err)
			}
			y := make([]float32, len(x))
			if err := Dequantize(typ, y, b); err != nil {
				t.Fatal(err)
			}
			for i, v := range y {
				if (name != "huge" || typ == Q8K) && (math.IsNaN(float64(v)) || math.IsInf(float64(v), 0)) {
					t.Fatalf("%s %s: value %d dequantized to %v", typ, name, i, v)
				}
				switch {
				case name == "zeros" && v != 0,
					name == "subnormal" && typ != Q8K && v != 0,
					name == "constant" && math.Abs(float64(v-x[i])) > 0.02:
					t.Fatalf("%s %s: value %d is %v for input %v", typ, name, i, v, x[i])
				}
			}
		}
	}
}
