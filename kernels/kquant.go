package kernels

import "github.com/corelane/corelane/quant"

// hsum8 is the fixed horizontal sum of eight float32 lanes that every
// variant uses: ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)). It is what a
// 256-bit vector reduces to by adding its high half to its low half twice.
func hsum8(v *[8]float32) float32 {
	a0 := v[0] + v[4]
	a1 := v[1] + v[5]
	a2 := v[2] + v[6]
	a3 := v[3] + v[7]
	return (a0 + a2) + (a1 + a3)
}

// kScales unpacks the eight 6-bit scales and mins of a Q4_K/Q5_K block.
func kScales(s *[quant.KScaleSize]byte) (sc, m [8]int32) {
	for j := 0; j < 8; j++ {
		a, b := quant.KScaleMin(s, j)
		sc[j], m[j] = int32(a), int32(b)
	}
	return
}

// kAccumulate is the float step of one Q4_K/Q5_K super-block (package
// doc): dd = f16(d)·D and dm = f16(dmin)·D, then per lane
// acc[l] += dd·A[l] and accm[j] += dm·m_j·(bsums[2j]+bsums[2j+1]).
func kAccumulate(acc, accm *[8]float32, A, m *[8]int32, xb *quant.BlockQ8K, d, dmin quant.F16) {
	dd := float32(d.Float32() * xb.D)
	dm := float32(dmin.Float32() * xb.D)
	for l := 0; l < 8; l++ {
		acc[l] += float32(dd * float32(A[l]))
		M := m[l] * (int32(xb.BSums[2*l]) + int32(xb.BSums[2*l+1]))
		accm[l] += float32(dm * float32(M))
	}
}

// dotQ4KGeneric is the reference for every DotQ4K variant (order: package doc).
func dotQ4KGeneric(w []quant.BlockQ4K, x []quant.BlockQ8K) float32 {
	var acc, accm [8]float32
	for b := range w {
		wb, xb := &w[b], &x[b]
		sc, m := kScales(&wb.Scales)
		var A [8]int32
		for c := 0; c < 4; c++ { // 64-value chunk: sub-blocks 2c (low nibbles) and 2c+1 (high)
			q := wb.Qs[32*c : 32*c+32]
			ylo := xb.Qs[64*c : 64*c+32]
			yhi := xb.Qs[64*c+32 : 64*c+64]
			for l := 0; l < 8; l++ {
				var lo, hi int32
				for i := 4 * l; i < 4*l+4; i++ {
					lo += int32(q[i]&0xF) * int32(ylo[i])
					hi += int32(q[i]>>4) * int32(yhi[i])
				}
				A[l] += sc[2*c]*lo + sc[2*c+1]*hi
			}
		}
		kAccumulate(&acc, &accm, &A, &m, xb, wb.D, wb.DMin)
	}
	return canonNaN(hsum8(&acc) - hsum8(&accm))
}

// dotQ5KGeneric is the reference for every DotQ5K variant (order: package doc).
func dotQ5KGeneric(w []quant.BlockQ5K, x []quant.BlockQ8K) float32 {
	var acc, accm [8]float32
	for b := range w {
		wb, xb := &w[b], &x[b]
		sc, m := kScales(&wb.Scales)
		var A [8]int32
		for c := 0; c < 4; c++ {
			q := wb.Qs[32*c : 32*c+32]
			ylo := xb.Qs[64*c : 64*c+32]
			yhi := xb.Qs[64*c+32 : 64*c+64]
			blo, bhi := byte(1)<<(2*c), byte(1)<<(2*c+1)
			for l := 0; l < 8; l++ {
				var lo, hi int32
				for i := 4 * l; i < 4*l+4; i++ {
					ql := int32(q[i] & 0xF)
					qh := int32(q[i] >> 4)
					if wb.Qh[i]&blo != 0 {
						ql += 16
					}
					if wb.Qh[i]&bhi != 0 {
						qh += 16
					}
					lo += ql * int32(ylo[i])
					hi += qh * int32(yhi[i])
				}
				A[l] += sc[2*c]*lo + sc[2*c+1]*hi
			}
		}
		kAccumulate(&acc, &accm, &A, &m, xb, wb.D, wb.DMin)
	}
	return canonNaN(hsum8(&acc) - hsum8(&accm))
}

// dotQ6KGeneric is the reference for every DotQ6K variant (order: package doc).
func dotQ6KGeneric(w []quant.BlockQ6K, x []quant.BlockQ8K) float32 {
	var acc [8]float32
	for b := range w {
		wb, xb := &w[b], &x[b]
		var A [8]int32
		for h := 0; h < 2; h++ { // halves of 128 values
			ql := wb.Ql[64*h : 64*h+64]
			qh := wb.Qh[32*h : 32*h+32]
			for k := 0; k < 4; k++ { // 32-value groups: value 128h + 32k + l
				y := xb.Qs[128*h+32*k : 128*h+32*k+32]
				sc0 := int32(wb.Scales[8*h+2*k])   // values l < 16
				sc1 := int32(wb.Scales[8*h+2*k+1]) // values l ≥ 16
				off, shift := 32*(k&1), 4*(k>>1)
				for l := 0; l < 8; l++ {
					var s int32
					for i := 4 * l; i < 4*l+4; i++ {
						q := int32((ql[off+i]>>shift)&0xF|((qh[i]>>(2*k))&3)<<4) - 32
						s += q * int32(y[i])
					}
					if l < 4 {
						A[l] += sc0 * s
					} else {
						A[l] += sc1 * s
					}
				}
			}
		}
		dd := float32(wb.D.Float32() * xb.D)
		for l := 0; l < 8; l++ {
			acc[l] += float32(dd * float32(A[l]))
		}
	}
	return canonNaN(hsum8(&acc))
}

// dotQ8_0Generic is the reference for every DotQ8_0 variant (order: package
// doc): block b accumulates into set b mod 4.
func dotQ8_0Generic(w []quant.BlockQ8_0, x []quant.BlockQ8_0) float32 {
	var acc [4][8]float32
	for b := range w {
		wb, xb := &w[b], &x[b]
		dd := float32(wb.D.Float32() * xb.D.Float32())
		s := &acc[b&3]
		for l := 0; l < 8; l++ {
			var A int32
			for i := 4 * l; i < 4*l+4; i++ {
				A += int32(wb.Qs[i]) * int32(xb.Qs[i])
			}
			s[l] += float32(dd * float32(A))
		}
	}
	var v [8]float32
	for l := range v {
		v[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l])
	}
	return canonNaN(hsum8(&v))
}

// matVec and matMul build the row loops from a dot; the generic variant
// uses them, and so may any variant without a dedicated kernel.
func matVec[W, X any](dot func([]W, []X) float32) func(dst []float32, w []W, x []X) {
	return func(dst []float32, w []W, x []X) {
		nb := len(x)
		for r := range dst {
			dst[r] = dot(w[r*nb:(r+1)*nb], x)
		}
	}
}

func matMul[W, X any](dot func([]W, []X) float32) func(dst []float32, ldd int, w []W, x []X, cols int, _ *Prep) {
	return func(dst []float32, ldd int, w []W, x []X, cols int, _ *Prep) {
		if cols == 0 {
			return
		}
		nb := len(x) / cols
		if nb == 0 {
			return
		}
		rows := len(w) / nb
		for c := 0; c < cols; c++ {
			xc := x[c*nb : (c+1)*nb]
			out := dst[c*ldd : c*ldd+rows]
			for r := range out {
				out[r] = dot(w[r*nb:(r+1)*nb], xc)
			}
		}
	}
}
