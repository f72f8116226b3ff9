package quant

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"unsafe"
)

// quantTypes are the types whose quantizers reject non-finite input.
var quantTypes = []Type{Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1, Q4K, Q5K, Q6K, Q8K}

func gaussian(seed uint64, n int) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

func mustRowSize(t testing.TB, typ Type, n int) int {
	t.Helper()
	size, err := RowSize(typ, n)
	if err != nil {
		t.Fatal(err)
	}
	return size
}

func TestErrorMessages(t *testing.T) {
	x := gaussian(1, 512)
	cases := []struct {
		name string
		err  error
		is   error
		msg  string
	}{
		{"dst short", Quantize(Q4K, make([]byte, 100), x[:256]), ErrLength,
			"quant: Quantize q4_K: bad length: dst is 100 bytes, want 144 for 256 values"},
		{"dst long", Quantize(Q8_0, make([]byte, 35), x[:32]), ErrLength,
			"quant: Quantize q8_0: bad length: dst is 35 bytes, want 34 for 32 values"},
		{"src not whole blocks", Quantize(Q4K, make([]byte, 144), x[:300]), ErrLength,
			"quant: Quantize q4_K: bad length: row length 300 is not a positive multiple of the block size 256"},
		{"row not whole blocks", QuantizeRows(Q8_0, make([]byte, 34*16), x, 48), ErrLength,
			"quant: QuantizeRows q8_0: bad length: row length 48 is not a positive multiple of the block size 32"},
		{"row length 0", QuantizeRows(Q8_0, nil, nil, 0), ErrLength,
			"quant: QuantizeRows q8_0: bad length: row length 0 is not a positive multiple of the block size 32"},
		{"row length negative", QuantizeRows(F32, nil, nil, -4), ErrLength,
			"quant: QuantizeRows f32: bad length: row length -4 is not a positive multiple of the block size 1"},
		{"src not whole rows", QuantizeRows(Q8_0, make([]byte, 34*16), x, 96), ErrLength,
			"quant: QuantizeRows q8_0: bad length: src has 512 values, not a whole number of 96-value rows"},
		{"quantize unknown type", Quantize(Type(4), nil, nil), ErrUnknownType,
			"quant: Quantize: unknown type 4"},
		{"dequantize unknown type", Dequantize(Type(99), nil, nil), ErrUnknownType,
			"quant: Dequantize: unknown type 99"},
		{"dequantize partial block", Dequantize(Q6K, make([]float32, 256), make([]byte, 209)), ErrLength,
			"quant: Dequantize q6_K: bad length: src is 209 bytes, not a whole number of 210-byte blocks"},
		{"dequantize dst short", Dequantize(Q5_1, make([]float32, 63), make([]byte, 48)), ErrLength,
			"quant: Dequantize q5_1: bad length: dst has 63 values, want 64 for 48 bytes"},
		{"dequantize f16 odd", Dequantize(FP16, make([]float32, 1), make([]byte, 3)), ErrLength,
			"quant: Dequantize f16: bad length: src is 3 bytes, not a whole number of 2-byte blocks"},
		{"typed helper", QuantizeRowQ8K(make([]BlockQ8K, 2), x[:300]), ErrLength,
			"quant: quantize q8_K: bad length: src has 300 values, want 512 for 2 blocks"},
		{"parse", func() error { _, err := ParseType("q4_k"); return err }(), ErrUnknownType, ""},
		{"row size", func() error { _, err := RowSize(Q4K, 255); return err }(), ErrLength, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !errors.Is(c.err, c.is) {
				t.Fatalf("error %v does not wrap %v", c.err, c.is)
			}
			if c.msg != "" && c.err.Error() != c.msg {
				t.Errorf("message\n got %q\nwant %q", c.err, c.msg)
			}
		})
	}
}

// TestNonFinite puts NaN, +Inf and -Inf at each position class of a
// multi-row input, for every type that rejects them, and checks the error
// names the row, the block and the index.
func TestNonFinite(t *testing.T) {
	bad := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, typ := range quantTypes {
		bv := typ.BlockSize()
		rowLen := 2 * QK_K // two blocks of the K types, 16 of the others
		perRow := rowLen / bv
		for _, v := range bad {
			for _, pos := range []struct{ row, block, index int }{{0, 0, 0}, {3, 1, 17}, {3, perRow - 1, bv - 1}, {1, perRow / 2, bv / 2}} {
				x := gaussian(2, 4*rowLen)
				at := pos.row*rowLen + pos.block*bv + pos.index
				x[at] = v
				x[len(x)-1] = v // a later one must not be reported
				dst := make([]byte, mustRowSize(t, typ, len(x)))
				err := QuantizeRows(typ, dst, x, rowLen)
				if !errors.Is(err, ErrNotFinite) {
					t.Fatalf("%s: %v at %v: err = %v, want ErrNotFinite", typ, v, pos, err)
				}
				var nf *NonFiniteError
				if !errors.As(err, &nf) || nf.Type != typ || nf.Row != pos.row || nf.Block != pos.block || nf.Index != pos.index ||
					math.Float32bits(nf.Value) != math.Float32bits(v) {
					t.Fatalf("%s: %v at %v: got %#v", typ, v, pos, nf)
				}
				// Blocks before the bad one are written; the rest are untouched.
				rowBytes := mustRowSize(t, typ, rowLen)
				done := pos.row*rowBytes + pos.block*typ.BlockBytes()
				want := make([]byte, done)
				if err := Quantize(typ, want, x[:done/typ.BlockBytes()*bv]); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(dst[:done], want) || !allZero(dst[done:]) {
					t.Fatalf("%s: %v at %v: dst is not the blocks before the bad one followed by zeros", typ, v, pos)
				}
			}
		}
		// The documented example, and Quantize's single row.
		x := gaussian(3, 4*rowLen)
		x[3*rowLen+bv+17] = float32(math.NaN())
		err := QuantizeRows(typ, make([]byte, mustRowSize(t, typ, len(x))), x, rowLen)
		if want := "quant: " + typ.String() + " row 3 block 1: non-finite input (NaN at index 17)"; err == nil || err.Error() != want {
			t.Errorf("message\n got %v\nwant %s", err, want)
		}
		err = Quantize(typ, make([]byte, mustRowSize(t, typ, len(x))), x)
		if want := "quant: " + typ.String() + " row 0 block " + strconv.Itoa(3*perRow+1) + ": non-finite input (NaN at index 17)"; err == nil || err.Error() != want {
			t.Errorf("message\n got %v\nwant %s", err, want)
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestFloatTypesKeepNonFinite: F32 and F16 can represent NaN and ±Inf, so
// they store them instead of failing.
func TestFloatTypesKeepNonFinite(t *testing.T) {
	x := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1.5, -0, 70000}
	for _, typ := range []Type{F32, FP16} {
		b := make([]byte, mustRowSize(t, typ, len(x)))
		if err := Quantize(typ, b, x); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		y := make([]float32, len(x))
		if err := Dequantize(typ, y, b); err != nil {
			t.Fatal(err)
		}
		if !math.IsNaN(float64(y[0])) || !math.IsInf(float64(y[1]), 1) || !math.IsInf(float64(y[2]), -1) || y[3] != 1.5 {
			t.Errorf("%s: round trip of %v gave %v", typ, x, y)
		}
		if typ == FP16 && !math.IsInf(float64(y[5]), 1) {
			t.Errorf("f16: 70000 should overflow to +Inf, got %v", y[5])
		}
	}
}

// alignedBytes returns n bytes starting at an 8-byte aligned address, with
// room for an offset of up to 7.
func alignedBytes(n int) []byte {
	buf := make([]uint64, n/8+2)
	return unsafe.Slice((*byte)(unsafe.Pointer(&buf[0])), len(buf)*8)
}

func TestViews(t *testing.T) {
	views := []struct {
		name        string
		size, align int
		fn          func([]byte) (int, error) // the view's length and error
	}{
		{"AsQ4K", 144, 2, func(b []byte) (int, error) { v, err := AsQ4K(b); return len(v), err }},
		{"AsQ5K", 176, 2, func(b []byte) (int, error) { v, err := AsQ5K(b); return len(v), err }},
		{"AsQ6K", 210, 2, func(b []byte) (int, error) { v, err := AsQ6K(b); return len(v), err }},
		{"AsQ8K", 292, 4, func(b []byte) (int, error) { v, err := AsQ8K(b); return len(v), err }},
		{"AsQ8_0", 34, 2, func(b []byte) (int, error) { v, err := AsQ8_0(b); return len(v), err }},
		{"AsQ8_1", 36, 2, func(b []byte) (int, error) { v, err := AsQ8_1(b); return len(v), err }},
		{"AsQ4_0", 18, 2, func(b []byte) (int, error) { v, err := AsQ4_0(b); return len(v), err }},
		{"AsQ4_1", 20, 2, func(b []byte) (int, error) { v, err := AsQ4_1(b); return len(v), err }},
		{"AsQ5_0", 22, 2, func(b []byte) (int, error) { v, err := AsQ5_0(b); return len(v), err }},
		{"AsQ5_1", 24, 2, func(b []byte) (int, error) { v, err := AsQ5_1(b); return len(v), err }},
		{"AsF16", 2, 2, func(b []byte) (int, error) { v, err := AsF16(b); return len(v), err }},
		{"AsF32", 4, 4, func(b []byte) (int, error) { v, err := AsF32(b); return len(v), err }},
	}
	for _, v := range views {
		buf := alignedBytes(3*v.size + 8)
		if n, err := v.fn(buf[:3*v.size]); err != nil || n != 3 {
			t.Errorf("%s: aligned 3 blocks: n=%d err=%v", v.name, n, err)
		}
		if n, err := v.fn(buf[:0]); err != nil || n != 0 {
			t.Errorf("%s: empty: n=%d err=%v", v.name, n, err)
		}
		if _, err := v.fn(nil); err != nil {
			t.Errorf("%s: nil: %v", v.name, err)
		}
		if _, err := v.fn(buf[:3*v.size-1]); !errors.Is(err, ErrLength) {
			t.Errorf("%s: truncated: err=%v, want ErrLength", v.name, err)
		}
		for off := 1; off < v.align; off++ {
			if _, err := v.fn(buf[off : off+2*v.size]); !errors.Is(err, ErrAlignment) {
				t.Errorf("%s: offset %d: err=%v, want ErrAlignment", v.name, off, err)
			}
		}
	}
}

// TestMisalignedBytes: the byte API takes any slice; a misaligned one gives
// the same results as an aligned one.
func TestMisalignedBytes(t *testing.T) {
	x := gaussian(4, 512)
	for _, typ := range Types() {
		size := mustRowSize(t, typ, len(x))
		want := make([]byte, size)
		if err := Quantize(typ, want, x); err != nil {
			t.Fatal(err)
		}
		wantY := make([]float32, len(x))
		if err := Dequantize(typ, wantY, want); err != nil {
			t.Fatal(err)
		}
		buf := alignedBytes(size + 8)
		for _, off := range []int{1, 2, 3} {
			b := buf[off : off+size]
			clear(b)
			if err := Quantize(typ, b, x); err != nil || !bytes.Equal(b, want) {
				t.Errorf("%s: Quantize at offset %d: err=%v, equal=%v", typ, off, err, bytes.Equal(b, want))
			}
			y := make([]float32, len(x))
			if err := Dequantize(typ, y, b); err != nil {
				t.Fatal(err)
			}
			for i := range y {
				if math.Float32bits(y[i]) != math.Float32bits(wantY[i]) {
					t.Fatalf("%s: Dequantize at offset %d: value %d is %v, want %v", typ, off, i, y[i], wantY[i])
				}
			}
		}
	}
}

func TestDequantizeRowPanicsOnLength(t *testing.T) {
	defer func() {
		err, _ := recover().(error)
		if !errors.Is(err, ErrLength) {
			t.Errorf("recovered %v, want an error wrapping ErrLength", err)
		}
	}()
	DequantizeRowQ4K(make([]float32, 255), make([]BlockQ4K, 1))
}

func TestEmpty(t *testing.T) {
	for _, typ := range Types() {
		if err := Quantize(typ, nil, nil); err != nil {
			t.Errorf("%s: Quantize(empty): %v", typ, err)
		}
		if err := Dequantize(typ, nil, nil); err != nil {
			t.Errorf("%s: Dequantize(empty): %v", typ, err)
		}
		if err := QuantizeRows(typ, nil, nil, typ.BlockSize()); err != nil {
			t.Errorf("%s: QuantizeRows(empty): %v", typ, err)
		}
	}
}

// TestTypedHelpersNoAlloc: the kernels call the typed helpers in hot loops.
func TestTypedHelpersNoAlloc(t *testing.T) {
	x := gaussian(5, 512)
	y := make([]float32, len(x))
	q4 := make([]BlockQ4K, 2)
	q8 := make([]BlockQ8K, 2)
	q80 := make([]BlockQ8_0, 16)
	allocs := testing.AllocsPerRun(10, func() {
		_ = QuantizeRowQ4K(q4, x)
		DequantizeRowQ4K(y, q4)
		_ = QuantizeRowQ8K(q8, x)
		DequantizeRowQ8K(y, q8)
		_ = QuantizeRowQ8_0(q80, x)
		DequantizeRowQ8_0(y, q80)
	})
	if allocs != 0 {
		t.Errorf("typed helpers allocate %v times per run", allocs)
	}
}
