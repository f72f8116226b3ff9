package spi

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// rawWeights returns rows×cols weights of type t as raw bytes: random
// bytes everywhere, with the scale fields set to special binary16 patterns
// (zero, subnormal, huge, ±Inf, NaN) in about a third of the blocks.
func rawWeights(r *rand.Rand, t quant.Type, rows, cols int) []byte {
	rb, _ := quant.RowSize(t, cols)
	b := make([]byte, rows*rb)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	scaleOffs := map[quant.Type][]int{quant.Q4K: {0, 2}, quant.Q5K: {0, 2}, quant.Q6K: {208}, quant.Q8_0: {0},
		quant.Q4_0: {0}, quant.Q5_0: {0}, quant.Q4_1: {0, 2}, quant.Q5_1: {0, 2}}[t]
	specials := []uint16{0x0000, 0x0001, 0x03ff, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x2000}
	bb := t.BlockBytes()
	for off := 0; off < len(b); off += bb {
		for _, so := range scaleOffs {
			if r.IntN(3) == 0 {
				v := specials[r.IntN(len(specials))]
				b[off+so], b[off+so+1] = byte(v), byte(v>>8)
			} else if r.IntN(2) == 0 { // an ordinary scale
				v := uint16(quant.FromFloat32(float32(r.NormFloat64() * 0.01)))
				b[off+so], b[off+so+1] = byte(v), byte(v>>8)
			}
		}
	}
	return b
}

// TestRawWeightsEveryVariant: raw weight bytes through MatVec and MatMul
// (tokens 1, 13 = an 8-column tile + a 4-column tile + a tail, 17 and 33),
// every kernel variant against the generic backend, sequential and on the
// hardware pool: the same bits (NaN results are the canonical NaN).
func TestRawWeightsEveryVariant(t *testing.T) {
	gen, err := New(WithKernels(kernels.Generic), WithSchedule(sched.Sequential))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 5))
	const rows = 37
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0, quant.Q4_0, quant.Q5_0, quant.Q4_1, quant.Q5_1} {
		cols := 512
		w := Matrix{Type: typ, Rows: rows, Cols: cols, Data: rawWeights(r, typ, rows, cols)}
		for _, n := range []int{1, 13, 17, 33} {
			x := make([]float32, n*cols)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			want := make([]float32, n*rows)
			if err := gen.Context().MatMul(want, w, x, n); err != nil {
				t.Fatal(err)
			}
			for _, v := range kernels.Variants() {
				for _, s := range []sched.Schedule{sched.Sequential, sched.Hardware()} {
					b, err := New(WithKernels(v), WithSchedule(s))
					if err != nil {
						t.Fatal(err)
					}
					got := make([]float32, n*rows)
					if n == 1 {
						err = b.Context().MatVec(got, w, x)
					} else {
						err = b.Context().MatMul(got, w, x, n)
					}
					if err != nil {
						t.Fatal(err)
					}
					for i := range got {
						g, e := got[i], want[i]
						if math.Float32bits(g) != math.Float32bits(e) {
							t.Fatalf("%v n=%d variant=%s sched=%s: [%d] = %v (%#08x), generic %v (%#08x)",
								typ, n, v, s.Name(), i, g, math.Float32bits(g), e, math.Float32bits(e))
						}
					}
				}
			}
		}
	}
}
