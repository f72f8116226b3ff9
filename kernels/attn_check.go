package kernels

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

func checkScores(st, qt []float32, rs int, lenK int, ldk int) (n, hd int) {
	if rs < 1 || len(st)%rs != 0 || len(qt)%rs != 0 {
		panic("kernels: ExactScores: rs must be ≥ 1 and divide len(st) and len(qt)")
	}
	n, hd = len(st)/rs, len(qt)/rs
	if !rowsFit(lenK, n, hd, ldk) {
		panic("kernels: ExactScores: k is too short for the keys")
	}
	return n, hd
}

func checkPeriodic(op string, nx, ny, p int) {
	if p < 1 || nx%p != 0 || ny != nx {
		panic("kernels: " + op + ": lengths do not match")
	}
}

func checkWeighted(o []float32, hd int, pt []float32, rs int, lenV int, ldv int) (rows, n int) {
	if hd < 1 || len(o)%hd != 0 || rs < 1 || len(pt)%rs != 0 {
		panic("kernels: ExactWeighted: hd must divide len(o) and rs len(pt)")
	}
	rows, n = len(o)/hd, len(pt)/rs
	if rows > rs || !rowsFit(lenV, n, hd, ldv) {
		panic("kernels: ExactWeighted: more rows than rs, or v too short for the keys")
	}
	return rows, n
}

func checkDotRows(dst, q []float32, lenK int, ldk int) {
	if !rowsFit(lenK, len(dst), len(q), ldk) {
		panic("kernels: DotRows: k is too short for the keys")
	}
}

func checkSoftmax(st []float32, lim []int32) (n int) {
	if len(lim) < 1 || len(st)%len(lim) != 0 {
		panic("kernels: ExactSoftmax: len(lim) must be ≥ 1 and divide len(st)")
	}
	return len(st) / len(lim)
}
