//go:build !purego

package kernels

import (
	"fmt"
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/quant"
)

// The Q6_K · Q8_K and Q8_0 · Q8_0 kernels of kernels/internal/amd64, adapted to
// Ops. Every adapter checks its lengths (a mismatch panics, as an index out
// of range in the generic kernels would) before any assembly touches memory.
// Which variant gets which kernel is in the amd64 table (register_amd64.go).

func q8Blocks[B any](b []B) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

// q80Kernels are one variant's Q8_0 kernels: mv a MatVecQ8_0* kernel on
// raw x, mvp the same on x packed by pack (cheaper per row), mm a
// MatMulQ8_0* tile of cols packed columns (packQ8_0, VNNI layout or not).
type q80Kernels struct {
	mv, mvp func(dst *float32, w, x unsafe.Pointer, rows, nb int)
	pack    func(xp, x unsafe.Pointer, nb int)
	mm      func(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb int)
	cols    int
	vnni    bool
}

// q80PackRows is the number of rows from which packing x first pays: the
// packing costs about as much as one row's dot, and each row on packed x
// saves a fifth of one.
const q80PackRows = 8

// q80MatVecPacked is the size of x packed for MatVecQ8_0Packed*.
func q80MatVecPacked(nb int) int { return 68 * nb }

// rows runs the matvec kernel over all rows of w against x (nb ≥ 1
// blocks): on x packed into scratch memory from q80PackRows rows on.
func (k q80Kernels) rows(dst *float32, w unsafe.Pointer, x []quant.BlockQ8_0, rows int) {
	if rows < q80PackRows {
		k.mv(dst, w, q8Blocks(x), rows, len(x))
		return
	}
	n := q80MatVecPacked(len(x))
	buf := scratch.Get(n)
	xp := unsafe.Pointer(unsafe.SliceData(buf.Bytes(n)))
	k.pack(xp, q8Blocks(x), len(x))
	k.mvp(dst, w, xp, rows, len(x))
	buf.Release()
}

func (k q80Kernels) dot(w, x []quant.BlockQ8_0) float32 {
	if len(w) != len(x) {
		panic("kernels: DotQ8_0: len(w) != len(x)")
	}
	if len(x) == 0 {
		return 0
	}
	var out float32
	k.rows(&out, q8Blocks(w), x, 1)
	return canonNaN(out)
}

func (k q80Kernels) matVec(dst []float32, w, x []quant.BlockQ8_0) {
	if len(w) != len(dst)*len(x) {
		panic("kernels: MatVecQ8_0: len(w) != len(dst)·len(x)")
	}
	if len(dst) == 0 {
		return
	}
	if len(x) == 0 {
		clear(dst)
		return
	}
	k.rows(&dst[0], q8Blocks(w), x, len(dst))
	canonNaNsAVX2(dst)
}

// q80PackedBlock is the size of one block of one column in packQ8_0's
// layout.
func q80PackedBlock(vnni bool) int {
	if vnni {
		return 64
	}
	return 96
}

// packQ8_0 packs cols columns of nb blocks each (x, column c at
// x[c·nb:(c+1)·nb]) for a MatMulQ8_0* tile of that many columns, into p
// (nb·q80PackedBlock·cols bytes): block b of the group at
// p[b·q80PackedBlock·cols:], as arrays of cols × 32 bytes, column c at byte
// 32c of each. VNNI: x + 128 as unsigned bytes, then dx as 8 float32. Else
// the even quants q[2k] as int16 words, the odd ones, then dx.
func packQ8_0(p []byte, x []quant.BlockQ8_0, nb, cols int, vnni bool) {
	bb := q80PackedBlock(vnni) * cols
	p = p[:nb*bb]
	for b := 0; b < nb; b++ {
		blk := p[b*bb : (b+1)*bb]
		for c := 0; c < cols; c++ {
			xb := &x[c*nb+b]
			p0 := blk[32*c : 32*c+32]
			dx := blk[bb-32*cols+32*c:]
			if vnni {
				for i, q := range xb.Qs {
					p0[i] = byte(q) ^ 0x80
				}
			} else {
				p1 := blk[32*(cols+c) : 32*(cols+c)+32]
				even := unsafe.Slice((*int16)(unsafe.Pointer(&p0[0])), 16)
				odd := unsafe.Slice((*int16)(unsafe.Pointer(&p1[0])), 16)
				for k := range even {
					even[k], odd[k] = int16(xb.Qs[2*k]), int16(xb.Qs[2*k+1])
				}
			}
			d := xb.D.Float32()
			for i := range 8 {
				*(*float32)(unsafe.Pointer(&dx[4*i])) = d
			}
		}
	}
}

// q80ChunkBytes is how many weight bytes matMul lets a chunk of rows hold,
// so that the chunk stays in L2 while every packed group passes over it.
// (A variable so that a test can make chunks tiny.)
var q80ChunkBytes = 512 << 10

// matMul packs every whole group of k.cols columns once per product (into
// prep), then runs the tile over chunks of rows, every group per chunk;
// the columns left over go through the matvec kernel.
func (k q80Kernels) matMul(dst []float32, ldd int, w, x []quant.BlockQ8_0, cols int, prep *Prep) {
	rows, nb := matMulShape("MatMulQ8_0", len(dst), ldd, len(w), len(x), cols)
	if rows == 0 {
		return
	}
	groups := cols / k.cols
	if groups > 0 {
		gb := nb * q80PackedBlock(k.vnni) * k.cols
		packed, owned := prep.bytes(groups*gb, func(p []byte) {
			for g := 0; g < groups; g++ {
				packQ8_0(p[g*gb:(g+1)*gb], x[g*k.cols*nb:], nb, k.cols, k.vnni)
			}
		})
		defer release(owned)
		chunk := max(1, q80ChunkBytes/(nb*int(unsafe.Sizeof(quant.BlockQ8_0{}))))
		for r0 := 0; r0 < rows; r0 += chunk {
			n := min(chunk, rows-r0)
			for g := 0; g < groups; g++ {
				k.mm(&dst[g*k.cols*ldd+r0], ldd, q8Blocks(w[r0*nb:]), unsafe.Pointer(&packed[g*gb]), n, nb)
			}
		}
	}
	for c := groups * k.cols; c < cols; c++ {
		k.rows(&dst[c*ldd], q8Blocks(w), x[c*nb:(c+1)*nb], rows)
	}
	canonNaNColsAVX2(dst, ldd, rows, cols)
}

// matMulShape checks a MatMul call (lengths in elements and blocks) and
// returns its rows and blocks a row; rows == 0 means nothing to do.
func matMulShape(op string, ndst, ldd, nw, nx, cols int) (rows, nb int) {
	if cols <= 0 {
		return 0, 0
	}
	nb = nx / cols
	if nb == 0 {
		return 0, 0
	}
	if nb*cols != nx || nw%nb != 0 {
		panic("kernels: " + op + ": weights or activations are not whole rows")
	}
	rows = nw / nb
	if rows > 0 && (ldd < rows || ndst < (cols-1)*ldd+rows) {
		panic("kernels: " + op + ": dst too short for rows, cols and ldd")
	}
	return rows, nb
}

// q6kKernels are one variant's Q6_K kernels: mv a MatVecQ6K* kernel, mm a
// MatMulQ6K* tile of four columns over a segment of blocks (their pair-sum
// tables from q6kPairSums32), seg the most blocks of a row longer than
// q6kWholeBlocks that matMul gives the tile at once (0: whole rows).
//
// mvt, when set, is a MatVecQ6K* kernel that reads the activations' quad
// sums (q6kQuadSums32) as well: matVec and the columns matMul leaves over
// use it, each column's table prepared once per product; dot keeps mv
// (one row does not pay for a table).
//
// mvi, when set, is mvt's twin without the table (the same bits): matVec
// and matMul's leftover columns take it instead of mvt for rows of
// q6kInlineBlocks blocks or more, where the table and the activations no
// longer stay in L1.
type q6kKernels struct {
	mv  func(dst *float32, w, x unsafe.Pointer, rows, nb int)
	mvt func(dst *float32, w, x, t unsafe.Pointer, rows, nb, pf int)
	mvi func(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)
	mm  func(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)
	seg int
	// corr: mm reads q6kQuadCorr32's tables (the zmm VNNI tile), not
	// q6kPairSums32's.
	corr bool
}

func (k q6kKernels) dot(w []quant.BlockQ6K, x []quant.BlockQ8K) float32 {
	if len(w) != len(x) {
		panic("kernels: DotQ6K: len(w) != len(x)")
	}
	var out float32
	k.mv(&out, q8Blocks(w), q8Blocks(x), 1, len(x))
	return canonNaN(out)
}

func (k q6kKernels) matVec(dst []float32, w []quant.BlockQ6K, x []quant.BlockQ8K) {
	if len(w) != len(dst)*len(x) {
		panic("kernels: MatVecQ6K: len(w) != len(dst)·len(x)")
	}
	if len(dst) == 0 {
		return
	}
	if k.inline(len(x)) {
		k.mvi(&dst[0], q8Blocks(w), q8Blocks(x), len(dst), len(x), q6kPrefetch)
		canonNaNsAVX2(dst)
		return
	}
	if k.mvt != nil && len(x) > 0 {
		// One column of matMul: it prepares the table and runs mvt.
		k.matMul(dst, len(dst), w, x, 1, nil)
		return
	}
	k.mv(&dst[0], q8Blocks(w), q8Blocks(x), len(dst), len(x))
	canonNaNsAVX2(dst)
}

// q6kChunkBytes is how many weight bytes matMul lets a chunk of rows hold,
// so that the chunk stays in L2 while every group of columns passes over
// it. (A variable so that a test can make chunks tiny.)
var q6kChunkBytes = 1 << 20

// tableBlock is how many bytes of k.mm's table one block of four columns
// takes: 1024 (q6kPairSums32), or 512 (q6kQuadCorr32).
func (k q6kKernels) tableBlock() int {
	if k.corr {
		return 4 * 128
	}
	return 4 * 256
}

// q6kQuadCorr32 fills t (nb·512 bytes) for the four columns of nb blocks at
// x: at byte (4b+c)·128, for block b of column c, 64 int16 words −32·(y[4q]
// + … + y[4q+3]) of its 64 quads q = 16r + i (r < 4, i < 16), word 2i+r
// for r < 2 and 32 + 2i+(r−2) for r ≥ 2: dword i of each 64-byte half
// pairs quad i of two 64-value registers, as MatMulQ6KAVX512VNNI adds them
// (exact: |·| ≤ 16384 for any bytes).
func q6kQuadCorr32(t []byte, x []quant.BlockQ8K, nb int) {
	for c := 0; c < 4; c++ {
		for b := 0; b < nb; b++ {
			y := &x[c*nb+b].Qs
			out := unsafe.Slice((*int16)(unsafe.Pointer(&t[(4*b+c)*128])), 64)
			for r := 0; r < 4; r++ {
				for i := 0; i < 16; i++ {
					v := 64*r + 4*i
					s := int16(y[v]) + int16(y[v+1]) + int16(y[v+2]) + int16(y[v+3])
					out[32*(r/2)+2*i+r%2] = -32 * s
				}
			}
		}
	}
}

// q6kPairSums32 fills t (nb·1024 bytes) for the four columns of
// nb blocks at x: at byte (4b+c)·256, the int16 pair sums 32·(y[2i] +
// y[2i+1]) of block b of column c, i < 128 (exact: |·| ≤ 8192 for any bytes).
func q6kPairSums32(t []byte, x []quant.BlockQ8K, nb int) {
	for c := 0; c < 4; c++ {
		for b := 0; b < nb; b++ {
			y := &x[c*nb+b].Qs
			out := unsafe.Slice((*int16)(unsafe.Pointer(&t[(4*b+c)*256])), 128)
			for i := range out {
				out[i] = 32 * (int16(y[2*i]) + int16(y[2*i+1]))
			}
		}
	}
}

// q6kPrefetch is how many bytes ahead the mvt kernels prefetch the weights,
// chosen for the CPU by q6kPrefetchFor when the package starts. The other
// Q6_K matrix-vector kernels prefetch 8 KiB ahead (a constant of theirs).
var q6kPrefetch, q6kPrefetchWhy = q6kPrefetchFor(cpu.VendorID, cpu.Family)

// q6kPrefetchFor returns the mvt kernels' prefetch distance in bytes for a
// CPU and why. On Zen 5 (bench/results/2026-12-05-zen5/q6k-prefetch-paired*,
// the distances alternating within each iteration, 8 rounds) 24 KiB
// streamed from DRAM 3% faster than 8 KiB (faster in 7 of 8 rounds) and
// ran 2% faster in cache; 12 and 16 KiB fell between. Elsewhere 8 KiB, the
// distance of the other Q6_K kernels.
func q6kPrefetchFor(vendor cpuid.Vendor, family int) (bytes int, why string) {
	if vendor == cpuid.AMD && family == 26 {
		return 24 << 10, "Zen 5, where that streamed from DRAM 3% faster than 8 KiB (8 alternating rounds)"
	}
	return 8 << 10, "the distance of the other Q6_K kernels"
}

// inline reports whether rows of nb blocks take mvi.
func (k q6kKernels) inline(nb int) bool {
	return k.mvi != nil && nb >= q6kInlineBlocks
}

// q6kInlineBlocks is the row length, in blocks, from which the mvt kernels'
// table-free twin runs instead (q6kKernels.mvi), chosen from the L1 data
// cache by q6kInlineFor when the package starts.
var q6kInlineBlocks, q6kInlineWhy = q6kInlineFor(cpu.Cache.L1D)

// q6kInlineFor returns the row length, in blocks, from which a Q6_K matvec
// runs without the quad-sum table on a CPU with an L1 data cache of l1d
// bytes, and why. With the table a row keeps 548 bytes a block of
// activations and table in use (292 without); once that passes a quarter
// of L1, the weights streaming past evict it. On Zen 5 (48 KiB L1:
// 23 blocks; bench/results/2026-12-05-zen5-q6k-rows/, the two kernels
// alternating, 384 MiB of matrices from DRAM) rows of 8192 values took
// 0.88 of the time without the table, rows of 6144 0.92, of 4096 0.97-0.98,
// of 2048 and 14336 0.98-1.02; with the matrix in L3, rows of 4096 took
// 1.05 of the time without it, of 6144 1.02, of 8192 0.98.
func q6kInlineFor(l1d int) (blocks int, why string) {
	if l1d <= 0 {
		l1d = 32 << 10
	}
	blocks = (l1d/4 + 547) / 548
	return blocks, fmt.Sprintf("from there the table's 548 bytes a block pass a quarter of the %d KiB L1 data cache", l1d>>10)
}

// q6kQuadBytes is the size of a MatVecQ6KAVX512VNNIGFNI table for nb
// blocks: 64 int32 a block.
func q6kQuadBytes(nb int) int { return nb * 256 }

// q6kQuadSums32 fills t (q6kQuadBytes(len(x)) bytes, 4-byte aligned) with
// the int32 −32·(y[4i] + y[4i+1] + y[4i+2] + y[4i+3]) of each block's quants
// y, i < 64, block after block (exact: |·| ≤ 16384 for any bytes).
func q6kQuadSums32(t []byte, x []quant.BlockQ8K) {
	if len(x) == 0 {
		return
	}
	out := unsafe.Slice((*int32)(unsafe.Pointer(&t[0])), len(x)*64)
	for b := range x {
		y := &x[b].Qs
		o := out[b*64 : b*64+64]
		for i := range o {
			o[i] = -32 * (int32(y[4*i]) + int32(y[4*i+1]) + int32(y[4*i+2]) + int32(y[4*i+3]))
		}
	}
}

// q6kSegZmm is the zmm tiles' segment (q6kKernels.seg): four columns of a
// segment's Q8_K blocks, with their tables, take 548 bytes a block and
// column (8 blocks: 17.5 KB; 420 bytes with the VNNI tile's smaller
// tables), so they stay in L1 while the rows of a chunk pass over
// them; rows of ffn_down's 8192 values (32 blocks, 70 KB) did not, and the
// tile ran a third slower. The tile carries each row's lane sums from one
// segment to the next, so the result keeps every bit. Rows of up to
// q6kWholeBlocks blocks (35 KB) measured no faster in segments, and the ymm
// tiles, which do twice the instructions per block, measured slower in
// them (bench/results/2026-12-04-zen5/), so those take whole rows.
const (
	q6kSegZmm      = 8
	q6kWholeBlocks = 16
)

// q6kSegBlocks, when positive, overrides every variant's segment (tests
// make segments of one block).
var q6kSegBlocks = 0

// q6kSubRows is how many rows one segment pass covers before the next
// segment starts: their lane sums take 128 bytes a row, in scratch memory.
const q6kSubRows = 64

// matMul runs the four-column tile kernel over chunks of rows, every group
// of four columns per chunk, each row in segments of at most k.seg blocks; the rows and columns left over at the edges go through the
// matvec kernel, one column at a time. The tables of all column groups are
// prepared first (they depend on the columns only).
func (k q6kKernels) matMul(dst []float32, ldd int, w []quant.BlockQ6K, x []quant.BlockQ8K, cols int, prep *Prep) {
	rows, nb := matMulShape("MatMulQ6K", len(dst), ldd, len(w), len(x), cols)
	if rows == 0 {
		return
	}
	groups := cols / 4
	left := cols - 4*groups
	tb, qb := nb*k.tableBlock(), 0
	if k.mvt != nil && !k.inline(nb) {
		qb = q6kQuadBytes(nb)
	}
	var tables []byte
	if n := groups*tb + left*qb; n > 0 {
		t, owned := prep.bytes(n, func(t []byte) {
			for g := 0; g < groups; g++ {
				if k.corr {
					q6kQuadCorr32(t[g*tb:(g+1)*tb], x[4*g*nb:], nb)
				} else {
					q6kPairSums32(t[g*tb:(g+1)*tb], x[4*g*nb:], nb)
				}
			}
			for c := 0; c < left && qb > 0; c++ {
				q6kQuadSums32(t[groups*tb+c*qb:][:qb], x[(4*groups+c)*nb:][:nb])
			}
		})
		defer release(owned)
		tables = t
	}
	if groups > 0 {
		const wsize, xsize = int(unsafe.Sizeof(quant.BlockQ6K{})), int(unsafe.Sizeof(quant.BlockQ8K{}))
		seg := nb
		if q6kSegBlocks > 0 {
			seg = min(nb, q6kSegBlocks)
		} else if k.seg > 0 && nb > q6kWholeBlocks {
			seg = k.seg
		}
		// Whole rows: one pass over a chunk. Segments: passes of
		// q6kSubRows rows, whose lane sums wait in acc between segments.
		var ap *float32
		pass := rows
		if seg < nb {
			acc, buf := scratch.Float32s(q6kSubRows * 32)
			defer buf.Release()
			ap, pass = &acc[0], q6kSubRows
		}
		chunk := max(1, q6kChunkBytes/(nb*wsize))
		for r0 := 0; r0 < rows; r0 += chunk {
			n := min(chunk, rows-r0)
			for g := 0; g < groups; g++ {
				c := 4 * g
				for s0 := 0; s0 < n; s0 += pass {
					sn := min(pass, n-s0)
					for b0 := 0; b0 < nb; b0 += seg {
						bn := min(seg, nb-b0)
						mode := segMode(b0, bn, nb)
						k.mm(&dst[c*ldd+r0+s0], ldd, unsafe.Pointer(&w[(r0+s0)*nb+b0]), unsafe.Pointer(&x[c*nb+b0]),
							unsafe.Pointer(&tables[g*tb+b0*k.tableBlock()]), sn, bn, (nb-bn)*wsize, nb*xsize, ap, mode)
					}
				}
			}
		}
	}
	for c := 4 * groups; c < cols; c++ {
		if k.inline(nb) {
			k.mvi(&dst[c*ldd], q8Blocks(w), q8Blocks(x[c*nb:]), rows, nb, q6kPrefetch)
		} else if qb > 0 {
			k.mvt(&dst[c*ldd], q8Blocks(w), q8Blocks(x[c*nb:]), unsafe.Pointer(&tables[groups*tb+(c-4*groups)*qb]), rows, nb, q6kPrefetch)
		} else {
			k.mv(&dst[c*ldd], q8Blocks(w), q8Blocks(x[c*nb:]), rows, nb)
		}
	}
	canonNaNColsAVX2(dst, ldd, rows, cols)
}
