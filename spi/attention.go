package spi

import (
	"fmt"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
)

// Attention runs scaled dot-product attention (package sdpa) on the
// context's schedule: q and out are [Batch, Heads, SeqQ, HeadDim], k and v
// [Batch, KVHeads, SeqKV, HeadDim]. sdpa.Exact (the default) is
// bit-identical under every schedule and on every machine; sdpa.Fast uses
// the SIMD kernels and is tolerance-tested against Exact, but is itself
// bit-identical under every schedule. The units of work are the (batch,
// head) pairs (and, in Fast decode, fixed key chunks).
func (c Context) Attention(out, q, k, v []float32, shape sdpa.Shape, opt sdpa.Options) error {
	c.traceOp("Attention")
	if err := sdpa.Attention(c.s, out, q, k, v, shape, opt); err != nil {
		return fmt.Errorf("spi: Attention: %w", err)
	}
	return nil
}

// AttentionF16 is Attention with K and V stored as binary16 (the usual KV
// cache type); each value is widened to float32 exactly.
func (c Context) AttentionF16(out, q []float32, k, v []quant.F16, shape sdpa.Shape, opt sdpa.Options) error {
	c.traceOp("Attention")
	if err := sdpa.AttentionF16(c.s, out, q, k, v, shape, opt); err != nil {
		return fmt.Errorf("spi: AttentionF16: %w", err)
	}
	return nil
}
