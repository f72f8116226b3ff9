package parity

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/corelane/corelane/sched"
	"github.com/corelane/corelane/spi"
)

// chunkedDecode is a copy, in plain Go, of the algorithm of Fast decode
// attention (sdpa's fastTile with partials, then combine): one query row
// per head against sk keys cut into fixed chunks of chunkKeys; each (head,
// chunk) unit leaves its partial softmax state — max m, sum l of exp(s-m),
// and acc = Σ exp(s-m)·v — and each head then merges its chunks' states.
// The units run on the context's schedule. With inOrder the merge takes
// the chunks in chunk order, as sdpa does; without it, in the order the
// units finished: the bug a parity suite must catch.
type chunkedDecode struct {
	heads, sk, hd int
	q, k, v       []float32 // [heads, hd], [heads, sk, hd], [heads, sk, hd]
}

const chunkKeys = 512

func newChunkedDecode(r *rand.Rand) *chunkedDecode {
	d := &chunkedDecode{heads: 12, sk: 1300, hd: 32} // 3 key chunks per head
	d.q = randVec(r, d.heads*d.hd, 1)
	d.k = randVec(r, d.heads*d.sk*d.hd, 1)
	d.v = randVec(r, d.heads*d.sk*d.hd, 1)
	return d
}

func (d *chunkedDecode) op(name string, inOrder bool) parityOp {
	return parityOp{name: name, kernels: noKernels, run: func(c spi.Context) ([]float32, error) {
		return d.run(c, inOrder), nil
	}}
}

func (d *chunkedDecode) run(c spi.Context, inOrder bool) []float32 {
	chunks := (d.sk + chunkKeys - 1) / chunkKeys
	m := make([]float32, d.heads*chunks)
	l := make([]float32, d.heads*chunks)
	acc := make([]float32, d.heads*chunks*d.hd)
	var mu sync.Mutex
	finished := make([][]int, d.heads) // per head, chunk ids in completion order
	c.Schedule().ForRange(d.heads*chunks, 1, func(start, end int) {
		for u := start; u < end; u++ {
			h, ch := u/chunks, u%chunks
			q := d.q[h*d.hd : (h+1)*d.hd]
			k0, k1 := ch*chunkKeys, min((ch+1)*chunkKeys, d.sk)
			scores := make([]float32, k1-k0)
			mx := float32(math.Inf(-1))
			for j := k0; j < k1; j++ {
				kj := d.k[(h*d.sk+j)*d.hd:][:d.hd]
				var s float32
				for i := range q {
					s += float32(q[i] * kj[i])
				}
				scores[j-k0] = s
				mx = max(mx, s)
			}
			var sum float32
			a := acc[u*d.hd : (u+1)*d.hd]
			for j := k0; j < k1; j++ {
				e := float32(math.Exp(float64(scores[j-k0] - mx)))
				sum += e
				vj := d.v[(h*d.sk+j)*d.hd:][:d.hd]
				for i := range a {
					a[i] += float32(e * vj[i])
				}
			}
			m[u], l[u] = mx, sum
			mu.Lock()
			finished[h] = append(finished[h], ch)
			mu.Unlock()
		}
	})
	out := make([]float32, d.heads*d.hd)
	for h := 0; h < d.heads; h++ {
		order := finished[h]
		if inOrder {
			order = make([]int, chunks)
			for i := range order {
				order[i] = i
			}
		}
		mx := float32(math.Inf(-1))
		for _, ch := range order {
			mx = max(mx, m[h*chunks+ch])
		}
		o := out[h*d.hd : (h+1)*d.hd]
		var sum float32
		for _, ch := range order {
			u := h*chunks + ch
			w := float32(math.Exp(float64(m[u] - mx)))
			sum += float32(l[u] * w)
			for i := range o {
				o[i] += float32(acc[u*d.hd+i] * w)
			}
		}
		for i := range o {
			o[i] /= sum
		}
	}
	return out
}

// TestParityBites: the cells TestParity runs catch a combine in completion
// order. The chunk-order copy passes every column (with a helper executing
// chunks on the pools); the completion-order copy fails every permutation
// column, with the same first difference on every run — whatever the pools
// happen to do.
func TestParityBites(t *testing.T) {
	concurrency(t)
	cols := columns(t)
	d := newChunkedDecode(rand.New(rand.NewPCG(11, 13)))
	b, err := spi.New(spi.WithKernels("generic"))
	if err != nil {
		t.Fatal(err)
	}
	base := b.Context().WithSchedule(sched.Sequential)
	good, bad := d.op("decode-in-order", true), d.op("decode-completion-order", false)
	want, _ := good.run(base)
	if again, _ := bad.run(base); firstDiff(again, want) >= 0 {
		t.Fatal("under Sequential the two copies should agree: completion order is chunk order there")
	}
	for _, col := range cols {
		t.Run("sched="+col.name, func(t *testing.T) {
			c := runCell(good, base, col, want)
			c.verdict(t, col)
			if col.probe != nil {
				// A pool may or may not reorder a given run; only the
				// permutation columns are deterministic.
				return
			}
			first := runCell(bad, base, col, want)
			if first.err == nil {
				t.Fatalf("the completion-order combine passed %s: the suite does not bite", col.name)
			}
			for range 3 {
				if again := runCell(bad, base, col, want); again.err == nil || again.err.Error() != first.err.Error() {
					t.Fatalf("not deterministic: %v, then %v", first.err, again.err)
				}
			}
			t.Logf("caught: %v", first.err)
		})
	}
}
