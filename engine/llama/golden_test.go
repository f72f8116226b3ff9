package llama

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
)

func hashLogits(rows []float32) uint64 {
	h := fnv.New64a()
	var b [4]byte
	for _, v := range rows {
		u := math.Float32bits(v)
		b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		h.Write(b[:])
	}
	return h.Sum64()
}

// TestExactGolden pins the bits of the Exact mode: the logits of 32
// greedy steps from BOS of the repository's stories260K-f32 model (f32
// and f16 KV cache), and of 8 steps of a random model mixing every weight
// type (mixB), hash to the same values on every machine, GOARCH, kernel
// variant and schedule: amd64 and arm64 (scripts/test-arm64, every arm64
// variant) reproduce these hashes.
func TestExactGolden(t *testing.T) {
	stories := openModel(t, "../../testdata/stories260K-f32.gguf")
	mixed := buildModel(t, buildOpts{c: cfgB, typeOf: mixB, seed: 9})
	for _, c := range []struct {
		name string
		m    *Model
		kv   quant.Type
		n    int
		want uint64
	}{
		{"stories260K-f32", stories, quant.F32, 32, 0x19f2ca3386a5acbb},
		{"stories260K-f32", stories, quant.FP16, 32, 0xcd1152fffe5754cd},
		{"mixed", mixed, quant.F32, 8, 0xa024c226dec60e5d},
	} {
		for _, s := range schedules() {
			_, rows := run(t, c.m, backend(t, s, ""), Options{Mode: sdpa.Exact, KV: c.kv, Context: c.n}, []int{1}, nil, c.n)
			if got := hashLogits(rows); got != c.want {
				t.Errorf("%s, kv %v, %s: logits hash to %#016x, want %#016x", c.name, c.kv, s.Name(), got, c.want)
			}
		}
	}
}
