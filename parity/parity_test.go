package parity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/sdpa"
	"github.com/corelane/corelane/spi"
)

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func randVec(r *rand.Rand, n int, scale float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64() * scale)
	}
	return x
}

func matrix(t *testing.T, r *rand.Rand, typ quant.Type, rows, cols int) spi.Matrix {
	t.Helper()
	rb, err := quant.RowSize(typ, cols)
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, rows*rb)
	if err := quant.QuantizeRows(typ, data, randVec(r, rows*cols, 0.1), cols); err != nil {
		t.Fatal(err)
	}
	return spi.Matrix{Type: typ, Rows: rows, Cols: cols, Data: data}
}

// parityOp is one row of the matrix: it runs on a context and returns its
// output. acrossVariants marks ops whose bits must also agree between
// kernel variants.
type parityOp struct {
	name           string
	acrossVariants bool
	run            func(c spi.Context) ([]float32, error)
}

func ops(t *testing.T) []parityOp {
	r := rand.New(rand.NewPCG(42, 7))
	const rows, cols, tokens = 300, 512, 5
	var list []parityOp
	for _, typ := range []quant.Type{quant.Q4K, quant.Q5K, quant.Q6K, quant.Q8_0, quant.F32, quant.FP16} {
		w := matrix(t, r, typ, rows, cols)
		x := randVec(r, tokens*cols, 1)
		quantized := typ != quant.F32 && typ != quant.FP16
		list = append(list,
			parityOp{"MatVec/" + typ.String(), quantized, func(c spi.Context) ([]float32, error) {
				dst := make([]float32, rows)
				return dst, c.MatVec(dst, w, x[:cols])
			}},
			parityOp{"MatMul/" + typ.String(), quantized, func(c spi.Context) ([]float32, error) {
				dst := make([]float32, tokens*rows)
				return dst, c.MatMul(dst, w, x, tokens)
			}},
			parityOp{"MatMul-cols/" + typ.String(), quantized, func(c spi.Context) ([]float32, error) {
				c, err := c.WithHint(spi.ScheduleHint{Op: "MatMul", Dim: "cols"})
				if err != nil {
					return nil, err
				}
				dst := make([]float32, tokens*rows)
				return dst, c.MatMul(dst, w, x, tokens)
			}},
		)
	}
	shape := sdpa.Shape{Batch: 2, Heads: 6, KVHeads: 2, SeqQ: 16, SeqKV: 600, HeadDim: 32}
	q := randVec(r, shape.Batch*shape.Heads*shape.SeqQ*shape.HeadDim, 1)
	k := randVec(r, shape.Batch*shape.KVHeads*shape.SeqKV*shape.HeadDim, 1)
	v := randVec(r, len(k), 1)
	kh, vh := make([]quant.F16, len(k)), make([]quant.F16, len(v))
	for i := range k {
		kh[i], vh[i] = quant.FromFloat32(k[i]), quant.FromFloat32(v[i])
	}
	decode := shape
	decode.SeqQ = 1
	for _, mode := range []sdpa.Mode{sdpa.Exact, sdpa.Fast} {
		for _, sh := range []struct {
			name  string
			shape sdpa.Shape
		}{{"prefill", shape}, {"decode", decode}} {
			opt := sdpa.Options{Causal: true, Mode: mode}
			sh := sh
			n := sh.shape.Batch * sh.shape.Heads * sh.shape.SeqQ * sh.shape.HeadDim
			list = append(list,
				parityOp{"Attention/" + mode.String() + "/" + sh.name, mode == sdpa.Exact, func(c spi.Context) ([]float32, error) {
					out := make([]float32, n)
					return out, c.Attention(out, q[:n], k, v, sh.shape, opt)
				}},
				parityOp{"AttentionF16/" + mode.String() + "/" + sh.name, mode == sdpa.Exact, func(c spi.Context) ([]float32, error) {
					out := make([]float32, n)
					return out, c.AttentionF16(out, q[:n], kh, vh, sh.shape, opt)
				}},
				// TokensFirst q/out and K/V: read in place through strides.
				parityOp{"Attention-tokens-first/" + mode.String() + "/" + sh.name, mode == sdpa.Exact, func(c spi.Context) ([]float32, error) {
					out := make([]float32, n)
					o := opt
					o.Layout, o.KVLayout = sdpa.TokensFirst, sdpa.TokensFirst
					return out, c.Attention(out, q[:n], k, v, sh.shape, o)
				}},
				// The backend's pinned kernels reach attention: its result
				// is sdpa's with that variant's kernels (for Fast, other
				// variants give other bits).
				parityOp{"Attention-pinned/" + mode.String() + "/" + sh.name, mode == sdpa.Exact, func(c spi.Context) ([]float32, error) {
					out := make([]float32, n)
					if err := c.Attention(out, q[:n], k, v, sh.shape, opt); err != nil {
						return nil, err
					}
					ops, err := kernels.Lookup(c.Backend().Variant())
					if err != nil {
						return nil, err
					}
					want := make([]float32, n)
					if err := sdpa.New(ops).Attention(sched.Sequential, want, q[:n], k, v, sh.shape, opt); err != nil {
						return nil, err
					}
					if !sameBits(out, want) {
						return nil, fmt.Errorf("variant %s: spi's attention differs from sdpa with the variant's kernels", c.Backend().Variant())
					}
					return out, nil
				}},
			)
		}
	}
	const nr, dim = 160, 256
	a, b := randVec(r, nr*dim, 1), randVec(r, nr*dim, 1)
	nw := randVec(r, dim, 1)
	pos := make([]int, nr)
	for i := range pos {
		pos[i] = 3 * i
	}
	unary := func(name string, f func(c spi.Context, dst []float32) error) parityOp {
		return parityOp{name, true, func(c spi.Context) ([]float32, error) {
			dst := make([]float32, nr*dim)
			return dst, f(c, dst)
		}}
	}
	list = append(list,
		unary("RMSNorm", func(c spi.Context, d []float32) error { return c.RMSNorm(d, a, nw, nr, dim, 1e-5) }),
		unary("RoPE", func(c spi.Context, d []float32) error { copy(d, a); return c.RoPE(d, nr, 4, dim/4, pos, 10000, false) }),
		unary("RoPE-neox", func(c spi.Context, d []float32) error { copy(d, a); return c.RoPE(d, nr, 4, dim/4, pos, 10000, true) }),
		unary("SiLU", func(c spi.Context, d []float32) error { return c.SiLU(d, a) }),
		unary("SwiGLU", func(c spi.Context, d []float32) error { return c.SwiGLU(d, a, b) }),
		unary("Softmax", func(c spi.Context, d []float32) error { return c.Softmax(d, a, nr, dim) }),
		unary("Add", func(c spi.Context, d []float32) error { return c.Add(d, a, b) }),
		unary("Mul", func(c spi.Context, d []float32) error { return c.Mul(d, a, b) }),
		unary("Scale", func(c spi.Context, d []float32) error { return c.Scale(d, a, 0.37) }),
	)
	table := matrix(t, r, quant.Q4K, 50, dim)
	ids := make([]int, 300) // enough rows to split: GetRows runs 64 rows of 256 a task
	for i := range ids {
		ids[i] = r.IntN(table.Rows)
	}
	list = append(list, parityOp{"GetRows", true, func(c spi.Context) ([]float32, error) {
		dst := make([]float32, len(ids)*dim)
		return dst, c.GetRows(dst, table, ids)
	}})
	return list
}

// TestParity is the matrix: ops × schedules × kernel variants.
func TestParity(t *testing.T) {
	variants := kernels.Variants()
	schedList := schedules(t)
	opList := ops(t)
	cells, passed := 0, 0
	// firstVariant[op] holds the output of the first variant, for the
	// cross-variant check.
	firstVariant := map[string][]float32{}
	for _, variant := range variants {
		b, err := spi.New(spi.WithKernels(variant), spi.WithSchedule(sched.Sequential))
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range opList {
			base := b.Context()
			if _, err := op.run(base); err != nil { // warm-up
				t.Fatalf("%s: %v", op.name, err)
			}
			want, _ := op.run(base)
			splits.Store(0)
			for _, ns := range schedList {
				cells++
				var mu sync.Mutex
				var runErr error
				got := ns.run(func(s sched.Schedule) []float32 {
					out, err := op.run(base.WithSchedule(s))
					if err != nil {
						mu.Lock()
						runErr = err
						mu.Unlock()
					}
					return out
				})
				switch {
				case runErr != nil:
					t.Errorf("variant=%s op=%s sched=%s: %v", variant, op.name, ns.name, runErr)
				case !sameBits(got, want):
					t.Errorf("variant=%s op=%s sched=%s: differs from sequential", variant, op.name, ns.name)
				default:
					passed++
				}
			}
			// A cell proves something only if the op really ran as several
			// chunks: the traced pools count the regions that did.
			if splits.Load() == 0 {
				t.Errorf("op=%s never ran as more than one chunk on a pool: enlarge its shape", op.name)
			}
			if op.acrossVariants {
				cells++
				if first, ok := firstVariant[op.name]; !ok {
					firstVariant[op.name] = want
					passed++
				} else if !sameBits(first, want) {
					t.Errorf("op=%s: variant %s differs from %s", op.name, variant, variants[0])
				} else {
					passed++
				}
			}
		}
	}
	t.Logf("parity: %d/%d cells passed (%d ops × %d schedules × %d variants %v, plus cross-variant cells)",
		passed, cells, len(opList), len(schedList), len(variants), variants)
	if passed != cells {
		t.Fatalf("parity: %d of %d cells failed", cells-passed, cells)
	}
}
