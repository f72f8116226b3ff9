//go:build !purego

package kernels

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/corelane/corelane/quant"
)

// Tests of the Q6_K and Q8_0 assembly kernels (q8_amd64.go): registration,
// guard pages and fuzzing against the generic twins. The bit-for-bit sweeps
// over shapes are in kernels_test.go.

// TestQ6KQ8_0Registered checks that every amd64 variant this CPU can run is
// registered, runnable, and provides all six Q6_K and Q8_0 ops itself (a
// variant that left one out would silently fall back to another variant).
func TestQ6KQ8_0Registered(t *testing.T) {
	s := load()
	for _, want := range amd64Variants {
		if !cpu.Supports(want.Requires...) {
			t.Logf("%s: this CPU lacks a required feature; not checked", want.Name)
			continue
		}
		v := find(s.variants, want.Name)
		if v == nil {
			t.Errorf("%s: not registered", want.Name)
			continue
		}
		if !v.Supported() {
			t.Errorf("%s: registered but not runnable", want.Name)
		}
		for name, missing := range map[string]bool{
			"DotQ6K": v.Ops.DotQ6K == nil, "MatVecQ6K": v.Ops.MatVecQ6K == nil, "MatMulQ6K": v.Ops.MatMulQ6K == nil,
			"DotQ8_0": v.Ops.DotQ8_0 == nil, "MatVecQ8_0": v.Ops.MatVecQ8_0 == nil, "MatMulQ8_0": v.Ops.MatMulQ8_0 == nil,
		} {
			if missing {
				t.Errorf("%s: no %s", want.Name, name)
			}
		}
	}
}

// Extreme operands: every int32 lane sum at its largest magnitude.
func extremeQ6K(n int, q6 byte, sc int8) []quant.BlockQ6K {
	w := make([]quant.BlockQ6K, n)
	for i := range w {
		for j := range w[i].Ql {
			w[i].Ql[j] = q6&15 | (q6&15)<<4
		}
		for j := range w[i].Qh {
			h := q6 >> 4
			w[i].Qh[j] = h | h<<2 | h<<4 | h<<6
		}
		for j := range w[i].Scales {
			w[i].Scales[j] = sc
		}
		w[i].D = quant.FromFloat32(1)
	}
	return w
}

func extremeQ8_0(n int, v int8) []quant.BlockQ8_0 {
	w := make([]quant.BlockQ8_0, n)
	for i := range w {
		for j := range w[i].Qs {
			w[i].Qs[j] = v
		}
		w[i].D = quant.FromFloat32(1)
	}
	return w
}

// guardCheck runs f on guarded copies of w and x and checks that f leaves
// them unchanged.
func guardCheck[W, X any](t *testing.T, w []W, x []X, f func(w []W, x []X)) {
	t.Helper()
	gw, freeW := guardedTemp(t, w)
	defer freeW()
	gx, freeX := guardedTemp(t, x)
	defer freeX()
	bw, bx := append([]byte(nil), quantBytes(gw)...), append([]byte(nil), quantBytes(gx)...)
	f(gw, gx)
	if !bytes.Equal(bw, quantBytes(gw)) || !bytes.Equal(bx, quantBytes(gx)) {
		t.Fatal("kernel modified its inputs")
	}
}

const q68Guard = float32(-7.25e11)

func q68GuardedDst(n, extra int) []float32 {
	d := make([]float32, n+extra)
	for i := range d {
		d[i] = q68Guard
	}
	return d
}

// checkRowKernels checks Dot, MatVec and MatMul of one type on guarded
// inputs against the generic dot, with every output checked and nothing
// written outside it.
func checkRowKernels[W, X any](t *testing.T, typ string, nb int, gen func(rows int) []W, genx func(cols int) []X,
	dot, ref func([]W, []X) float32,
	matVec func([]float32, []W, []X), matMul func([]float32, int, []W, []X, int, *Prep)) {
	t.Helper()
	w, x := gen(1), genx(1)
	guardCheck(t, w, x, func(w []W, x []X) {
		if got, want := dot(w, x), ref(w, x); !sameBits(got, want) {
			t.Fatalf("%s dot nb=%d: %v, generic %v", typ, nb, got, want)
		}
	})
	if nb == 0 {
		return
	}
	for _, rows := range []int{1, 2, 3, 4, 5, 6, 7, 9} {
		w := gen(rows)
		guardCheck(t, w, x, func(w []W, x []X) {
			dst := q68GuardedDst(rows, 4)
			matVec(dst[:rows], w, x)
			for r := 0; r < rows; r++ {
				if want := ref(w[r*nb:(r+1)*nb], x); !sameBits(dst[r], want) {
					t.Fatalf("%s matvec nb=%d rows=%d: [%d] = %v, generic %v", typ, nb, rows, r, dst[r], want)
				}
			}
			for i := rows; i < len(dst); i++ {
				if dst[i] != q68Guard {
					t.Fatalf("%s matvec nb=%d rows=%d: wrote dst[%d]", typ, nb, rows, i)
				}
			}
		})
	}
	mmRows, mmCols := []int{1, 2, 3, 5, 8}, []int{1, 2, 3, 4, 5, 7, 9}
	if nb > maxBlocks && nb%8 != 1 { // long Q8_0 rows: the tile edges only
		mmRows, mmCols = []int{3, 5}, []int{2, 5}
	}
	for _, rows := range mmRows {
		for _, cols := range mmCols {
			w, x := gen(rows), genx(cols)
			ldd := rows + 2
			guardCheck(t, w, x, func(w []W, x []X) {
				n := (cols-1)*ldd + rows
				dst := q68GuardedDst(n, 4)
				matMul(dst[:n], ldd, w, x, cols, nil)
				for i, got := range dst {
					c, r := i/ldd, i%ldd
					if i >= n || r >= rows {
						if got != q68Guard {
							t.Fatalf("%s matmul nb=%d rows=%d cols=%d: wrote dst[%d]", typ, nb, rows, cols, i)
						}
						continue
					}
					if want := ref(w[r*nb:(r+1)*nb], x[c*nb:(c+1)*nb]); !sameBits(got, want) {
						t.Fatalf("%s matmul nb=%d rows=%d cols=%d: [%d,%d] = %v, generic %v", typ, nb, rows, cols, c, r, got, want)
					}
				}
			})
		}
	}
}

// TestQ6KQ8_0GuardPages runs every variant on inputs that end at a
// PROT_NONE page (an over-read faults), for every block count up to two
// super-blocks' worth plus one (Q8_0: up to 8·17+1 blocks), with random and
// extreme operands; Q6_K also with its matmul rows in segments of one block.
func TestQ6KQ8_0GuardPages(t *testing.T) {
	skipSweepInShort(t)
	if !haveGuardPages {
		t.Log("no guard pages on this OS; plain copies")
	}
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(21, 22))
		guardQ6K(t, r, k)
		for nb := 0; nb <= 8*maxBlocks+1; nb++ {
			for rep := 0; rep < 2; rep++ {
				gen := func(rows int) []quant.BlockQ8_0 { return randQ8_0(r, rows*nb) }
				genx := gen
				if rep == 1 {
					gen = func(rows int) []quant.BlockQ8_0 { return extremeQ8_0(rows*nb, -127) }
					genx = func(cols int) []quant.BlockQ8_0 { return extremeQ8_0(cols*nb, -127) }
				}
				checkRowKernels(t, "q8_0", nb, gen, genx, k.DotQ8_0, dotQ8_0Generic, k.MatVecQ8_0, k.MatMulQ8_0)
			}
		}
	})
}

// guardQ6K is TestQ6KQ8_0GuardPages for Q6_K: block counts 0 to maxBlocks,
// random and extreme operands, the matmul rows whole and in segments of
// one block.
func guardQ6K(t *testing.T, r *rand.Rand, k Ops) {
	t.Helper()
	defer func(s int) { q6kSegBlocks = s }(q6kSegBlocks)
	for nb := 0; nb <= maxBlocks; nb++ {
		for rep := 0; rep < 6; rep++ {
			q6kSegBlocks = rep / 3 // 1: rows in segments of one block
			rep := rep % 3
			gen := func(rows int) []quant.BlockQ6K { return randQ6K(r, rows*nb) }
			genx := func(cols int) []quant.BlockQ8K { return randQ8K(r, cols*nb) }
			if rep == 1 {
				gen = func(rows int) []quant.BlockQ6K { return extremeQ6K(rows*nb, 0, -128) }
				genx = func(cols int) []quant.BlockQ8K { return extremeQ8K(cols*nb, 127) }
			} else if rep == 2 {
				gen = func(rows int) []quant.BlockQ6K { return extremeQ6K(rows*nb, 63, -128) }
				genx = func(cols int) []quant.BlockQ8K { return extremeQ8K(cols*nb, -127) }
			}
			checkRowKernels(t, "q6_K", nb, gen, genx, k.DotQ6K, dotQ6KGeneric, k.MatVecQ6K, k.MatMulQ6K)
		}
	}
}

// TestQ6KInline runs the Q6_K raw-bytes and guard-page checks of every
// variant with every row long enough for the table-free matvec
// (q6kInlineBlocks = 1: avx512gfni's MatVecQ6K and the columns its MatMulQ6K
// leaves over take MatVecQ6KAVX512VNNIGFNIInline) and with none.
func TestQ6KInline(t *testing.T) {
	skipSweepInShort(t)
	defer func(n int) { q6kInlineBlocks = n }(q6kInlineBlocks)
	for _, n := range []int{1, math.MaxInt} {
		q6kInlineBlocks = n
		for _, name := range Variants() {
			o, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			t.Run(fmt.Sprintf("inline=%v/variant=%s", n == 1, name), func(t *testing.T) {
				checkRaw(t, name, &o, rawTypeQ6K, 256, 23)
				guardQ6K(t, rand.New(rand.NewPCG(27, 28)), o)
			})
		}
	}
}

// TestMatMulChunks makes the row chunks of MatMulQ6K and MatMulQ8_0 as
// small as they go (one row), so that chunk edges fall between every pair
// of rows, and compares every element with the generic dot, for column
// counts around the tile widths (2, 4 and 8).
func TestMatMulChunks(t *testing.T) {
	defer func(n, m int) { q6kChunkBytes, q80ChunkBytes = n, m }(q6kChunkBytes, q80ChunkBytes)
	q6kChunkBytes, q80ChunkBytes = 1, 1
	testMatMulChunks(t)
}

// TestMatMulQ6KSegments splits every Q6_K row into segments of one, two and
// eight blocks, and into the variant's own (the tile carrying the lane sums
// from one to the next), and
// compares every element with the generic dot: rows of 1 to 33 blocks,
// more rows than one segment pass covers (q6kSubRows), random and extreme
// operands.
func TestMatMulQ6KSegments(t *testing.T) {
	defer func(s int) { q6kSegBlocks = s }(q6kSegBlocks)
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(25, 26))
		for _, seg := range []int{0, 1, 2, 8} { // 0: the variant's own segments
			q6kSegBlocks = seg
			for _, nb := range []int{1, 3, 8, 9, 17, 33} {
				for _, rows := range []int{1, 5, q6kSubRows + 3} {
					for rep := 0; rep < 3; rep++ {
						cols := 9
						w, x := randQ6K(r, rows*nb), randQ8K(r, cols*nb)
						switch rep {
						case 1:
							w, x = extremeQ6K(rows*nb, 0, -128), extremeQ8K(cols*nb, 127)
						case 2:
							w, x = extremeQ6K(rows*nb, 63, -128), extremeQ8K(cols*nb, -127)
						}
						ldd := rows + 2
						dst := make([]float32, cols*ldd)
						k.MatMulQ6K(dst, ldd, w, x, cols, nil)
						for c := 0; c < cols; c++ {
							for rr := 0; rr < ldd; rr++ {
								got := dst[c*ldd+rr]
								if rr >= rows {
									if got != 0 {
										t.Fatalf("seg=%d nb=%d rows=%d: wrote dst[%d] past the rows", seg, nb, rows, c*ldd+rr)
									}
									continue
								}
								if want := dotQ6KGeneric(w[rr*nb:(rr+1)*nb], x[c*nb:(c+1)*nb]); !sameBits(got, want) {
									t.Fatalf("seg=%d nb=%d rows=%d rep=%d: [%d,%d] = %v, generic %v", seg, nb, rows, rep, c, rr, got, want)
								}
							}
						}
					}
				}
			}
		}
	})
}

func testMatMulChunks(t *testing.T) {
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(23, 24))
		for _, nb := range []int{1, 2, 5} {
			for _, rows := range []int{1, 2, 3, 7} {
				for _, cols := range []int{2, 3, 4, 6, 8, 9, 17} {
					ldd := rows + 1
					check := func(typ string, mm func([]float32), dot func(r, c int) float32) {
						dst := make([]float32, cols*ldd)
						mm(dst)
						for c := 0; c < cols; c++ {
							for rr := 0; rr < rows; rr++ {
								if got, want := dst[c*ldd+rr], dot(rr, c); !sameBits(got, want) {
									t.Fatalf("%s nb=%d rows=%d cols=%d: [%d,%d] = %v, generic %v", typ, nb, rows, cols, c, rr, got, want)
								}
							}
						}
					}
					w6, x6 := randQ6K(r, rows*nb), randQ8K(r, cols*nb)
					check("q6_K", func(dst []float32) { k.MatMulQ6K(dst, ldd, w6, x6, cols, nil) },
						func(rr, c int) float32 { return dotQ6KGeneric(w6[rr*nb:(rr+1)*nb], x6[c*nb:(c+1)*nb]) })
					nb8 := 4*nb + 1 // every tail length of the 4-block loops
					w8, x8 := randQ8_0(r, rows*nb8), randQ8_0(r, cols*nb8)
					check("q8_0", func(dst []float32) { k.MatMulQ8_0(dst, ldd, w8, x8, cols, nil) },
						func(rr, c int) float32 { return dotQ8_0Generic(w8[rr*nb8:(rr+1)*nb8], x8[c*nb8:(c+1)*nb8]) })
				}
			}
		}
	})
}

// TestQ8_0NonFiniteScales: f16 scales that are Inf or NaN on either side
// (and every other special scale next to them), with random quants. The
// results that are NaN must be the canonical NaN, as generic returns it.
// (amd64 only for now: the arm64 kernels return the NaN the arithmetic
// propagates.)
func TestQ8_0NonFiniteScales(t *testing.T) {
	forEachVariant(t, func(t *testing.T, _ string, k Ops) {
		r := rand.New(rand.NewPCG(82, 83))
		for _, nb := range []int{1, 2, 3, 4, 5, 8, 9, 17} {
			for rep := 0; rep < 4; rep++ {
				q80Check(t, k, "raw bytes and scales", q80Raw(r, 9*nb, 0, false), q80Raw(r, 9*nb, 0, false), nb)
			}
		}
		for _, dw := range q80Special {
			for _, dx := range q80Special {
				if dw&0x7c00 != 0x7c00 && dx&0x7c00 != 0x7c00 {
					continue // TestQ8_0RawBytes
				}
				w, x := q80Raw(r, 5*4, dw, false), q80Raw(r, 5*4, dx, false)
				w[2].D, x[5].D = dx, dw
				q80Check(t, k, fmt.Sprintf("scales %#04x × %#04x", dw, dx), w, x, 4)
			}
		}
	})
}

// Fuzz inputs: the fuzzer's bytes become blocks. FuzzDotQ8_0 takes them
// raw. FuzzDotQ6K: weight quants take any bit pattern; scales are made
// finite; activation quants are clamped to [-127, 127] and their bsums
// recomputed, as ggml's quantizer would leave them.

func fuzzF16(b []byte) quant.F16 {
	h := binary.LittleEndian.Uint16(b)
	if h&0x7c00 == 0x7c00 { // Inf or NaN: clear the top exponent bit
		h &^= 0x4000
	}
	return quant.F16(h)
}

func fuzzQ8(b byte) int8 {
	if b == 0x80 {
		return -127
	}
	return int8(b)
}

// fuzzBlocks cuts data into n whole blocks of size bytes each, reusing the
// data cyclically; n ≤ max.
func fuzzBlocks(data []byte, size, max int) (n int, at func(i int) []byte) {
	if len(data) == 0 {
		return 0, nil
	}
	n = int(data[0]) % (max + 1)
	data = data[1:]
	if len(data) == 0 {
		data = []byte{0}
	}
	return n, func(i int) []byte {
		out := make([]byte, size)
		for j := range out {
			out[j] = data[(i*size+j)%len(data)]
		}
		return out
	}
}

func fuzzVariants(t *testing.T, check func(name string, k Ops)) {
	for _, name := range Variants() {
		restore, err := Use(name)
		if err != nil {
			t.Fatal(err)
		}
		check(name, Current())
		restore()
	}
}

func FuzzDotQ6K(f *testing.F) {
	f.Add([]byte{1, 1, 2, 3})
	f.Add([]byte{17, 0xff, 0x80, 0x7f, 0x00, 0x3c})
	f.Add(bytes.Repeat([]byte{0x55, 0xaa, 0x80, 0x7f, 0x00}, 200))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, at := fuzzBlocks(data, 210+292, 2*maxBlocks+1)
		w := make([]quant.BlockQ6K, n)
		x := make([]quant.BlockQ8K, n)
		for i := range w {
			b := at(i)
			copy(w[i].Ql[:], b[0:128])
			copy(w[i].Qh[:], b[128:192])
			for j := range w[i].Scales {
				w[i].Scales[j] = int8(b[192+j])
			}
			w[i].D = fuzzF16(b[208:210])
			b = b[210:]
			d := math.Float32frombits(binary.LittleEndian.Uint32(b[0:4]))
			if math.IsNaN(float64(d)) || math.IsInf(float64(d), 0) {
				d = 1
			}
			x[i].D = d
			for j := range x[i].Qs {
				x[i].Qs[j] = fuzzQ8(b[4+j])
			}
			for g := range x[i].BSums {
				var s int16
				for _, q := range x[i].Qs[16*g : 16*g+16] {
					s += int16(q)
				}
				x[i].BSums[g] = s
			}
		}
		want := dotQ6KGeneric(w, x)
		fuzzVariants(t, func(name string, k Ops) {
			if got := k.DotQ6K(w, x); !sameBits(got, want) {
				t.Fatalf("%s: DotQ6K nb=%d = %v (%#x), generic %v (%#x)", name, n, got, math.Float32bits(got), want, math.Float32bits(want))
			}
		})
	})
}

// FuzzDotQ8_0 feeds raw bytes to every Q8_0 op of every variant: any quant
// byte on either side and any f16 scale, in 3 weight rows and 2
// activation columns of n blocks.
func FuzzDotQ8_0(f *testing.F) {
	f.Add([]byte{1, 1, 2, 3})
	f.Add([]byte{137, 0xff, 0x80, 0x7f, 0x00, 0x3c})
	f.Add(bytes.Repeat([]byte{0x55, 0xaa, 0x80, 0x7f, 0x00}, 200))
	f.Add(append([]byte{2}, bytes.Repeat([]byte{0x80, 0x7c, 0x01, 0xfe}, 100)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, at := fuzzBlocks(data, 5*34, 8*maxBlocks+1)
		if n == 0 {
			return
		}
		w := make([]quant.BlockQ8_0, 3*n)
		x := make([]quant.BlockQ8_0, 2*n)
		for i := 0; i < n; i++ {
			b := at(i)
			for j, blk := range []*quant.BlockQ8_0{&w[i], &w[n+i], &w[2*n+i], &x[i], &x[n+i]} {
				copy(quantBytes(unsafe.Slice(blk, 1)), b[34*j:34*j+34])
			}
		}
		fuzzVariants(t, func(name string, k Ops) { q80Check(t, k, name, w, x, n) })
	})
}

// TestQ6KInlineFor: the table-free matvec starts at the first row length
// whose table and activations (548 bytes a block) pass a quarter of L1; an
// unknown L1 size counts as 32 KiB.
func TestQ6KInlineFor(t *testing.T) {
	for _, c := range []struct{ l1d, want int }{{48 << 10, 23}, {32 << 10, 15}, {0, 15}, {-1, 15}, {64 << 10, 30}} {
		got, why := q6kInlineFor(c.l1d)
		if got != c.want || why == "" {
			t.Errorf("q6kInlineFor(%d) = %d, %q; want %d", c.l1d, got, why, c.want)
		}
		l1 := c.l1d
		if l1 <= 0 {
			l1 = 32 << 10
		}
		if got*548 < l1/4 || (got-1)*548 >= l1/4 {
			t.Errorf("q6kInlineFor(%d) = %d: %d·548 bytes is not the first past %d", c.l1d, got, got, l1/4)
		}
	}
}
