package quant

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"unsafe"
)

// fuzzType maps a fuzzer byte to a type: mostly valid ones, sometimes an
// unknown id.
func fuzzType(b uint8) Type {
	all := Types()
	if int(b) < 2*len(all) {
		return all[int(b)%len(all)]
	}
	return Type(b)
}

func floatsFromBytes(data []byte) []float32 {
	x := make([]float32, len(data)/4)
	for i := range x {
		x[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return x
}

// FuzzDequantize: any type and bytes; never panics, errors exactly when the
// lengths are wrong, and the result does not depend on the alignment.
func FuzzDequantize(f *testing.F) {
	for i := range 2 * len(Types()) {
		n := 2 * Types()[i%len(Types())].BlockBytes()
		seed := make([]byte, n+i%2) // whole blocks, and one byte over
		for j := range seed {
			seed[j] = byte(j*37 + i)
		}
		f.Add(uint8(i), seed)
	}
	f.Add(uint8(250), []byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, tb uint8, data []byte) {
		typ := fuzzType(tb)
		if !typ.Valid() {
			if err := Dequantize(typ, nil, data); !errors.Is(err, ErrUnknownType) {
				t.Fatalf("type %d: err = %v, want ErrUnknownType", typ, err)
			}
			return
		}
		bb, bv := typ.BlockBytes(), typ.BlockSize()
		n := len(data) / bb * bv
		y := make([]float32, n)
		err := Dequantize(typ, y, data)
		if (len(data)%bb != 0) != errors.Is(err, ErrLength) || (err != nil && !errors.Is(err, ErrLength)) {
			t.Fatalf("%s, %d bytes: err = %v", typ, len(data), err)
		}
		if err != nil {
			return
		}
		if n > 0 {
			if err := Dequantize(typ, y[1:], data); !errors.Is(err, ErrLength) {
				t.Fatalf("%s: short dst: err = %v, want ErrLength", typ, err)
			}
		}
		buf := alignedBytes(len(data) + 8)
		mis := buf[1 : 1+len(data)]
		copy(mis, data)
		y2 := make([]float32, n)
		if err := Dequantize(typ, y2, mis); err != nil {
			t.Fatal(err)
		}
		for i := range y {
			if math.Float32bits(y[i]) != math.Float32bits(y2[i]) {
				t.Fatalf("%s: misaligned value %d is %v, aligned %v", typ, i, y2[i], y[i])
			}
		}
	})
}

// FuzzViews: every view, at any offset and length, is a correct view or an
// error, never a panic.
func FuzzViews(f *testing.F) {
	f.Add(uint8(0), uint16(144))
	f.Add(uint8(1), uint16(292))
	f.Add(uint8(2), uint16(292*2))
	f.Add(uint8(3), uint16(35))
	f.Add(uint8(0), uint16(0))
	f.Fuzz(func(t *testing.T, off uint8, n uint16) {
		buf := alignedBytes(int(n) + 8)
		b := buf[off%8 : int(off%8)+int(n)]
		addr := uintptr(unsafe.Pointer(unsafe.SliceData(buf))) + uintptr(off%8)
		check := func(name string, got int, err error, size, align int) {
			wantLen := len(b)%size != 0
			wantAlign := !wantLen && len(b) > 0 && addr%uintptr(align) != 0
			switch {
			case wantLen && !errors.Is(err, ErrLength),
				wantAlign && !errors.Is(err, ErrAlignment),
				!wantLen && !wantAlign && (err != nil || got*size != len(b)):
				t.Fatalf("%s(%d bytes at offset %d): %d elements, err %v", name, len(b), off%8, got, err)
			}
		}
		v1, err := AsQ4K(b)
		check("AsQ4K", len(v1), err, 144, 2)
		v2, err := AsQ5K(b)
		check("AsQ5K", len(v2), err, 176, 2)
		v3, err := AsQ6K(b)
		check("AsQ6K", len(v3), err, 210, 2)
		v4, err := AsQ8K(b)
		check("AsQ8K", len(v4), err, 292, 4)
		v5, err := AsQ8_0(b)
		check("AsQ8_0", len(v5), err, 34, 2)
		v6, err := AsQ8_1(b)
		check("AsQ8_1", len(v6), err, 36, 2)
		v7, err := AsQ4_0(b)
		check("AsQ4_0", len(v7), err, 18, 2)
		v8, err := AsQ4_1(b)
		check("AsQ4_1", len(v8), err, 20, 2)
		v9, err := AsQ5_0(b)
		check("AsQ5_0", len(v9), err, 22, 2)
		v10, err := AsQ5_1(b)
		check("AsQ5_1", len(v10), err, 24, 2)
		v11, err := AsF16(b)
		check("AsF16", len(v11), err, 2, 2)
		v12, err := AsF32(b)
		check("AsF32", len(v12), err, 4, 4)
		if len(v4) > 0 { // a view aliases the bytes
			v4[len(v4)-1].BSums[15] = 0x0102
			if b[len(b)-2] != 2 || b[len(b)-1] != 1 {
				t.Fatal("AsQ8K view does not alias its bytes")
			}
		}
	})
}

// FuzzQuantize: any float32 input, non-finite included. Non-finite input
// is an ErrNotFinite error naming the first bad value; finite input
// dequantizes to finite values (for magnitudes where ggml's float32
// arithmetic cannot overflow), and Q8_0/Q8_1/Q8_K re-quantize their own
// output stably.
func FuzzQuantize(f *testing.F) {
	seed := func(vals ...float32) []byte {
		b := make([]byte, 4*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	g := gaussian(11, 256)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for i := range len(Types()) {
		f.Add(uint8(i), seed(g...))
		f.Add(uint8(i), seed(append(append([]float32{}, g[:100]...), append([]float32{nan}, g[101:]...)...)...))
	}
	f.Add(uint8(9), seed(append([]float32{-inf}, g[1:]...)...))
	f.Add(uint8(6), seed(make([]float32, 256)...))
	f.Add(uint8(11), seed(append([]float32{1e-40, -3e-39}, make([]float32, 254)...)...))
	f.Fuzz(func(t *testing.T, tb uint8, data []byte) {
		typ := fuzzType(tb)
		if !typ.Valid() {
			return
		}
		x := floatsFromBytes(data)
		x = x[:len(x)/typ.BlockSize()*typ.BlockSize()]
		q := make([]byte, mustRowSize(t, typ, len(x)))
		err := Quantize(typ, q, x)
		bad := firstNonFinite(x)
		if typ == F32 || typ == FP16 {
			bad = -1
		}
		if bad >= 0 {
			var nf *NonFiniteError
			if !errors.As(err, &nf) || !errors.Is(err, ErrNotFinite) ||
				nf.Block*typ.BlockSize()+nf.Index != bad || nf.Row != 0 {
				t.Fatalf("%s: first non-finite at %d, err = %v", typ, bad, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		y := make([]float32, len(x))
		if err := Dequantize(typ, y, q); err != nil {
			t.Fatal(err)
		}
		small := true
		for _, v := range x {
			small = small && abs32(v) <= 1e4
		}
		if typ == F32 || !small {
			return
		}
		for i, v := range y {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("%s: finite input dequantized to %v at %d", typ, v, i)
			}
		}
		switch typ {
		case Q8_0, Q8_1, Q8K:
			checkRequantize(t, typ, x, q, y)
		}
	})
}

// checkRequantize re-quantizes the dequantized values y of x (quantized as
// q). Q8_0 and Q8_1 reproduce d and qs exactly, Q8_K reproduces the values
// (its sign convention may flip d and qs), in every block with a scale
// large enough not to lose bits to underflow.
func checkRequantize(t *testing.T, typ Type, x []float32, q []byte, y []float32) {
	q2 := make([]byte, len(q))
	if err := Quantize(typ, q2, y); err != nil {
		t.Fatal(err)
	}
	y2 := make([]float32, len(y))
	if err := Dequantize(typ, y2, q2); err != nil {
		t.Fatal(err)
	}
	bb, bv := typ.BlockBytes(), typ.BlockSize()
	for blk := range len(q) / bb {
		var amax float32
		for _, v := range y[blk*bv : (blk+1)*bv] {
			amax = max(amax, abs32(v))
		}
		if amax < 1e-30 {
			continue
		}
		b1, b2 := q[blk*bb:(blk+1)*bb], q2[blk*bb:(blk+1)*bb]
		switch typ {
		case Q8_0:
			if string(b1) != string(b2) {
				t.Fatalf("q8_0 block %d re-quantized to different bytes", blk)
			}
		case Q8_1: // S comes from the unrounded d, so only D and Qs repeat
			if string(b1[:2]) != string(b2[:2]) || string(b1[4:]) != string(b2[4:]) {
				t.Fatalf("q8_1 block %d re-quantized to different d or qs", blk)
			}
		case Q8K:
			for i := blk * bv; i < (blk+1)*bv; i++ {
				if abs32(y2[i]-y[i]) > 1e-6*amax {
					t.Fatalf("q8_K block %d value %d: %v re-quantized to %v", blk, i, y[i], y2[i])
				}
			}
		}
	}
}
