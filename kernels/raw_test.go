package kernels

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"

	"github.com/corelane/corelane/quant"
)

// Weights are untrusted bytes. These tests fill every weight and activation
// block with raw bytes — every quant byte (0x80 included), every scale bit
// pattern (binary16 subnormal, huge, ±Inf, NaN; 6-bit scales and mins at 0
// and 63; Q6_K scales at −128; Q8_K scales of any float32 bits and block
// sums that need not match the quants) — and require every variant's Dot,
// MatVec and MatMul to give the generic kernel's result for each element.
//
// "The generic kernel's result" means the same bits; a NaN result is the
// canonical quiet NaN 0x7fc00000 everywhere (see the package doc).

// f16Specials are the binary16 scale patterns the tests pick often: zeros,
// the smallest and largest subnormals, the largest finite, the infinities,
// quiet and signalling NaNs.
var f16Specials = []uint16{0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xffff, 0x3c00}

// f32Specials are the same for the float32 scale of a Q8_K block.
var f32Specials = []uint32{0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffffffff, 0x3f800000}

// rawLayout says where a block type keeps its scales and how to make its
// structured extremes.
type rawLayout struct {
	f16, f32 []uintptr // offsets of binary16 and float32 fields
	// extreme overwrites the non-scale bytes of a block (b, its bytes) with
	// pattern p of a few structured extremes.
	extreme func(b []byte, p int)
}

// rawBlocks returns n blocks of B filled with raw bytes: random bytes
// everywhere, then (with fixed odds) special scale patterns and structured
// extremes.
func rawBlocks[B any](r *rand.Rand, n int, l rawLayout) []B {
	bs := make([]B, n)
	raw := quantBytes(bs)
	size := int(unsafe.Sizeof(bs[0]))
	randBytes(r, raw)
	for i := 0; i < n; i++ {
		b := raw[i*size : (i+1)*size]
		if l.extreme != nil && r.IntN(4) == 0 {
			l.extreme(b, r.IntN(8))
		}
		for _, off := range l.f16 {
			v := uint16(r.Uint32())
			switch r.IntN(4) {
			case 0:
				v = f16Specials[r.IntN(len(f16Specials))]
			case 1: // an ordinary small scale
				v = uint16(quant.FromFloat32(float32(r.NormFloat64() * 0.01)))
			}
			b[off], b[off+1] = byte(v), byte(v>>8)
		}
		for _, off := range l.f32 {
			v := r.Uint32()
			switch r.IntN(4) {
			case 0:
				v = f32Specials[r.IntN(len(f32Specials))]
			case 1:
				v = math.Float32bits(float32(r.NormFloat64() * 0.01))
			}
			b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	}
	return bs
}

// fillRange sets b[lo:hi] to v.
func fillRange(b []byte, lo, hi int, v byte) {
	for i := lo; i < hi; i++ {
		b[i] = v
	}
}

// extremeBytes is the pattern p ∈ [0, 8) for quant bytes: all 0x80 (the
// int8 −128), 0x7f, 0xff, 0x00, 0x88 (the most negative codes of nibble
// types), alternating 0x80/0x7f, or random (p ≥ 6).
func extremeBytes(b []byte, lo, hi, p int) {
	vals := []byte{0x80, 0x7f, 0xff, 0x00, 0x88}
	switch {
	case p < len(vals):
		fillRange(b, lo, hi, vals[p])
	case p == 5:
		for i := lo; i < hi; i++ {
			b[i] = 0x80 ^ byte(-(i&1)&0xff)
		}
	}
}

var (
	offQ4KQs = unsafe.Offsetof(quant.BlockQ4K{}.Qs)
	offQ4KSc = unsafe.Offsetof(quant.BlockQ4K{}.Scales)
	offQ5KQh = unsafe.Offsetof(quant.BlockQ5K{}.Qh)
	offQ5KSc = unsafe.Offsetof(quant.BlockQ5K{}.Scales)
	offQ6KSc = unsafe.Offsetof(quant.BlockQ6K{}.Scales)
)

var (
	rawQ4K = rawLayout{f16: []uintptr{unsafe.Offsetof(quant.BlockQ4K{}.D), unsafe.Offsetof(quant.BlockQ4K{}.DMin)},
		extreme: func(b []byte, p int) {
			extremeBytes(b, int(offQ4KQs), len(b), p)
			kScaleExtreme(b[offQ4KSc:offQ4KSc+quant.KScaleSize], p)
		}}
	rawQ5K = rawLayout{f16: []uintptr{unsafe.Offsetof(quant.BlockQ5K{}.D), unsafe.Offsetof(quant.BlockQ5K{}.DMin)},
		extreme: func(b []byte, p int) {
			extremeBytes(b, int(offQ5KQh), len(b), p)
			kScaleExtreme(b[offQ5KSc:offQ5KSc+quant.KScaleSize], p)
		}}
	rawQ6K = rawLayout{f16: []uintptr{unsafe.Offsetof(quant.BlockQ6K{}.D)},
		extreme: func(b []byte, p int) {
			extremeBytes(b, 0, int(offQ6KSc), p)
			switch p & 3 { // int8 scales: all −128, all 127, alternating
			case 0:
				fillRange(b, int(offQ6KSc), int(offQ6KSc)+16, 0x80)
			case 1:
				fillRange(b, int(offQ6KSc), int(offQ6KSc)+16, 0x7f)
			case 2:
				extremeBytes(b, int(offQ6KSc), int(offQ6KSc)+16, 5)
			}
		}}
	rawQ8_0 = rawLayout{f16: []uintptr{0}, extreme: func(b []byte, p int) { extremeBytes(b, 2, len(b), p) }}
	rawQ8_1 = rawLayout{f16: []uintptr{0, 2}, extreme: func(b []byte, p int) { extremeBytes(b, 4, len(b), p) }}
	rawQ4_0 = rawLayout{f16: []uintptr{0}, extreme: func(b []byte, p int) { extremeBytes(b, 2, len(b), p) }}
	rawQ4_1 = rawLayout{f16: []uintptr{0, 2}, extreme: func(b []byte, p int) { extremeBytes(b, 4, len(b), p) }}
	rawQ5_0 = rawQ4_0
	rawQ5_1 = rawQ4_1
	rawQ8K  = rawLayout{f32: []uintptr{0}, extreme: func(b []byte, p int) {
		extremeBytes(b, 4, 4+quant.QK_K, p)
		if p&1 == 0 { // block sums that match the quants
			for g := 0; g < quant.QK_K/16; g++ {
				var s int16
				for _, q := range b[4+16*g : 4+16*g+16] {
					s += int16(int8(q))
				}
				b[4+quant.QK_K+2*g], b[4+quant.QK_K+2*g+1] = byte(s), byte(uint16(s)>>8)
			}
		}
	}}
)

// kScaleExtreme sets the packed 6-bit scales and mins of a Q4_K/Q5_K block
// to their extremes: every scale and min 63 (all bits set), all 0, scales 63
// with mins 0, or scales 0 with mins 63 (p mod 4; p ≥ 4 leaves them raw).
func kScaleExtreme(s []byte, p int) {
	switch p {
	case 0:
		fillRange(s, 0, len(s), 0xff)
	case 1:
		fillRange(s, 0, len(s), 0x00)
	case 2, 3:
		var sc, m [8]uint8
		for j := range sc {
			if p == 2 {
				sc[j] = 63
			} else {
				m[j] = 63
			}
		}
		copy(s, packKScales(sc, m))
	}
}

// packKScales is the inverse of quant.KScaleMin (its own test checks the
// round trip).
func packKScales(sc, m [8]uint8) []byte {
	var s [quant.KScaleSize]byte
	for j := 0; j < 4; j++ {
		s[j] = sc[j]&63 | (sc[j+4]>>4)<<6
		s[j+4] = m[j]&63 | (m[j+4]>>4)<<6
		s[j+8] = sc[j+4]&15 | (m[j+4]&15)<<4
	}
	return s[:]
}

func TestPackKScalesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 1000; i++ {
		var sc, m [8]uint8
		for j := range sc {
			sc[j], m[j] = uint8(r.IntN(64)), uint8(r.IntN(64))
		}
		s := [quant.KScaleSize]byte(packKScales(sc, m))
		for j := 0; j < 8; j++ {
			if a, b := quant.KScaleMin(&s, j); a != sc[j] || b != m[j] {
				t.Fatalf("sub-block %d: unpacked (%d, %d), packed (%d, %d)", j, a, b, sc[j], m[j])
			}
		}
	}
}

// sameResult is the comparison the raw tests use: the same bits (a NaN
// result is the canonical NaN in every variant, see the package doc).
func sameResult(got, want float32) bool {
	return math.Float32bits(got) == math.Float32bits(want)
}

// rawType is one weight type's operands and kernels for the raw tests.
type rawType[W, X any] struct {
	name   string
	wl, xl rawLayout
	ref    func([]W, []X) float32
	dot    func(*Ops) func([]W, []X) float32
	matVec func(*Ops) func([]float32, []W, []X)
	matMul func(*Ops) func([]float32, int, []W, []X, int, *Prep)
}

var (
	rawTypeQ4K = rawType[quant.BlockQ4K, quant.BlockQ8K]{"q4_K", rawQ4K, rawQ8K, dotQ4KGeneric,
		func(o *Ops) func([]quant.BlockQ4K, []quant.BlockQ8K) float32 { return o.DotQ4K },
		func(o *Ops) func([]float32, []quant.BlockQ4K, []quant.BlockQ8K) { return o.MatVecQ4K },
		func(o *Ops) func([]float32, int, []quant.BlockQ4K, []quant.BlockQ8K, int, *Prep) { return o.MatMulQ4K }}
	rawTypeQ5K = rawType[quant.BlockQ5K, quant.BlockQ8K]{"q5_K", rawQ5K, rawQ8K, dotQ5KGeneric,
		func(o *Ops) func([]quant.BlockQ5K, []quant.BlockQ8K) float32 { return o.DotQ5K },
		func(o *Ops) func([]float32, []quant.BlockQ5K, []quant.BlockQ8K) { return o.MatVecQ5K },
		func(o *Ops) func([]float32, int, []quant.BlockQ5K, []quant.BlockQ8K, int, *Prep) { return o.MatMulQ5K }}
	rawTypeQ6K = rawType[quant.BlockQ6K, quant.BlockQ8K]{"q6_K", rawQ6K, rawQ8K, dotQ6KGeneric,
		func(o *Ops) func([]quant.BlockQ6K, []quant.BlockQ8K) float32 { return o.DotQ6K },
		func(o *Ops) func([]float32, []quant.BlockQ6K, []quant.BlockQ8K) { return o.MatVecQ6K },
		func(o *Ops) func([]float32, int, []quant.BlockQ6K, []quant.BlockQ8K, int, *Prep) { return o.MatMulQ6K }}
	rawTypeQ8_0 = rawType[quant.BlockQ8_0, quant.BlockQ8_0]{"q8_0", rawQ8_0, rawQ8_0, dotQ8_0Generic,
		func(o *Ops) func([]quant.BlockQ8_0, []quant.BlockQ8_0) float32 { return o.DotQ8_0 },
		func(o *Ops) func([]float32, []quant.BlockQ8_0, []quant.BlockQ8_0) { return o.MatVecQ8_0 },
		func(o *Ops) func([]float32, int, []quant.BlockQ8_0, []quant.BlockQ8_0, int, *Prep) {
			return o.MatMulQ8_0
		}}
)

// rawShapes are the block counts, matvec row counts and matmul (rows,
// cols) the raw tests run: every tail of the row loops (rows 1–9, 17) and
// every column tile (cols 1–13: an 8-tile, a 4-tile and a tail; 16, 17).
type rawShapes struct {
	nbs, mvRows, mmRows, mmCols []int
}

func rawShapesFor(blockVals int, short bool) rawShapes {
	s := rawShapes{
		// 4 and 5 blocks reach the GFNI MatVec's four-block loop and its
		// one-block tail.
		nbs:    []int{1, 2, 3, 4, 5},
		mvRows: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 17},
		mmRows: []int{1, 2, 3, 5, 9, 33},
		mmCols: []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17},
	}
	if blockVals == 32 {
		s.nbs = []int{1, 2, 3, 4, 5, 8, 9, 17}
	}
	if blockVals == 256 {
		// 9 blocks: the zmm Q4_K/Q5_K MatMul8 tile takes rows longer than
		// kqWholeBlocks (8) in two segments, the second resuming the first.
		s.nbs = append(s.nbs, 9)
	}
	if short {
		s.nbs = s.nbs[:2]
		if blockVals == 256 {
			s.nbs = []int{1, 5}
		}
		s.mmRows = []int{1, 3, 9}
		s.mmCols = []int{1, 4, 7, 13}
	}
	return s
}

// checkRaw runs every kernel of one variant on raw operands of one type.
func checkRaw[W, X any](t *testing.T, variant string, o *Ops, typ rawType[W, X], blockVals int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x7a57))
	sh := rawShapesFor(blockVals, testing.Short())
	dot, mv, mm := typ.dot(o), typ.matVec(o), typ.matMul(o)
	fail := func(what string, nb, rows, cols, i int, got, want float32) {
		t.Helper()
		t.Fatalf("%s %s %s nb=%d rows=%d cols=%d: element %d = %v (%#08x), generic %v (%#08x)",
			variant, typ.name, what, nb, rows, cols, i, got, math.Float32bits(got), want, math.Float32bits(want))
	}
	for _, nb := range sh.nbs {
		for rep := 0; rep < 8; rep++ {
			w, x := rawBlocks[W](r, nb, typ.wl), rawBlocks[X](r, nb, typ.xl)
			if got, want := dot(w, x), typ.ref(w, x); !sameResult(got, want) {
				fail("Dot", nb, 1, 1, 0, got, want)
			}
		}
		for _, rows := range sh.mvRows {
			w, x := rawBlocks[W](r, rows*nb, typ.wl), rawBlocks[X](r, nb, typ.xl)
			dst := make([]float32, rows+1)
			dst[rows] = 12345
			mv(dst[:rows], w, x)
			for i := 0; i < rows; i++ {
				if want := typ.ref(w[i*nb:(i+1)*nb], x); !sameResult(dst[i], want) {
					fail("MatVec", nb, rows, 1, i, dst[i], want)
				}
			}
			if dst[rows] != 12345 {
				t.Fatalf("%s %s MatVec nb=%d rows=%d wrote past dst", variant, typ.name, nb, rows)
			}
		}
		for _, rows := range sh.mmRows {
			for _, cols := range sh.mmCols {
				w, x := rawBlocks[W](r, rows*nb, typ.wl), rawBlocks[X](r, cols*nb, typ.xl)
				ldd := rows + 1
				want := make([]float32, cols*ldd)
				for c := 0; c < cols; c++ {
					for i := 0; i < rows; i++ {
						want[c*ldd+i] = typ.ref(w[i*nb:(i+1)*nb], x[c*nb:(c+1)*nb])
					}
				}
				check := func(what string, got []float32) {
					t.Helper()
					for c := 0; c < cols; c++ {
						for i := 0; i < rows; i++ {
							if g := got[c*ldd+i]; !sameResult(g, want[c*ldd+i]) {
								fail(what, nb, rows, cols, c*ldd+i, g, want[c*ldd+i])
							}
						}
						if c < cols-1 && got[c*ldd+rows] != 12345 {
							t.Fatalf("%s %s %s nb=%d rows=%d cols=%d: wrote the padding of column %d", variant, typ.name, what, nb, rows, cols, c)
						}
					}
				}
				got := make([]float32, cols*ldd)
				for i := range got {
					got[i] = 12345
				}
				mm(got[:(cols-1)*ldd+rows], ldd, w, x, cols, nil)
				check("MatMul", got)
				// The same product with its rows split in three chunks run
				// concurrently, sharing one Prep.
				for i := range got {
					got[i] = 12345
				}
				prep := NewPrep()
				var wg sync.WaitGroup
				for _, part := range [][2]int{{0, rows / 3}, {rows / 3, 2 * rows / 3}, {2 * rows / 3, rows}} {
					if part[0] == part[1] {
						continue
					}
					wg.Add(1)
					go func(lo, hi int) {
						defer wg.Done()
						mm(got[lo:(cols-1)*ldd+hi], ldd, w[lo*nb:hi*nb], x, cols, prep)
					}(part[0], part[1])
				}
				wg.Wait()
				PutPrep(prep)
				check("MatMul split over rows with a shared Prep", got)
			}
		}
	}
}

// TestRawBytesMatchGeneric runs checkRaw for every variant this CPU
// supports and every K-quant and Q8_0 kernel.
func TestRawBytesMatchGeneric(t *testing.T) {
	for _, name := range Variants() {
		o, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run("variant="+name, func(t *testing.T) {
			t.Run("type=q4_K", func(t *testing.T) { checkRaw(t, name, &o, rawTypeQ4K, 256, 1) })
			t.Run("type=q5_K", func(t *testing.T) { checkRaw(t, name, &o, rawTypeQ5K, 256, 2) })
			t.Run("type=q6_K", func(t *testing.T) { checkRaw(t, name, &o, rawTypeQ6K, 256, 3) })
			t.Run("type=q8_0", func(t *testing.T) { checkRaw(t, name, &o, rawTypeQ8_0, 32, 4) })
		})
	}
}

// legacyRaw runs the checked entry points (Dot, MatVec, MatMul on bytes)
// for a legacy type against its generic dot, on raw bytes.
func legacyRaw[W, X any](t *testing.T, qt quant.Type, wl, xl rawLayout, ref func([]W, []X) float32, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 0x1e9a))
	sh := rawShapesFor(32, testing.Short())
	for _, nb := range sh.nbs {
		for _, rows := range []int{1, 3, 9} {
			for _, cols := range []int{1, 5, 13} {
				w, x := rawBlocks[W](r, rows*nb, wl), rawBlocks[X](r, cols*nb, xl)
				got := make([]float32, cols*rows)
				if err := MatMul(qt, got, rows, quantBytes(w), quantBytes(x), cols); err != nil {
					t.Fatal(err)
				}
				for c := 0; c < cols; c++ {
					for i := 0; i < rows; i++ {
						want := ref(w[i*nb:(i+1)*nb], x[c*nb:(c+1)*nb])
						if g := got[c*rows+i]; !sameResult(g, want) {
							t.Fatalf("%v MatMul nb=%d rows=%d cols=%d [%d,%d] = %v, generic %v", qt, nb, rows, cols, c, i, g, want)
						}
					}
				}
				mv := make([]float32, rows)
				if err := MatVec(qt, mv, quantBytes(w), quantBytes(x[:nb])); err != nil {
					t.Fatal(err)
				}
				for i := range mv {
					if want := ref(w[i*nb:(i+1)*nb], x[:nb]); !sameResult(mv[i], want) {
						t.Fatalf("%v MatVec nb=%d rows=%d [%d] = %v, generic %v", qt, nb, rows, i, mv[i], want)
					}
				}
			}
		}
	}
}

// TestRawBytesCheckedAPI runs the checked entry points of every type, for
// every variant forced in turn, on raw bytes.
func TestRawBytesCheckedAPI(t *testing.T) {
	forEachVariant(t, func(t *testing.T, name string, _ Ops) {
		legacyRaw(t, quant.Q4_0, rawQ4_0, rawQ8_0, dotQ4_0Generic, 11)
		legacyRaw(t, quant.Q5_0, rawQ5_0, rawQ8_0, dotQ5_0Generic, 12)
		legacyRaw(t, quant.Q4_1, rawQ4_1, rawQ8_1, dotQ4_1Generic, 13)
		legacyRaw(t, quant.Q5_1, rawQ5_1, rawQ8_1, dotQ5_1Generic, 14)
		legacyRaw(t, quant.Q4K, rawQ4K, rawQ8K, dotQ4KGeneric, 15)
		legacyRaw(t, quant.Q5K, rawQ5K, rawQ8K, dotQ5KGeneric, 16)
		legacyRaw(t, quant.Q6K, rawQ6K, rawQ8K, dotQ6KGeneric, 17)
		legacyRaw(t, quant.Q8_0, rawQ8_0, rawQ8_0, dotQ8_0Generic, 18)
	})
}

// TestQ8_0MinusOneTwentyEight is the case that was wrong in a release: a
// 4×64 matrix of all −128 quants with d = 0.01 times x = −1 must give
// +81.93 in every row, in every variant, through MatVec and MatMul.
func TestQ8_0MinusOneTwentyEight(t *testing.T) {
	w := make([]quant.BlockQ8_0, 4*2)
	for i := range w {
		w[i].D = quant.FromFloat32(0.01)
		for j := range w[i].Qs {
			w[i].Qs[j] = -128
		}
	}
	xf := make([]float32, 64)
	for i := range xf {
		xf[i] = -1
	}
	x := make([]quant.BlockQ8_0, 2)
	if err := quant.QuantizeRowQ8_0(x, xf); err != nil {
		t.Fatal(err)
	}
	want := dotQ8_0Generic(w[:2], x)
	if want < 81 || want > 82 {
		t.Fatalf("generic = %v, want about +81.93", want)
	}
	for _, name := range Variants() {
		o, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		mv := make([]float32, 4)
		o.MatVecQ8_0(mv, w, x)
		mm := make([]float32, 4*3)
		x3 := append(append(append([]quant.BlockQ8_0(nil), x...), x...), x...)
		o.MatMulQ8_0(mm, 4, w, x3, 3, nil)
		for i := range mv {
			if !sameBits(mv[i], want) {
				t.Errorf("%s MatVecQ8_0 row %d = %v, want %v", name, i, mv[i], want)
			}
		}
		for i := range mm {
			if !sameBits(mm[i], want) {
				t.Errorf("%s MatMulQ8_0 [%d] = %v, want %v", name, i, mm[i], want)
			}
		}
		if got := o.DotQ8_0(w[:2], x); !sameBits(got, want) {
			t.Errorf("%s DotQ8_0 = %v, want %v", name, got, want)
		}
	}
}

// FuzzRawKernels feeds raw bytes to every kernel of every variant: the
// first bytes choose the type and shape, the rest are the weight and
// activation blocks (repeated as needed).
func FuzzRawKernels(f *testing.F) {
	f.Add([]byte{0, 1, 1, 1, 0x80, 0x80, 0x80})
	f.Add([]byte{3, 4, 13, 2, 0x00, 0x3c, 0x80, 0x7f, 0xff})
	f.Add([]byte{2, 2, 9, 1, 0x00, 0x7c, 0x80})
	f.Add([]byte{1, 3, 5, 3, 0xff, 0xfb, 0x01, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 5 {
			return
		}
		typ, rows, cols, nb := int(data[0])%4, 1+int(data[1])%9, 1+int(data[2])%17, 1+int(data[3])%3
		src := data[4:]
		for _, name := range Variants() {
			o, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			switch typ {
			case 0:
				fuzzRaw(t, name, &o, rawTypeQ4K, src, rows, cols, nb)
			case 1:
				fuzzRaw(t, name, &o, rawTypeQ5K, src, rows, cols, nb)
			case 2:
				fuzzRaw(t, name, &o, rawTypeQ6K, src, rows, cols, nb)
			case 3:
				fuzzRaw(t, name, &o, rawTypeQ8_0, src, rows, cols, 3*nb)
			}
		}
	})
}

// cycleInto fills b with src repeated.
func cycleInto(b, src []byte) {
	for i := range b {
		b[i] = src[i%len(src)]
	}
}

func fuzzRaw[W, X any](t *testing.T, variant string, o *Ops, typ rawType[W, X], src []byte, rows, cols, nb int) {
	w, x := make([]W, rows*nb), make([]X, cols*nb)
	cycleInto(quantBytes(w), src)
	if len(src) > 1 { // a different phase for the activations
		cycleInto(quantBytes(x), append(src[len(src)/2:], src[:len(src)/2]...))
	} else {
		cycleInto(quantBytes(x), src)
	}
	got := make([]float32, cols*rows)
	typ.matMul(o)(got, rows, w, x, cols, nil)
	mv := make([]float32, rows)
	typ.matVec(o)(mv, w, x[:nb])
	for c := 0; c < cols; c++ {
		for i := 0; i < rows; i++ {
			want := typ.ref(w[i*nb:(i+1)*nb], x[c*nb:(c+1)*nb])
			if g := got[c*rows+i]; !sameResult(g, want) {
				t.Fatalf("%s %s MatMul rows=%d cols=%d nb=%d [%d,%d] = %v (%#08x), generic %v (%#08x)",
					variant, typ.name, rows, cols, nb, c, i, g, math.Float32bits(g), want, math.Float32bits(want))
			}
			if c == 0 && !sameResult(mv[i], want) {
				t.Fatalf("%s %s MatVec rows=%d nb=%d [%d] = %v, generic %v", variant, typ.name, rows, nb, i, mv[i], want)
			}
		}
	}
	if g, want := typ.dot(o)(w[:nb], x[:nb]), typ.ref(w[:nb], x[:nb]); !sameResult(g, want) {
		t.Fatalf("%s %s Dot nb=%d = %v, generic %v", variant, typ.name, nb, g, want)
	}
}
