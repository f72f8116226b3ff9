package quant

import "math"

// The K-quant weight formats Q4_K, Q5_K and Q6_K: 256-value super-blocks
// with quantized sub-block scales.
//
// The quantizers are ports of ggml's quantize_row_*_ref. Every float32
// operation happens in C's source order with its own rounding; each product
// that feeds an add or subtract is wrapped in float32(...), because Go may
// otherwise fuse the pair into an FMA (arm64 always, amd64 with GOAMD64=v3)
// and change the chosen quants.

// groupMaxEps is ggml's GROUP_MAX_EPS: smaller maxima count as zero.
const groupMaxEps = float32(1e-15)

// QuantizeRowQ4K quantizes len(dst) super-blocks from src (len(dst)·256
// values), bit-exact with ggml's quantize_row_q4_K_ref: a weighted
// scale-and-min fit per 32-value sub-block (make_qkx2_quants, 4-bit
// levels), 6-bit sub-block scales and mins, then the final 4-bit quants.
// It returns a *NonFiniteError, wrapping ErrNotFinite, at the first block
// holding NaN or ±Inf; the blocks before it have been written, the rest are
// untouched. It does not allocate.
func QuantizeRowQ4K(dst []BlockQ4K, src []float32) error {
	return quantizeRow(Q4K, dst, src, quantizeBlockQ4K)
}

func quantizeBlockQ4K(b *BlockQ4K, xs []float32) {
	var L [QK_K]uint8
	b.D, b.DMin, b.Scales = quantizeKScaleMin((*[QK_K]float32)(xs), &L, 15, -1, 20)
	for c := range 4 {
		for l := range 32 {
			b.Qs[32*c+l] = L[64*c+l] | L[64*c+32+l]<<4
		}
	}
}

// QuantizeRowQ5K quantizes len(dst) super-blocks from src (len(dst)·256
// values), bit-exact with ggml's quantize_row_q5_K_ref: as QuantizeRowQ4K
// with 5-bit levels and the fifth bits in Qh. Errors and allocation as
// QuantizeRowQ4K.
func QuantizeRowQ5K(dst []BlockQ5K, src []float32) error {
	return quantizeRow(Q5K, dst, src, quantizeBlockQ5K)
}

func quantizeBlockQ5K(b *BlockQ5K, xs []float32) {
	var L [QK_K]uint8
	b.D, b.DMin, b.Scales = quantizeKScaleMin((*[QK_K]float32)(xs), &L, 31, -0.5, 15)
	b.Qh = [QK_K / 8]byte{}
	for c := range 4 {
		for l := range 32 {
			lo, hi := L[64*c+l], L[64*c+32+l]
			b.Qs[32*c+l] = lo&15 | (hi&15)<<4
			b.Qh[l] |= (lo>>4)<<(2*c) | (hi>>4)<<(2*c+1)
		}
	}
}

// quantizeKScaleMin is the part of Q4_K and Q5_K quantization before bit
// packing: it fits each 32-value sub-block, quantizes the sub-block scales
// and mins to 6 bits, and leaves the final levels (0..nmax) in L.
func quantizeKScaleMin(x *[QK_K]float32, L *[QK_K]uint8, nmax int32, rmin float32, nstep int) (d, dmin F16, packed [KScaleSize]byte) {
	var scales, mins [QK_K / 32]float32
	var maxScale, maxMin float32
	for j := range QK_K / 32 {
		xs := (*[32]float32)(x[32*j:])
		var sumX2 float32
		for _, v := range xs {
			sumX2 += float32(v * v)
		}
		avX := float32(math.Sqrt(float64(sumX2 / 32)))
		var w [32]float32
		for l, v := range xs {
			w[l] = avX + abs32(v)
		}
		scales[j], mins[j] = fitScaleMin(xs, &w, (*[32]uint8)(L[32*j:]), nmax, rmin, 0.1, nstep)
		if scales[j] > maxScale {
			maxScale = scales[j]
		}
		if mins[j] > maxMin {
			maxMin = mins[j]
		}
	}

	var invScale, invMin float32
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxMin > 0 {
		invMin = 63 / maxMin
	}
	for j := range QK_K / 32 {
		// ggml stores nearest_int's result in a uint8_t before clamping.
		ls := min(63, uint8(nearestInt(invScale*scales[j])))
		lm := min(63, uint8(nearestInt(invMin*mins[j])))
		if j < 4 {
			packed[j], packed[j+4] = ls, lm
		} else {
			packed[j+4] = ls&0xF | (lm&0xF)<<4
			packed[j-4] |= (ls >> 4) << 6
			packed[j] |= (lm >> 4) << 6
		}
	}
	d, dmin = FromFloat32(maxScale/63), FromFloat32(maxMin/63)

	// Requantize against the stored (rounded) scales. A sub-block whose
	// scale rounds to zero keeps the levels of its fit.
	df, dminf := d.Float32(), dmin.Float32()
	for j := range QK_K / 32 {
		sc, m := KScaleMin(&packed, j)
		dj := df * float32(sc)
		if dj == 0 {
			continue
		}
		dm := float32(dminf * float32(m)) // rounded on its own: v+dm must not fuse with it
		for l, v := range x[32*j : 32*j+32] {
			L[32*j+l] = uint8(min(nmax, max(0, nearestInt((v+dm)/dj))))
		}
	}
	return d, dmin, packed
}

// fitScaleMin is ggml's make_qkx2_quants for n = 32 without MAD: it fits
// x ≈ scale·L − m with L in 0..nmax, weighted by w, trying nstep+1 scales
// around nmax/(max−min), and returns the scale and m ≥ 0 (possibly −0),
// leaving the levels in L.
func fitScaleMin(x, w *[32]float32, L *[32]uint8, nmax int32, rmin, rdelta float32, nstep int) (scale, m float32) {
	lo, hi := x[0], x[0]
	sumW := w[0]
	sumX := sumW * x[0]
	for i := 1; i < 32; i++ {
		if x[i] < lo {
			lo = x[i]
		}
		if x[i] > hi {
			hi = x[i]
		}
		sumW += w[i]
		sumX += float32(w[i] * x[i])
	}
	if lo > 0 {
		lo = 0
	}
	if hi == lo {
		*L = [32]uint8{}
		return 0, -lo
	}
	fmax := float32(nmax)
	iscale := fmax / (hi - lo)
	scale = 1 / iscale
	var best float32
	for i, v := range x {
		L[i] = uint8(min(nmax, max(0, nearestInt(iscale*(v-lo)))))
		diff := float32(scale*float32(L[i])) + lo - v
		best += float32(w[i] * (diff * diff))
	}
	var aux [32]uint8
	for is := 0; is <= nstep; is++ {
		iscale = (rmin + float32(rdelta*float32(is)) + fmax) / (hi - lo)
		var sumL, sumL2, sumXL float32
		for i, v := range x {
			l := min(nmax, max(0, nearestInt(iscale*(v-lo))))
			aux[i] = uint8(l)
			fl := float32(l)
			wl := float32(w[i] * fl)
			sumL += wl
			sumL2 += float32(wl * fl)
			sumXL += float32(wl * v)
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if !(D > 0) {
			continue
		}
		thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
		thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
		if thisMin > 0 {
			thisMin = 0
			thisScale = sumXL / sumL2
		}
		var cur float32
		for i, v := range x {
			diff := float32(thisScale*float32(aux[i])) + thisMin - v
			cur += float32(w[i] * (diff * diff))
		}
		if cur < best {
			*L = aux
			best, scale, lo = cur, thisScale, thisMin
		}
	}
	return scale, -lo
}

// QuantizeRowQ6K quantizes len(dst) super-blocks from src (len(dst)·256
// values), bit-exact with ggml's quantize_row_q6_K_ref: a symmetric fit per
// 16-value sub-block weighted by x² (make_qx_quants, levels −32..31),
// signed 8-bit sub-block scales, then the final quants. A super-block whose
// largest sub-block scale is below 1e-15 is written as zero bytes. Errors
// and allocation as QuantizeRowQ4K.
func QuantizeRowQ6K(dst []BlockQ6K, src []float32) error {
	return quantizeRow(Q6K, dst, src, quantizeBlockQ6K)
}

func quantizeBlockQ6K(b *BlockQ6K, xs []float32) {
	x := (*[QK_K]float32)(xs)
	var L [QK_K]uint8 // levels biased by 32, 0..63
	var scales [QK_K / 16]float32
	var maxScale, maxAbsScale float32
	for j := range QK_K / 16 {
		s := fitSymmetric((*[16]float32)(x[16*j:]), (*[16]uint8)(L[16*j:]))
		scales[j] = s
		if a := abs32(s); a > maxAbsScale {
			maxAbsScale, maxScale = a, s
		}
	}
	if maxAbsScale < groupMaxEps {
		*b = BlockQ6K{}
		return
	}
	iscale := -128 / maxScale
	b.D = FromFloat32(1 / iscale)
	for j, s := range scales {
		// Stored through C's int8_t: the low byte of the int.
		b.Scales[j] = int8(min(127, nearestInt(iscale*s)))
	}
	df := b.D.Float32()
	for j := range QK_K / 16 {
		dj := df * float32(b.Scales[j])
		if dj == 0 {
			continue // keep the levels of the sub-block's fit
		}
		for l, v := range x[16*j : 16*j+16] {
			L[16*j+l] = uint8(min(31, max(-32, nearestInt(v/dj))) + 32)
		}
	}
	for h := range 2 {
		Lh := (*[128]uint8)(L[128*h:])
		ql := (*[64]byte)(b.Ql[64*h:])
		qh := (*[32]byte)(b.Qh[32*h:])
		for l := range 32 {
			q1, q2, q3, q4 := Lh[l], Lh[l+32], Lh[l+64], Lh[l+96]
			ql[l] = q1&15 | (q3&15)<<4
			ql[l+32] = q2&15 | (q4&15)<<4
			qh[l] = q1>>4 | (q2>>4)<<2 | (q3>>4)<<4 | (q4>>4)<<6
		}
	}
}

// fitSymmetric is ggml's make_qx_quants for n = 16, nmax = 32 and
// rmse_type 1 (weights x²): it fits x ≈ scale·l with l in −32..31, trying 19
// scales around −32/max, stores l+32 in L and returns the scale. An
// all-(near-)zero sub-block gets scale 0 and L = 0.
func fitSymmetric(x *[16]float32, L *[16]uint8) float32 {
	var vmax, amax float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, vmax = a, v
		}
	}
	if amax < groupMaxEps {
		*L = [16]uint8{}
		return 0
	}
	// sums returns Σ(w·x)·l and Σ(w·l)·l for the levels of iscale.
	sums := func(iscale float32) (sumLX, sumL2 float32) {
		for _, v := range x {
			fl := float32(min(31, max(-32, nearestInt(iscale*v))))
			w := v * v
			sumLX += float32(float32(w*v) * fl)
			sumL2 += float32(float32(w*fl) * fl)
		}
		return sumLX, sumL2
	}
	setLevels := func(iscale float32) {
		for i, v := range x {
			L[i] = uint8(min(31, max(-32, nearestInt(iscale*v))) + 32)
		}
	}
	iscale := -32 / vmax
	setLevels(iscale)
	sumLX, sumL2 := sums(iscale)
	var scale float32
	if sumL2 != 0 {
		scale = sumLX / sumL2
	}
	best := scale * sumLX
	for is := -9; is <= 9; is++ {
		if is == 0 {
			continue
		}
		iscale = -(32 + float32(0.1*float32(is))) / vmax
		sumLX, sumL2 = sums(iscale)
		if sumL2 > 0 && sumLX*sumLX > best*sumL2 {
			setLevels(iscale)
			scale = sumLX / sumL2
			best = scale * sumLX
		}
	}
	return scale
}

// DequantizeRowQ4K writes x = (d·sc)·q − dmin·m for len(src) super-blocks
// into dst, with both products rounded (no FMA): bit-exact with ggml's
// dequantize_row_q4_K. len(dst) must be len(src)·256; otherwise it panics.
// It does not allocate.
func DequantizeRowQ4K(dst []float32, src []BlockQ4K) {
	mustDequantLen("DequantizeRowQ4K", len(dst), len(src), QK_K)
	for i := range src {
		b := &src[i]
		d, dmin := b.D.Float32(), b.DMin.Float32()
		for c := range 4 {
			y := (*[64]float32)(dst[i*QK_K+64*c:])
			q := (*[32]byte)(b.Qs[32*c:])
			sc1, m1 := KScaleMin(&b.Scales, 2*c)
			sc2, m2 := KScaleMin(&b.Scales, 2*c+1)
			d1, dm1 := float32(d*float32(sc1)), float32(dmin*float32(m1))
			d2, dm2 := float32(d*float32(sc2)), float32(dmin*float32(m2))
			for l, v := range q {
				y[l] = float32(d1*float32(v&15)) - dm1
				y[l+32] = float32(d2*float32(v>>4)) - dm2
			}
		}
	}
}

// DequantizeRowQ5K writes x = (d·sc)·q − dmin·m for len(src) super-blocks
// into dst (q in 0..31), bit-exact with ggml's dequantize_row_q5_K. Length
// contract as DequantizeRowQ4K.
func DequantizeRowQ5K(dst []float32, src []BlockQ5K) {
	mustDequantLen("DequantizeRowQ5K", len(dst), len(src), QK_K)
	for i := range src {
		b := &src[i]
		d, dmin := b.D.Float32(), b.DMin.Float32()
		for c := range 4 {
			y := (*[64]float32)(dst[i*QK_K+64*c:])
			q := (*[32]byte)(b.Qs[32*c:])
			sc1, m1 := KScaleMin(&b.Scales, 2*c)
			sc2, m2 := KScaleMin(&b.Scales, 2*c+1)
			d1, dm1 := float32(d*float32(sc1)), float32(dmin*float32(m1))
			d2, dm2 := float32(d*float32(sc2)), float32(dmin*float32(m2))
			for l, v := range q {
				h := b.Qh[l] >> (2 * c)
				y[l] = float32(d1*float32(v&15|(h&1)<<4)) - dm1
				y[l+32] = float32(d2*float32(v>>4|(h>>1&1)<<4)) - dm2
			}
		}
	}
}

// DequantizeRowQ6K writes x = (d·sc)·q for len(src) super-blocks into dst
// (q in −32..31), in C's evaluation order: bit-exact with ggml's
// dequantize_row_q6_K. Length contract as DequantizeRowQ4K.
func DequantizeRowQ6K(dst []float32, src []BlockQ6K) {
	mustDequantLen("DequantizeRowQ6K", len(dst), len(src), QK_K)
	for i := range src {
		b := &src[i]
		d := b.D.Float32()
		for h := range 2 {
			y := (*[128]float32)(dst[i*QK_K+128*h:])
			ql := (*[64]byte)(b.Ql[64*h:])
			qh := (*[32]byte)(b.Qh[32*h:])
			sc := (*[8]int8)(b.Scales[8*h:])
			for l := range 32 {
				is := l / 16
				hb := qh[l]
				q1 := int32(ql[l]&15|(hb&3)<<4) - 32
				q2 := int32(ql[l+32]&15|(hb>>2&3)<<4) - 32
				q3 := int32(ql[l]>>4|(hb>>4&3)<<4) - 32
				q4 := int32(ql[l+32]>>4|(hb>>6&3)<<4) - 32
				y[l] = d * float32(sc[is]) * float32(q1)
				y[l+32] = d * float32(sc[is+2]) * float32(q2)
				y[l+64] = d * float32(sc[is+4]) * float32(q3)
				y[l+96] = d * float32(sc[is+6]) * float32(q4)
			}
		}
	}
}
