package kernels

import (
	"math"
	"math/rand/v2"

	"github.com/corelane/corelane/quant"
)

// Random but valid operands. Weight blocks are random bytes with finite
// scales (every bit pattern of the quants is a valid block); activation
// blocks have quants in [-127, 127] (what ggml's quantizers produce, and
// what the kernels assume) and bsums equal to the sums of their quants.

func randF16(r *rand.Rand, scale float32) quant.F16 {
	return quant.FromFloat32(float32(r.NormFloat64()) * scale)
}

func randBytes(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

func randQ4K(r *rand.Rand, n int) []quant.BlockQ4K {
	w := make([]quant.BlockQ4K, n)
	for i := range w {
		randBytes(r, w[i].Scales[:])
		randBytes(r, w[i].Qs[:])
		w[i].D, w[i].DMin = randF16(r, 0.01), randF16(r, 0.01)
	}
	return w
}

func randQ5K(r *rand.Rand, n int) []quant.BlockQ5K {
	w := make([]quant.BlockQ5K, n)
	for i := range w {
		randBytes(r, w[i].Scales[:])
		randBytes(r, w[i].Qh[:])
		randBytes(r, w[i].Qs[:])
		w[i].D, w[i].DMin = randF16(r, 0.01), randF16(r, 0.01)
	}
	return w
}

func randQ6K(r *rand.Rand, n int) []quant.BlockQ6K {
	w := make([]quant.BlockQ6K, n)
	for i := range w {
		randBytes(r, w[i].Ql[:])
		randBytes(r, w[i].Qh[:])
		for j := range w[i].Scales {
			w[i].Scales[j] = int8(r.IntN(256) - 128)
		}
		w[i].D = randF16(r, 0.01)
	}
	return w
}

func randQ8_0(r *rand.Rand, n int) []quant.BlockQ8_0 {
	w := make([]quant.BlockQ8_0, n)
	for i := range w {
		for j := range w[i].Qs {
			w[i].Qs[j] = int8(r.IntN(255) - 127)
		}
		w[i].D = randF16(r, 0.01)
	}
	return w
}

func randQ8K(r *rand.Rand, n int) []quant.BlockQ8K {
	x := make([]quant.BlockQ8K, n)
	for i := range x {
		for j := range x[i].Qs {
			x[i].Qs[j] = int8(r.IntN(255) - 127)
		}
		for g := range x[i].BSums {
			var s int16
			for _, q := range x[i].Qs[16*g : 16*g+16] {
				s += int16(q)
			}
			x[i].BSums[g] = s
		}
		x[i].D = float32(r.NormFloat64()) * 0.01
	}
	return x
}

// extremeQ8K returns activation blocks at the edge of the range (all ±127),
// which maximises every int32 lane sum.
func extremeQ8K(n int, v int8) []quant.BlockQ8K {
	x := make([]quant.BlockQ8K, n)
	for i := range x {
		for j := range x[i].Qs {
			x[i].Qs[j] = v
		}
		for g := range x[i].BSums {
			x[i].BSums[g] = 16 * int16(v)
		}
		x[i].D = 1
	}
	return x
}

func randF32(r *rand.Rand, n int, scale float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64() * scale)
	}
	return x
}

func sameBits(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }
