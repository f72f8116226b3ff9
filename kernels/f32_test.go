package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/corelane/corelane/quant"
)

// ulpDiff returns the distance in units in the last place between a and b.
func ulpDiff(a, b float32) int64 {
	ia, ib := int64(math.Float32bits(a)), int64(math.Float32bits(b))
	if ia < 0x80000000 == (ib < 0x80000000) {
		if ia > ib {
			return ia - ib
		}
		return ib - ia
	}
	// Opposite signs: distance through zero.
	return (ia & 0x7FFFFFFF) + (ib & 0x7FFFFFFF)
}

// TestExp32 checks Exp32 against float64 math.Exp rounded to float32 on a
// dense sweep of the whole float32 domain where exp is finite and non-zero.
func TestExp32(t *testing.T) {
	skipSweepInShort(t)
	worst := int64(0)
	var at float32
	check := func(x float32) {
		want := float32(math.Exp(float64(x)))
		got := Exp32(x)
		if d := ulpDiff(got, want); d > worst {
			worst, at = d, x
		}
	}
	for b := uint32(0); b < 1<<31; b += 97 { // positive and negative halves
		for _, bits := range []uint32{b, b | 1<<31} {
			x := math.Float32frombits(bits)
			if x > expMaxArg || x < expMinArg || x != x {
				continue
			}
			check(x)
		}
	}
	if worst > 2 {
		t.Fatalf("Exp32 is %d ulp off at %v (bound 2)", worst, at)
	}
	t.Logf("Exp32: max error %d ulp (at %v) against math.Exp rounded", worst, at)
	if Exp32(float32(math.Inf(-1))) != 0 || !math.IsInf(float64(Exp32(100)), 1) || Exp32(0) != 1 {
		t.Fatal("Exp32 edge values")
	}
}

// TestF32Tolerance checks the float32 kernels of every variant against
// float64 references (gonum's floats where they fit). Bounds:
//   - DotF32: |got − Σa·b| ≤ (n+8)·2^-24·Σ|a·b| (reassociated float32 sum)
//   - Axpy:   each element within 1 ulp of float32(y + alpha·x) computed in float64
//   - Scale:  exact
//   - Max:    exact
//   - ExpSum: each element within 2 ulp of float32(math.Exp(x−sub)), the sum
//     within (n+8)·2^-24·Σ of the exact sum of those elements.
func TestF32Tolerance(t *testing.T) {
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(7, 8))
		for n := 0; n <= 2*256+1; n++ {
			a, b := randF32(r, n, 1), randF32(r, n, 1)
			a64, b64 := f64(a), f64(b)
			ref := floats.Dot(a64, b64)
			abs := make([]float64, n)
			for i := range abs {
				abs[i] = math.Abs(a64[i] * b64[i])
			}
			bound := float64(n+8) * 0x1p-24 * floats.Sum(abs)
			if got := k.DotF32(a, b); math.Abs(float64(got)-ref) > bound {
				t.Fatalf("DotF32 n=%d: %v, want %v ± %g", n, got, ref, bound)
			}

			y := randF32(r, n+1, 1)
			y[n] = 7 // guard
			y0 := append([]float32(nil), y...)
			alpha := float32(r.NormFloat64())
			k.Axpy(alpha, a, y[:n])
			for i := 0; i < n; i++ {
				want := float32(float64(y0[i]) + float64(alpha)*float64(a[i]))
				if ulpDiff(y[i], want) > 1 && math.Abs(float64(y[i]-want)) > 1e-6*math.Abs(float64(alpha*a[i])) {
					t.Fatalf("Axpy n=%d [%d]: %v, want %v", n, i, y[i], want)
				}
			}
			if y[n] != 7 {
				t.Fatalf("Axpy n=%d wrote past the end", n)
			}

			s := append([]float32(nil), a...)
			k.Scale(alpha, s)
			for i := range s {
				if s[i] != alpha*a[i] {
					t.Fatalf("Scale n=%d [%d]: %v, want %v", n, i, s[i], alpha*a[i])
				}
			}

			if n > 0 {
				if got, want := k.Max(a), float32(floats.Max(a64)); got != want {
					t.Fatalf("Max n=%d: %v, want %v", n, got, want)
				}
				x := randF32(r, n, 10)
				sub := k.Max(x)
				dst := make([]float32, n+1)
				dst[n] = 7
				sum := k.ExpSum(dst[:n], x, sub)
				var exact float64
				for i := 0; i < n; i++ {
					want := float32(math.Exp(float64(x[i] - sub)))
					if ulpDiff(dst[i], want) > 2 {
						t.Fatalf("ExpSum n=%d [%d]: %v, want %v", n, i, dst[i], want)
					}
					exact += float64(dst[i])
				}
				if math.Abs(float64(sum)-exact) > float64(n+8)*0x1p-24*exact {
					t.Fatalf("ExpSum n=%d: sum %v, want %v", n, sum, exact)
				}
				if dst[n] != 7 {
					t.Fatalf("ExpSum n=%d wrote past the end", n)
				}
			}
		}
	})
}

func f64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

func TestAPIErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	w := quantBytes(randQ4K(r, 2))
	x := quantBytes(randQ8K(r, 2))
	if _, err := Dot(quant.Q4K, w, x[:292]); !errors.Is(err, ErrShape) {
		t.Fatalf("Dot with 2 weight blocks, 1 activation block: %v", err)
	}
	if _, err := Dot(quant.Q4K, w[:100], x); !errors.Is(err, ErrShape) {
		t.Fatalf("Dot with a truncated row: %v", err)
	}
	if _, err := Dot(quant.F32, w, x); !errors.Is(err, quant.ErrUnknownType) {
		t.Fatalf("Dot of f32 weights: %v", err)
	}
	if _, err := Dot(quant.Q4K, w, nil); !errors.Is(err, ErrShape) {
		t.Fatalf("Dot with no activations: %v", err)
	}
	if _, err := Dot(quant.Q4K, w, x[1:len(x)-291]); err == nil {
		t.Fatal("Dot with misaligned activations: no error")
	}
	if err := MatMul(quant.Q4K, make([]float32, 3), 1, w, x, 2); !errors.Is(err, ErrShape) {
		t.Fatalf("MatMul with ldd < rows: %v", err)
	}
	if err := MatMul(quant.Q4K, make([]float32, 1), 1, w[:144], x, 2); !errors.Is(err, ErrShape) {
		t.Fatalf("MatMul with a short dst: %v", err)
	}
	if err := Dequantize(quant.Q4K, make([]float32, 255), w[:144]); !errors.Is(err, ErrShape) {
		t.Fatalf("Dequantize length mismatch: %v", err)
	}
	src := make([]float32, 256)
	src[17] = float32(math.NaN())
	if err := QuantizeActivations(quant.Q8K, make([]byte, 292), src); !errors.Is(err, quant.ErrNotFinite) {
		t.Fatalf("QuantizeActivations with NaN: %v", err)
	}
	if err := QuantizeActivations(quant.Q8K, make([]byte, 291), make([]float32, 256)); !errors.Is(err, ErrShape) {
		t.Fatalf("QuantizeActivations short dst: %v", err)
	}
	if err := QuantizeActivations(quant.Q4K, make([]byte, 144), make([]float32, 256)); !errors.Is(err, ErrShape) {
		t.Fatalf("QuantizeActivations to q4_K: %v", err)
	}
	if _, err := DotF32(make([]float32, 3), make([]float32, 4)); !errors.Is(err, ErrShape) {
		t.Fatalf("DotF32 length mismatch: %v", err)
	}
	if err := Axpy(1, make([]float32, 3), make([]float32, 4)); !errors.Is(err, ErrShape) {
		t.Fatalf("Axpy length mismatch: %v", err)
	}
	if _, err := Max(nil); !errors.Is(err, ErrShape) {
		t.Fatalf("Max of nothing: %v", err)
	}
	if _, err := ExpSum(make([]float32, 2), make([]float32, 3), 0); !errors.Is(err, ErrShape) {
		t.Fatalf("ExpSum length mismatch: %v", err)
	}
}
