//go:build !purego

package kernels

import (
	"github.com/corelane/corelane/kernels/internal/amd64"
	"github.com/corelane/corelane/quant"
)

// The attention kernels of kernels/internal/amd64 (attn_amd64.s), adapted
// to Ops (register_amd64.go lists them): every adapter checks its lengths (attn_check.go) before the
// assembly runs, and hands the shapes the assembly does not take (a
// period, rs or hd that is not a multiple of 16, the last len mod 16
// values) to the generic twin, which returns the same bits.

func widenF16AVX512(dst []float32, src []quant.F16) {
	if len(dst) != len(src) {
		panic("kernels: WidenF16: len(dst) != len(src)")
	}
	n := len(src) &^ 15
	if n > 0 {
		amd64.WidenF16AVX512(&dst[0], (*uint16)(&src[0]), n)
	}
	widenF16Generic(dst[n:], src[n:])
}

func exactScoresAVX512(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores("ExactScores", st, qt, rs, len(k), ldk)
	if rs == 1 && hd%16 == 0 && hd > 0 && n >= 16 {
		// One query: one lane per key, sixteen keys at a time.
		m := n &^ 15
		amd64.ExactScoresRowAVX512(&st[0], &qt[0], &k[0], ldk, hd, m)
		if m < n {
			exactScoresGeneric(st[m:], qt, 1, k[m*ldk:], ldk)
		}
		return
	}
	if rs%16 != 0 || n == 0 || hd == 0 {
		exactScoresGeneric(st, qt, rs, k, ldk)
		return
	}
	amd64.ExactScoresAVX512(&st[0], &qt[0], rs, &k[0], ldk, hd, n)
}

// periodic runs an elementwise kernel (ExactExp in place, or ExactDiv)
// over x with a second operand y of period len(y): on the assembly for a
// period that is a multiple of 16, or for period 1 (y repeated 16 times in
// a stack array: the assembly stubs are //go:noescape, so calling them
// directly rather than through a func value keeps it off the heap) on
// whole groups of 16; the rest on the twin.
func periodic(div bool, x, y []float32) {
	asm := func(x, y *float32, n, p int) {
		if div {
			amd64.ExactDivAVX512(x, y, n, p)
		} else {
			amd64.ExactExpAVX512(x, x, y, n, p)
		}
	}
	twin := func(x, y []float32) {
		if div {
			exactDivGeneric(x, y)
		} else {
			exactExpGeneric(x, x, y)
		}
	}
	p := len(y)
	switch {
	case p%16 == 0:
		if len(x) > 0 {
			asm(&x[0], &y[0], len(x), p)
		}
	case p == 1:
		var y16 [16]float32
		for i := range y16 {
			y16[i] = y[0]
		}
		n := len(x) &^ 15
		if n > 0 {
			asm(&x[0], &y16[0], n, 16)
		}
		twin(x[n:], y)
	default:
		twin(x, y)
	}
}

func exactExpAVX512(dst, x, m []float32) {
	checkPeriodic("ExactExp", len(x), len(dst), len(m))
	if len(m)%16 != 0 && len(m) != 1 {
		exactExpGeneric(dst, x, m)
		return
	}
	// dst and x have the same length; the assembly reads x[i] before it
	// writes dst[i], so dst may be x.
	if len(x) > 0 && &dst[0] != &x[0] {
		copy(dst, x)
	}
	periodic(false, dst, m)
}

func exactDivAVX512(x, d []float32) {
	checkPeriodic("ExactDiv", len(x), len(x), len(d))
	periodic(true, x, d)
}

func exactWeightedAVX512(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	rows, n := checkWeighted("ExactWeighted", o, hd, pt, rs, len(v), ldv)
	if hd%16 != 0 || rows == 0 || n == 0 {
		exactWeightedGeneric(o, hd, pt, rs, v, ldv)
		return
	}
	amd64.ExactWeightedAVX512(&o[0], rows, hd, &pt[0], rs, &v[0], ldv, n, streams(len(v)*4))
}

// fastWeightedAVX512 and fastWeightedF16AVX512 are Fast's weighted sums
// on AVX-512: one output row (a decode step's rows, rowTile in sdpa) of
// a multiple of 64 columns runs the fused kernel, which keeps two chains
// of additions in flight; tiles of several rows (prefill) and other
// widths run the Exact kernel, as before.
func fastWeightedAVX512(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	rows, n := checkWeighted("FastWeighted", o, hd, pt, rs, len(v), ldv)
	if rows != 1 || hd%64 != 0 || n == 0 {
		exactWeightedAVX512(o, hd, pt, rs, v, ldv)
		return
	}
	amd64.FastWeightedRowAVX512(&o[0], hd, &pt[0], rs, &v[0], ldv, n, streams(len(v)*4))
}

func fastWeightedF16AVX512(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
	rows, n := checkWeighted("FastWeightedF16", o, hd, pt, rs, len(v), ldv)
	if rows != 1 || hd%64 != 0 || n == 0 {
		exactWeightedF16AVX512(o, hd, pt, rs, v, ldv)
		return
	}
	amd64.FastWeightedRowF16AVX512(&o[0], hd, &pt[0], rs, f16Ptr(v), ldv, n, streams(len(v)*2))
}

func dotRowsAVX512(dst, q, k []float32, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	if len(q)%16 != 0 || len(q) == 0 || len(dst) == 0 {
		dotRowsGeneric(dst, q, k, ldk)
		return
	}
	amd64.DotRowsAVX512(&dst[0], &q[0], len(q), &k[0], ldk, len(dst), streams(len(k)*4))
}

func exactSoftmaxAVX512(st []float32, lim []int32, scale float32) {
	n := checkSoftmax("ExactSoftmax", st, lim)
	if len(lim)%16 != 0 || n == 0 {
		exactSoftmaxGeneric(st, lim, scale)
		return
	}
	amd64.ExactSoftmaxAVX512(&st[0], len(lim), &lim[0], scale, n)
}

func softmaxColsAVX512(st []float32, lim []int32, scale float32) {
	n := checkSoftmax("SoftmaxCols", st, lim)
	if len(lim)%16 != 0 || n == 0 {
		softmaxColsGeneric(st, lim, scale)
		return
	}
	amd64.SoftmaxColsAVX512(&st[0], len(lim), &lim[0], scale, n)
}

// streamBytes: a K or V buffer of at least this many bytes, counted from
// the first row a call reads to the end of the slice it is given, is taken
// to stream from beyond the core's caches, and the decode kernels
// (DotRows, ExactWeighted's one-row or 64-column loop) prefetch it 8 KiB
// ahead. sdpa passes K and V from the call's first key row to the end of
// the cache, so a real KV cache (every layer's, read once a token) takes
// that path;
// a small one that stays in L2 does not, since there the prefetches only
// add work. Measured on Zen 5 (sdpa BenchmarkSDPA, Fast decode, one
// thread, 8 interleaved runs): 32 heads × 1024 keys −31%, 32 × 4096
// −30%; 8 × 128 keys +19% and 32 × 128 +14% had every call prefetched.
const streamBytes = 1 << 20

func streams(bytes int) int {
	if bytes >= streamBytes {
		return 1
	}
	return 0
}

func f16Ptr(x []quant.F16) *uint16 { return (*uint16)(&x[0]) }

func exactScoresF16AVX512(st, qt []float32, rs int, k []quant.F16, ldk int) {
	n, hd := checkScores("ExactScoresF16", st, qt, rs, len(k), ldk)
	if rs == 1 && hd%16 == 0 && hd > 0 && n >= 16 {
		m := n &^ 15
		amd64.ExactScoresRowF16AVX512(&st[0], &qt[0], f16Ptr(k), ldk, hd, m)
		if m < n {
			exactScoresF16Generic(st[m:], qt, 1, k[m*ldk:], ldk)
		}
		return
	}
	exactScoresF16Generic(st, qt, rs, k, ldk)
}

func exactWeightedF16AVX512(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
	rows, n := checkWeighted("ExactWeightedF16", o, hd, pt, rs, len(v), ldv)
	if hd%16 != 0 || rows == 0 || n == 0 {
		exactWeightedF16Generic(o, hd, pt, rs, v, ldv)
		return
	}
	amd64.ExactWeightedF16AVX512(&o[0], rows, hd, &pt[0], rs, f16Ptr(v), ldv, n, streams(len(v)*2))
}

func dotRowsF16AVX512(dst, q []float32, k []quant.F16, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	if len(q)%16 != 0 || len(q) == 0 || len(dst) == 0 {
		dotRowsF16Generic(dst, q, k, ldk)
		return
	}
	amd64.DotRowsF16AVX512(&dst[0], &q[0], len(q), f16Ptr(k), ldk, len(dst), streams(len(k)*2))
}

// The AVX2 forms (attn_avx2_amd64.s, and SoftmaxColsAVX2 in
// expsum_amd64.s): 8 lanes, so the shapes they take are multiples of 8;
// the rest goes to the generic twin, which returns the same bits.

func widenF16AVX2(dst []float32, src []quant.F16) {
	if len(dst) != len(src) {
		panic("kernels: WidenF16: len(dst) != len(src)")
	}
	n := len(src) &^ 7
	if n > 0 {
		amd64.WidenF16AVX2(&dst[0], f16Ptr(src), n)
	}
	widenF16Generic(dst[n:], src[n:])
}

func exactScoresAVX2(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores("ExactScores", st, qt, rs, len(k), ldk)
	if rs == 1 && hd%4 == 0 && hd > 0 && n >= 8 {
		// One query: one lane per key, eight keys at a time.
		m := n &^ 7
		amd64.ExactScoresRowAVX2(&st[0], &qt[0], &k[0], ldk, hd, m)
		if m < n {
			exactScoresGeneric(st[m:], qt, 1, k[m*ldk:], ldk)
		}
		return
	}
	if rs%8 != 0 || n == 0 || hd == 0 {
		exactScoresGeneric(st, qt, rs, k, ldk)
		return
	}
	amd64.ExactScoresAVX2(&st[0], &qt[0], rs, &k[0], ldk, hd, n)
}

func exactScoresF16AVX2(st, qt []float32, rs int, k []quant.F16, ldk int) {
	n, hd := checkScores("ExactScoresF16", st, qt, rs, len(k), ldk)
	if rs == 1 && hd%4 == 0 && hd > 0 && n >= 8 {
		m := n &^ 7
		amd64.ExactScoresRowF16AVX2(&st[0], &qt[0], f16Ptr(k), ldk, hd, m)
		if m < n {
			exactScoresF16Generic(st[m:], qt, 1, k[m*ldk:], ldk)
		}
		return
	}
	if rs%8 != 0 || n == 0 || hd == 0 {
		exactScoresF16Generic(st, qt, rs, k, ldk)
		return
	}
	amd64.ExactScoresF16AVX2(&st[0], &qt[0], rs, f16Ptr(k), ldk, hd, n)
}

func dotRowsAVX2(dst, q, k []float32, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	if len(q)%8 != 0 || len(q) == 0 || len(dst) == 0 {
		dotRowsGeneric(dst, q, k, ldk)
		return
	}
	amd64.DotRowsAVX2(&dst[0], &q[0], len(q), &k[0], ldk, len(dst), streams(len(k)*4))
}

func dotRowsF16AVX2(dst, q []float32, k []quant.F16, ldk int) {
	checkDotRows(dst, q, len(k), ldk)
	if len(q)%8 != 0 || len(q) == 0 || len(dst) == 0 {
		dotRowsF16Generic(dst, q, k, ldk)
		return
	}
	amd64.DotRowsF16AVX2(&dst[0], &q[0], len(q), f16Ptr(k), ldk, len(dst), streams(len(k)*2))
}

func exactExpAVX2(dst, x, m []float32) {
	checkPeriodic("ExactExp", len(x), len(dst), len(m))
	switch p := len(m); {
	case len(x) == 0:
	case p%8 == 0:
		amd64.ExactExpAVX2(&dst[0], &x[0], &m[0], len(x), p)
	case p == 1:
		m8 := [8]float32{m[0], m[0], m[0], m[0], m[0], m[0], m[0], m[0]}
		n := len(x) &^ 7
		if n > 0 {
			amd64.ExactExpAVX2(&dst[0], &x[0], &m8[0], n, 8)
		}
		exactExpGeneric(dst[n:], x[n:], m)
	default:
		exactExpGeneric(dst, x, m)
	}
}

func exactDivAVX2(x, d []float32) {
	checkPeriodic("ExactDiv", len(x), len(x), len(d))
	switch p := len(d); {
	case len(x) == 0:
	case p%8 == 0:
		amd64.ExactDivAVX2(&x[0], &d[0], len(x), p)
	case p == 1:
		d8 := [8]float32{d[0], d[0], d[0], d[0], d[0], d[0], d[0], d[0]}
		n := len(x) &^ 7
		if n > 0 {
			amd64.ExactDivAVX2(&x[0], &d8[0], n, 8)
		}
		exactDivGeneric(x[n:], d)
	default:
		exactDivGeneric(x, d)
	}
}

func exactSoftmaxAVX2(st []float32, lim []int32, scale float32) {
	n := checkSoftmax("ExactSoftmax", st, lim)
	if len(lim)%8 != 0 || n == 0 {
		exactSoftmaxGeneric(st, lim, scale)
		return
	}
	amd64.ExactSoftmaxAVX2(&st[0], len(lim), &lim[0], scale, n)
}

func softmaxColsAVX2(st []float32, lim []int32, scale float32) {
	n := checkSoftmax("SoftmaxCols", st, lim)
	if len(lim)%8 != 0 || n == 0 {
		softmaxColsGeneric(st, lim, scale)
		return
	}
	amd64.SoftmaxColsAVX2(&st[0], len(lim), &lim[0], scale, n)
}

// The AVX2 weighted sums, Exact's and Fast's (the same adapter around
// either kernel): hd a multiple of 8, else the generic twin.
var (
	exactWeightedAVX2    = weightedAVX2("ExactWeighted", amd64.ExactWeightedAVX2)
	exactWeightedF16AVX2 = weightedF16AVX2("ExactWeightedF16", amd64.ExactWeightedF16AVX2)
	fastWeightedAVX2     = weightedAVX2("FastWeighted", amd64.FastWeightedAVX2)
	fastWeightedF16AVX2  = weightedF16AVX2("FastWeightedF16", amd64.FastWeightedF16AVX2)
)

func weightedAVX2(op string, kernel func(o *float32, rows, hd int, pt *float32, rs int, v *float32, ldv, n, pf int)) func(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
	return func(o []float32, hd int, pt []float32, rs int, v []float32, ldv int) {
		rows, n := checkWeighted(op, o, hd, pt, rs, len(v), ldv)
		if hd%8 != 0 || rows == 0 || n == 0 {
			exactWeightedGeneric(o, hd, pt, rs, v, ldv)
			return
		}
		kernel(&o[0], rows, hd, &pt[0], rs, &v[0], ldv, n, streams(len(v)*4))
	}
}

func weightedF16AVX2(op string, kernel func(o *float32, rows, hd int, pt *float32, rs int, v *uint16, ldv, n, pf int)) func(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
	return func(o []float32, hd int, pt []float32, rs int, v []quant.F16, ldv int) {
		rows, n := checkWeighted(op, o, hd, pt, rs, len(v), ldv)
		if hd%8 != 0 || rows == 0 || n == 0 {
			exactWeightedF16Generic(o, hd, pt, rs, v, ldv)
			return
		}
		kernel(&o[0], rows, hd, &pt[0], rs, f16Ptr(v), ldv, n, streams(len(v)*2))
	}
}

// The Fast tile kernels of avx2: ExactScores and ExactWeighted with fused
// multiply-adds, SoftmaxCols with a fused exponential; the shapes they do
// not take go to the unfused kernels, which Fast's tolerance covers as
// well.

func fastSoftmaxAVX2(st []float32, lim []int32, scale float32) {
	n := checkSoftmax("FastSoftmax", st, lim)
	if len(lim)%8 != 0 || n == 0 {
		softmaxColsAVX2(st, lim, scale)
		return
	}
	amd64.FastSoftmaxAVX2(&st[0], len(lim), &lim[0], scale, n)
}

func fastScoresAVX2(st, qt []float32, rs int, k []float32, ldk int) {
	n, hd := checkScores("FastScores", st, qt, rs, len(k), ldk)
	if rs%8 != 0 || n == 0 || hd == 0 {
		exactScoresAVX2(st, qt, rs, k, ldk)
		return
	}
	amd64.FastScoresAVX2(&st[0], &qt[0], rs, &k[0], ldk, hd, n)
}

func fastScoresF16AVX2(st, qt []float32, rs int, k []quant.F16, ldk int) {
	n, hd := checkScores("FastScoresF16", st, qt, rs, len(k), ldk)
	if rs%8 != 0 || n == 0 || hd == 0 {
		exactScoresF16AVX2(st, qt, rs, k, ldk)
		return
	}
	amd64.FastScoresF16AVX2(&st[0], &qt[0], rs, f16Ptr(k), ldk, hd, n)
}

// swiGLUAVX512 runs SwiGLUAVX512 on the multiple of 16 and swiGLUAVX2 on
// what is left.
func swiGLUAVX512(dst, gate, up []float32) {
	checkSwiGLU(dst, gate, up)
	n := len(gate) &^ 15
	if n > 0 {
		amd64.SwiGLUAVX512(&dst[0], &gate[0], &up[0], n)
	}
	swiGLUAVX2(dst[n:], gate[n:], up[n:])
}

func swiGLUAVX2(dst, gate, up []float32) {
	checkSwiGLU(dst, gate, up)
	n := len(gate) &^ 7
	if n > 0 {
		amd64.SwiGLUAVX2(&dst[0], &gate[0], &up[0], n)
	}
	swiGLUGeneric(dst[n:], gate[n:], up[n:])
}
