//go:build !purego

package kernels

import (
	"bytes"
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

// Tests of the amd64 float32, dequantization and activation-quantization
// kernels (misc_amd64.go): every variant this CPU can run against the
// generic twins, bit for bit where the contract says so.

// miscOps are the ops misc_amd64.go registers for every amd64 variant.
var miscOps = []string{
	"DequantQ4K", "DequantQ5K", "DequantQ6K", "DequantQ8_0",
	"QuantizeQ8K", "QuantizeQ8_0",
	"DotF32", "Axpy", "Scale", "Max", "ExpSum",
}

// TestMiscVariantsProvideOps: every amd64 variant whose features this CPU
// has is runnable and provides each of miscOps itself (a missing variant or
// op is a failure, not a skip).
func TestMiscVariantsProvideOps(t *testing.T) {
	runnable := Variants()
	n := 0
	for i := range amd64Variants {
		v := &amd64Variants[i]
		if !v.Supported() {
			t.Logf("%s: not supported by this CPU", v.Name)
			continue
		}
		n++
		if !slices.Contains(runnable, v.Name) {
			t.Errorf("%s: the CPU has its features but it is not runnable (runnable: %v)", v.Name, runnable)
			continue
		}
		restore, err := Use(v.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range Info().Ops {
			if slices.Contains(miscOps, o.Op) && (o.Variant != v.Name || o.Reason != "forced") {
				t.Errorf("%s: op %s comes from %s (%s)", v.Name, o.Op, o.Variant, o.Reason)
			}
		}
		restore()
	}
	if n == 0 {
		t.Log("no amd64 variant runs on this CPU")
	}
}

// variantOps returns the ops of every runnable variant, by name.
func variantOps(t testing.TB) map[string]Ops {
	m := map[string]Ops{}
	for _, name := range Variants() {
		restore, err := Use(name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = Current()
		restore()
	}
	return m
}

const guardF32 = 0x7fc0dead // a NaN no kernel produces

// fillF32 sets every element of x to the float with bits b.
func fillF32(x []float32, b uint32) {
	for i := range x {
		x[i] = math.Float32frombits(b)
	}
}

func sameF32Bits(a, b []float32) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return i
		}
	}
	return -1
}

// checkDequant runs f on src (blocks of per values) and checks, bit for bit,
// that it writes want: from a guarded copy of src into a guarded dst (any
// read or write past either end faults), with dst pre-filled with two
// different patterns (so an unwritten value shows), and into the middle of
// a larger buffer whose guard values on both sides must survive. src must
// be unchanged.
func checkDequant[B any](t *testing.T, what string, f func([]float32, []B), src []B, want []float32) {
	t.Helper()
	orig := bytes.Clone(quantBytes(src))
	gsrc := guarded(t, src)
	n := len(want)
	for _, fill := range []uint32{guardF32, 0xffffffff} {
		dst := guarded(t, make([]float32, n))
		fillF32(dst, fill)
		f(dst, gsrc)
		if i := sameF32Bits(dst, want); i >= 0 {
			t.Fatalf("%s, %d blocks: value %d = %v (%#08x), generic %v (%#08x)", what, len(src), i,
				dst[i], math.Float32bits(dst[i]), want[i], math.Float32bits(want[i]))
		}
	}
	buf := make([]float32, n+16)
	fillF32(buf, guardF32)
	f(buf[8:8+n], src)
	for i, v := range buf {
		if (i < 8 || i >= 8+n) && math.Float32bits(v) != guardF32 {
			t.Fatalf("%s, %d blocks: wrote outside dst (buffer index %d, dst at 8..%d)", what, len(src), i, 8+n)
		}
	}
	if i := sameF32Bits(buf[8:8+n], want); i >= 0 {
		t.Fatalf("%s, %d blocks (unguarded): value %d differs", what, len(src), i)
	}
	if !bytes.Equal(quantBytes(gsrc), orig) || !bytes.Equal(quantBytes(src), orig) {
		t.Fatalf("%s, %d blocks: src modified", what, len(src))
	}
}

// checkQuantize is checkDequant for the quantizers: every byte of dst must
// equal the generic result.
func checkQuantize[B any](t *testing.T, what string, f func([]B, []float32), src []float32, want []B) {
	t.Helper()
	orig := slices.Clone(src)
	gsrc := guarded(t, src)
	n := len(want)
	wb := quantBytes(want)
	for _, fill := range []byte{0xa5, 0x5a} {
		dst := guarded(t, make([]B, n))
		db := quantBytes(dst)
		for i := range db {
			db[i] = fill
		}
		f(dst, gsrc)
		if i := firstDiff(db, wb); i >= 0 {
			t.Fatalf("%s, %d blocks: byte %d (block %d, offset %d) = %#02x, generic %#02x", what, n, i,
				i/max(1, len(wb)/max(1, n)), i%max(1, len(wb)/max(1, n)), db[i], wb[i])
		}
	}
	buf := make([]B, n+2)
	bb := quantBytes(buf)
	for i := range bb {
		bb[i] = 0xa5
	}
	f(buf[1:n+1], src)
	bsz := len(bb) / (n + 2)
	for i, v := range bb {
		if (i < bsz || i >= (n+1)*bsz) && v != 0xa5 {
			t.Fatalf("%s, %d blocks: wrote outside dst (byte %d)", what, n, i)
		}
	}
	if i := firstDiff(bb[bsz:(n+1)*bsz], wb); i >= 0 {
		t.Fatalf("%s, %d blocks (unguarded): byte %d differs", what, n, i)
	}
	if sameF32Bits(gsrc, orig) >= 0 || sameF32Bits(src, orig) >= 0 {
		t.Fatalf("%s, %d blocks: src modified", what, n)
	}
}

func firstDiff(a, b []byte) int {
	if len(a) != len(b) {
		return 0
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// specialF16 are scales at the edges of binary16: zero, the smallest and
// largest subnormals, the smallest normal, the largest finite, negatives.
var specialF16 = []quant.F16{0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x1000}

func TestMiscDequantMatchesGeneric(t *testing.T) {
	skipSweepInShort(t)
	g := genericVariant().Ops
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(21, 22))
		for nb := 0; nb <= maxBlocks; nb++ {
			for rep := 0; rep < 3; rep++ {
				w4, w5, w6 := randQ4K(r, nb), randQ5K(r, nb), randQ6K(r, nb)
				if rep == 2 { // edge scales, and all-ones / all-zero quants
					for i := 0; i < nb; i++ {
						w4[i].D, w4[i].DMin = specialF16[r.IntN(len(specialF16))], specialF16[r.IntN(len(specialF16))]
						w5[i].D, w5[i].DMin = specialF16[r.IntN(len(specialF16))], specialF16[r.IntN(len(specialF16))]
						w6[i].D = specialF16[r.IntN(len(specialF16))]
						fillBytes(w4[i].Qs[:], byte(0xff*(i&1)))
						fillBytes(w5[i].Qh[:], byte(0xff*(i&1)))
						fillBytes(w4[i].Scales[:], 0xff)
						fillBytes(w6[i].Ql[:], byte(0xff*(i&1)))
						fillBytes(w6[i].Qh[:], byte(0xff*(i&1)))
					}
				}
				want := make([]float32, nb*256)
				g.DequantQ4K(want, w4)
				checkDequant(t, "q4_K", k.DequantQ4K, w4, want)
				g.DequantQ5K(want, w5)
				checkDequant(t, "q5_K", k.DequantQ5K, w5, want)
				g.DequantQ6K(want, w6)
				checkDequant(t, "q6_K", k.DequantQ6K, w6, want)
			}
		}
		for nb := 0; nb <= 8*maxBlocks+1; nb++ {
			w := randQ8_0(r, nb)
			for i := range w {
				if i%3 == 0 {
					w[i].D = specialF16[r.IntN(len(specialF16))]
				}
			}
			want := make([]float32, nb*32)
			g.DequantQ8_0(want, w)
			checkDequant(t, "q8_0", k.DequantQ8_0, w, want)
		}
	})
}

func fillBytes(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}

// Input kinds for the quantizer tests, one chosen per block.
const (
	qGauss        = iota // N(0, σ²) with σ from 1e-30 to 1e30
	qTiesK               // Q8_K ties: iscale·x exactly k+½
	qTies0               // Q8_0 ties: x·id exactly k+½
	qZeros               // +0 and −0
	qSubnormal           // all subnormal: Q8_K iscale and Q8_0 id overflow
	qTinyNormal          // max in [2^-126, 127/FLT_MAX): iscale overflows, values normal
	qLarge               // up to ±FLT_MAX
	qSingle              // one nonzero value
	qFirstMax            // +a and −a both of largest magnitude: the first decides
	qMixedSubnorm        // normal values with subnormals among them
	qKinds
)

// quantBlock fills x (one block of 32 or 256 values) with inputs of the
// given kind.
func quantBlock(r *rand.Rand, x []float32, kind int) {
	n := len(x)
	switch kind {
	case qGauss:
		s := math.Pow(10, float64(r.IntN(61)-30))
		for i := range x {
			x[i] = float32(r.NormFloat64() * s)
		}
	case qTiesK:
		// max = ∓127/2^e gives iscale = ±2^e exactly; the other values are
		// (k+½)/2^e, whose products are exact halves.
		e := r.IntN(4)
		sc := float32(math.Ldexp(1, -e))
		for i := range x {
			x[i] = (float32(r.IntN(254)-127) + 0.5) * sc
		}
		m := float32(127) * sc
		if r.IntN(2) == 0 {
			m = -m
		}
		x[r.IntN(n)] = m
	case qTies0:
		// amax = 127·2^e gives d = 2^e and id = 2^-e exactly.
		e := r.IntN(5) - 2
		sc := float32(math.Ldexp(1, e))
		for i := range x {
			x[i] = (float32(r.IntN(254)-127) + 0.5) * sc
		}
		x[r.IntN(n)] = 127 * sc * float32(1-2*r.IntN(2))
	case qZeros:
		for i := range x {
			x[i] = math.Float32frombits(uint32(r.IntN(2)) << 31)
		}
	case qSubnormal:
		for i := range x {
			x[i] = math.Float32frombits(uint32(r.IntN(1<<23)) | uint32(r.IntN(2))<<31)
		}
	case qTinyNormal:
		for i := range x {
			x[i] = float32(r.Float64()*3e-37) * float32(1-2*r.IntN(2))
		}
		x[r.IntN(n)] = math.Float32frombits(0x00800000 | uint32(r.IntN(2))<<31) // 2^-126
	case qLarge:
		for i := range x {
			x[i] = float32(r.NormFloat64() * 1e37)
		}
		x[r.IntN(n)] = math.MaxFloat32 * float32(1-2*r.IntN(2))
	case qSingle:
		clear(x)
		x[r.IntN(n)] = float32(r.NormFloat64())
	case qFirstMax:
		a := float32(r.Float64() + 0.5)
		for i := range x {
			x[i] = float32(r.Float64()) * 0.5 * float32(1-2*r.IntN(2))
		}
		i, j := r.IntN(n), r.IntN(n)
		x[i], x[j] = a, -a
	case qMixedSubnorm:
		for i := range x {
			if r.IntN(2) == 0 {
				x[i] = math.Float32frombits(uint32(r.IntN(1<<23)) | uint32(r.IntN(2))<<31)
			} else {
				x[i] = float32(r.NormFloat64() * 1e-37)
			}
		}
	}
}

func quantInput(r *rand.Rand, values, block int) []float32 {
	x := make([]float32, values)
	for b := 0; b < values; b += block {
		quantBlock(r, x[b:b+block], r.IntN(qKinds))
	}
	return x
}

func TestMiscQuantizeMatchesGeneric(t *testing.T) {
	skipSweepInShort(t)
	g := genericVariant().Ops
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(23, 24))
		for nb := 0; nb <= maxBlocks; nb++ {
			for rep := 0; rep < 6; rep++ {
				x := quantInput(r, nb*256, 256)
				want := make([]quant.BlockQ8K, nb)
				g.QuantizeQ8K(want, x)
				checkQuantize(t, "q8_K", k.QuantizeQ8K, x, want)
			}
		}
		for nb := 0; nb <= 8*maxBlocks+1; nb++ {
			for rep := 0; rep < 3; rep++ {
				x := quantInput(r, nb*32, 32)
				want := make([]quant.BlockQ8_0, nb)
				g.QuantizeQ8_0(want, x)
				checkQuantize(t, "q8_0", k.QuantizeQ8_0, x, want)
			}
		}
		// Every kind in every position of a row, for both block sizes.
		for kind := 0; kind < qKinds; kind++ {
			for rep := 0; rep < 20; rep++ {
				x := make([]float32, 3*256)
				for b := 0; b < 3; b++ {
					quantBlock(r, x[256*b:256*(b+1)], kind)
				}
				wk := make([]quant.BlockQ8K, 3)
				g.QuantizeQ8K(wk, x)
				checkQuantize(t, "q8_K", k.QuantizeQ8K, x, wk)
				x0 := make([]float32, 8*32)
				for b := 0; b < 8; b++ {
					quantBlock(r, x0[32*b:32*(b+1)], kind)
				}
				w0 := make([]quant.BlockQ8_0, 8)
				g.QuantizeQ8_0(w0, x0)
				checkQuantize(t, "q8_0", k.QuantizeQ8_0, x0, w0)
			}
		}
	})
}

// TestMiscTiesRounding pins the two rounding rules on exact ties, whatever
// the generic code does: Q8_K rounds half to even, Q8_0 half away from zero.
func TestMiscTiesRounding(t *testing.T) {
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		x := make([]float32, 256)
		x[0] = -127 // iscale = 1
		for i := 1; i < 256; i++ {
			x[i] = float32(i%254-127) + 0.5
		}
		xk := make([]quant.BlockQ8K, 1)
		k.QuantizeQ8K(xk, x)
		for i := 1; i < 256; i++ {
			want := int8(math.RoundToEven(float64(x[i])))
			if xk[0].Qs[i] != want {
				t.Fatalf("q8_K: %v → %d, want %d (half to even)", x[i], xk[0].Qs[i], want)
			}
		}
		x0 := make([]quant.BlockQ8_0, 8)
		x[0] = 127 // amax 127: d = 1, id = 1
		for b := 0; b < 8; b++ {
			x[32*b] = 127
		}
		k.QuantizeQ8_0(x0, x)
		for i := 0; i < 256; i++ {
			want := int8(math.Round(float64(x[i])))
			if x0[i/32].Qs[i%32] != want {
				t.Fatalf("q8_0: %v → %d, want %d (half away from zero)", x[i], x0[i/32].Qs[i%32], want)
			}
		}
	})
}

// TestMiscGGML checks every variant against ggml's own outputs: the
// quantizers against quant.bin of every q8_K and q8_0 case (the tiny cases'
// all-subnormal rows included: d = ±0, qs = 0, bsums = 0), the
// dequantizers against dequant.f32 of every q4_K, q5_K, q6_K and q8_0 case.
func TestMiscGGML(t *testing.T) {
	root := refdata.Dir(t, "ggml")
	type ggmlFiles struct {
		id                 string
		input, quant       []byte
		dequant            []float32
		inputF32           []float32
		hasInput, hasDeqnt bool
	}
	load := func(typ string) []ggmlFiles {
		dir := filepath.Join(root, typ)
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []ggmlFiles
		for _, e := range ents {
			d := filepath.Join(dir, e.Name())
			q, err := os.ReadFile(filepath.Join(d, "quant.bin"))
			if err != nil {
				t.Fatal(err)
			}
			c := ggmlFiles{id: typ + "/" + e.Name(), quant: alignedCopy(q)}
			c.inputF32 = readF32(t, filepath.Join(d, "input.f32"))
			c.dequant = readF32(t, filepath.Join(d, "dequant.f32"))
			out = append(out, c)
		}
		if len(out) == 0 {
			t.Fatalf("no cases in %s", dir)
		}
		return out
	}
	q8k, q80 := load("q8_K"), load("q8_0")
	q4k, q5k, q6k := load("q4_K"), load("q5_K"), load("q6_K")
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		for _, c := range q8k {
			dst := make([]quant.BlockQ8K, len(c.inputF32)/256)
			k.QuantizeQ8K(dst, c.inputF32)
			if i := firstDiff(quantBytes(dst), c.quant); i >= 0 {
				t.Errorf("%s: quantize byte %d (block %d, offset %d) differs from quant.bin", c.id, i, i/292, i%292)
			}
		}
		for _, c := range q80 {
			dst := make([]quant.BlockQ8_0, len(c.inputF32)/32)
			k.QuantizeQ8_0(dst, c.inputF32)
			if i := firstDiff(quantBytes(dst), c.quant); i >= 0 {
				t.Errorf("%s: quantize byte %d (block %d, offset %d) differs from quant.bin", c.id, i, i/34, i%34)
			}
			w, err := quant.AsQ8_0(c.quant)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float32, len(c.dequant))
			k.DequantQ8_0(got, w)
			if i := sameF32Bits(got, c.dequant); i >= 0 {
				t.Errorf("%s: dequant value %d = %v, ggml %v", c.id, i, got[i], c.dequant[i])
			}
		}
		deq := func(cs []ggmlFiles, f func(dst []float32, b []byte) error) {
			for _, c := range cs {
				got := make([]float32, len(c.dequant))
				if err := f(got, c.quant); err != nil {
					t.Fatal(err)
				}
				if i := sameF32Bits(got, c.dequant); i >= 0 {
					t.Errorf("%s: dequant value %d = %v, ggml %v", c.id, i, got[i], c.dequant[i])
				}
			}
		}
		deq(q4k, func(dst []float32, b []byte) error {
			w, err := quant.AsQ4K(b)
			if err == nil {
				k.DequantQ4K(dst, w)
			}
			return err
		})
		deq(q5k, func(dst []float32, b []byte) error {
			w, err := quant.AsQ5K(b)
			if err == nil {
				k.DequantQ5K(dst, w)
			}
			return err
		})
		deq(q6k, func(dst []float32, b []byte) error {
			w, err := quant.AsQ6K(b)
			if err == nil {
				k.DequantQ6K(dst, w)
			}
			return err
		})
	})
}

// TestMiscF32Guarded runs the float32 kernels of every variant on every
// length 0..2·256+1 with inputs and outputs ending at a PROT_NONE page, and
// checks them against the bounds of TestF32Tolerance; ExpSum's values must
// have the bits of Exp32, Scale's and Max's are exact.
func TestMiscF32Guarded(t *testing.T) {
	skipSweepInShort(t)
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(25, 26))
		for n := 0; n <= 2*256+1; n++ {
			a0, b0 := randF32(r, n, 1), randF32(r, n, 1)
			a, b := guarded(t, a0), guarded(t, b0)
			var ref, abs float64
			for i := range a0 {
				ref += float64(a0[i]) * float64(b0[i])
				abs += math.Abs(float64(a0[i]) * float64(b0[i]))
			}
			if got := k.DotF32(a, b); math.Abs(float64(got)-ref) > float64(n+8)*0x1p-24*abs {
				t.Fatalf("DotF32 n=%d: %v, want %v", n, got, ref)
			}

			alpha := float32(r.NormFloat64())
			y0 := randF32(r, n, 1)
			y := guarded(t, y0)
			k.Axpy(alpha, a, y)
			for i := range y {
				want := float32(float64(y0[i]) + float64(alpha)*float64(a0[i]))
				if ulpDiff(y[i], want) > 1 && math.Abs(float64(y[i]-want)) > 1e-6*math.Abs(float64(alpha*a0[i])) {
					t.Fatalf("Axpy n=%d [%d]: %v, want %v", n, i, y[i], want)
				}
			}

			s := guarded(t, a0)
			k.Scale(alpha, s)
			for i := range s {
				if s[i] != alpha*a0[i] {
					t.Fatalf("Scale n=%d [%d]: %v, want %v", n, i, s[i], alpha*a0[i])
				}
			}

			if sameF32Bits(a, a0) >= 0 || sameF32Bits(b, b0) >= 0 {
				t.Fatalf("n=%d: inputs modified", n)
			}
			if n == 0 {
				continue
			}
			m := a0[0]
			for _, v := range a0 {
				m = max(m, v)
			}
			if got := k.Max(a); got != m {
				t.Fatalf("Max n=%d: %v, want %v", n, got, m)
			}

			x0 := randF32(r, n, 10)
			x := guarded(t, x0)
			sub := float32(r.NormFloat64() * 5)
			dst := guarded(t, make([]float32, n))
			fillF32(dst, guardF32)
			sum := k.ExpSum(dst, x, sub)
			var exact float64
			for i := range dst {
				if want := Exp32(x0[i] - sub); !sameBits(dst[i], want) {
					t.Fatalf("ExpSum n=%d [%d]: exp(%v) = %v, Exp32 %v", n, i, x0[i]-sub, dst[i], want)
				}
				exact += float64(dst[i])
			}
			if math.Abs(float64(sum)-exact) > float64(n+8)*0x1p-24*exact {
				t.Fatalf("ExpSum n=%d: sum %v, want %v", n, sum, exact)
			}
			if sameF32Bits(x, x0) >= 0 {
				t.Fatalf("ExpSum n=%d: x modified", n)
			}
		}
	})
}

// TestMiscExpSumIsExp32 sweeps the float32 line (every 2039th bit pattern,
// both signs) and the edges of Exp32's range reduction through every
// variant's ExpSum: each value must have the bits of Exp32.
func TestMiscExpSumIsExp32(t *testing.T) {
	skipSweepInShort(t)
	var x []float32
	for b := uint32(0); b < 0x7f800000; b += 2039 {
		x = append(x, math.Float32frombits(b), math.Float32frombits(b|1<<31))
	}
	edges := []float32{0, float32(math.Copysign(0, -1)), expMaxArg, expMinArg, float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), 1, -1, 0.5, -0.5}
	for _, e := range []float32{expMaxArg, expMinArg} {
		for d := uint32(1); d < 4; d++ {
			edges = append(edges, math.Float32frombits(math.Float32bits(e)+d), math.Float32frombits(math.Float32bits(e)-d))
		}
	}
	// x·log2e near ±(k+½): where floor(t + 0.5) must be taken exactly.
	for k := -150; k <= 128; k++ {
		c := (float32(k) + 0.5) / expLog2e
		for d := -3; d <= 3; d++ {
			edges = append(edges, math.Float32frombits(uint32(int32(math.Float32bits(c))+int32(d))))
		}
	}
	x = append(x, edges...)
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		dst := make([]float32, len(x))
		k.ExpSum(dst, x, 0)
		for i, v := range x {
			want := Exp32(v)
			if !sameBits(dst[i], want) && !(want != want && dst[i] != dst[i]) {
				t.Fatalf("exp(%v) = %v (%#08x), Exp32 %v (%#08x)", v, dst[i], math.Float32bits(dst[i]), want, math.Float32bits(want))
			}
		}
	})
}

// FuzzQuantizeQ8K quantizes fuzzed float32s (non-finite values replaced by
// 0; up to 4 blocks) with every variant and compares with generic.
func FuzzQuantizeQ8K(f *testing.F) {
	seed := func(x []float32) []byte {
		b := make([]byte, 4*len(x))
		for i, v := range x {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	r := rand.New(rand.NewPCG(27, 28))
	for kind := 0; kind < qKinds; kind++ {
		x := make([]float32, 256)
		quantBlock(r, x, kind)
		f.Add(seed(x))
	}
	f.Add([]byte{})
	ops := variantOps(f)
	g := genericVariant().Ops
	f.Fuzz(func(t *testing.T, data []byte) {
		n := min(len(data)/4, 4*256)
		x := make([]float32, (n+255)/256*256)
		for i := 0; i < n; i++ {
			v := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				v = 0
			}
			x[i] = v
		}
		want := make([]quant.BlockQ8K, len(x)/256)
		g.QuantizeQ8K(want, x)
		for name, k := range ops {
			got := make([]quant.BlockQ8K, len(want))
			k.QuantizeQ8K(got, x)
			if i := firstDiff(quantBytes(got), quantBytes(want)); i >= 0 {
				t.Fatalf("%s: byte %d differs from generic", name, i)
			}
		}
	})
}

// FuzzDequantQ4K dequantizes fuzzed Q4_K blocks (up to 4; scales that are
// not finite are cleared) with every variant and compares with generic.
func FuzzDequantQ4K(f *testing.F) {
	r := rand.New(rand.NewPCG(29, 30))
	f.Add(quantBytes(randQ4K(r, 1)))
	f.Add(quantBytes(randQ4K(r, 3)))
	f.Add([]byte{})
	ops := variantOps(f)
	g := genericVariant().Ops
	f.Fuzz(func(t *testing.T, data []byte) {
		nb := min(len(data)/144, 4)
		w := make([]quant.BlockQ4K, nb)
		copy(quantBytes(w), data)
		for i := range w {
			if !finiteF16(w[i].D) {
				w[i].D = 0
			}
			if !finiteF16(w[i].DMin) {
				w[i].DMin = 0
			}
		}
		want := make([]float32, nb*256)
		g.DequantQ4K(want, w)
		for name, k := range ops {
			got := make([]float32, len(want))
			k.DequantQ4K(got, w)
			if i := sameF32Bits(got, want); i >= 0 {
				t.Fatalf("%s: value %d = %v, generic %v", name, i, got[i], want[i])
			}
		}
	})
}

func finiteF16(h quant.F16) bool { return h&0x7c00 != 0x7c00 }
