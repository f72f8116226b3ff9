package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/quant"
)

// Q8_0 on raw bytes: every quant byte (0x80 = -128 included) on either side
// and every class of f16 scale, through Dot, MatVec and MatMul of every
// variant, must give dotQ8_0Generic's bits. GGUF files may hold -128 weights
// (the format allows it) and callers of kernels.MatVec may pass activation
// bytes that no quantizer made.

// q80Uniform returns n blocks whose quants are all q, with scale bits d.
func q80Uniform(n int, q int8, d quant.F16) []quant.BlockQ8_0 {
	b := make([]quant.BlockQ8_0, n)
	for i := range b {
		for j := range b[i].Qs {
			b[i].Qs[j] = q
		}
		b[i].D = d
	}
	return b
}

// q80Raw returns n blocks of random bytes, scales included (any f16 bit
// pattern; only finite ones, subnormals among them, if finite), unless d
// is non-zero: then every scale is d.
func q80Raw(r *rand.Rand, n int, d quant.F16, finite bool) []quant.BlockQ8_0 {
	b := make([]quant.BlockQ8_0, n)
	for i := range b {
		for j := range b[i].Qs {
			b[i].Qs[j] = int8(r.Uint32())
		}
		b[i].D = d
		for b[i].D == 0 || finite && b[i].D&0x7c00 == 0x7c00 {
			b[i].D = quant.F16(r.Uint32())
		}
	}
	return b
}

// q80Special are f16 scales of every class: zeros, subnormals, the
// smallest and largest normals, ones, infinities and NaNs (quiet and
// signalling, both signs). A NaN result is the canonical NaN in every
// variant (kernels.canonNaN).
var q80Special = []quant.F16{
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x2118, 0x3c00, 0xbc00,
	0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7d55, 0xfdff,
}

// q80Check compares every output of Dot, MatVec and MatMul of the variant
// k with the generic dot, for weights w (rows·nb blocks) and activations x
// (cols·nb blocks), both through the Ops and through the checked byte API.
func q80Check(t *testing.T, k Ops, what string, w, x []quant.BlockQ8_0, nb int) {
	t.Helper()
	rows, cols := len(w)/nb, len(x)/nb
	want := func(r, c int) float32 { return dotQ8_0Generic(w[r*nb:(r+1)*nb], x[c*nb:(c+1)*nb]) }
	fail := func(op string, r, c int, got float32) {
		t.Helper()
		wt := want(r, c)
		t.Fatalf("%s: %s rows=%d cols=%d nb=%d [r=%d c=%d] = %v (%#08x), generic %v (%#08x)",
			what, op, rows, cols, nb, r, c, got, math.Float32bits(got), wt, math.Float32bits(wt))
	}
	for r := 0; r < rows; r++ {
		if got := k.DotQ8_0(w[r*nb:(r+1)*nb], x[:nb]); !sameBits(got, want(r, 0)) {
			fail("Dot", r, 0, got)
		}
	}
	for c := 0; c < cols; c++ {
		dst := make([]float32, rows)
		k.MatVecQ8_0(dst, w, x[c*nb:(c+1)*nb])
		for r, got := range dst {
			if !sameBits(got, want(r, c)) {
				fail("MatVec", r, c, got)
			}
		}
	}
	ldd := rows + 1
	dst := make([]float32, cols*ldd)
	k.MatMulQ8_0(dst, ldd, w, x, cols, nil)
	for c := 0; c < cols; c++ {
		for r := 0; r < rows; r++ {
			if got := dst[c*ldd+r]; !sameBits(got, want(r, c)) {
				fail("MatMul", r, c, got)
			}
		}
	}
	// The checked byte API (it dispatches to the forced variant).
	clear(dst)
	if err := MatMul(quant.Q8_0, dst, ldd, quantBytes(w), quantBytes(x), cols); err != nil {
		t.Fatal(err)
	}
	for c := 0; c < cols; c++ {
		for r := 0; r < rows; r++ {
			if got := dst[c*ldd+r]; !sameBits(got, want(r, c)) {
				fail("kernels.MatMul", r, c, got)
			}
		}
	}
	if err := MatVec(quant.Q8_0, dst[:rows], quantBytes(w), quantBytes(x[:nb])); err != nil {
		t.Fatal(err)
	}
	for r := 0; r < rows; r++ {
		if got := dst[r]; !sameBits(got, want(r, 0)) {
			fail("kernels.MatVec", r, 0, got)
		}
	}
}

// TestQ8_0Minus128 is the reported case: a 4×64 matrix of -128 quants with
// d = 0.01 times x = -1 (quantized: -127, d = 1/127) is 64·128·0.01 ≈
// +81.92 in every element, in every variant and through every op.
func TestQ8_0Minus128(t *testing.T) {
	const rows, n = 4, 64
	w := q80Uniform(rows*n/quant.QK8, -128, quant.FromFloat32(0.01))
	xf := make([]float32, n)
	for i := range xf {
		xf[i] = -1
	}
	x := make([]quant.BlockQ8_0, n/quant.QK8)
	if err := quant.QuantizeRowQ8_0(x, xf); err != nil {
		t.Fatal(err)
	}
	exact := float64(n) * 128 * float64(quant.FromFloat32(0.01).Float32()) * float64(x[0].D.Float32()) * 127
	forEachVariant(t, func(t *testing.T, _ string, k Ops) {
		got := make([]float32, rows)
		if err := MatVec(quant.Q8_0, got, quantBytes(w), quantBytes(x)); err != nil {
			t.Fatal(err)
		}
		for r, v := range got {
			if math.Abs(float64(v)-exact) > 1e-3 {
				t.Fatalf("MatVec row %d = %v, want %.4f", r, v, exact)
			}
		}
		q80Check(t, k, "-128 × -127", w, q80Uniform(3*n/quant.QK8, -127, x[0].D), n/quant.QK8)
	})
}

// TestQ8_0EveryBytePair runs every (weight byte, activation byte) pair as
// uniform blocks (the largest lane sums, hence every saturation), in
// shapes that reach every row tile, column tile and block tail.
func TestQ8_0EveryBytePair(t *testing.T) {
	one := quant.FromFloat32(1)
	forEachVariant(t, func(t *testing.T, _ string, k Ops) {
		for _, nb := range []int{1, 5} {
			// rows: one per weight byte; cols: one per activation byte.
			w := make([]quant.BlockQ8_0, 0, 256*nb)
			x := make([]quant.BlockQ8_0, 0, 256*nb)
			for b := 0; b < 256; b++ {
				w = append(w, q80Uniform(nb, int8(b), one)...)
				x = append(x, q80Uniform(nb, int8(b), one)...)
			}
			q80Check(t, k, "every byte pair", w, x, nb)
			// Two-value patterns: -128 next to each other byte, in both roles.
			for _, other := range []int8{-128, -127, -1, 0, 1, 127} {
				mix := make([]quant.BlockQ8_0, 9*nb)
				for i := range mix {
					for j := range mix[i].Qs {
						if (i+j)%3 != 0 {
							mix[i].Qs[j] = -128
						} else {
							mix[i].Qs[j] = other
						}
					}
					mix[i].D = one
				}
				q80Check(t, k, fmt.Sprintf("-128/%d mix × every byte", other), mix, x, nb)
				q80Check(t, k, fmt.Sprintf("every byte × -128/%d mix", other), w, mix, nb)
			}
		}
	})
}

// TestQ8_0RawBytes: random bytes everywhere, scales included (finite ones
// here: the non-finite scales are in TestQ8_0NonFiniteScales).
func TestQ8_0RawBytes(t *testing.T) {
	forEachVariant(t, func(t *testing.T, _ string, k Ops) {
		r := rand.New(rand.NewPCG(80, 81))
		for _, nb := range []int{1, 2, 3, 4, 5, 8, 9, 17} {
			for rep := 0; rep < 4; rep++ {
				q80Check(t, k, "raw bytes", q80Raw(r, 9*nb, 0, true), q80Raw(r, 9*nb, 0, true), nb)
			}
		}
		for _, dw := range q80Special {
			for _, dx := range q80Special {
				if dw&0x7c00 == 0x7c00 || dx&0x7c00 == 0x7c00 {
					continue // TestQ8_0NonFiniteScales
				}
				w, x := q80Raw(r, 5*4, dw, true), q80Raw(r, 5*4, dx, true)
				w[2].D, x[5].D = dx, dw
				q80Check(t, k, fmt.Sprintf("scales %#04x × %#04x", dw, dx), w, x, 4)
			}
		}
	})
}
