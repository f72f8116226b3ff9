package spi

import (
	"strings"

	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sdpa"
)

// Attention runs scaled dot-product attention (package sdpa) on the
// context's schedule with the backend's kernels (WithKernels reaches every
// kernel Attention runs). By default q and out are [Batch, Heads, SeqQ,
// HeadDim] and k and v [Batch, KVHeads, SeqKV, HeadDim]; opt.Layout and
// opt.KVLayout = sdpa.TokensFirst take [Batch, SeqQ, Heads, HeadDim] (what
// MatMul gives) and [Batch, SeqKV, KVHeads, HeadDim] without a copy.
// sdpa.Exact (the default) is bit-identical under every schedule, kernel
// variant and machine; sdpa.Fast uses the kernels' reassociated float32
// code and is tolerance-tested against Exact, but is itself bit-identical
// under every schedule. The units of work are tiles of the query rows that
// share a K/V head, so the parallel dimensions are batch and heads.
//
// Errors wrap ErrShape (sdpa.ErrShape is the same sentinel), sdpa.ErrOption
// or sdpa.ErrOverlap and name the argument at fault. The trace event is
// emitted only for a call that passed validation.
func (c Context) Attention(out, q, k, v []float32, shape sdpa.Shape, opt sdpa.Options) error {
	err := c.attention().Attention(c.s, out, q, k, v, shape, opt)
	return opErr("Attention", err)
}

// AttentionF16 is Attention with K and V stored as binary16 (the usual KV
// cache type, see WriteKVF16); each value is widened to float32 exactly.
func (c Context) AttentionF16(out, q []float32, k, v []quant.F16, shape sdpa.Shape, opt sdpa.Options) error {
	err := c.attention().AttentionF16(c.s, out, q, k, v, shape, opt)
	return opErr("AttentionF16", err)
}

// attention returns an sdpa.Runner on the backend's kernels that traces
// the call once it has validated its arguments.
func (c Context) attention() sdpa.Runner {
	r := sdpa.New(c.b.ops)
	if c.b.trace != nil {
		r = r.OnStart(func() { c.traceOp("Attention") })
	}
	return r
}

// opError is an error of a lower package reported under spi's name: the
// message has spi's prefix instead of the package's ("spi: Attention: …",
// not "spi: Attention: sdpa: Attention: …"), and it unwraps to the
// original error, so errors.Is sees its sentinels.
type opError struct {
	msg string
	err error
}

func (e *opError) Error() string { return e.msg }
func (e *opError) Unwrap() error { return e.err }

// opErr renames err (nil stays nil) as an error of spi's op: the lower
// package's "pkg: Op: " prefix is replaced by "spi: op: ".
func opErr(op string, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); i >= 0 && !strings.Contains(msg[:i], " ") {
		rest := msg[i+2:]
		if j := strings.Index(rest, ": "); j >= 0 && !strings.Contains(rest[:j], " ") {
			msg = rest[j+2:]
		}
	}
	return &opError{msg: "spi: " + op + ": " + msg, err: err}
}
