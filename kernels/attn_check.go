package kernels

import "github.com/corelane/corelane/quant"

// Length checks of the attention kernels' assembly adapters: the
// assembly reads and writes exactly what these allow, so a bad call
// panics here (as the generic kernels' slicing does) instead of touching
// memory it should not.

// rowsFit reports whether n rows of width w at stride ld (ld ≥ 0) fit in
// a slice of length size.
func rowsFit(size, n, w, ld int) bool {
	if n == 0 {
		return true
	}
	if ld < 0 || w < 0 || w > size {
		return false
	}
	if ld != 0 && n-1 > (size-w)/ld {
		return false
	}
	return true
}

// checkScores, checkWeighted and checkSoftmax check the lengths of the
// ops of those shapes; op is the name their panics give (ExactScores,
// FastScoresF16, ...).
func checkScores(op string, st, qt []float32, rs int, lenK int, ldk int) (n, hd int) {
	if rs < 1 || len(st)%rs != 0 || len(qt)%rs != 0 {
		panic("kernels: " + op + ": rs must be ≥ 1 and divide len(st) and len(qt)")
	}
	n, hd = len(st)/rs, len(qt)/rs
	if !rowsFit(lenK, n, hd, ldk) {
		panic("kernels: " + op + ": k is too short for the keys")
	}
	return n, hd
}

func checkPeriodic(op string, nx, ny, p int) {
	if p < 1 || nx%p != 0 || ny != nx {
		panic("kernels: " + op + ": lengths do not match")
	}
}

func checkWeighted(op string, o []float32, hd int, pt []float32, rs int, lenV int, ldv int) (rows, n int) {
	if hd < 1 || len(o)%hd != 0 || rs < 1 || len(pt)%rs != 0 {
		panic("kernels: " + op + ": hd must divide len(o) and rs len(pt)")
	}
	rows, n = len(o)/hd, len(pt)/rs
	if rows > rs || !rowsFit(lenV, n, hd, ldv) {
		panic("kernels: " + op + ": more rows than rs, or v too short for the keys")
	}
	return rows, n
}

func checkDotRows(dst, q []float32, lenK int, ldk int) {
	if !rowsFit(lenK, len(dst), len(q), ldk) {
		panic("kernels: DotRows: k is too short for the keys")
	}
}

func checkSoftmax(op string, st []float32, lim []int32) (n int) {
	if len(lim) < 1 || len(st)%len(lim) != 0 {
		panic("kernels: " + op + ": len(lim) must be ≥ 1 and divide len(st)")
	}
	return len(st) / len(lim)
}

// fastScoresVia, fastWeightedVia and fastSoftmaxVia make a Fast tile op
// (named op) of a variant that runs its unfused kernel there: that kernel,
// with the lengths checked first under the Fast op's name, so that a bad
// call names the op that was called.
func fastScoresVia[E float32 | quant.F16](op string, kernel func(st, qt []float32, rs int, k []E, ldk int)) func(st, qt []float32, rs int, k []E, ldk int) {
	return func(st, qt []float32, rs int, k []E, ldk int) {
		checkScores(op, st, qt, rs, len(k), ldk)
		kernel(st, qt, rs, k, ldk)
	}
}

func fastWeightedVia[E float32 | quant.F16](op string, kernel func(o []float32, hd int, pt []float32, rs int, v []E, ldv int)) func(o []float32, hd int, pt []float32, rs int, v []E, ldv int) {
	return func(o []float32, hd int, pt []float32, rs int, v []E, ldv int) {
		checkWeighted(op, o, hd, pt, rs, len(v), ldv)
		kernel(o, hd, pt, rs, v, ldv)
	}
}

func fastSoftmaxVia(kernel func(st []float32, lim []int32, scale float32)) func(st []float32, lim []int32, scale float32) {
	return func(st []float32, lim []int32, scale float32) {
		checkSoftmax("FastSoftmax", st, lim)
		kernel(st, lim, scale)
	}
}
