package spi

import (
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
)

// WriteKV copies new K or V rows ([Batch, Tokens, KVHeads, HeadDim], as
// MatMul gives them) into a float32 KV cache in place, at positions w.Pos,
// w.Pos+1, … (see sdpa.KVWrite for the cache layouts Attention reads). It
// runs inline on the calling goroutine (it moves Tokens·KVHeads rows).
// Bad dimensions are an error wrapping ErrShape that names the field; the
// cache is then untouched.
func (c Context) WriteKV(cache, src []float32, w sdpa.KVWrite) error {
	if err := sdpa.WriteKV(cache, src, w); err != nil {
		return opErr("WriteKV", err)
	}
	c.traceOp("WriteKV")
	return nil
}

// WriteKVF16 is WriteKV for a binary16 cache (the usual KV-cache type,
// read by AttentionF16): each new value is rounded to the nearest binary16
// as it is written, so the cache is never converted as a whole.
func (c Context) WriteKVF16(cache []quant.F16, src []float32, w sdpa.KVWrite) error {
	if err := sdpa.WriteKVF16(cache, src, w); err != nil {
		return opErr("WriteKVF16", err)
	}
	c.traceOp("WriteKV")
	return nil
}
