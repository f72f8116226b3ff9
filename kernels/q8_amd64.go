//go:build !purego

package kernels

import (
	"unsafe"

	"github.com/corelane/corelane/quant"
)

// The Q6_K · Q8_K and Q8_0 · Q8_0 kernels of kernels/internal/amd64, adapted to
// Ops. Every adapter checks its lengths (a mismatch panics, as an index out
// of range in the generic kernels would) before any assembly touches memory.
// Which variant gets which kernel is in the amd64 table (register_amd64.go).

// q80Kernel is the signature of the MatVecQ8_0* kernels: dst[r·inc] =
// dot(row r of w, x) for r < rows, nb blocks a row.
type q80Kernel func(dst *float32, inc int, w, x unsafe.Pointer, rows, nb int)

func q8Blocks[B any](b []B) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

func (k q80Kernel) dot(w, x []quant.BlockQ8_0) float32 {
	if len(w) != len(x) {
		panic("kernels: DotQ8_0: len(w) != len(x)")
	}
	var out float32
	k(&out, 1, q8Blocks(w), q8Blocks(x), 1, len(x))
	return out
}

func (k q80Kernel) matVec(dst []float32, w, x []quant.BlockQ8_0) {
	if len(w) != len(dst)*len(x) {
		panic("kernels: MatVecQ8_0: len(w) != len(dst)·len(x)")
	}
	if len(dst) == 0 {
		return
	}
	k(&dst[0], 1, q8Blocks(w), q8Blocks(x), len(dst), len(x))
}

// matMul runs one kernel call per weight row with the roles swapped: the
// cols activation rows are the kernel's rows and the weight row its vector
// (the dot is symmetric, bit for bit), so the kernel's row tile becomes a
// tile of columns that shares one weight row's signs and scales, and each
// weight row is read once.
func (k q80Kernel) matMul(dst []float32, ldd int, w, x []quant.BlockQ8_0, cols int, _ *Prep) {
	rows, nb := matMulShape("MatMulQ8_0", len(dst), ldd, len(w), len(x), cols)
	if rows == 0 {
		return
	}
	if cols == 1 {
		k(&dst[0], 1, q8Blocks(w), q8Blocks(x), rows, nb)
		return
	}
	for r := 0; r < rows; r++ {
		k(&dst[r], ldd, q8Blocks(x), q8Blocks(w[r*nb:]), cols, nb)
	}
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
// MatMulQ6K* kernel (four columns, rows a multiple of mmRows) and table the
// function that prepares mm's per-column table.
type q6kKernels struct {
	mv     func(dst *float32, w, x unsafe.Pointer, rows, nb int)
	mm     func(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb int)
	mmRows int
	table  func(t []byte, x []quant.BlockQ8K, nb int)
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
	k.mv(&dst[0], q8Blocks(w), q8Blocks(x), len(dst), len(x))
	canonNaNs(dst)
}

// q6kChunkBytes is how many weight bytes matMul lets a chunk of rows hold,
// so that the chunk stays in L2 while every group of columns passes over
// it. (A variable so that a test can make chunks tiny.)
var q6kChunkBytes = 1 << 20

// q6kTableBytes is the size of a MatMulQ6K* table for four columns of nb
// blocks: 256 bytes per (block, column).
func q6kTableBytes(nb int) int { return nb * 4 * 256 }

// q6kPairSums32 fills t (q6kTableBytes(nb) bytes) for the four columns of
// nb blocks at x: at byte (4b+c)·256, the int16 pair sums 32·(y[2i] +
// y[2i+1]) of block b of column c, i < 128 (exact: |·| ≤ 8128).
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

// q6kSeeds32 fills t like q6kPairSums32 with the int32 sums -32·(y[4i] +
// y[4i+1] + y[4i+2] + y[4i+3]), i < 64.
func q6kSeeds32(t []byte, x []quant.BlockQ8K, nb int) {
	for c := 0; c < 4; c++ {
		for b := 0; b < nb; b++ {
			y := &x[c*nb+b].Qs
			out := unsafe.Slice((*int32)(unsafe.Pointer(&t[(4*b+c)*256])), 64)
			for i := range out {
				out[i] = -32 * (int32(y[4*i]) + int32(y[4*i+1]) + int32(y[4*i+2]) + int32(y[4*i+3]))
			}
		}
	}
}

// matMul runs the four-column tile kernel over chunks of rows, every group
// of four columns per chunk; the rows and columns left over at the edges
// go through the matvec kernel, one column at a time. The tables of all
// column groups are prepared first (they depend on the columns only).
func (k q6kKernels) matMul(dst []float32, ldd int, w []quant.BlockQ6K, x []quant.BlockQ8K, cols int, prep *Prep) {
	rows, nb := matMulShape("MatMulQ6K", len(dst), ldd, len(w), len(x), cols)
	if rows == 0 {
		return
	}
	groups := cols / 4
	tb := q6kTableBytes(nb)
	var tables []byte
	if groups > 0 && rows >= k.mmRows {
		var release func()
		tables, release = prep.bytes(groups*tb, func(t []byte) {
			for g := 0; g < groups; g++ {
				k.table(t[g*tb:(g+1)*tb], x[4*g*nb:], nb)
			}
		})
		defer release()
	}
	chunk := max(k.mmRows, q6kChunkBytes/(nb*int(unsafe.Sizeof(quant.BlockQ6K{})))/k.mmRows*k.mmRows)
	for r0 := 0; r0 < rows; r0 += chunk {
		n := min(chunk, rows-r0)
		tiled := n - n%k.mmRows
		for g := 0; g < groups; g++ {
			c := 4 * g
			if tiled > 0 {
				k.mm(&dst[c*ldd+r0], ldd, q8Blocks(w[r0*nb:]), q8Blocks(x[c*nb:]), unsafe.Pointer(&tables[g*tb]), tiled, nb)
			}
			if tiled < n {
				for cc := c; cc < c+4; cc++ {
					k.mv(&dst[cc*ldd+r0+tiled], q8Blocks(w[(r0+tiled)*nb:]), q8Blocks(x[cc*nb:]), n-tiled, nb)
				}
			}
		}
		for c := 4 * groups; c < cols; c++ {
			k.mv(&dst[c*ldd+r0], q8Blocks(w[r0*nb:]), q8Blocks(x[c*nb:]), n, nb)
		}
	}
	canonNaNCols(dst, ldd, rows, cols)
}
