package sdpa

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/corelane/corelane/sched"
)

// goldenExact pins the bits of Exact mode (and of exp32) for fixed inputs.
// The inputs come from a seeded PCG and are the same on every GOARCH, so
// the hashes must be too: run this test on amd64 and on arm64 (under
// qemu-aarch64, see scripts/test-arm64) to check Exact's cross-machine
// promise. A change of any Exact bit, on purpose or not, changes a hash.
var goldenExact = []struct {
	sh   Shape
	opt  Options
	hash uint64
}{
	{Shape{2, 8, 2, 17, 300, 64}, Options{Causal: true}, 0x3689966b6d13896d},
	{Shape{1, 4, 4, 1, 4100, 64}, Options{Causal: true}, 0x55d13647b54d00d0},
	{Shape{1, 3, 1, 5, 70, 13}, Options{Scale: 0.3}, 0x029db5b3645e61e3},
}

const goldenExp32 uint64 = 0x671a6851b6f210f9

func hashFloats(h interface{ Write([]byte) (int, error) }, xs []float32) {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		u := math.Float32bits(x)
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	}
	h.Write(b)
}

func TestExactGolden(t *testing.T) {
	for i, g := range goldenExact {
		rng := rand.New(rand.NewPCG(uint64(i), 42))
		in := randInputs(rng, g.sh, 2)
		opt := g.opt
		if i == 0 {
			opt.Mask = randMask(rng, g.sh, g.sh.Batch)
		}
		out := make([]float32, outLen(g.sh))
		if err := Attention(sched.Hardware(), out, in.q, in.k, in.v, g.sh, opt); err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		hashFloats(h, out)
		if got := h.Sum64(); got != g.hash {
			t.Errorf("Exact %+v: hash %#x, want %#x", g.sh, got, g.hash)
		}
	}
	h := fnv.New64a()
	xs := make([]float32, 0, 1<<16)
	for b := uint64(3); b < 1<<32; b += 65521 {
		xs = append(xs, exp32(math.Float32frombits(uint32(b))))
	}
	hashFloats(h, xs)
	if got := h.Sum64(); got != goldenExp32 {
		t.Errorf("exp32 sweep: hash %#x, want %#x", got, goldenExp32)
	}
}
