package quant

// The 8-bit formats: Q8_0 and Q8_1 (32 values per block, fp16 scale) and
// Q8_K (256 values, float32 scale, per-16 sums). Q8_K, Q8_0 and Q8_1 are the
// activation formats of the quantized dot products.

// QuantizeRowQ8_0 quantizes len(dst) blocks from src, which must hold
// exactly len(dst)·32 values. The result is bit-exact with ggml's
// quantize_row_q8_0_ref: d = amax/127 stored as fp16, qs = roundf(x·(1/d))
// with the float32 d, ties away from zero. (ggml's SIMD run-time quantizer
// rounds ties to even and differs on exact ties.)
//
// It returns a *NonFiniteError, wrapping ErrNotFinite, at the first block
// holding NaN or ±Inf; the blocks before it have been written, the rest are
// untouched. It does not allocate.
func QuantizeRowQ8_0(dst []BlockQ8_0, src []float32) error {
	return quantizeRow(Q8_0, dst, src, quantizeBlockQ8_0)
}

func quantizeBlockQ8_0(b *BlockQ8_0, xs []float32) {
	x := (*[QK8]float32)(xs)
	d, id := q8Scale(x)
	b.D = FromFloat32(d)
	for j, v := range x {
		b.Qs[j] = roundInt8(v * id)
	}
}

// QuantizeRowQ8_1 quantizes len(dst) blocks from src (len(dst)·32 values),
// bit-exact with ggml's quantize_row_q8_1_ref: D and Qs are the bytes
// QuantizeRowQ8_0 writes, and S = fp16(float32(Σqs)·d) with the float32 d
// from before its fp16 rounding. Errors and allocation as QuantizeRowQ8_0.
func QuantizeRowQ8_1(dst []BlockQ8_1, src []float32) error {
	return quantizeRow(Q8_1, dst, src, quantizeBlockQ8_1)
}

func quantizeBlockQ8_1(b *BlockQ8_1, xs []float32) {
	x := (*[QK8]float32)(xs)
	d, id := q8Scale(x)
	b.D = FromFloat32(d)
	var sum int32
	for j, v := range x {
		q := roundInt8(v * id)
		b.Qs[j] = q
		sum += int32(q)
	}
	b.S = FromFloat32(float32(sum) * d)
}

// q8Scale returns the Q8_0/Q8_1 scale d = amax/127 and its inverse (0 for
// an all-zero block).
func q8Scale(x *[QK8]float32) (d, id float32) {
	var amax float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax = a
		}
	}
	d = amax / 127
	if d != 0 {
		id = 1 / d
	}
	return d, id
}

// QuantizeRowQ8K quantizes len(dst) blocks from src (len(dst)·256 values),
// bit-exact with ggml's quantize_row_q8_K_ref: with max the first value of
// largest magnitude, iscale = −127/max, qs = min(127, nearest_int(iscale·x))
// (ties to even), d = 1/iscale as float32, and BSums the sums of each 16
// quants. An all-zero block is written as all zero bytes (ggml leaves its
// bsums unwritten). This is also the quantizer ggml's CPU backend uses for
// Q8_K activations at run time. Errors and allocation as QuantizeRowQ8_0.
func QuantizeRowQ8K(dst []BlockQ8K, src []float32) error {
	return quantizeRow(Q8K, dst, src, quantizeBlockQ8K)
}

func quantizeBlockQ8K(b *BlockQ8K, xs []float32) {
	x := (*[QK_K]float32)(xs)
	var vmax, amax float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, vmax = a, v
		}
	}
	if amax == 0 {
		*b = BlockQ8K{}
		return
	}
	iscale := -127 / vmax
	for j, v := range x {
		// The int8 conversion keeps the low byte, as C's does: with a
		// subnormal max, iscale is ±Inf, nearest_int gives −4194304 and the
		// quant becomes 0.
		b.Qs[j] = int8(min(127, nearestInt(iscale*v)))
	}
	for g := range b.BSums {
		var s int16
		for _, q := range b.Qs[16*g : 16*g+16] {
			s += int16(q)
		}
		b.BSums[g] = s
	}
	b.D = 1 / iscale
}

// DequantizeRowQ8_0 writes x = float32(qs)·d for len(src) blocks into dst,
// bit-exact with ggml's dequantize_row_q8_0. len(dst) must be len(src)·32;
// otherwise it panics. It does not allocate.
func DequantizeRowQ8_0(dst []float32, src []BlockQ8_0) {
	mustDequantLen("DequantizeRowQ8_0", len(dst), len(src), QK8)
	for i := range src {
		b := &src[i]
		y := (*[QK8]float32)(dst[i*QK8:])
		d := b.D.Float32()
		for j, q := range b.Qs {
			y[j] = float32(q) * d
		}
	}
}

// DequantizeRowQ8_1 writes x = float32(qs)·d for len(src) blocks into dst
// (S is not used). ggml has no dequantize_row_q8_1; this is the definition
// its reference data uses. Length contract as DequantizeRowQ8_0.
func DequantizeRowQ8_1(dst []float32, src []BlockQ8_1) {
	mustDequantLen("DequantizeRowQ8_1", len(dst), len(src), QK8)
	for i := range src {
		b := &src[i]
		y := (*[QK8]float32)(dst[i*QK8:])
		d := b.D.Float32()
		for j, q := range b.Qs {
			y[j] = float32(q) * d
		}
	}
}

// DequantizeRowQ8K writes x = d·float32(qs) for len(src) blocks into dst
// (len(dst) must be len(src)·256, or it panics), bit-exact with ggml's
// dequantize_row_q8_K. It does not allocate.
func DequantizeRowQ8K(dst []float32, src []BlockQ8K) {
	mustDequantLen("DequantizeRowQ8K", len(dst), len(src), QK_K)
	for i := range src {
		b := &src[i]
		y := (*[QK_K]float32)(dst[i*QK_K:])
		for j, q := range b.Qs {
			y[j] = b.D * float32(q)
		}
	}
}
