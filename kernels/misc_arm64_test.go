package kernels

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/corelane/corelane/quant"
)

// Tests of the arm64 activation quantizers and dequantizers: every byte
// (every float) of every variant's output must equal the generic
// kernel's, on random data at every magnitude and on the edge cases of
// ggml's reference quantizers; inputs live in guarded memory.

// quantInputs returns n float32 values of several kinds, chosen by kind.
func quantInputs(r *rand.Rand, n, kind int) []float32 {
	x := make([]float32, n)
	scales := []float64{1, 1e-3, 1e30, 1e-37, 1e-41, 1e-45, 1e38}
	switch {
	case kind < len(scales): // gaussian at one magnitude (overflow → 0)
		for i := range x {
			x[i] = finite(math.Float32bits(float32(r.NormFloat64() * scales[kind])))
		}
	case kind == len(scales): // ties: integers and halves, with ±127 present
		for i := range x {
			x[i] = float32(r.IntN(255)-127) / 2
		}
		for i := 0; i < n; i += 32 {
			x[i+r.IntN(32)] = -127
		}
	case kind == len(scales)+1: // zero blocks, ±0, and ±max ties
		for i := range x {
			switch r.IntN(4) {
			case 0:
				x[i] = 0
			case 1:
				x[i] = float32(math.Copysign(0, -1))
			case 2:
				x[i] = 5
			default:
				x[i] = -5
			}
		}
		for i := 0; i+64 <= n; i += 96 {
			clear(x[i : i+32])
		}
		if n >= 512 {
			clear(x[256:512])
		}
	default: // random bits, made finite
		for i := range x {
			x[i] = finite(r.Uint32())
		}
	}
	return x
}

const quantKinds = 10

func TestARM64QuantizeMatchesGeneric(t *testing.T) {
	gen, err := Lookup(Generic)
	if err != nil {
		t.Fatal(err)
	}
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(31, 32))
		for kind := 0; kind < quantKinds; kind++ {
			for nb := 0; nb <= 5; nb++ {
				src := guarded(t, quantInputs(r, nb*quant.QK_K, kind))
				src0 := slices.Clone(src)
				got, want := guarded(t, make([]quant.BlockQ8K, nb)), make([]quant.BlockQ8K, nb)
				fill(quantBytes(got), 0xAA)
				fill(quantBytes(want), 0x55)
				k.QuantizeQ8K(got, src)
				gen.QuantizeQ8K(want, src0)
				if i := firstDiff(quantBytes(got), quantBytes(want)); i >= 0 {
					t.Fatalf("q8_K kind=%d nb=%d: byte %d (block %d, offset %d) = %#x, generic %#x",
						kind, nb, i, i/292, i%292, quantBytes(got)[i], quantBytes(want)[i])
				}
				if !slices.Equal(src, src0) {
					t.Fatalf("q8_K kind=%d nb=%d: src changed", kind, nb)
				}
			}
			for nb := 0; nb <= 2*8+1; nb++ {
				src := guarded(t, quantInputs(r, nb*quant.QK8, kind))
				got, want := guarded(t, make([]quant.BlockQ8_0, nb)), make([]quant.BlockQ8_0, nb)
				fill(quantBytes(got), 0xAA)
				k.QuantizeQ8_0(got, src)
				gen.QuantizeQ8_0(want, src)
				if i := firstDiff(quantBytes(got), quantBytes(want)); i >= 0 {
					t.Fatalf("q8_0 kind=%d nb=%d: byte %d (block %d, offset %d) = %#x, generic %#x",
						kind, nb, i, i/34, i%34, quantBytes(got)[i], quantBytes(want)[i])
				}
			}
		}
	})
}

func fill(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// FuzzARM64Quantize compares every variant's activation quantizers with
// the generic ones on arbitrary finite input.
func FuzzARM64Quantize(f *testing.F) {
	r := rand.New(rand.NewPCG(33, 34))
	for kind := 0; kind < quantKinds; kind++ {
		x := quantInputs(r, 512, kind)
		b := make([]byte, 4*len(x))
		for i, v := range x {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x := make([]float32, len(data)/4)
		for i := range x {
			x[i] = finite(binary.LittleEndian.Uint32(data[4*i:]))
		}
		gen, err := Lookup(Generic)
		if err != nil {
			t.Fatal(err)
		}
		xk, x8 := x[:len(x)/quant.QK_K*quant.QK_K], x[:len(x)/quant.QK8*quant.QK8]
		wantK := make([]quant.BlockQ8K, len(xk)/quant.QK_K)
		want8 := make([]quant.BlockQ8_0, len(x8)/quant.QK8)
		gen.QuantizeQ8K(wantK, xk)
		gen.QuantizeQ8_0(want8, x8)
		for _, name := range Variants() {
			k, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			gotK := make([]quant.BlockQ8K, len(wantK))
			got8 := make([]quant.BlockQ8_0, len(want8))
			k.QuantizeQ8K(gotK, xk)
			k.QuantizeQ8_0(got8, x8)
			if i := firstDiff(quantBytes(gotK), quantBytes(wantK)); i >= 0 {
				t.Fatalf("%s: q8_K byte %d = %#x, generic %#x", name, i, quantBytes(gotK)[i], quantBytes(wantK)[i])
			}
			if i := firstDiff(quantBytes(got8), quantBytes(want8)); i >= 0 {
				t.Fatalf("%s: q8_0 byte %d = %#x, generic %#x", name, i, quantBytes(got8)[i], quantBytes(want8)[i])
			}
		}
	})
}
