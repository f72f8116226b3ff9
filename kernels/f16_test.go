package kernels

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/corelane/corelane/quant"
)

// TestMatVecF16Tolerance checks MatVecF16 of every variant against a
// float64 reference on the widened weights, with DotF32's bound (|got −
// Σw·x| ≤ (n+8)·2^-24·Σ|w·x|), for every row length through two of the
// widest unrolled loops plus every tail, on inputs ending at a guard page
// and with a guard element after dst; and that the generic kernel, and
// every arm64 one (DotF16NEON), is exactly the variant's DotF32 on the
// widened row.
func TestMatVecF16Tolerance(t *testing.T) {
	tab := quant.F16Table()
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(31, 32))
		for n := 0; n <= 2*64+17; n++ {
			for _, rows := range []int{1, 3} {
				w := make([]quant.F16, rows*n)
				for i := range w {
					w[i] = quant.FromFloat32(float32(r.NormFloat64()))
				}
				x := randF32(r, n, 1)
				gw, gx := guarded(t, w), guarded(t, x)
				dst := make([]float32, rows+1)
				dst[rows] = 7
				k.MatVecF16(dst[:rows], gw, gx)
				if dst[rows] != 7 {
					t.Fatalf("n=%d rows=%d: wrote past dst", n, rows)
				}
				for rr := 0; rr < rows; rr++ {
					row := make([]float32, n)
					var ref, abs float64
					for i := range row {
						row[i] = tab.At(w[rr*n+i])
						ref += float64(row[i]) * float64(x[i])
						abs += math.Abs(float64(row[i]) * float64(x[i]))
					}
					if bound := float64(n+8) * 0x1p-24 * abs; math.Abs(float64(dst[rr])-ref) > bound {
						t.Fatalf("n=%d rows=%d [%d]: %v, want %v ± %g", n, rows, rr, dst[rr], ref, bound)
					}
					if d := k.DotF32(row, x); (name == Generic || runtime.GOARCH == "arm64") && !sameBits(dst[rr], d) {
						t.Fatalf("%s n=%d [%d]: %v, DotF32 on the widened row %v", name, n, rr, dst[rr], d)
					}
				}
			}
		}
	})
}
