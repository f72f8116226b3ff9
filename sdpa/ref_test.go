package sdpa

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// refExact is the Exact contract written as plainly as possible: one query
// row at a time, every step of Attention's documented order, no tiling, no
// unrolling. Exact mode must match it bit for bit.
func refExact(out, q, k, v []float32, sh Shape, opt Options) {
	hd, nk := sh.HeadDim, sh.SeqKV
	scale := opt.Scale
	if scale == 0 {
		scale = float32(1 / math.Sqrt(float64(hd)))
	}
	negInf := float32(math.Inf(-1))
	s := make([]float32, nk)
	for b := 0; b < sh.Batch; b++ {
		for h := 0; h < sh.Heads; h++ {
			g := h / (sh.Heads / sh.KVHeads)
			for i := 0; i < sh.SeqQ; i++ {
				qr := q[((b*sh.Heads+h)*sh.SeqQ+i)*hd:][:hd]
				o := out[((b*sh.Heads+h)*sh.SeqQ+i)*hd:][:hd]
				var mrow []float32
				if opt.Mask != nil {
					if len(opt.Mask) == sh.SeqQ*nk {
						mrow = opt.Mask[i*nk:][:nk]
					} else {
						mrow = opt.Mask[(b*sh.SeqQ+i)*nk:][:nk]
					}
				}
				for j := 0; j < nk; j++ {
					kr := k[((b*sh.KVHeads+g)*nk+j)*hd:][:hd]
					var dot float32
					for d := 0; d < hd; d++ {
						dot = dot + float32(qr[d]*kr[d])
					}
					s[j] = float32(dot * scale)
					switch {
					case opt.Causal && j > nk-sh.SeqQ+i, mrow != nil && mrow[j] == negInf:
						s[j] = negInf
					case mrow != nil:
						s[j] = s[j] + mrow[j]
					}
				}
				m := negInf
				allMasked := true
				for j := 0; j < nk; j++ {
					if s[j] > m {
						m = s[j]
					}
					if s[j] != negInf {
						allMasked = false
					}
				}
				for d := range o {
					o[d] = 0
				}
				if allMasked {
					continue
				}
				var sum float32
				for j := 0; j < nk; j++ {
					s[j] = exp32(s[j] - m)
					sum = sum + s[j]
				}
				for j := 0; j < nk; j++ {
					s[j] = s[j] / sum
				}
				for d := 0; d < hd; d++ {
					var acc float32
					for j := 0; j < nk; j++ {
						if s[j] == 0 {
							continue
						}
						acc = acc + float32(s[j]*v[((b*sh.KVHeads+g)*nk+j)*hd+d])
					}
					o[d] = acc
				}
			}
		}
	}
}

// ref64 is attention in float64 with math.Exp: the mathematical value the
// float32 modes approximate. Masked keys as in Attention.
func ref64(q, k, v []float32, sh Shape, opt Options) []float64 {
	hd, nk := sh.HeadDim, sh.SeqKV
	scale := float64(opt.Scale)
	if scale == 0 {
		scale = float64(float32(1 / math.Sqrt(float64(hd))))
	}
	out := make([]float64, sh.Batch*sh.Heads*sh.SeqQ*hd)
	s := make([]float64, nk)
	for b := 0; b < sh.Batch; b++ {
		for h := 0; h < sh.Heads; h++ {
			g := h / (sh.Heads / sh.KVHeads)
			for i := 0; i < sh.SeqQ; i++ {
				qr := q[((b*sh.Heads+h)*sh.SeqQ+i)*hd:][:hd]
				m := math.Inf(-1)
				for j := 0; j < nk; j++ {
					s[j] = math.Inf(-1)
					if opt.Causal && j > nk-sh.SeqQ+i {
						continue
					}
					var mk float64
					if opt.Mask != nil {
						mk = float64(maskAt(opt.Mask, sh, b, i, j))
						if math.IsInf(mk, -1) {
							continue
						}
					}
					kr := k[((b*sh.KVHeads+g)*nk+j)*hd:][:hd]
					var dot float64
					for d := 0; d < hd; d++ {
						dot += float64(qr[d]) * float64(kr[d])
					}
					s[j] = dot*scale + mk
					m = math.Max(m, s[j])
				}
				if math.IsInf(m, -1) {
					continue
				}
				var sum float64
				for j := 0; j < nk; j++ {
					s[j] = math.Exp(s[j] - m)
					sum += s[j]
				}
				o := out[((b*sh.Heads+h)*sh.SeqQ+i)*hd:][:hd]
				for j := 0; j < nk; j++ {
					if s[j] == 0 {
						continue
					}
					for d := 0; d < hd; d++ {
						o[d] += s[j] / sum * float64(v[((b*sh.KVHeads+g)*nk+j)*hd+d])
					}
				}
			}
		}
	}
	return out
}

func maskAt(mask []float32, sh Shape, b, i, j int) float32 {
	if len(mask) == sh.SeqQ*sh.SeqKV {
		return mask[i*sh.SeqKV+j]
	}
	return mask[(b*sh.SeqQ+i)*sh.SeqKV+j]
}

// inputs are random q, k, v for sh with values uniform in [-mag, mag).
type inputs struct {
	q, k, v []float32
}

func randInputs(rng *rand.Rand, sh Shape, mag float32) inputs {
	f := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = (2*rng.Float32() - 1) * mag
		}
		return x
	}
	return inputs{
		q: f(sh.Batch * sh.Heads * sh.SeqQ * sh.HeadDim),
		k: f(sh.Batch * sh.KVHeads * sh.SeqKV * sh.HeadDim),
		v: f(sh.Batch * sh.KVHeads * sh.SeqKV * sh.HeadDim),
	}
}

// randMask returns a mask of n·SeqQ·SeqKV entries (n = 1 or Batch): mostly
// small finite values, some -Inf, and some rows entirely -Inf.
func randMask(rng *rand.Rand, sh Shape, n int) []float32 {
	m := make([]float32, n*sh.SeqQ*sh.SeqKV)
	for r := 0; r < n*sh.SeqQ; r++ {
		row := m[r*sh.SeqKV:][:sh.SeqKV]
		full := rng.IntN(7) == 0
		for j := range row {
			switch {
			case full || rng.IntN(4) == 0:
				row[j] = float32(math.Inf(-1))
			default:
				row[j] = 3 * (rng.Float32() - 0.5)
			}
		}
	}
	return m
}

// tileKV repeats each KV head Heads/KVHeads times: the MHA layout that
// grouped-query attention must match.
func tileKV(x []float32, sh Shape) []float32 {
	g := sh.Heads / sh.KVHeads
	n := sh.SeqKV * sh.HeadDim
	out := make([]float32, 0, sh.Batch*sh.Heads*n)
	for b := 0; b < sh.Batch; b++ {
		for h := 0; h < sh.Heads; h++ {
			src := x[(b*sh.KVHeads+h/g)*n:][:n]
			out = append(out, src...)
		}
	}
	return out
}

func toF16(x []float32) []quant.F16 {
	h := make([]quant.F16, len(x))
	for i, f := range x {
		h[i] = quant.FromFloat32(f)
	}
	return h
}

func fromF16(h []quant.F16) []float32 {
	x := make([]float32, len(h))
	for i, v := range h {
		x[i] = v.Float32()
	}
	return x
}

// assertBits fails unless got and want have the same bits everywhere.
func assertBits(t testing.TB, what string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: len %d, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: element %d is %g [%#08x], want %g [%#08x]", what, i,
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// Test schedules.

// chunks splits [0, n) into ranges of size (at least 1) chunk.
func chunks(n, chunk int) [][2]int {
	chunk = max(chunk, 1)
	var r [][2]int
	for s := 0; s < n; s += chunk {
		r = append(r, [2]int{s, min(s+chunk, n)})
	}
	return r
}

// reverseSchedule runs ranges of chunk indices, last range first, on the
// calling goroutine.
type reverseSchedule struct{ chunk int }

func (s reverseSchedule) Parallelism() int { return 1 }
func (s reverseSchedule) Name() string     { return "reverse" }
func (s reverseSchedule) ForRange(n, grain int, body func(start, end int)) {
	c := chunks(n, max(s.chunk, grain))
	for i := len(c) - 1; i >= 0; i-- {
		body(c[i][0], c[i][1])
	}
}
func (s reverseSchedule) ForEach(count, minPerTask int, body func(i int)) {
	s.ForRange(count, minPerTask, func(a, b int) {
		for i := b - 1; i >= a; i-- {
			body(i)
		}
	})
}

// goSchedule runs every range of chunk indices on its own goroutine, all at
// once.
type goSchedule struct{ chunk int }

func (s goSchedule) Parallelism() int { return 64 }
func (s goSchedule) Name() string     { return "goroutines" }
func (s goSchedule) ForRange(n, grain int, body func(start, end int)) {
	var wg sync.WaitGroup
	for _, c := range chunks(n, max(s.chunk, grain)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body(c[0], c[1])
		}()
	}
	wg.Wait()
}
func (s goSchedule) ForEach(count, minPerTask int, body func(i int)) {
	s.ForRange(count, minPerTask, func(a, b int) {
		for i := a; i < b; i++ {
			body(i)
		}
	})
}

// loopSchedule runs ForRange one index at a time through a pool's loop
// scheduler.
type loopSchedule struct {
	name  string
	pool  *sched.Pool
	ls    func() sched.LoopScheduler
	chunk int
}

func (s loopSchedule) Parallelism() int { return s.pool.Parallelism() }
func (s loopSchedule) Name() string     { return s.name }
func (s loopSchedule) ForRange(n, grain int, body func(start, end int)) {
	if err := s.pool.For(0, n, s.ls(), s.chunk, func(i int) { body(i, i+1) }); err != nil {
		panic(err)
	}
}
func (s loopSchedule) ForEach(count, minPerTask int, body func(i int)) {
	if err := s.pool.For(0, count, s.ls(), s.chunk, body); err != nil {
		panic(err)
	}
}

// schedules returns every schedule the results must not depend on.
func schedules(t testing.TB) []sched.Schedule {
	ss := []sched.Schedule{
		sched.Sequential,
		sched.Hardware(),
		reverseSchedule{1}, reverseSchedule{3},
		goSchedule{1}, goSchedule{2}, goSchedule{5},
	}
	for n := 1; n <= 4; n++ {
		p, err := sched.NewPool(sched.WithWorkers(n))
		if err != nil {
			t.Fatalf("NewPool(%d): %v", n, err)
		}
		t.Cleanup(func() { p.Close() })
		ss = append(ss, p)
	}
	hw := sched.Hardware()
	for _, l := range []struct {
		name string
		ls   func() sched.LoopScheduler
	}{
		{"static", sched.Static}, {"dynamic", sched.Dynamic},
		{"guided", sched.Guided}, {"workstealing", sched.WorkStealing},
	} {
		for _, chunk := range []int{1, 3} {
			ss = append(ss, loopSchedule{name: l.name, pool: hw, ls: l.ls, chunk: chunk})
		}
	}
	return ss
}
