package quant

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"
)

// NonFiniteError reports a NaN or ±Inf in a quantizer's input. It wraps
// ErrNotFinite. The value sits at src[Row·rowLen + Block·Type.BlockSize() +
// Index].
type NonFiniteError struct {
	Type  Type
	Row   int     // row of the input; 0 for a single row
	Block int     // block within the row
	Index int     // value within the block
	Value float32 // the NaN or ±Inf found
}

// Error names the type, row, block and index, as in
// "quant: q4_K row 3 block 1: non-finite input (NaN at index 17)".
func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("quant: %s row %d block %d: %v (%v at index %d)", e.Type, e.Row, e.Block, ErrNotFinite, e.Value, e.Index)
}

// Unwrap returns ErrNotFinite.
func (e *NonFiniteError) Unwrap() error { return ErrNotFinite }

func nonFinite(t Type, block, index int, v float32) error {
	return &NonFiniteError{Type: t, Block: block, Index: index, Value: v}
}

// quantizeRow is the body of the typed QuantizeRow* helpers: it checks the
// lengths, then quantizes block by block with q, stopping at the first block
// that holds NaN or ±Inf (whose quantization would be meaningless).
func quantizeRow[B blockTypes](t Type, dst []B, src []float32, q func(b *B, x []float32)) error {
	n := t.BlockSize()
	if want := len(dst) * n; len(src) != want {
		return fmt.Errorf("quant: quantize %s: %w: src has %d values, want %d for %d blocks", t, ErrLength, len(src), want, len(dst))
	}
	for i := range dst {
		x := src[i*n : (i+1)*n]
		if j := firstNonFinite(x); j >= 0 {
			return nonFinite(t, i, j, x[j])
		}
		q(&dst[i], x)
	}
	return nil
}

// mustDequantLen is the length check of the typed DequantizeRow* helpers,
// which sit in kernels' inner loops and so panic rather than return errors.
func mustDequantLen(fn string, values, blocks, blockVals int) {
	if values != blocks*blockVals {
		panic(fmt.Errorf("quant: %s: %w: dst has %d values, want %d for %d blocks", fn, ErrLength, values, blocks*blockVals, blocks))
	}
}

// Quantize encodes src as type t into dst, treating src as one row (blocks
// in order, so any number of whole rows gives the same bytes). len(src) must
// be a multiple of t's block size and len(dst) must be
// RowSize(t, len(src)); dst may have any alignment.
//
// The bytes are bit-exact with ggml's quantize_row_<t>_ref. F32 stores the
// values as they are and FP16 converts them with FromFloat32; both keep
// NaN and ±Inf. Every other type rejects them with a *NonFiniteError
// (wrapping ErrNotFinite) naming the block; the blocks before it have been
// written. Other errors wrap ErrUnknownType or ErrLength and leave dst
// untouched.
func Quantize(t Type, dst []byte, src []float32) error {
	rowLen := len(src)
	if rowLen == 0 {
		rowLen = max(1, t.BlockSize()) // zero rows of any valid length
	}
	return quantizeRows("Quantize", t, dst, src, rowLen)
}

// QuantizeRows is Quantize for len(src)/rowLen rows of rowLen values each,
// which differs only in its errors: rowLen must be a positive multiple of
// t's block size and divide len(src), and a *NonFiniteError names the row
// and the block within it.
func QuantizeRows(t Type, dst []byte, src []float32, rowLen int) error {
	return quantizeRows("QuantizeRows", t, dst, src, rowLen)
}

func quantizeRows(op string, t Type, dst []byte, src []float32, rowLen int) error {
	c, ok := codecs[t]
	if !ok {
		return fmt.Errorf("quant: %s: %w %d", op, ErrUnknownType, uint32(t))
	}
	bv := t.BlockSize()
	if rowLen <= 0 || rowLen%bv != 0 {
		return fmt.Errorf("quant: %s %s: %w: row length %d is not a positive multiple of the block size %d", op, t, ErrLength, rowLen, bv)
	}
	if len(src)%rowLen != 0 {
		return fmt.Errorf("quant: %s %s: %w: src has %d values, not a whole number of %d-value rows", op, t, ErrLength, len(src), rowLen)
	}
	if want := len(src) / bv * t.BlockBytes(); len(dst) != want {
		return fmt.Errorf("quant: %s %s: %w: dst is %d bytes, want %d for %d values", op, t, ErrLength, len(dst), want, len(src))
	}
	// Rows are whole blocks, so one pass over all of them gives the same
	// bytes; only the error needs the row.
	err := c.quantize(dst, src)
	if nf, ok := err.(*NonFiniteError); ok {
		perRow := rowLen / bv
		nf.Row, nf.Block = nf.Block/perRow, nf.Block%perRow
	}
	return err
}

// Dequantize decodes src, whole blocks of type t, into dst. len(src) must
// be a multiple of t's block bytes and len(dst) the number of values those
// blocks hold; src may have any alignment. The values are bit-exact with
// ggml's dequantize_row_<t> (for Q8_1, which ggml cannot dequantize,
// float32(qs)·d). Errors wrap ErrUnknownType or ErrLength and leave dst
// untouched.
func Dequantize(t Type, dst []float32, src []byte) error {
	c, ok := codecs[t]
	if !ok {
		return fmt.Errorf("quant: Dequantize: %w %d", ErrUnknownType, uint32(t))
	}
	bb := t.BlockBytes()
	if len(src)%bb != 0 {
		return fmt.Errorf("quant: Dequantize %s: %w: src is %d bytes, not a whole number of %d-byte blocks", t, ErrLength, len(src), bb)
	}
	if want := len(src) / bb * t.BlockSize(); len(dst) != want {
		return fmt.Errorf("quant: Dequantize %s: %w: dst has %d values, want %d for %d bytes", t, ErrLength, len(dst), want, len(src))
	}
	c.dequantize(dst, src)
	return nil
}

// codec is the byte-level form of one type's row functions; lengths are
// checked by the caller.
type codec struct {
	quantize   func(dst []byte, src []float32) error
	dequantize func(dst []float32, src []byte)
}

var codecs = map[Type]codec{
	F32: {
		quantize: func(dst []byte, src []float32) error {
			for i, v := range src {
				binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
			}
			return nil
		},
		dequantize: func(dst []float32, src []byte) {
			for i := range dst {
				dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
			}
		},
	},
	FP16: {
		quantize: func(dst []byte, src []float32) error {
			for i, v := range src {
				binary.LittleEndian.PutUint16(dst[2*i:], uint16(FromFloat32(v)))
			}
			return nil
		},
		dequantize: func(dst []float32, src []byte) {
			for i := range dst {
				dst[i] = F16(binary.LittleEndian.Uint16(src[2*i:])).Float32()
			}
		},
	},
	Q4_0: blockCodec(Q4_0, QuantizeRowQ4_0, DequantizeRowQ4_0),
	Q4_1: blockCodec(Q4_1, QuantizeRowQ4_1, DequantizeRowQ4_1),
	Q5_0: blockCodec(Q5_0, QuantizeRowQ5_0, DequantizeRowQ5_0),
	Q5_1: blockCodec(Q5_1, QuantizeRowQ5_1, DequantizeRowQ5_1),
	Q8_0: blockCodec(Q8_0, QuantizeRowQ8_0, DequantizeRowQ8_0),
	Q8_1: blockCodec(Q8_1, QuantizeRowQ8_1, DequantizeRowQ8_1),
	Q4K:  blockCodec(Q4K, QuantizeRowQ4K, DequantizeRowQ4K),
	Q5K:  blockCodec(Q5K, QuantizeRowQ5K, DequantizeRowQ5K),
	Q6K:  blockCodec(Q6K, QuantizeRowQ6K, DequantizeRowQ6K),
	Q8K:  blockCodec(Q8K, QuantizeRowQ8K, DequantizeRowQ8K),
}

// blockCodec adapts a block type's typed row functions to bytes. Bytes that
// are not aligned for B (a GGUF tensor at an odd offset, say) go through an
// aligned copy, so the byte API accepts any slice.
func blockCodec[B blockTypes](t Type, q func([]B, []float32) error, dq func([]float32, []B)) codec {
	return codec{
		quantize: func(dst []byte, src []float32) error {
			blocks, err := view[B](t, dst)
			if err != nil {
				blocks = make([]B, len(dst)/blockSize[B]())
				defer copy(dst, blockBytes(blocks))
			}
			return q(blocks, src)
		},
		dequantize: func(dst []float32, src []byte) {
			blocks, err := view[B](t, src)
			if err != nil {
				blocks = make([]B, len(src)/blockSize[B]())
				copy(blockBytes(blocks), src)
			}
			dq(dst, blocks)
		},
	}
}

func blockSize[B blockTypes]() int {
	var zero B
	return int(unsafe.Sizeof(zero))
}

// blockBytes views blocks as their bytes.
func blockBytes[B blockTypes](blocks []B) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(blocks))), len(blocks)*blockSize[B]())
}
