package quant

import "math"

// The legacy 32-value formats Q4_0, Q4_1, Q5_0 and Q5_1. All four put the
// code of value i (0..15) in the low nibble of qs[i] and that of value i+16
// in the high nibble; the 5-bit formats keep bit 4 of code i in bit i of the
// little-endian uint32 Qh.
//
// The reference quantizers round with float32(t) and a truncating
// conversion, t = x·id + 8.5 (or + 0.5 after subtracting the minimum), so
// ties go up; the add itself rounds too. Both roundings are reproduced.
// When 1/d overflows (subnormal blocks), t is non-finite and gcc's
// conversion yields code 0; truncInt32 makes that explicit.

// QuantizeRowQ4_0 quantizes len(dst) blocks from src (len(dst)·32 values),
// bit-exact with ggml's quantize_row_q4_0_ref: d = max/−8 for max the first
// value of largest magnitude, code = min(15, trunc(x·(1/d) + 8.5)).
// It returns a *NonFiniteError, wrapping ErrNotFinite, at the first block
// holding NaN or ±Inf; the blocks before it have been written, the rest are
// untouched. It does not allocate.
func QuantizeRowQ4_0(dst []BlockQ4_0, src []float32) error {
	return quantizeRow(Q4_0, dst, src, quantizeBlockQ4_0)
}

func quantizeBlockQ4_0(b *BlockQ4_0, xs []float32) {
	x := (*[QK8]float32)(xs)
	d, id := symScale(x, -8)
	b.D = FromFloat32(d)
	for j := range QK8 / 2 {
		c0 := uint8(min(15, int32(int8(truncInt32(float32(x[j]*id)+8.5)))))
		c1 := uint8(min(15, int32(int8(truncInt32(float32(x[j+16]*id)+8.5)))))
		b.Qs[j] = c0 | c1<<4
	}
}

// QuantizeRowQ5_0 quantizes len(dst) blocks from src (len(dst)·32 values),
// bit-exact with ggml's quantize_row_q5_0_ref: d = max/−16,
// code = min(31, trunc(x·(1/d) + 16.5)). Errors and allocation as
// QuantizeRowQ4_0.
func QuantizeRowQ5_0(dst []BlockQ5_0, src []float32) error {
	return quantizeRow(Q5_0, dst, src, quantizeBlockQ5_0)
}

func quantizeBlockQ5_0(b *BlockQ5_0, xs []float32) {
	x := (*[QK8]float32)(xs)
	d, id := symScale(x, -16)
	b.D = FromFloat32(d)
	var qh uint32
	for j := range QK8 / 2 {
		c0 := uint8(min(31, int32(int8(truncInt32(float32(x[j]*id)+16.5)))))
		c1 := uint8(min(31, int32(int8(truncInt32(float32(x[j+16]*id)+16.5)))))
		b.Qs[j] = c0&15 | (c1&15)<<4
		qh |= uint32(c0>>4&1)<<j | uint32(c1>>4&1)<<(j+16)
	}
	b.Qh = [4]byte{byte(qh), byte(qh >> 8), byte(qh >> 16), byte(qh >> 24)}
}

// symScale returns d = max/div, for max the first value of largest
// magnitude, and 1/d (0 when d is 0).
func symScale(x *[QK8]float32, div float32) (d, id float32) {
	var amax, vmax float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, vmax = a, v
		}
	}
	d = vmax / div
	if d != 0 {
		id = 1 / d
	}
	return d, id
}

// QuantizeRowQ4_1 quantizes len(dst) blocks from src (len(dst)·32 values),
// bit-exact with ggml's quantize_row_q4_1_ref: d = (max−min)/15, m = min,
// code = min(15, trunc((x−min)·(1/d) + 0.5)) from the float32 min and d.
// Errors and allocation as QuantizeRowQ4_0.
func QuantizeRowQ4_1(dst []BlockQ4_1, src []float32) error {
	return quantizeRow(Q4_1, dst, src, quantizeBlockQ4_1)
}

func quantizeBlockQ4_1(b *BlockQ4_1, xs []float32) {
	x := (*[QK8]float32)(xs)
	lo, d, id := affineScale(x, 15)
	b.D, b.M = FromFloat32(d), FromFloat32(lo)
	for j := range QK8 / 2 {
		c0 := uint8(min(15, int32(int8(truncInt32(float32((x[j]-lo)*id)+0.5)))))
		c1 := uint8(min(15, int32(int8(truncInt32(float32((x[j+16]-lo)*id)+0.5)))))
		b.Qs[j] = c0 | c1<<4
	}
}

// QuantizeRowQ5_1 quantizes len(dst) blocks from src (len(dst)·32 values),
// bit-exact with ggml's quantize_row_q5_1_ref: d = (max−min)/31, m = min,
// code = trunc((x−min)·(1/d) + 0.5), unclamped as in ggml. Errors and
// allocation as QuantizeRowQ4_0.
func QuantizeRowQ5_1(dst []BlockQ5_1, src []float32) error {
	return quantizeRow(Q5_1, dst, src, quantizeBlockQ5_1)
}

func quantizeBlockQ5_1(b *BlockQ5_1, xs []float32) {
	x := (*[QK8]float32)(xs)
	lo, d, id := affineScale(x, 31)
	b.D, b.M = FromFloat32(d), FromFloat32(lo)
	var qh uint32
	for j := range QK8 / 2 {
		c0 := uint8(truncInt32(float32((x[j]-lo)*id) + 0.5))
		c1 := uint8(truncInt32(float32((x[j+16]-lo)*id) + 0.5))
		b.Qs[j] = c0&15 | (c1&15)<<4
		qh |= uint32(c0>>4&1)<<j | uint32(c1>>4&1)<<(j+16)
	}
	b.Qh = [4]byte{byte(qh), byte(qh >> 8), byte(qh >> 16), byte(qh >> 24)}
}

// affineScale returns the block minimum lo, d = (max−lo)/levels and 1/d
// (0 when d is 0).
func affineScale(x *[QK8]float32, levels float32) (lo, d, id float32) {
	lo, hi := float32(math.MaxFloat32), float32(-math.MaxFloat32)
	for _, v := range x {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	d = (hi - lo) / levels
	if d != 0 {
		id = 1 / d
	}
	return lo, d, id
}

// DequantizeRowQ4_0 writes x = float32(code−8)·d for len(src) blocks into
// dst, bit-exact with ggml's dequantize_row_q4_0. len(dst) must be
// len(src)·32; otherwise it panics. It does not allocate.
func DequantizeRowQ4_0(dst []float32, src []BlockQ4_0) {
	mustDequantLen("DequantizeRowQ4_0", len(dst), len(src), QK8)
	for i := range src {
		b := &src[i]
		y := (*[QK8]float32)(dst[i*QK8:])
		d := b.D.Float32()
		for j, q := range b.Qs {
			y[j] = float32(int32(q&15)-8) * d
			y[j+16] = float32(int32(q>>4)-8) * d
		}
	}
}

// DequantizeRowQ4_1 writes x = float32(code)·d + m, the product rounded
// before the add as in ggml's dequantize_row_q4_1 (bit-exact). Length
// contract as DequantizeRowQ4_0.
func DequantizeRowQ4_1(dst []float32, src []BlockQ4_1) {
	mustDequantLen("DequantizeRowQ4_1", len(dst), len(src), QK8)
	for i := range src {
		b := &src[i]
		y := (*[QK8]float32)(dst[i*QK8:])
		d, m := b.D.Float32(), b.M.Float32()
		for j, q := range b.Qs {
			y[j] = float32(float32(q&15)*d) + m
			y[j+16] = float32(float32(q>>4)*d) + m
		}
	}
}

// DequantizeRowQ5_0 writes x = float32(code−16)·d, bit-exact with ggml's
// dequantize_row_q5_0. Length contract as DequantizeRowQ4_0.
func DequantizeRowQ5_0(dst []float32, src []BlockQ5_0) {
	mustDequantLen("DequantizeRowQ5_0", len(dst), len(src), QK8)
	for i := range src {
		b := &src[i]
		y := (*[QK8]float32)(dst[i*QK8:])
		d := b.D.Float32()
		qh := uint32(b.Qh[0]) | uint32(b.Qh[1])<<8 | uint32(b.Qh[2])<<16 | uint32(b.Qh[3])<<24
		for j, q := range b.Qs {
			c0 := int32(q&15) | int32(qh>>j&1)<<4
			c1 := int32(q>>4) | int32(qh>>(j+16)&1)<<4
			y[j] = float32(c0-16) * d
			y[j+16] = float32(c1-16) * d
		}
	}
}

// DequantizeRowQ5_1 writes x = float32(code)·d + m, the product rounded
// before the add (bit-exact with ggml's dequantize_row_q5_1). Length
// contract as DequantizeRowQ4_0.
func DequantizeRowQ5_1(dst []float32, src []BlockQ5_1) {
	mustDequantLen("DequantizeRowQ5_1", len(dst), len(src), QK8)
	for i := range src {
		b := &src[i]
		y := (*[QK8]float32)(dst[i*QK8:])
		d, m := b.D.Float32(), b.M.Float32()
		qh := uint32(b.Qh[0]) | uint32(b.Qh[1])<<8 | uint32(b.Qh[2])<<16 | uint32(b.Qh[3])<<24
		for j, q := range b.Qs {
			c0 := uint32(q&15) | (qh>>j&1)<<4
			c1 := uint32(q>>4) | (qh>>(j+16)&1)<<4
			y[j] = float32(float32(c0)*d) + m
			y[j+16] = float32(float32(c1)*d) + m
		}
	}
}
