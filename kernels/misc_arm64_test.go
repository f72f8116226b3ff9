package kernels

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/corelane/corelane/internal/refdata"
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
	forEachARM64Variant(t, func(t *testing.T, name string, k Ops) {
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

// checkDequantARM64 runs f on guarded src and compares every float, bit
// for bit, with want; the output is framed by guard values. A NaN matches
// any NaN: compiled for arm64, the generic Q4_K/Q5_K dequantizers fuse
// dmin·m into the subtraction (fmsub; the spec allows fusion across
// statements), which is exact for every finite block but negates a NaN
// dmin before it propagates.
func checkDequantARM64[B any](t *testing.T, typ string, f func([]float32, []B), src []B, per int, want []float32) {
	t.Helper()
	g := guarded(t, src)
	src0 := slices.Clone(quantBytes(src))
	dst, check := guardedOut(t, len(src)*per)
	f(dst, g)
	check()
	for i := range dst {
		if !sameOrNaN(dst[i], want[i]) {
			t.Fatalf("%s nb=%d: [%d] = %v (%#x), generic %v (%#x)", typ, len(src), i,
				dst[i], math.Float32bits(dst[i]), want[i], math.Float32bits(want[i]))
		}
	}
	if !slices.Equal(quantBytes(g), src0) {
		t.Fatalf("%s nb=%d: src changed", typ, len(src))
	}
}

func TestARM64DequantMatchesGeneric(t *testing.T) {
	gen, err := Lookup(Generic)
	if err != nil {
		t.Fatal(err)
	}
	forEachARM64Variant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(35, 36))
		for nb := 0; nb <= 5; nb++ {
			for rep := 0; rep < 3; rep++ {
				w4, w5, w6 := randQ4K(r, nb), randQ5K(r, nb), randQ6K(r, nb)
				if rep == 2 { // scales at every bit pattern: subnormal, huge, ±Inf, NaN
					for i := range w4 {
						w4[i].D, w4[i].DMin = quant.F16(r.Uint32()), quant.F16(r.Uint32())
						w5[i].D, w5[i].DMin = quant.F16(r.Uint32()), quant.F16(r.Uint32())
						w6[i].D = quant.F16(r.Uint32())
					}
				}
				want := make([]float32, nb*quant.QK_K)
				gen.DequantQ4K(want, w4)
				checkDequantARM64(t, "q4_K", k.DequantQ4K, w4, quant.QK_K, want)
				gen.DequantQ5K(want, w5)
				checkDequantARM64(t, "q5_K", k.DequantQ5K, w5, quant.QK_K, want)
				gen.DequantQ6K(want, w6)
				checkDequantARM64(t, "q6_K", k.DequantQ6K, w6, quant.QK_K, want)
			}
		}
		for nb := 0; nb <= 2*8+1; nb++ {
			w := randQ8_0(r, nb)
			for i := range w {
				if i%3 == 2 {
					w[i].D = quant.F16(r.Uint32())
				}
				if i%4 == 3 {
					w[i].Qs[i%32] = -128
				}
			}
			want := make([]float32, nb*quant.QK8)
			gen.DequantQ8_0(want, w)
			checkDequantARM64(t, "q8_0", k.DequantQ8_0, w, quant.QK8, want)
		}
	})
}

// TestARM64GGMLReference checks every variant's dequantizers and activation
// quantizers against ggml's own output in ../shared/testdata/ggml:
// dequant.f32 from quant.bin, and y_q8k.bin / y_q8_0.bin from y.f32.
func TestARM64GGMLReference(t *testing.T) {
	root := refdata.Dir(t, "ggml")
	forEachARM64Variant(t, func(t *testing.T, name string, k Ops) {
		for _, typ := range []string{"q4_K", "q5_K", "q6_K", "q8_0"} {
			dirs, err := os.ReadDir(filepath.Join(root, typ))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range dirs {
				dir := filepath.Join(root, typ, e.Name())
				q, err := os.ReadFile(filepath.Join(dir, "quant.bin"))
				if err != nil {
					t.Fatal(err)
				}
				q = alignedCopy(q)
				want := readF32(t, filepath.Join(dir, "dequant.f32"))
				got := make([]float32, len(want))
				switch typ {
				case "q4_K":
					b, err := quant.AsQ4K(q)
					if err != nil {
						t.Fatal(err)
					}
					k.DequantQ4K(got, b)
				case "q5_K":
					b, err := quant.AsQ5K(q)
					if err != nil {
						t.Fatal(err)
					}
					k.DequantQ5K(got, b)
				case "q6_K":
					b, err := quant.AsQ6K(q)
					if err != nil {
						t.Fatal(err)
					}
					k.DequantQ6K(got, b)
				case "q8_0":
					b, err := quant.AsQ8_0(q)
					if err != nil {
						t.Fatal(err)
					}
					k.DequantQ8_0(got, b)
				}
				for i := range want {
					if !sameBits(got[i], want[i]) {
						t.Fatalf("%s/%s: dequant [%d] = %v, ggml %v", typ, e.Name(), i, got[i], want[i])
					}
				}

				y := readF32(t, filepath.Join(dir, "y.f32"))
				yfile, at := "y_q8k.bin", quant.Q8K
				if typ == "q8_0" {
					yfile, at = "y_q8_0.bin", quant.Q8_0
				}
				wantY, err := os.ReadFile(filepath.Join(dir, yfile))
				if err != nil {
					t.Fatal(err)
				}
				gotY := alignedCopy(make([]byte, len(wantY)))
				if at == quant.Q8K {
					b, err := quant.AsQ8K(gotY)
					if err != nil {
						t.Fatal(err)
					}
					k.QuantizeQ8K(b, y)
				} else {
					b, err := quant.AsQ8_0(gotY)
					if err != nil {
						t.Fatal(err)
					}
					k.QuantizeQ8_0(b, y)
				}
				if i := firstDiff(gotY, wantY); i >= 0 {
					t.Fatalf("%s/%s: %s byte %d = %#x, ggml %#x", typ, e.Name(), yfile, i, gotY[i], wantY[i])
				}
			}
		}
	})
}
