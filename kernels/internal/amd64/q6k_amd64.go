//go:build !purego

package amd64

import "unsafe"

// Q6_K · Q8_K kernels (q6k_amd64.s, written by simdgen). w points at
// quant.BlockQ6K blocks (210 bytes), x at quant.BlockQ8K blocks (292
// bytes); a row or column holds nb blocks. Every dot is computed in exactly
// the order of kernels.dotQ6KGeneric, their Go twin (bit-identical results,
// except that a NaN may carry another payload), for every byte pattern of
// either side. Callers check every length; the kernels check nothing and
// read or write nothing beyond what each doc states. nb == 0 reads no
// blocks (the dots are +0).

// MatVecQ6KAVX2 sets dst[r] = dot(w[r·nb:(r+1)·nb], x[:nb]) for r < rows,
// reading w[:rows·nb] and x[:nb] and writing dst[:rows], one row at a time.
// It needs AVX2 and F16C.
//
//go:noescape
func MatVecQ6KAVX2(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ6KAVXVNNI is MatVecQ6KAVX2 for CPUs with AVX-VNNI.
//
//go:noescape
func MatVecQ6KAVXVNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ6KAVX512 is MatVecQ6KAVX2 for CPUs with AVX-512 F, BW and VL.
//
//go:noescape
func MatVecQ6KAVX512(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ6KAVX512VNNI is MatVecQ6KAVX2 for CPUs with AVX-512 F, BW, VL and
// VNNI.
//
//go:noescape
func MatVecQ6KAVX512VNNI(dst *float32, w, x unsafe.Pointer, rows, nb int)

// MatVecQ6KAVX512VNNIGFNI is MatVecQ6KAVX512VNNI (the same bits) with
// the activations' quad sums prepared: t holds, for each of x's nb blocks,
// the 64 int32 −32·(y[4i] + y[4i+1] + y[4i+2] + y[4i+3]) of its quants y
// (kernels.q6kQuadSums32 fills it; 256 bytes a block). It reads t[:nb·256
// bytes] besides what MatVecQ6KAVX2 reads, and prefetches the weights pf
// bytes ahead (the others: 8 KiB). It needs AVX-512 F, BW, VL and VNNI,
// GFNI and F16C.
//
//go:noescape
func MatVecQ6KAVX512VNNIGFNI(dst *float32, w, x, t unsafe.Pointer, rows, nb, pf int)

// MatVecQ6KAVX512VNNIGFNIInline is MatVecQ6KAVX512VNNIGFNI (the same bits)
// without the table: it sums each quad of the activations itself, which
// takes more instructions a block but keeps only x near the core. It reads
// what MatVecQ6KAVX2 reads and prefetches the weights pf bytes ahead.
//
//go:noescape
func MatVecQ6KAVX512VNNIGFNIInline(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)

// MatMulQ6KAVX2 sets dst[c·ldd + r] = dot(row r of w, column c of x) for
// r < rows and c < 4: four columns of x, each weight row decoded once for
// all four, over one segment of nb blocks of every row. Row r's segment
// starts at w + r·(nb·210 + wskip) bytes, column c's at x + c·xstride
// bytes; t holds, per block b of the segment and column c at byte
// (4b+c)·256, the 128 int16 pair sums 32·(y[2i] + y[2i+1]) of that x
// block's quants y (kernels.q6kPairSums32 fills it).
//
// Each (row, column) keeps eight float32 lane sums. mode bit 0
// (SegResume) starts them from acc[32r+8c:][:8] instead of zero; mode bit 1
// (SegFinish) adds them up into dst, else they are stored back into acc. A
// row computed in consecutive segments (SegFinish on the last only, SegResume
// on all but the first) gets exactly the bits of one pass over the row.
//
// It reads those rows' segments, x's four columns' segments, t[:nb·1024
// bytes] and, with SegResume, acc[:32·rows]; it writes dst's 4·rows
// elements (SegFinish) or acc[:32·rows]. It needs AVX2 and F16C.
//
//go:noescape
func MatMulQ6KAVX2(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// MatMulQ6KAVXVNNI is MatMulQ6KAVX2 for CPUs with AVX-VNNI.
//
//go:noescape
func MatMulQ6KAVXVNNI(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// MatMulQ6KAVX512 is MatMulQ6KAVX2 for CPUs with AVX-512 F, BW and VL.
//
//go:noescape
func MatMulQ6KAVX512(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// MatMulQ6KAVX512VNNI is MatMulQ6KAVX2 for CPUs with AVX-512 F, BW, VL and
// VNNI, except for its tables: t holds, per block b of the segment and
// column c at byte (4b+c)·128, the 64 int16 words −32·(y[4q] + … +
// y[4q+3]) of that x block's quads (kernels.q6kQuadCorr32 fills it and
// gives the order), and it reads t[:nb·512 bytes]. It adds them, times the
// quads' scales, once per block and column (two VPDPWSSD) instead of
// subtracting the pairs' sums before every product: 0.86–0.89 of the time
// on Zen 5 (bench/results/2026-12-05-zen5-prefill/q6k-corr-*).
//
//go:noescape
func MatMulQ6KAVX512VNNI(dst *float32, ldd int, w, x, t unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)

// The mode bits of the tiles that take rows in segments (MatMulQ6K* and
// the zmm MatMul8Q4K*, MatMul8Q5K*): a row's sums carried from one call to
// the next.
const (
	SegResume = 1 // start from the sums in acc
	SegFinish = 2 // sum them into dst (else store them into acc)
)
