//go:build !purego

package kernels

import (
	"fmt"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/kernels/internal/amd64"
	"github.com/corelane/corelane/quant"
)

// The Q4_K and Q5_K assembly kernels of kernels/internal/amd64 adapted to
// Ops (the amd64 table, register_amd64.go, lists which variant gets which).
// Each variant has a matrix-vector kernel (also the dot) and a matrix-matrix
// tile of one weight row by four activation columns, and a tile of one row
// by eight columns: the ymm variants' reads the columns where they are
// (matMul8x), the zmm variants' reads them packed in pairs (matMul8,
// amd64.Q8KPair). kqMatMul tiles a product with them. Every element has
// the bits of dotQ4KGeneric / dotQ5KGeneric.

// kqKernels is one variant's Q4_K or Q5_K kernels (W is the weight block);
// at most one of matMul8 and matMul8x is set. Its methods are the Ops.
type kqKernels[W quant.BlockQ4K | quant.BlockQ5K] struct {
	matVec   func(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)
	matMul4  func(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)
	matMul8  func(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)
	matMul8x func(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)
	// matVecP, when set, is matVec on activations packed as amd64.Q8KQuad
	// (kqPackQuads), the same bits: matVecOp (from kqQuadRows rows on) and
	// the columns matMul leaves over take it, each column packed once per
	// product; the dot keeps matVec (one row does not pay for the packing).
	matVecP func(dst *float32, w, xp unsafe.Pointer, rows, nb, pf int)
}

// kqQuadRows is the number of rows from which matVecOp packs x for
// matVecP: on a Zen 5 the packing took 14 ns a block, and Q4_K matvecs of
// 8, 16, 32, 64 and 128 rows took 1.29-1.42, 1.08-1.13, 0.93-0.99,
// 0.84-0.92 and 0.83-0.88 of the unpacked kernel's time, packing
// included, on rows of 8, 16 and 56 blocks (two runs,
// bench/results/2026-12-06-zen5-packed/pack-cost.txt). (A variable so
// that a test can make every matvec pack.)
var kqQuadRows = 32

// kqPackQuads writes the nb = len(x) blocks of one activation column as
// amd64.Q8KQuad, dst[b] for block b.
func kqPackQuads(dst []amd64.Q8KQuad, x []quant.BlockQ8K) {
	dst = dst[:len(x)]
	for b := range x {
		u, xb := &dst[b], &x[b]
		for i, j := range [8]int{0, 2, 1, 3, 4, 6, 5, 7} {
			u.Qs[i] = [32]int8(xb.Qs[32*j:])
		}
		for k := range u.D {
			var d float32
			if b+k < len(x) {
				d = x[b+k].D
			}
			u.D[k] = [2]float32{d, d}
		}
		u.BSums = xb.BSums
	}
}

// rows runs the matrix-vector kernel on rows weight rows. (The zmm
// variants once had a two-row kernel reading rows r and r+1 side by side:
// as fast in L3, but 15-25% slower once the weights streamed from DRAM,
// where one sequential stream with software prefetch keeps the memory
// busier; see bench/results.)
func (k kqKernels[W]) rows(dst *float32, w, x unsafe.Pointer, rows, nb int) {
	k.matVec(dst, w, x, rows, nb, kqPrefetchBytes[W]())
}

// kqPrefetchBlocks is how many weight blocks ahead of the one it reads the
// Q4_K and Q5_K matrix-vector kernels (and so the dots) prefetch, chosen
// for the CPU by kqPrefetchFor when the package starts (a variable so that
// BenchmarkPrefetchDistance can try others). Prefetches never change a
// result, only how soon the weights arrive.
var kqPrefetchBlocks, kqPrefetchWhy = kqPrefetchFor(cpu.VendorID, cpu.Family)

// kqPrefetchFor returns the prefetch distance in blocks for a CPU and why.
// On Zen 4 (bench/results/2026-12-04-zen4, prefetch-ablation-*) 64 blocks
// streamed 10–16% slower from DRAM than 16, and 16–32 were within the
// noise. On Zen 5 (bench/results/2026-12-05-zen5/prefetch-distance*.txt,
// 8 alternating rounds) 96 blocks streamed 9–17% faster than 32 with the
// zmm kernels (p ≤ 0.015) and 1–2.4% with avx2's (significant in one of four
// cells); 128 was no faster than 96.
// Other CPUs keep 32, the distance every earlier measurement used.
func kqPrefetchFor(vendor cpuid.Vendor, family int) (blocks int, why string) {
	if vendor == cpuid.AMD && family == 26 {
		return 96, "Zen 5, where that streamed from DRAM 9-17% faster than 32 blocks with the zmm kernels (BenchmarkPrefetchDistance, 8 rounds)"
	}
	return 32, "the distance measured on Zen 3 and Zen 4"
}

// archTuning is Report.Tuning on amd64.
func archTuning() []string {
	return []string{
		fmt.Sprintf("Q4_K and Q5_K matvecs prefetch the weights %d blocks ahead: %s", kqPrefetchBlocks, kqPrefetchWhy),
		fmt.Sprintf("avx512gfni's Q4_K matvec packs the activations for its packed kernel from %d rows on (spi: once per product, whatever its rows): the packing costs about what 16-32 rows save (Zen 5)", kqQuadRows),
		fmt.Sprintf("avx512gfni's Q6_K matvec prefetches the weights %d KiB ahead: %s", q6kPrefetch>>10, q6kPrefetchWhy),
		fmt.Sprintf("avx512gfni's Q6_K matvec takes rows of %d blocks or more without its quad-sum table: %s", q6kInlineBlocks, q6kInlineWhy),
	}
}

// kqPrefetchBytes is kqPrefetchBlocks in bytes of W.
func kqPrefetchBytes[W any]() int {
	var w W
	return kqPrefetchBlocks * int(unsafe.Sizeof(w))
}

// The dots call the matrix-vector kernels directly, one function each: a
// call through a func value (a shared helper taking the kernel) would move
// the one-element result to the heap (TestKQuantDotNoAlloc).

func dotQ4KAVX2(w []quant.BlockQ4K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ4KAVX2(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ4K]())
	return canonNaN(r)
}

func dotQ4KAVXVNNI(w []quant.BlockQ4K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ4KAVXVNNI(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ4K]())
	return canonNaN(r)
}

func dotQ4KAVX512(w []quant.BlockQ4K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ4KAVX512(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ4K]())
	return canonNaN(r)
}

func dotQ4KAVX512VNNI(w []quant.BlockQ4K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ4KAVX512VNNI(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ4K]())
	return canonNaN(r)
}

func dotQ4KAVX512VNNIGFNI(w []quant.BlockQ4K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ4KAVX512VNNIGFNI(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ4K]())
	return canonNaN(r)
}

func dotQ5KAVX2(w []quant.BlockQ5K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ5KAVX2(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ5K]())
	return canonNaN(r)
}

func dotQ5KAVXVNNI(w []quant.BlockQ5K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ5KAVXVNNI(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ5K]())
	return canonNaN(r)
}

func dotQ5KAVX512(w []quant.BlockQ5K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ5KAVX512(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ5K]())
	return canonNaN(r)
}

func dotQ5KAVX512VNNI(w []quant.BlockQ5K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ5KAVX512VNNI(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ5K]())
	return canonNaN(r)
}

func dotQ5KAVX512VNNIGFNI(w []quant.BlockQ5K, x []quant.BlockQ8K) (r float32) {
	wp, xp, nb := kqDotArgs(w, x)
	amd64.MatVecQ5KAVX512VNNIGFNI(&r, wp, xp, 1, nb, kqPrefetchBytes[quant.BlockQ5K]())
	return canonNaN(r)
}

// kqDotArgs checks a dot's operands and returns the matrix-vector kernel's
// pointers and block count for one row.
func kqDotArgs[W any](w []W, x []quant.BlockQ8K) (wp, xp unsafe.Pointer, nb int) {
	if len(w) != len(x) {
		panic(fmt.Sprintf("kernels: dot of %d weight blocks with %d activation blocks", len(w), len(x)))
	}
	return unsafe.Pointer(unsafe.SliceData(w)), unsafe.Pointer(unsafe.SliceData(x)), len(x)
}

// matVec (Ops.MatVecQ4K, MatVecQ5K) sets dst[r] to the dot of weight row r
// with x, for r < len(dst).
func (k kqKernels[W]) matVecOp(dst []float32, w []W, x []quant.BlockQ8K) {
	if len(w) != len(dst)*len(x) {
		panic(fmt.Sprintf("kernels: matvec of %d weight blocks with %d rows of %d blocks", len(w), len(dst), len(x)))
	}
	if len(dst) == 0 {
		return
	}
	if k.matVecP != nil && len(dst) >= kqQuadRows && len(x) > 0 {
		// One column of matMul: it packs x and runs matVecP.
		k.matMul(dst, len(dst), w, x, 1, nil)
		return
	}
	k.rows(&dst[0], unsafe.Pointer(unsafe.SliceData(w)), unsafe.Pointer(unsafe.SliceData(x)), len(dst), len(x))
	canonNaNsAVX2(dst)
}

// kqPanelBytes bounds the weights that one pass over the activation columns
// reuses: a panel of weight rows stays in L2 while the column groups stream
// past it. (A variable so that a test can shrink it.)
var kqPanelBytes = 512 << 10

// kqSegBlocks is how many blocks of a row the zmm MatMul8 tile takes at a
// time on rows longer than kqWholeBlocks: eight columns' packed activations
// take 320 bytes a block each, 20 KB for 8 blocks, which stay in L1 while
// the panel's rows pass over them. Longer segments did not: rows of 8192
// values (32 blocks, 80 KB) read them from L2, and with them replaced by a
// register the tile took 0.72 of its time there (0.90 on rows of 4096;
// bench/results/2026-12-05-zen5-prefill/knock-raw.txt); in segments of 8
// they took 0.89 of the time. Rows of 16 blocks (40 KB) measured the same
// whole or in segments with Zen 5's 48 KiB of L1 (kq-segments-*); they are
// split too, for the CPUs with 32 KiB. The tile carries a row's sums from
// one segment to the next, so the result keeps every bit. (Variables so
// that a test can shrink them.)
var (
	kqSegBlocks   = 8
	kqWholeBlocks = 8
)

// matMul (Ops.MatMulQ4K, MatMulQ5K) sets dst[c·ldd+r] to the dot of weight row r with activation row
// c (the shapes of Ops.MatMulQ4K). Weight rows are taken in panels; within a
// panel every group of eight columns runs the MatMul8 tile (zmm: on columns
// packed in pairs once per product, in prep, rows longer than
// kqWholeBlocks in segments of kqSegBlocks), a group of four the MatMul4
// tile, and the last cols mod 4 columns the matrix-vector kernels.
func (k kqKernels[W]) matMul(dst []float32, ldd int, w []W, x []quant.BlockQ8K, cols int, prep *Prep) {
	if cols <= 0 {
		return
	}
	nb := len(x) / cols
	if nb == 0 {
		return
	}
	rows := len(w) / nb
	if rows == 0 {
		return
	}
	if ldd < rows || len(dst) < (cols-1)*ldd+rows {
		panic(fmt.Sprintf("kernels: matmul of %d×%d into %d elements with ldd %d", rows, cols, len(dst), ldd))
	}
	c8 := 0         // columns done by the MatMul8 tile
	c4 := cols &^ 3 // columns done by the tiles; the rest run a matrix-vector kernel
	np, nq := 0, 0  // blocks of x packed in pairs (MatMul8), as quads (matVecP)
	if k.matMul8 != nil && cols >= 8 {
		c8 = cols &^ 7
		np = c8 / 2 * nb
	}
	// With a Prep the packing is done once for all of the product's calls,
	// so it does not depend on this call's rows (every call must ask for
	// the same bytes).
	if k.matVecP != nil && c4 < cols && (prep != nil || rows >= kqQuadRows) {
		nq = (cols - c4) * nb
	}
	var pairs []amd64.Q8KPair
	var quads []amd64.Q8KQuad
	if np+nq > 0 {
		pb := np * int(unsafe.Sizeof(amd64.Q8KPair{}))
		qb := nq * int(unsafe.Sizeof(amd64.Q8KQuad{}))
		b, owned := prep.bytes(pb+qb, func(b []byte) {
			if np > 0 {
				kqPackPairs(unsafe.Slice((*amd64.Q8KPair)(unsafe.Pointer(&b[0])), np), x, c8/2, nb)
			}
			if nq > 0 {
				q := unsafe.Slice((*amd64.Q8KQuad)(unsafe.Pointer(&b[pb])), nq)
				for c := c4; c < cols; c++ {
					kqPackQuads(q[(c-c4)*nb:], x[c*nb:(c+1)*nb])
				}
			}
		})
		defer release(owned)
		if np > 0 {
			pairs = unsafe.Slice((*amd64.Q8KPair)(unsafe.Pointer(&b[0])), np)
		}
		if nq > 0 {
			quads = unsafe.Slice((*amd64.Q8KQuad)(unsafe.Pointer(&b[pb])), nq)
		}
	}
	wsize := int(unsafe.Sizeof(w[0]))
	rowBytes := nb * wsize
	panel := max(1, kqPanelBytes/rowBytes)
	seg := nb
	var acc []float32
	if c8 > 0 && nb > kqWholeBlocks {
		seg = min(nb, kqSegBlocks)
		a, buf := scratch.Float32s(128 * min(panel, rows))
		defer buf.Release()
		acc = a
	}
	xstride := nb * int(unsafe.Sizeof(amd64.Q8KPair{}))
	for r0 := 0; r0 < rows; r0 += panel {
		pr := min(panel, rows-r0)
		wp := unsafe.Pointer(&w[r0*nb])
		c := 0
		for ; c < c8; c += 8 {
			for b0 := 0; b0 < nb; b0 += seg {
				bn := min(seg, nb-b0)
				var ap *float32 // nil for whole rows (SegFinish alone)
				if bn < nb {
					ap = &acc[0]
				}
				mode := segMode(b0, bn, nb)
				k.matMul8(&dst[c*ldd+r0], ldd, unsafe.Pointer(&w[r0*nb+b0]), unsafe.Pointer(&pairs[c/2*nb+b0]), pr, bn, (nb-bn)*wsize, xstride, ap, mode)
			}
		}
		if k.matMul8x != nil {
			for ; c+8 <= cols; c += 8 {
				k.matMul8x(&dst[c*ldd+r0], ldd, wp, unsafe.Pointer(&x[c*nb]), pr, nb)
			}
		}
		for ; c+4 <= cols; c += 4 {
			k.matMul4(&dst[c*ldd+r0], ldd, wp, unsafe.Pointer(&x[c*nb]), pr, nb)
		}
		for ; c < cols; c++ {
			if quads != nil {
				k.matVecP(&dst[c*ldd+r0], wp, unsafe.Pointer(&quads[(c-c4)*nb]), pr, nb, kqPrefetchBytes[W]())
			} else {
				k.rows(&dst[c*ldd+r0], wp, unsafe.Pointer(&x[c*nb]), pr, nb)
			}
		}
	}
	canonNaNColsAVX2(dst, ldd, rows, cols)
}

// segMode is the mode of a segmented tile's call (amd64.SegResume,
// SegFinish) on blocks [b0, b0+bn) of rows of nb blocks: resume after the
// first segment, finish on the last. Whole rows (b0 = 0, bn = nb) are
// SegFinish alone. The Q6_K and the zmm Q4_K/Q5_K drivers share it.
func segMode(b0, bn, nb int) (mode int) {
	if b0 > 0 {
		mode |= amd64.SegResume
	}
	if b0+bn == nb {
		mode |= amd64.SegFinish
	}
	return mode
}

// kqPackPairs writes activation columns 2p and 2p+1 (of nb blocks each, at
// x[2p·nb:]) as pair p of the MatMul8 layout, dst[p·nb+b] for block b.
func kqPackPairs(dst []amd64.Q8KPair, x []quant.BlockQ8K, pairs, nb int) {
	for p := 0; p < pairs; p++ {
		for b := 0; b < nb; b++ {
			u, x0, x1 := &dst[p*nb+b], &x[2*p*nb+b], &x[(2*p+1)*nb+b]
			for j := range u.Qs {
				copy(u.Qs[j][:32], x0.Qs[32*j:])
				copy(u.Qs[j][32:], x1.Qs[32*j:])
			}
			u.BSums = [2][16]int16{x0.BSums, x1.BSums}
			for l := range u.D[0] {
				u.D[0][l], u.D[1][l] = x0.D, x1.D
			}
		}
	}
}
