//go:build !purego

package kernels

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/kernels/internal/amd64"
	"github.com/corelane/corelane/quant"
)

// Tests of the Q4_K and Q5_K assembly kernels (kquant_amd64.go) beyond the
// generic comparisons of kernels_test.go, which run them too.

// kqOpNames are the Ops fields every amd64 variant gets from kquant_amd64.go.
var kqOpNames = []string{"DotQ4K", "DotQ5K", "MatVecQ4K", "MatVecQ5K", "MatMulQ4K", "MatMulQ5K"}

// TestKQuantVariantsRegistered checks that every amd64 variant this CPU can
// run is registered, supported and provides the six Q4_K/Q5_K ops, and that
// forcing it dispatches them to it. A variant whose features cpuid reports
// but which is missing is a failure, not a skip.
func TestKQuantVariantsRegistered(t *testing.T) {
	for _, want := range amd64Variants {
		if !cpu.Supports(want.Requires...) {
			t.Logf("%s: this CPU lacks some of %v; not required", want.Name, want.Requires)
			continue
		}
		v := find(load().variants, want.Name)
		if v == nil {
			t.Errorf("%s: the CPU supports it, but it is not registered", want.Name)
			continue
		}
		if !v.Supported() || !slices.Contains(Variants(), want.Name) {
			t.Errorf("%s: registered but not listed as supported", want.Name)
		}
		ops := reflect.ValueOf(v.Ops)
		for _, op := range kqOpNames {
			if ops.FieldByName(op).IsNil() {
				t.Errorf("%s: no %s", want.Name, op)
			}
		}
		restore, err := Use(want.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range Info().Ops {
			if slices.Contains(kqOpNames, o.Op) && o.Variant != want.Name {
				t.Errorf("Use(%s): %s runs %s (%s)", want.Name, o.Op, o.Variant, o.Reason)
			}
		}
		restore()
	}
}

// kqAsmVariants returns the supported variants that have the Q4_K/Q5_K
// kernels, with their own (unresolved) ops, so that tests can call them
// without forcing the registry.
func kqAsmVariants() []*Variant {
	var vs []*Variant
	for _, name := range Variants() {
		if slices.ContainsFunc(amd64Variants, func(v Variant) bool { return v.Name == name }) {
			vs = append(vs, find(load().variants, name))
		}
	}
	return vs
}

// kqType bundles one weight type's kernels for the generic helpers below.
type kqType[W any] struct {
	name   string
	random func(r *rand.Rand, n int) []W
	ref    func(w []W, x []quant.BlockQ8K) float32
	dot    func(o *Ops) func(w []W, x []quant.BlockQ8K) float32
	matVec func(o *Ops) func(dst []float32, w []W, x []quant.BlockQ8K)
	matMul func(o *Ops) func(dst []float32, ldd int, w []W, x []quant.BlockQ8K, cols int, prep *Prep)
	mm8    func(variant string) kqTilePairs // the variant's MatMul8 tile over pairs, or nil
	mm8x   func(variant string) kqTile      // the variant's MatMul8 tile over plain columns, or nil
	mvp    func(variant string) kqPackedMV  // the variant's matrix-vector kernel on Q8KQuad, or nil
}

type kqPackedMV = func(dst *float32, w, xp unsafe.Pointer, rows, nb, pf int)

// kqPacked: the matrix-vector kernels on x packed as Q8KQuad, Q4_K then
// Q5_K (nil where the variant has none: all but avx512gfni's Q4_K).
var kqPacked = map[string][2]kqPackedMV{
	"avx2":       {q4kAVX2.matVecP, q5kAVX2.matVecP},
	"avxvnni":    {q4kAVXVNNI.matVecP, q5kAVXVNNI.matVecP},
	"avx512":     {q4kAVX512.matVecP, q5kAVX512.matVecP},
	"avx512vnni": {q4kAVX512VNNI.matVecP, q5kAVX512VNNI.matVecP},
	"avx512gfni": {q4kAVX512VNNIGFNI.matVecP, q5kAVX512VNNIGFNI.matVecP},
}

type kqTile = func(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)

type kqTilePairs = func(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// kqTiles: the MatMul8 tiles of the table's variants, Q4_K then Q5_K.
var kqTiles = map[string][2]kqTilePairs{
	"avx2":       {q4kAVX2.matMul8, q5kAVX2.matMul8},
	"avxvnni":    {q4kAVXVNNI.matMul8, q5kAVXVNNI.matMul8},
	"avx512":     {q4kAVX512.matMul8, q5kAVX512.matMul8},
	"avx512vnni": {q4kAVX512VNNI.matMul8, q5kAVX512VNNI.matMul8},
	"avx512gfni": {q4kAVX512VNNIGFNI.matMul8, q5kAVX512VNNIGFNI.matMul8},
}

// kqTilesX: the MatMul8 tiles over plain columns, Q4_K then Q5_K.
var kqTilesX = map[string][2]kqTile{
	"avx2":       {q4kAVX2.matMul8x, q5kAVX2.matMul8x},
	"avxvnni":    {q4kAVXVNNI.matMul8x, q5kAVXVNNI.matMul8x},
	"avx512":     {q4kAVX512.matMul8x, q5kAVX512.matMul8x},
	"avx512vnni": {q4kAVX512VNNI.matMul8x, q5kAVX512VNNI.matMul8x},
	"avx512gfni": {q4kAVX512VNNIGFNI.matMul8x, q5kAVX512VNNIGFNI.matMul8x},
}

var kqQ4K = kqType[quant.BlockQ4K]{
	name: "q4_K", random: randQ4K, ref: dotQ4KGeneric,
	dot:    func(o *Ops) func([]quant.BlockQ4K, []quant.BlockQ8K) float32 { return o.DotQ4K },
	matVec: func(o *Ops) func([]float32, []quant.BlockQ4K, []quant.BlockQ8K) { return o.MatVecQ4K },
	matMul: func(o *Ops) func([]float32, int, []quant.BlockQ4K, []quant.BlockQ8K, int, *Prep) { return o.MatMulQ4K },
	mm8:    func(v string) kqTilePairs { return kqTiles[v][0] },
	mm8x:   func(v string) kqTile { return kqTilesX[v][0] },
	mvp:    func(v string) kqPackedMV { return kqPacked[v][0] },
}

var kqQ5K = kqType[quant.BlockQ5K]{
	name: "q5_K", random: randQ5K, ref: dotQ5KGeneric,
	dot:    func(o *Ops) func([]quant.BlockQ5K, []quant.BlockQ8K) float32 { return o.DotQ5K },
	matVec: func(o *Ops) func([]float32, []quant.BlockQ5K, []quant.BlockQ8K) { return o.MatVecQ5K },
	matMul: func(o *Ops) func([]float32, int, []quant.BlockQ5K, []quant.BlockQ8K, int, *Prep) { return o.MatMulQ5K },
	mm8:    func(v string) kqTilePairs { return kqTiles[v][1] },
	mm8x:   func(v string) kqTile { return kqTilesX[v][1] },
	mvp:    func(v string) kqPackedMV { return kqPacked[v][1] },
}

const kqGuard = float32(-7.25e6) // pre-filled into outputs; must survive outside them

func kqFilled(n int) []float32 {
	d := make([]float32, n)
	for i := range d {
		d[i] = kqGuard
	}
	return d
}

// kqGuardCase runs dot, matvec and matmul of one variant on copies of w
// (rows·nb blocks) and x (cols·nb blocks) that end at a PROT_NONE page, with
// outputs that end there too or are padded with kqGuard, and checks every
// element against the generic dot, the padding, and that the inputs are
// unchanged.
func kqGuardCase[W any](t *testing.T, typ kqType[W], v *Variant, w []W, x []quant.BlockQ8K, rows, cols, nb int) {
	o := &v.Ops
	t.Helper()
	ref := func(r, c int) float32 { return typ.ref(w[r*nb:(r+1)*nb], x[c*nb:(c+1)*nb]) }
	wg, xg := guarded(t, w), guarded(t, x)
	wb, xb := bytes.Clone(quantBytes(wg)), bytes.Clone(quantBytes(xg))
	check := func(what string, got, want float32) {
		t.Helper()
		if !sameBits(got, want) {
			t.Fatalf("%s nb=%d rows=%d cols=%d: %s = %v, generic %v", typ.name, nb, rows, cols, what, got, want)
		}
	}

	// Dot of the last row with the last column: both end at the guard page.
	check("dot", typ.dot(o)(wg[(rows-1)*nb:], xg[(cols-1)*nb:]), ref(rows-1, cols-1))

	// MatVec of every row with the last column, into a guarded dst and into
	// a padded one.
	dst := guarded(t, kqFilled(rows))
	typ.matVec(o)(dst, wg, xg[(cols-1)*nb:])
	padded := kqFilled(rows + 3)
	typ.matVec(o)(padded[:rows], wg, xg[(cols-1)*nb:])
	for r := 0; r < rows; r++ {
		check("matvec dst", dst[r], ref(r, cols-1))
		check("matvec padded dst", padded[r], ref(r, cols-1))
	}
	for _, g := range padded[rows:] {
		if g != kqGuard {
			t.Fatalf("%s nb=%d rows=%d: matvec wrote past dst", typ.name, nb, rows)
		}
	}

	// MatMul into exactly (cols-1)·ldd + rows guarded elements.
	ldd := rows + 2
	mm := guarded(t, kqFilled((cols-1)*ldd+rows))
	typ.matMul(o)(mm, ldd, wg, xg, cols, nil)
	for i, got := range mm {
		c, r := i/ldd, i%ldd
		switch {
		case r >= rows || nb == 0: // padding, or nothing to compute
			if got != kqGuard {
				t.Fatalf("%s nb=%d rows=%d cols=%d: matmul wrote dst[%d] outside the result", typ.name, nb, rows, cols, i)
			}
		default:
			check("matmul", got, ref(r, c))
		}
	}

	// The MatMul8 tile itself, on column pairs that end at the guard page
	// (matMul packs them into ordinary memory).
	if mm8 := typ.mm8(v.Name); mm8 != nil && cols >= 8 && nb > 0 {
		packed := make([]amd64.Q8KPair, 4*nb)
		kqPackPairs(packed, xg, 4, nb)
		pg := guarded(t, packed)
		pb := bytes.Clone(quantBytes(pg))
		out := guarded(t, kqFilled(7*ldd+rows))
		mm8(&out[0], ldd, unsafe.Pointer(&wg[0]), unsafe.Pointer(&pg[0]), rows, nb, 0, nb*int(unsafe.Sizeof(amd64.Q8KPair{})), nil, amd64.SegFinish)
		for i, got := range out {
			if c, r := i/ldd, i%ldd; r >= rows {
				if got != kqGuard {
					t.Fatalf("%s nb=%d rows=%d: MatMul8 wrote dst[%d] outside the result", typ.name, nb, rows, i)
				}
			} else {
				check("MatMul8", got, ref(r, c))
			}
		}
		if !bytes.Equal(pb, quantBytes(pg)) {
			t.Fatalf("%s nb=%d: MatMul8 changed its input", typ.name, nb)
		}
	}

	// The packed matrix-vector kernel itself, every row with the last
	// column packed as Q8KQuad into memory that ends at the guard page, at
	// the prefetch distance in use and at none.
	if mvp := typ.mvp(v.Name); mvp != nil && nb > 0 {
		packed := make([]amd64.Q8KQuad, nb)
		kqPackQuads(packed, xg[(cols-1)*nb:])
		pg := guarded(t, packed)
		pb := bytes.Clone(quantBytes(pg))
		for _, pf := range []int{0, kqPrefetchBytes[W]()} {
			out := guarded(t, kqFilled(rows))
			mvp(&out[0], unsafe.Pointer(&wg[0]), unsafe.Pointer(&pg[0]), rows, nb, pf)
			for r, got := range out {
				check("packed matvec", got, ref(r, cols-1))
			}
		}
		if !bytes.Equal(pb, quantBytes(pg)) {
			t.Fatalf("%s nb=%d: the packed matvec changed its input", typ.name, nb)
		}
	}

	// The MatMul8 tile over plain columns, on the last eight columns (which
	// end at the guard page).
	if mm8 := typ.mm8x(v.Name); mm8 != nil && cols >= 8 && nb > 0 {
		c0 := cols - 8
		out := guarded(t, kqFilled(7*ldd+rows))
		mm8(&out[0], ldd, unsafe.Pointer(&wg[0]), unsafe.Pointer(&xg[c0*nb]), rows, nb)
		for i, got := range out {
			if c, r := i/ldd, i%ldd; r >= rows {
				if got != kqGuard {
					t.Fatalf("%s nb=%d rows=%d: MatMul8 (plain columns) wrote dst[%d] outside the result", typ.name, nb, rows, i)
				}
			} else {
				check("MatMul8 (plain columns)", got, ref(r, c0+c))
			}
		}
	}

	if !bytes.Equal(wb, quantBytes(wg)) || !bytes.Equal(xb, quantBytes(xg)) {
		t.Fatalf("%s nb=%d: inputs changed", typ.name, nb)
	}
}

func kqGuardSweep[W any](t *testing.T, typ kqType[W], v *Variant) {
	r := rand.New(rand.NewPCG(21, 22))
	for nb := 0; nb <= maxBlocks; nb++ {
		for _, rows := range []int{1, 2, 3} {
			for _, cols := range []int{1, 3, 4, 5, 8, 9, 13} {
				kqGuardCase(t, typ, v, typ.random(r, rows*nb), randQ8K(r, cols*nb), rows, cols, nb)
			}
		}
	}
	// Extreme activations (every lane sum at its largest magnitude).
	for nb := 1; nb <= 3; nb++ {
		for _, q := range []int8{-127, 127} {
			kqGuardCase(t, typ, v, typ.random(r, 2*nb), extremeQ8K(9*nb, q), 2, 9, nb)
		}
	}
}

// TestKQuantGuardPages: every block count 0..17, inputs and outputs ending
// at a PROT_NONE page (an over-read or over-write faults), outputs pre-filled
// and checked outside the result, inputs checked unchanged.
func TestKQuantGuardPages(t *testing.T) {
	skipSweepInShort(t)
	if !haveGuardPages {
		t.Skip("guard pages need mmap (Linux)")
	}
	for _, v := range kqAsmVariants() {
		t.Run("variant="+v.Name, func(t *testing.T) {
			kqGuardSweep(t, kqQ4K, v)
			kqGuardSweep(t, kqQ5K, v)
		})
	}
}

// TestKQuantPacked runs the guard-page sweep (plain copies where there are
// no guard pages) and the raw-bytes check (every bit pattern of the
// weights, NaN and infinite scales included) with kqQuadRows = 1, so that every Q4_K matvec, and every column a matmul
// leaves over, of avx512gfni runs on x packed as Q8KQuad (packed per call
// without a Prep); TestKQuantGuardPages covers kqQuadRows above every row
// count it tries (no packing) and the packed kernel on its own.
func TestKQuantPacked(t *testing.T) {
	skipSweepInShort(t)
	if !haveGuardPages {
		t.Log("no guard pages on this OS; plain copies")
	}
	defer func(n int) { kqQuadRows = n }(kqQuadRows)
	kqQuadRows = 1
	for _, v := range kqAsmVariants() {
		t.Run("variant="+v.Name, func(t *testing.T) {
			kqGuardSweep(t, kqQ4K, v)
			kqGuardSweep(t, kqQ5K, v)
			checkRaw(t, v.Name, &v.Ops, rawTypeQ4K, 256, 31)
			checkRaw(t, v.Name, &v.Ops, rawTypeQ5K, 256, 32)
		})
	}
}

// TestKQuantMatMulSegments runs kqKernels.matMul with the zmm MatMul8
// tile taking rows in segments (of 1, 3 and 8 blocks, from rows of 2
// blocks up; the tile carrying each row's sums from one segment to the
// next) and in whole rows, over one panel and several, and compares every
// element with the generic dot: 13 columns (an eight-column group, a
// four-column one, a single column) and 17 (two eight-column groups),
// random blocks and the extremes (every weight nibble and scale at its
// maximum against activations of −128, and of 127).
func TestKQuantMatMulSegments(t *testing.T) {
	defer func(seg, whole, panel int) { kqSegBlocks, kqWholeBlocks, kqPanelBytes = seg, whole, panel }(kqSegBlocks, kqWholeBlocks, kqPanelBytes)
	r := rand.New(rand.NewPCG(27, 28))
	for _, seg := range []int{1, 3, 8, 0} { // 0: whole rows
		kqSegBlocks, kqWholeBlocks = max(seg, 1), 1
		if seg == 0 {
			kqWholeBlocks = math.MaxInt
		}
		for _, nb := range []int{1, 2, 3, 8, 9, 17, 33} {
			for _, panelRows := range []int{2, 1 << 20} {
				kqPanelBytes = panelRows * nb * 176
				for rep := 0; rep < 3; rep++ {
					const rows = 7
					cols := []int{13, 17, 13}[rep]
					x := randQ8K(r, cols*nb)
					w4, w5 := randQ4K(r, rows*nb), randQ5K(r, rows*nb)
					if rep > 0 {
						v := []int8{-128, 127}[rep-1]
						x = extremeQ8K(cols*nb, v)
						for i := range w4 {
							w4[i].Qs, w4[i].Scales = [128]byte(bytes.Repeat([]byte{0xff}, 128)), [12]byte(bytes.Repeat([]byte{0xff}, 12))
							w5[i].Qs, w5[i].Qh, w5[i].Scales = [128]byte(bytes.Repeat([]byte{0xff}, 128)), [32]byte(bytes.Repeat([]byte{0xff}, 32)), [12]byte(bytes.Repeat([]byte{0xff}, 12))
						}
					}
					for _, v := range kqAsmVariants() {
						kqCheckMatMuls(t, fmt.Sprintf("%s seg=%d nb=%d panel=%d rep=%d", v.Name, seg, nb, panelRows, rep), v.Ops, w4, w5, x, rows, cols)
					}
				}
			}
		}
	}
}

// kqCheckMatMuls runs ops' MatMulQ4K and MatMulQ5K on w4, w5 (rows rows)
// times x (cols columns) into a result with a padding row and compares
// every element with the generic dot, bit for bit, and the padding with
// kqGuard.
func kqCheckMatMuls(t *testing.T, what string, ops Ops, w4 []quant.BlockQ4K, w5 []quant.BlockQ5K, x []quant.BlockQ8K, rows, cols int) {
	t.Helper()
	nb := len(x) / cols
	ldd := rows + 1
	d4, d5 := kqFilled(cols*ldd), kqFilled(cols*ldd)
	ops.MatMulQ4K(d4, ldd, w4, x, cols, nil)
	ops.MatMulQ5K(d5, ldd, w5, x, cols, nil)
	for c := 0; c < cols; c++ {
		for rr := 0; rr < ldd; rr++ {
			g4, g5 := d4[c*ldd+rr], d5[c*ldd+rr]
			if rr == rows {
				if g4 != kqGuard || g5 != kqGuard {
					t.Fatalf("%s: wrote padding [%d,%d]", what, c, rr)
				}
				continue
			}
			xc := x[c*nb : (c+1)*nb]
			if want := dotQ4KGeneric(w4[rr*nb:(rr+1)*nb], xc); !sameBits(g4, want) {
				t.Fatalf("%s: q4_K [%d,%d] = %v, generic %v", what, c, rr, g4, want)
			}
			if want := dotQ5KGeneric(w5[rr*nb:(rr+1)*nb], xc); !sameBits(g5, want) {
				t.Fatalf("%s: q5_K [%d,%d] = %v, generic %v", what, c, rr, g5, want)
			}
		}
	}
}

// TestKQuantMatMulPanels shrinks the row panels of kqKernels.matMul so that a
// product spans several panels, each with eight-, four- and one-column
// pieces.
func TestKQuantMatMulPanels(t *testing.T) {
	defer func(old int) { kqPanelBytes = old }(kqPanelBytes)
	r := rand.New(rand.NewPCG(23, 24))
	const rows, cols, nb = 11, 13, 2
	x := randQ8K(r, cols*nb)
	w4, w5 := randQ4K(r, rows*nb), randQ5K(r, rows*nb)
	for _, panelRows := range []int{1, 3, 4, rows, rows + 1} {
		kqPanelBytes = panelRows * nb * 176 // at least panelRows rows of either type
		for _, v := range kqAsmVariants() {
			kqCheckMatMuls(t, fmt.Sprintf("%s panel=%d", v.Name, panelRows), v.Ops, w4, w5, x, rows, cols)
		}
	}
}

// TestKQuantDotNoAlloc: the dots keep their one-element result on the stack.
func TestKQuantDotNoAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	w4, w5, x := randQ4K(r, 2), randQ5K(r, 2), randQ8K(r, 2)
	for _, v := range kqAsmVariants() {
		if n := testing.AllocsPerRun(10, func() { sink += v.Ops.DotQ4K(w4, x) + v.Ops.DotQ5K(w5, x) }); n != 0 {
			t.Errorf("%s: %v allocations per dot", v.Name, n)
		}
	}
}

// kqFuzzSource hands out the fuzz input cyclically (mixed with the position,
// so that short inputs still give varied blocks).
type kqFuzzSource struct {
	data []byte
	i    int
}

func (s *kqFuzzSource) next() byte {
	b := s.data[s.i%len(s.data)] ^ byte(s.i/len(s.data)*0x9E)
	s.i++
	return b
}

func (s *kqFuzzSource) u16() uint16 { return uint16(s.next()) | uint16(s.next())<<8 }

// f16 returns a finite binary16 value (an all-ones exponent loses its top bit).
func (s *kqFuzzSource) f16() quant.F16 {
	h := s.u16()
	if h&0x7C00 == 0x7C00 {
		h &^= 0x4000
	}
	return quant.F16(h)
}

// q8K returns activation blocks with quants in [-127, 127], correct bsums,
// and a finite scale.
func (s *kqFuzzSource) q8K(nb int) []quant.BlockQ8K {
	x := make([]quant.BlockQ8K, nb)
	for i := range x {
		bits := uint32(s.u16()) | uint32(s.u16())<<16
		if bits&0x7F800000 == 0x7F800000 {
			bits &^= 0x40000000
		}
		x[i].D = math.Float32frombits(bits)
		for j := range x[i].Qs {
			x[i].Qs[j] = max(int8(s.next()), -127)
		}
		for g := range x[i].BSums {
			var sum int16
			for _, q := range x[i].Qs[16*g : 16*g+16] {
				sum += int16(q)
			}
			x[i].BSums[g] = sum
		}
	}
	return x
}

func (s *kqFuzzSource) q4K(n int) []quant.BlockQ4K {
	w := make([]quant.BlockQ4K, n)
	for i := range w {
		w[i].D, w[i].DMin = s.f16(), s.f16()
		for j := range w[i].Scales {
			w[i].Scales[j] = s.next()
		}
		for j := range w[i].Qs {
			w[i].Qs[j] = s.next()
		}
	}
	return w
}

func (s *kqFuzzSource) q5K(n int) []quant.BlockQ5K {
	w := make([]quant.BlockQ5K, n)
	for i := range w {
		w[i].D, w[i].DMin = s.f16(), s.f16()
		for j := range w[i].Scales {
			w[i].Scales[j] = s.next()
		}
		for j := range w[i].Qh {
			w[i].Qh[j] = s.next()
		}
		for j := range w[i].Qs {
			w[i].Qs[j] = s.next()
		}
	}
	return w
}

// kqFuzz derives 1..4 super-blocks per row, 1..2 weight rows and 1..12
// activation columns from the input, and compares every variant's dot,
// matvec and matmul with the generic dot.
func kqFuzz[W any](f *testing.F, typ kqType[W], blocks func(s *kqFuzzSource, n int) []W) {
	f.Add([]byte{0})
	f.Add([]byte{0xFF, 0x81, 0x7F, 0x00})
	f.Add([]byte("corelane q4_K q5_K"))
	f.Add(bytes.Repeat([]byte{0x81}, 600))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		s := &kqFuzzSource{data: data}
		shape := s.next()
		nb, rows, cols := 1+int(shape&3), 1+int(shape>>2&1), 1+int(shape>>3)%12
		w, x := blocks(s, rows*nb), s.q8K(cols*nb)
		ldd := rows
		for _, v := range kqAsmVariants() {
			if got, want := typ.dot(&v.Ops)(w[:nb], x[:nb]), typ.ref(w[:nb], x[:nb]); !sameBits(got, want) {
				t.Fatalf("%s %s nb=%d: dot %v (%#x), generic %v (%#x)", v.Name, typ.name, nb, got, math.Float32bits(got), want, math.Float32bits(want))
			}
			dst := make([]float32, cols*ldd)
			typ.matMul(&v.Ops)(dst, ldd, w, x, cols, nil)
			for c := 0; c < cols; c++ {
				for r := 0; r < rows; r++ {
					want := typ.ref(w[r*nb:(r+1)*nb], x[c*nb:(c+1)*nb])
					if got := dst[c*ldd+r]; !sameBits(got, want) {
						t.Fatalf("%s %s nb=%d: matmul [%d,%d] %v, generic %v", v.Name, typ.name, nb, c, r, got, want)
					}
				}
			}
		}
	})
}

func FuzzDotQ4K(f *testing.F) {
	kqFuzz(f, kqQ4K, func(s *kqFuzzSource, n int) []quant.BlockQ4K { return s.q4K(n) })
}

func FuzzDotQ5K(f *testing.F) {
	kqFuzz(f, kqQ5K, func(s *kqFuzzSource, n int) []quant.BlockQ5K { return s.q5K(n) })
}

// TestOnZen4: the Zen 4 yields apply on AMD family 25 only, and merge keeps
// every yield of its parts.
func TestOnZen4(t *testing.T) {
	saved := cpu
	t.Cleanup(func() { cpu = saved })
	y := map[string]string{"MatVecQ4K": "why"}
	for _, c := range []struct {
		vendor cpuid.Vendor
		family int
		want   bool
	}{
		{cpuid.AMD, 25, true},
		{cpuid.AMD, 26, false},
		{cpuid.AMD, 23, false},
		{cpuid.Intel, 25, false},
		{cpuid.Intel, 6, false},
	} {
		fake := *saved
		fake.VendorID, fake.Family = c.vendor, c.family
		cpu = &fake
		if got := onZen4(y) != nil; got != c.want {
			t.Errorf("onZen4 on %v family %d: yields %v, want %v", c.vendor, c.family, got, c.want)
		}
	}
	m := merge(nil, map[string]string{"DotQ6K": "a"}, nil, map[string]string{"MatVecQ4K": "b"})
	if len(m) != 2 || m["DotQ6K"] != "a" || m["MatVecQ4K"] != "b" {
		t.Errorf("merge = %v, want both yields", m)
	}
	if merge(nil, nil) != nil {
		t.Error("merge of nils is not nil")
	}
}

// TestMatVecMatMulNoAlloc: the quantized MatVec ops and the MatMul ops
// without a Prep (which then prepare into scratch memory per call) allocate
// nothing, on every amd64 variant: 5 columns reach both the tiles and the
// columns they leave over.
func TestMatVecMatMulNoAlloc(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool (the scratch memory) drop values on purpose")
	}
	r := rand.New(rand.NewPCG(27, 28))
	const rows, nb, cols = 16, 4, 5
	w4, w5, w6, xk := randQ4K(r, rows*nb), randQ5K(r, rows*nb), randQ6K(r, rows*nb), randQ8K(r, cols*nb)
	w8, x8 := randQ8_0(r, rows*nb*8), randQ8_0(r, cols*nb*8)
	dst := make([]float32, rows*cols)
	for _, v := range kqAsmVariants() {
		o := v.Ops
		for _, c := range []struct {
			name string
			f    func()
		}{
			{"MatVecQ4K", func() { o.MatVecQ4K(dst[:rows], w4, xk[:nb]) }},
			{"MatVecQ5K", func() { o.MatVecQ5K(dst[:rows], w5, xk[:nb]) }},
			{"MatVecQ6K", func() { o.MatVecQ6K(dst[:rows], w6, xk[:nb]) }},
			{"MatVecQ8_0", func() { o.MatVecQ8_0(dst[:rows], w8, x8[:nb*8]) }},
			{"MatMulQ4K", func() { o.MatMulQ4K(dst, rows, w4, xk, cols, nil) }},
			{"MatMulQ5K", func() { o.MatMulQ5K(dst, rows, w5, xk, cols, nil) }},
			{"MatMulQ6K", func() { o.MatMulQ6K(dst, rows, w6, xk, cols, nil) }},
			{"MatMulQ8_0", func() { o.MatMulQ8_0(dst, rows, w8, x8, cols, nil) }},
		} {
			if n := testing.AllocsPerRun(10, c.f); n != 0 {
				t.Errorf("%s %s: %v allocations per call", v.Name, c.name, n)
			}
		}
	}
}
