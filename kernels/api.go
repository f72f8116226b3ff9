package kernels

import (
	"fmt"
	"math"

	"github.com/corelane/corelane/quant"
)

// ErrShape is wrapped by every argument error of the checked entry points.
// It is quant.ErrShape, the module's one shape sentinel.
var ErrShape = quant.ErrShape

// Current returns the resolved kernels of the current snapshot. Callers that
// validated their arguments once may call the functions directly in a hot
// loop; the returned value never changes, even if the registry does.
func Current() Ops { return load().ops }

func shapeErr(op, format string, args ...any) error {
	return fmt.Errorf("kernels: %s: %w: %s", op, ErrShape, fmt.Sprintf(format, args...))
}

// Dot returns the dot product of one row w of type t with x, which must be
// the same number of values already quantized to quant.ActivationType(t):
// len(w) is exactly one row's bytes.
func Dot(t quant.Type, w, x []byte) (float32, error) { return current.Load().ops.Dot(t, w, x) }

// Dot is the package-level Dot on the kernels of o (a variant from Lookup,
// say), whatever the registry's current choice.
func (o *Ops) Dot(t quant.Type, w, x []byte) (float32, error) {
	rows, err := checkProduct("Dot", t, w, x, 1)
	if err != nil {
		return 0, err
	}
	if rows != 1 {
		return 0, shapeErr("Dot", "w is %d bytes: %d rows of the %d values x holds, want exactly 1", len(w), rows, len(x)/quant.ActivationType(t).BlockBytes()*t.BlockSize())
	}
	var out [1]float32
	if err := o.runProduct("Dot", t, out[:], 1, w, x, 1); err != nil {
		return 0, err
	}
	return out[0], nil
}

// MatVec sets dst[r] to the dot product of row r of w with x, for every
// row of w: len(dst) is exactly the number of rows. w has type t; x is one
// row already quantized to quant.ActivationType(t). Each dst[r] has exactly
// the bits Dot would give.
func MatVec(t quant.Type, dst []float32, w, x []byte) error {
	return current.Load().ops.MatVec(t, dst, w, x)
}

// MatVec is the package-level MatVec on the kernels of o.
func (o *Ops) MatVec(t quant.Type, dst []float32, w, x []byte) error {
	rows, err := checkProduct("MatVec", t, w, x, 1)
	if err != nil {
		return err
	}
	if len(dst) != rows {
		return shapeErr("MatVec", "len(dst) = %d, want %d (one per row of w)", len(dst), rows)
	}
	return o.runProduct("MatVec", t, dst, rows, w, x, 1)
}

// MatMul sets dst[c·ldd + r] to the dot product of row r of w with row c of
// x, for r < rows and c < cols, where x holds cols rows already quantized to
// quant.ActivationType(t) and rows = len(w) / rowBytes. ldd ≥ rows, and
// len(dst) lies between (cols−1)·ldd + rows (the last element written) and
// cols·ldd (a full [cols, ldd] matrix); elements of dst at r ≥ rows are not
// written. Each element has exactly the bits Dot would give for that pair.
func MatMul(t quant.Type, dst []float32, ldd int, w, x []byte, cols int) error {
	return current.Load().ops.MatMul(t, dst, ldd, w, x, cols)
}

// MatMul is the package-level MatMul on the kernels of o.
func (o *Ops) MatMul(t quant.Type, dst []float32, ldd int, w, x []byte, cols int) error {
	const op = "MatMul"
	rows, err := checkProduct(op, t, w, x, cols)
	if err != nil {
		return err
	}
	if ldd < rows {
		return shapeErr(op, "ldd = %d < %d rows of w", ldd, rows)
	}
	if lo, hi := (cols-1)*ldd+rows, cols*ldd; len(dst) < lo || len(dst) > hi {
		return shapeErr(op, "len(dst) = %d, want %d to %d for %d columns of %d rows with ldd %d", len(dst), lo, hi, cols, rows, ldd)
	}
	return o.runProduct(op, t, dst, ldd, w, x, cols)
}

// checkProduct validates the operands of a quantized product and returns
// the number of weight rows.
func checkProduct(op string, t quant.Type, w, x []byte, cols int) (rows int, err error) {
	at := quant.ActivationType(t)
	if !t.Valid() || at == quant.F32 || t == quant.Q8K || t == quant.Q8_1 {
		return 0, fmt.Errorf("kernels: %s: %w: weight type %v has no quantized dot (want q4_K, q5_K, q6_K, q8_0, q4_0, q4_1, q5_0, q5_1)", op, quant.ErrUnknownType, t)
	}
	if cols <= 0 {
		return 0, shapeErr(op, "cols = %d, want > 0", cols)
	}
	if len(x)%(cols*at.BlockBytes()) != 0 {
		return 0, shapeErr(op, "x is %d bytes, not %d rows of whole %v blocks (%d bytes each)", len(x), cols, at, at.BlockBytes())
	}
	nb := len(x) / cols / at.BlockBytes() // blocks per row
	if nb == 0 {
		return 0, shapeErr(op, "x is empty (0 values per row)")
	}
	rowBytes := nb * t.BlockBytes()
	if len(w)%rowBytes != 0 || len(w) == 0 {
		return 0, shapeErr(op, "w is %d bytes, want a positive multiple of %d (rows of %d %v blocks, the %d values per row of x)", len(w), rowBytes, nb, t, nb*t.BlockSize())
	}
	return len(w) / rowBytes, nil
}

// runProduct runs a checked product on the kernels of o.
func (o *Ops) runProduct(op string, t quant.Type, dst []float32, ldd int, w, x []byte, cols int) error {
	k := o
	var err error
	switch t {
	case quant.Q4K:
		err = runMatMul(k.MatVecQ4K, k.MatMulQ4K, quant.AsQ4K, quant.AsQ8K, dst, ldd, w, x, cols)
	case quant.Q5K:
		err = runMatMul(k.MatVecQ5K, k.MatMulQ5K, quant.AsQ5K, quant.AsQ8K, dst, ldd, w, x, cols)
	case quant.Q6K:
		err = runMatMul(k.MatVecQ6K, k.MatMulQ6K, quant.AsQ6K, quant.AsQ8K, dst, ldd, w, x, cols)
	case quant.Q8_0:
		err = runMatMul(k.MatVecQ8_0, k.MatMulQ8_0, quant.AsQ8_0, quant.AsQ8_0, dst, ldd, w, x, cols)
	case quant.Q4_0:
		err = runMatMul(k.MatVecQ4_0, k.MatMulQ4_0, quant.AsQ4_0, quant.AsQ8_0, dst, ldd, w, x, cols)
	case quant.Q5_0:
		err = runMatMul(k.MatVecQ5_0, k.MatMulQ5_0, quant.AsQ5_0, quant.AsQ8_0, dst, ldd, w, x, cols)
	case quant.Q4_1:
		err = runMatMul(k.MatVecQ4_1, k.MatMulQ4_1, quant.AsQ4_1, quant.AsQ8_1, dst, ldd, w, x, cols)
	case quant.Q5_1:
		err = runMatMul(k.MatVecQ5_1, k.MatMulQ5_1, quant.AsQ5_1, quant.AsQ8_1, dst, ldd, w, x, cols)
	}
	if err != nil {
		return fmt.Errorf("kernels: %s: %w", op, err)
	}
	return nil
}

func runMatMul[W, X any](mv func([]float32, []W, []X), mm func([]float32, int, []W, []X, int, *Prep),
	asW func([]byte) ([]W, error), asX func([]byte) ([]X, error),
	dst []float32, ldd int, w, x []byte, cols int) error {
	wb, err := asW(w)
	if err != nil {
		return err
	}
	xb, err := asX(x)
	if err != nil {
		return err
	}
	if cols == 1 {
		mv(dst[:len(wb)/len(xb)], wb, xb)
		return nil
	}
	mm(dst, ldd, wb, xb, cols, nil)
	return nil
}

// Dequantize writes the values of src (whole blocks of type t) to dst,
// bit-exact with ggml. len(dst) must be the number of values in src.
func Dequantize(t quant.Type, dst []float32, src []byte) error {
	return current.Load().ops.Dequantize(t, dst, src)
}

// Dequantize is the package-level Dequantize on the kernels of o.
func (o *Ops) Dequantize(t quant.Type, dst []float32, src []byte) error {
	const op = "Dequantize"
	if bb := t.BlockBytes(); bb == 0 || len(src)%bb != 0 || len(src)/bb*t.BlockSize() != len(dst) {
		if bb == 0 {
			return fmt.Errorf("kernels: %s: %w %v", op, quant.ErrUnknownType, t)
		}
		return shapeErr(op, "%d bytes of %v and %d values do not match (%d bytes per %d values)", len(src), t, len(dst), bb, t.BlockSize())
	}
	k := o
	var err error
	switch t {
	case quant.Q4K:
		err = runDequant(k.DequantQ4K, quant.AsQ4K, dst, src)
	case quant.Q5K:
		err = runDequant(k.DequantQ5K, quant.AsQ5K, dst, src)
	case quant.Q6K:
		err = runDequant(k.DequantQ6K, quant.AsQ6K, dst, src)
	case quant.Q8_0:
		err = runDequant(k.DequantQ8_0, quant.AsQ8_0, dst, src)
	default:
		err = quant.Dequantize(t, dst, src)
	}
	if err != nil {
		return fmt.Errorf("kernels: %s: %w", op, err)
	}
	return nil
}

func runDequant[B any](f func([]float32, []B), as func([]byte) ([]B, error), dst []float32, src []byte) error {
	b, err := as(src)
	if err != nil {
		return err
	}
	f(dst, b)
	return nil
}

// QuantizeActivations quantizes src to dst in the activation type at (Q8_K,
// Q8_0 or Q8_1), bit-exact with ggml's reference quantizer. len(src) must be a
// multiple of the block size and len(dst) the matching byte count. NaN or
// ±Inf in src is an error naming the index.
func QuantizeActivations(at quant.Type, dst []byte, src []float32) error {
	return current.Load().ops.QuantizeActivations(at, dst, src)
}

// QuantizeActivations is the package-level QuantizeActivations on the
// kernels of o.
func (o *Ops) QuantizeActivations(at quant.Type, dst []byte, src []float32) error {
	const op = "QuantizeActivations"
	if at != quant.Q8K && at != quant.Q8_0 && at != quant.Q8_1 {
		return shapeErr(op, "activation type %v, want q8_K, q8_0 or q8_1 (use quant.Quantize for other types)", at)
	}
	n, err := quant.RowSize(at, len(src))
	if err != nil {
		return fmt.Errorf("kernels: %s: %w", op, err)
	}
	if n != len(dst) {
		return shapeErr(op, "dst is %d bytes, want %d for %d values of %v", len(dst), n, len(src), at)
	}
	if i := firstNonFinite(src); i >= 0 {
		return fmt.Errorf("kernels: %s: %w: %v at index %d (block %d)", op, quant.ErrNotFinite, src[i], i, i/at.BlockSize())
	}
	switch at {
	case quant.Q8K:
		err = runQuantize(o.QuantizeQ8K, quant.AsQ8K, dst, src)
	case quant.Q8_0:
		err = runQuantize(o.QuantizeQ8_0, quant.AsQ8_0, dst, src)
	default:
		err = runQuantize(o.QuantizeQ8_1, quant.AsQ8_1, dst, src)
	}
	if err != nil {
		return fmt.Errorf("kernels: %s: %w", op, err)
	}
	return nil
}

func runQuantize[B any](q func([]B, []float32), as func([]byte) ([]B, error), dst []byte, src []float32) error {
	b, err := as(dst)
	if err != nil {
		return err
	}
	q(b, src)
	return nil
}

func firstNonFinite(x []float32) int {
	for i, v := range x {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return i
		}
	}
	return -1
}

// DotF32 returns Σ a[i]·b[i], reassociated for SIMD (not bit-identical
// across variants; TestF32Tolerance states the bound).
func DotF32(a, b []float32) (float32, error) {
	if len(a) != len(b) {
		return 0, shapeErr("DotF32", "len(a) = %d, len(b) = %d", len(a), len(b))
	}
	return load().ops.DotF32(a, b), nil
}

// Axpy sets y[i] += alpha·x[i]. A variant may fuse the multiply and add.
func Axpy(alpha float32, x, y []float32) error {
	if len(x) != len(y) {
		return shapeErr("Axpy", "len(x) = %d, len(y) = %d", len(x), len(y))
	}
	load().ops.Axpy(alpha, x, y)
	return nil
}

// Scale sets x[i] *= alpha (exact per element in every variant).
func Scale(alpha float32, x []float32) { load().ops.Scale(alpha, x) }

// Max returns the largest element of x. x must be non-empty and NaN-free
// (NaN is an error naming its index).
func Max(x []float32) (float32, error) {
	if len(x) == 0 {
		return 0, shapeErr("Max", "empty input")
	}
	for i, v := range x {
		if v != v {
			return 0, fmt.Errorf("kernels: Max: %w: NaN at index %d", quant.ErrNotFinite, i)
		}
	}
	return load().ops.Max(x), nil
}

// ExpSum sets dst[i] = exp(x[i] − sub) and returns their sum. The exp is
// Exp32's algorithm, vectorised; the sum is reassociated.
func ExpSum(dst, x []float32, sub float32) (float32, error) {
	if len(dst) != len(x) {
		return 0, shapeErr("ExpSum", "len(dst) = %d, len(x) = %d", len(dst), len(x))
	}
	return load().ops.ExpSum(dst, x, sub), nil
}

// SwiGLU sets dst[i] = SiLU(gate[i])·up[i], the gated activation of
// Llama's feed-forward block, with the same bits on every variant and CPU
// (NaN results are the canonical NaN). dst may be gate or up.
func SwiGLU(dst, gate, up []float32) error {
	if len(dst) != len(gate) || len(gate) != len(up) {
		return shapeErr("SwiGLU", "len(dst) = %d, len(gate) = %d, len(up) = %d, want equal", len(dst), len(gate), len(up))
	}
	load().ops.SwiGLU(dst, gate, up)
	return nil
}
