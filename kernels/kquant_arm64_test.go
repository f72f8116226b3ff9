package kernels

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/quant"
)

// Tests of the arm64 assembly variants beyond the shared variant loops in
// kernels_test.go and f32_test.go: that the variants exist where the CPU
// can run them, that no kernel reads or writes outside its operands
// (buffers ending at a PROT_NONE page, outputs framed by guard values,
// inputs unchanged), and fuzz targets comparing every variant with the
// generic twin on arbitrary block bytes. In a purego build the loops see
// only the generic variant.

// TestARM64Variants: a CPU with ASIMD must run neon, one with FEAT_DotProd
// also dotprod (a missing variant is a failure, not a skip), and by default
// every op the best of them implements must come from it.
func TestARM64Variants(t *testing.T) {
	if len(archVariants()) == 0 {
		t.Skip("no arm64 assembly variants in this build (purego)")
	}
	want := map[string]bool{"neon": cpu.Supports(cpuid.ASIMD), "dotprod": cpu.Supports(cpuid.ASIMD, cpuid.ASIMDDP)}
	runnable := Variants()
	for name, ok := range want {
		if ok && !slices.Contains(runnable, name) {
			t.Fatalf("this CPU supports %s, but it is not runnable (runnable: %v)", name, runnable)
		}
	}
	if Forced() != "" {
		t.Skipf("CORELANE_KERNELS forces %s", Forced())
	}
	best := runnable[0]
	if best == Generic {
		t.Fatalf("generic is the best variant on a CPU with %v", want)
	}
	v := find(load().variants, best) // its own ops, without fallbacks
	for _, o := range Info().Ops {
		i := slices.Index(opNames, o.Op)
		if !opField(&v.Ops, i).IsNil() && o.Variant != best {
			t.Errorf("op %s: uses %s, but %s implements it", o.Op, o.Variant, best)
		}
	}
}

// forEachARM64Variant is forEachVariant over generic and the arm64
// assembly variants only (other tests register throwaway variants, which
// would only repeat the generic runs here).
func forEachARM64Variant(t *testing.T, f func(t *testing.T, name string, k Ops)) {
	for _, name := range Variants() {
		if name != Generic && name != "neon" && name != "dotprod" {
			continue
		}
		t.Run("variant="+name, func(t *testing.T) {
			k, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			f(t, name, k)
		})
	}
}

// guardVal frames outputs: a kernel that writes outside its output changes it.
const guardVal = float32(-31337.25)

// guardedOut returns n guarded float32 outputs preceded by one guard value
// (the page after them is PROT_NONE), and a check that the guard is intact.
func guardedOut(t *testing.T, n int) ([]float32, func()) {
	t.Helper()
	buf := guarded(t, make([]float32, n+1))
	for i := range buf {
		buf[i] = guardVal
	}
	return buf[1:], func() {
		t.Helper()
		if buf[0] != guardVal {
			t.Fatalf("wrote before the output (n=%d)", n)
		}
	}
}

func sameOrNaN(a, b float32) bool { return sameBits(a, b) || (a != a && b != b) }

// checkQuantGuarded runs one type's Dot and MatVec on guarded copies of w
// (rows·nb blocks) and x (nb blocks) and compares with the generic dot.
func checkQuantGuarded[W, X any](t *testing.T, typ string, w []W, x []X, rows int,
	dot func([]W, []X) float32, mv func([]float32, []W, []X), ref func([]W, []X) float32) {
	t.Helper()
	nb := len(x)
	gw, gx := guarded(t, w), guarded(t, x)
	w0, x0 := slices.Clone(quantBytes(w)), slices.Clone(quantBytes(x))
	if nb > 0 {
		if got, want := dot(gw[len(gw)-nb:], gx), ref(w[len(w)-nb:], x); !sameBits(got, want) {
			t.Fatalf("%s nb=%d: Dot of the last row = %v, generic %v", typ, nb, got, want)
		}
	}
	dst, check := guardedOut(t, rows)
	mv(dst, gw, gx)
	check()
	for r := range dst {
		if want := ref(w[r*nb:(r+1)*nb], x); !sameBits(dst[r], want) {
			t.Fatalf("%s nb=%d rows=%d: MatVec[%d] = %v, generic %v", typ, nb, rows, r, dst[r], want)
		}
	}
	if !slices.Equal(quantBytes(gw), w0) || !slices.Equal(quantBytes(gx), x0) {
		t.Fatalf("%s nb=%d: inputs changed", typ, nb)
	}
}

func TestARM64QuantGuardPages(t *testing.T) {
	if !haveGuardPages {
		t.Skip("no guard pages on this OS")
	}
	forEachARM64Variant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(21, 22))
		for nb := 0; nb <= maxBlocks; nb++ {
			for _, rows := range []int{1, 3} {
				x := randQ8K(r, nb)
				checkQuantGuarded(t, "q4_K", randQ4K(r, rows*nb), x, rows, k.DotQ4K, k.MatVecQ4K, dotQ4KGeneric)
				checkQuantGuarded(t, "q5_K", randQ5K(r, rows*nb), x, rows, k.DotQ5K, k.MatVecQ5K, dotQ5KGeneric)
				checkQuantGuarded(t, "q6_K", randQ6K(r, rows*nb), x, rows, k.DotQ6K, k.MatVecQ6K, dotQ6KGeneric)
			}
		}
		for nb := 0; nb <= 8*maxBlocks+1; nb += 1 + nb/16 {
			for _, rows := range []int{1, 2} {
				checkQuantGuarded(t, "q8_0", randQ8_0(r, rows*nb), randQ8_0(r, nb), rows, k.DotQ8_0, k.MatVecQ8_0, dotQ8_0Generic)
			}
		}
		// MatMul: each column's rows end at the guard page, and the padding
		// between columns (ldd > rows) keeps its guard values.
		const rows, cols, nb, ldd = 5, 3, 2, 7
		w, x := guarded(t, randQ4K(r, rows*nb)), guarded(t, randQ8K(r, cols*nb))
		dst, check := guardedOut(t, (cols-1)*ldd+rows)
		k.MatMulQ4K(dst, ldd, w, x, cols, nil)
		check()
		for c := 0; c < cols; c++ {
			for i := 0; i < ldd && c*ldd+i < len(dst); i++ {
				got := dst[c*ldd+i]
				if i >= rows {
					if got != guardVal {
						t.Fatalf("MatMulQ4K wrote padding [%d,%d]", c, i)
					}
					continue
				}
				if want := dotQ4KGeneric(w[i*nb:(i+1)*nb], x[c*nb:(c+1)*nb]); !sameBits(got, want) {
					t.Fatalf("MatMulQ4K [%d,%d] = %v, generic %v", c, i, got, want)
				}
			}
		}
	})
}

func TestARM64F32GuardPages(t *testing.T) {
	if !haveGuardPages {
		t.Skip("no guard pages on this OS")
	}
	forEachARM64Variant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(23, 24))
		for n := 0; n <= 2*16+4+3+1; n++ {
			a, b := randF32(r, n, 1), randF32(r, n, 1)
			ga, gb := guarded(t, a), guarded(t, b)
			got := k.DotF32(ga, gb)
			var bound, ref float64
			for i := range a {
				ref += float64(a[i]) * float64(b[i])
				bound += math.Abs(float64(a[i]) * float64(b[i]))
			}
			if math.Abs(float64(got)-ref) > float64(n+8)*0x1p-24*bound {
				t.Fatalf("DotF32 n=%d: %v, want %v", n, got, ref)
			}
			if !slices.Equal(ga, a) || !slices.Equal(gb, b) {
				t.Fatalf("DotF32 n=%d changed its inputs", n)
			}

			y, check := guardedOut(t, n)
			copy(y, b)
			k.Axpy(0.5, ga, y)
			check()
			for i := range y {
				if want := float32(float64(b[i]) + 0.5*float64(a[i])); ulpDiff(y[i], want) > 1 {
					t.Fatalf("Axpy n=%d [%d]: %v, want %v", n, i, y[i], want)
				}
			}

			s, check := guardedOut(t, n)
			copy(s, a)
			k.Scale(-3, s)
			check()
			for i := range s {
				if s[i] != -3*a[i] {
					t.Fatalf("Scale n=%d [%d]: %v, want %v", n, i, s[i], -3*a[i])
				}
			}

			if n > 0 {
				for _, at := range []int{0, n / 2, n - 1} { // the maximum in each part of the loop
					m := slices.Clone(a)
					m[at] = 100
					gm := guarded(t, m)
					if got := k.Max(gm); got != 100 {
						t.Fatalf("Max n=%d, max at %d: %v", n, at, got)
					}
				}
				if got, want := k.Max(ga), slices.Max(a); got != want {
					t.Fatalf("Max n=%d: %v, want %v", n, got, want)
				}
			}
		}
	})
}

// fuzzBlocks reinterprets data as nb weight blocks followed by nb
// activation blocks (every byte pattern is a block, NaN scales included).
func fuzzBlocks[W, X any](data []byte, maxNB int) ([]W, []X) {
	var zw W
	var zx X
	sw, sx := int(unsafe.Sizeof(zw)), int(unsafe.Sizeof(zx))
	nb := min(len(data)/(sw+sx), maxNB)
	w, x := make([]W, nb), make([]X, nb)
	copy(quantBytes(w), data)
	copy(quantBytes(x), data[nb*sw:])
	return w, x
}

// fuzzVariants compares one type's Dot and MatVec in every runnable
// variant with the generic dot, on one row and on two rows.
func fuzzVariants[W, X any](t *testing.T, w []W, x []X, dot func(Ops) func([]W, []X) float32,
	mv func(Ops) func([]float32, []W, []X)) {
	gen, err := Lookup(Generic)
	if err != nil {
		t.Fatal(err)
	}
	want := dot(gen)(w, x)
	w2 := append(slices.Clone(w), w...)
	for _, name := range Variants() {
		k, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := dot(k)(w, x); !sameOrNaN(got, want) {
			t.Fatalf("%s: Dot = %v (%#x), generic %v (%#x)", name, got, math.Float32bits(got), want, math.Float32bits(want))
		}
		if len(x) == 0 {
			continue
		}
		dst := []float32{guardVal, guardVal, guardVal}
		mv(k)(dst[:2], w2, x)
		if !sameOrNaN(dst[0], want) || !sameOrNaN(dst[1], want) || dst[2] != guardVal {
			t.Fatalf("%s: MatVec = %v, generic dot %v", name, dst, want)
		}
	}
}

func fuzzSeeds(f *testing.F, blockBytes int) {
	r := rand.New(rand.NewPCG(25, 26))
	for _, n := range []int{0, 1, 2, 3, 5} {
		b := make([]byte, n*blockBytes)
		randBytes(r, b)
		f.Add(b)
	}
}

func FuzzARM64DotQ4K(f *testing.F) {
	fuzzSeeds(f, 144+292)
	f.Fuzz(func(t *testing.T, data []byte) {
		w, x := fuzzBlocks[quant.BlockQ4K, quant.BlockQ8K](data, 9)
		fuzzVariants(t, w, x, func(k Ops) func([]quant.BlockQ4K, []quant.BlockQ8K) float32 { return k.DotQ4K },
			func(k Ops) func([]float32, []quant.BlockQ4K, []quant.BlockQ8K) { return k.MatVecQ4K })
	})
}

func FuzzARM64DotQ5K(f *testing.F) {
	fuzzSeeds(f, 176+292)
	f.Fuzz(func(t *testing.T, data []byte) {
		w, x := fuzzBlocks[quant.BlockQ5K, quant.BlockQ8K](data, 9)
		fuzzVariants(t, w, x, func(k Ops) func([]quant.BlockQ5K, []quant.BlockQ8K) float32 { return k.DotQ5K },
			func(k Ops) func([]float32, []quant.BlockQ5K, []quant.BlockQ8K) { return k.MatVecQ5K })
	})
}

func FuzzARM64DotQ6K(f *testing.F) {
	fuzzSeeds(f, 210+292)
	f.Fuzz(func(t *testing.T, data []byte) {
		w, x := fuzzBlocks[quant.BlockQ6K, quant.BlockQ8K](data, 9)
		fuzzVariants(t, w, x, func(k Ops) func([]quant.BlockQ6K, []quant.BlockQ8K) float32 { return k.DotQ6K },
			func(k Ops) func([]float32, []quant.BlockQ6K, []quant.BlockQ8K) { return k.MatVecQ6K })
	})
}

func FuzzARM64DotQ8_0(f *testing.F) {
	fuzzSeeds(f, 34+34)
	f.Fuzz(func(t *testing.T, data []byte) {
		w, x := fuzzBlocks[quant.BlockQ8_0, quant.BlockQ8_0](data, 40)
		fuzzVariants(t, w, x, func(k Ops) func([]quant.BlockQ8_0, []quant.BlockQ8_0) float32 { return k.DotQ8_0 },
			func(k Ops) func([]float32, []quant.BlockQ8_0, []quant.BlockQ8_0) { return k.MatVecQ8_0 })
	})
}

// FuzzARM64F32 checks the float32 kernels of every variant against float64
// references on arbitrary finite inputs (the bounds of TestF32Tolerance).
func FuzzARM64F32(f *testing.F) {
	r := rand.New(rand.NewPCG(27, 28))
	for _, n := range []int{0, 1, 4, 17, 40} {
		b := make([]byte, 8*n+4)
		for i := 0; i+4 <= len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], math.Float32bits(float32(r.NormFloat64())))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n := len(data) / 8
		a, b := make([]float32, n), make([]float32, n)
		for i := 0; i < n; i++ {
			a[i] = finite(binary.LittleEndian.Uint32(data[4*i:]))
			b[i] = finite(binary.LittleEndian.Uint32(data[4*(n+i):]))
		}
		var ref, bound float64
		for i := range a {
			ref += float64(a[i]) * float64(b[i])
			bound += math.Abs(float64(a[i]) * float64(b[i]))
		}
		for _, name := range Variants() {
			k, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			if got := k.DotF32(a, b); !math.IsInf(bound, 0) && math.Abs(float64(got)-ref) > float64(n+8)*0x1p-24*bound &&
				!math.IsInf(float64(got), 0) {
				t.Fatalf("%s: DotF32 = %v, want %v ± %g", name, got, ref, float64(n+8)*0x1p-24*bound)
			}
			if n == 0 {
				continue
			}
			if got, want := k.Max(a), slices.Max(a); got != want {
				t.Fatalf("%s: Max = %v, want %v", name, got, want)
			}
			s := slices.Clone(a)
			k.Scale(b[0], s)
			for i := range s {
				if !sameOrNaN(s[i], b[0]*a[i]) {
					t.Fatalf("%s: Scale [%d] = %v, want %v", name, i, s[i], b[0]*a[i])
				}
			}
		}
	})
}

// finite maps bits to a finite float32 (NaN and ±Inf become 0).
func finite(bits uint32) float32 {
	if bits&0x7F800000 == 0x7F800000 {
		return 0
	}
	return math.Float32frombits(bits)
}

// TestARM64ExpSumBits: every variant's ExpSum writes exactly Exp32's bits
// for each element (the sum is reassociated and checked in
// TestF32Tolerance), on a sweep of the whole range where exp is finite and
// non-zero, its edges, the subnormal results, and ±Inf and NaN.
func TestARM64ExpSumBits(t *testing.T) {
	var x []float32
	for b := uint32(0); b < 1<<31; b += 1<<31/20000 + 7 { // both signs, every exponent
		for _, bits := range []uint32{b, b | 1<<31} {
			if v := math.Float32frombits(bits); v >= -110 && v <= 95 {
				x = append(x, v)
			}
		}
	}
	for v := float32(-104.5); v < -86; v += 0.01 { // subnormal results, n < −126
		x = append(x, v)
	}
	for v := float32(88.5); v < 88.8; v += 0.001 { // n = 128
		x = append(x, v)
	}
	x = append(x, expMaxArg, math.Nextafter32(expMaxArg, 100), expMinArg, math.Nextafter32(expMinArg, -200),
		0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()))
	for i := -300; i <= 300; i++ { // x·log2e at and near k + 0.5
		v := (float32(i) + 0.5) / 1.442695
		x = append(x, math.Nextafter32(v, -1000), v, math.Nextafter32(v, 1000))
	}
	forEachARM64Variant(t, func(t *testing.T, name string, k Ops) {
		for _, sub := range []float32{0, 1.5, -3} {
			dst := make([]float32, len(x)+1)
			dst[len(x)] = guardVal
			k.ExpSum(dst[:len(x)], x, sub)
			if dst[len(x)] != guardVal {
				t.Fatal("ExpSum wrote past the end")
			}
			for i, v := range x {
				want := Exp32(v - sub)
				if !sameBits(dst[i], want) && !(want != want && dst[i] != dst[i]) {
					t.Fatalf("ExpSum(%v − %v) = %v (%#x), Exp32 %v (%#x)", v, sub, dst[i], math.Float32bits(dst[i]), want, math.Float32bits(want))
				}
			}
		}
		// Guarded: every length's last element sits before a PROT_NONE page.
		for n := 0; n <= 19; n++ {
			src := guarded(t, x[:n])
			dst, check := guardedOut(t, n)
			k.ExpSum(dst, src, 0)
			check()
		}
	})
}
