package sdpa

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// Shape gives the dimensions of one attention call. Q and the output are
// [Batch, Heads, SeqQ, HeadDim], K and V are [Batch, KVHeads, SeqKV,
// HeadDim], all row-major, unless Options.Layout or Options.KVLayout say
// TokensFirst.
//
// Heads, KVHeads and HeadDim must be at least 1 and KVHeads must divide
// Heads: query head h reads K/V head h / (Heads/KVHeads) (grouped-query
// attention; KVHeads == Heads is multi-head, KVHeads == 1 multi-query).
// Batch, SeqQ and SeqKV may be 0: a call with no query rows does nothing,
// and with no keys every row is fully masked (zeros, see Attention).
type Shape struct{ Batch, Heads, KVHeads, SeqQ, SeqKV, HeadDim int }

// Mode selects how Attention computes. The zero value is Exact.
type Mode int

const (
	// Exact computes every row in the scalar order documented on Attention,
	// and gives the same bits under every schedule, on every machine.
	Exact Mode = iota
	// Fast uses the float32 SIMD kernels of package kernels and a
	// vectorised exp when decoding. It is not bit-identical to Exact (see the
	// package documentation for its tolerance), nor across kernel variants;
	// with one kernel variant it gives the same bits under every schedule.
	Fast
)

// String returns "exact" or "fast".
func (m Mode) String() string {
	switch m {
	case Exact:
		return "exact"
	case Fast:
		return "fast"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Layout is the order of the head and token dimensions of Q and out
// (Options.Layout) or of K and V (Options.KVLayout). The zero value is
// HeadsFirst.
type Layout int

const (
	// HeadsFirst is [Batch, Heads, Seq, HeadDim]: each head's rows are
	// contiguous (a KV cache kept per head).
	HeadsFirst Layout = iota
	// TokensFirst is [Batch, Seq, Heads, HeadDim]: each token's heads are
	// contiguous, as a matrix product of the token rows with the
	// projection weights produces them (and a KV cache kept per token).
	TokensFirst
)

// String returns "heads-first" or "tokens-first".
func (l Layout) String() string {
	switch l {
	case HeadsFirst:
		return "heads-first"
	case TokensFirst:
		return "tokens-first"
	}
	return fmt.Sprintf("Layout(%d)", int(l))
}

// Options are the optional parts of an attention call. The zero value is
// non-causal, unmasked, Exact attention with scale 1/sqrt(HeadDim).
type Options struct {
	// Causal masks, for query row i, every key after position
	// SeqKV-SeqQ+i: the queries are aligned to the end of the keys, as in
	// decoding with a KV cache. A row whose position is negative (SeqQ >
	// SeqKV) sees no key.
	Causal bool
	// Scale multiplies every score; 0 means 1/sqrt(HeadDim), rounded to
	// float32. It must be finite.
	Scale float32
	// Mask, if not nil, is added to the scores: [SeqQ, SeqKV] (the same for
	// every batch and head) or [Batch, SeqQ, SeqKV]. A -Inf entry masks its
	// key (see Attention).
	Mask []float32
	// Mode is Exact (the default) or Fast.
	Mode Mode
	// KVCapacity, if not 0, is the number of rows each K/V head has room
	// for, as in a KV cache written in place: K and V are then [Batch,
	// KVHeads, KVCapacity, HeadDim] and only the first SeqKV rows of each
	// head are read (the rest may hold anything). 0 means SeqKV. It must be
	// at least SeqKV. With KVLayout TokensFirst, K and V are [Batch,
	// KVCapacity, KVHeads, HeadDim].
	KVCapacity int
	// Layout is the layout of q and out: HeadsFirst (the default,
	// [Batch, Heads, SeqQ, HeadDim]) or TokensFirst ([Batch, SeqQ, Heads,
	// HeadDim], what a matrix product of the token rows gives).
	Layout Layout
	// KVLayout is the layout of k and v: HeadsFirst (the default) or
	// TokensFirst ([Batch, SeqKV or KVCapacity, KVHeads, HeadDim]).
	KVLayout Layout
}

// Errors returned by Attention and AttentionF16, for errors.Is. Every error
// also names the field or argument at fault.
var (
	// ErrShape: a dimension is out of range, a slice has the wrong length,
	// or KVHeads does not divide Heads.
	// It is quant.ErrShape, the module's one shape sentinel.
	ErrShape = quant.ErrShape
	// ErrOption: an Options field is invalid (Scale not finite, unknown
	// Mode or Layout).
	ErrOption = errors.New("bad option")
	// ErrOverlap: out shares memory with q, k, v or the mask.
	ErrOverlap = errors.New("output overlaps an input")
)

// Attention computes scaled dot-product attention,
//
//	out[b,h,i,:] = Σ_j softmax_j(Scale·q[b,h,i,:]·k[b,g,j,:] + mask[b,i,j]) · v[b,g,j,:]
//
// with g = h / (Heads/KVHeads), on the schedule s (nil means
// sched.Sequential). Every slice must have exactly the length its layout
// needs (see Shape, Options.Mask and Options.KVCapacity): a longer slice is
// an error too, because a layout mistake usually shows up that way. out must
// not overlap q, k, v or the mask. Bad arguments are an error wrapping ErrShape, ErrOption or ErrOverlap
// that names the field; out is then untouched.
//
// A key is masked for row i if it lies after the row's causal position or
// its mask entry is -Inf. Masked keys have weight exactly 0 and do not
// affect the row at all, even if their K or V rows hold Inf or NaN (a KV
// cache past the current position may hold garbage). A row whose every key
// is masked (every score -Inf) — including every row when SeqKV is 0 — is
// set to zeros, not NaN. Otherwise Inf and NaN in the inputs propagate:
// Exact follows the formula below, Fast gives Inf or NaN where it does.
//
// Exact mode computes each query row in this order, every step a separately
// rounded float32 operation (no fused multiply-add):
//
//	s[j]  = (Σ_d q[d]·k[j,d]) · Scale       sum over d in order, from +0
//	s[j]  = -Inf if j is masked, else s[j] + mask[j]
//	m     = max_j s[j]                      strict >, starting from -Inf
//	e[j]  = exp(s[j] - m);  sum = Σ_j e[j]  in key order, from +0
//	p[j]  = e[j] / sum
//	out[d] = Σ_j p[j]·v[j,d]                in key order, from +0, skipping p[j] == 0
//
// where exp is this package's float32 exponential (within 1 ulp of the
// correctly rounded value, and the same bits on every machine, unlike
// math.Exp). Query rows are independent, so the result has the same bits
// under every schedule and every worker count, and grouped K/V gives the
// bits of K/V tiled to Heads heads. The result is the same on every GOARCH:
// Exact's kernels (kernels.Ops.Exact*) return the same bits on every
// variant and GOARCH (see the package documentation).
//
// Fast mode: see the package documentation.
//
// The units of work are tiles of the query rows that read one K/V head. A
// call of fewer than ParallelMinWork (Exact) or
// ParallelMinWorkFast (Fast) multiply-adds runs inline on the calling
// goroutine.
//
// Attention uses the kernels the registry currently selects
// (kernels.Current); Runner.Attention uses a given set.
func Attention(s sched.Schedule, out, q, k, v []float32, shape Shape, opt Options) error {
	return New(kernels.Current()).Attention(s, out, q, k, v, shape, opt)
}

// AttentionF16 is Attention with K and V stored as IEEE binary16, the usual
// KV-cache type. Each value is widened to float32 exactly, block by block
// into per-task scratch (K/V are never widened as a whole), so in Exact mode
// AttentionF16 gives exactly the bits Attention gives on the widened K and
// V; in Fast mode it gives the same bits as Fast Attention on the widened
// K and V.
//
// AttentionF16 uses the kernels the registry currently selects;
// Runner.AttentionF16 uses a given set.
func AttentionF16(s sched.Schedule, out, q []float32, k, v []quant.F16, shape Shape, opt Options) error {
	return New(kernels.Current()).AttentionF16(s, out, q, k, v, shape, opt)
}

// Runner computes attention with one fixed set of kernels, such as the
// kernels a spi.Backend was pinned to: every kernel an attention call runs
// comes from it, never from the process-wide registry. The zero Runner is
// not usable; make one with New. A Runner is a small value, safe for
// concurrent use.
type Runner struct {
	ops     kernels.Ops
	onStart func()
}

// New returns a Runner that uses ops (kernels.Lookup or kernels.Current
// give one; every field must be set, as in those).
func New(ops kernels.Ops) Runner { return Runner{ops: ops} }

// OnStart returns a copy of r that calls f once per call, after the call
// has validated its arguments and before any work: a failed call never
// calls it. (spi uses it to trace only the calls that run.)
func (r Runner) OnStart(f func()) Runner {
	r.onStart = f
	return r
}

// Attention is the package's Attention with r's kernels.
func (r Runner) Attention(s sched.Schedule, out, q, k, v []float32, shape Shape, opt Options) error {
	p, err := newPlan("Attention", out, q, len(k), len(v), shape, opt)
	if err != nil {
		return err
	}
	defer p.release()
	if err := checkOverlap("Attention", out, q, k, v, opt.Mask); err != nil {
		return err
	}
	if r.onStart != nil {
		r.onStart()
	}
	p.ops = r.ops
	run(s, p, out, q, k, v)
	return nil
}

// AttentionF16 is the package's AttentionF16 with r's kernels.
func (r Runner) AttentionF16(s sched.Schedule, out, q []float32, k, v []quant.F16, shape Shape, opt Options) error {
	p, err := newPlan("AttentionF16", out, q, len(k), len(v), shape, opt)
	if err != nil {
		return err
	}
	defer p.release()
	if err := checkOverlap("AttentionF16", out, q, k, v, opt.Mask); err != nil {
		return err
	}
	if r.onStart != nil {
		r.onStart()
	}
	p.ops = r.ops
	run(s, p, out, q, k, v)
	return nil
}

func shapeErr(op, format string, args ...any) error {
	return fmt.Errorf("sdpa: %s: %w: %s", op, ErrShape, fmt.Sprintf(format, args...))
}

func optionErr(op, format string, args ...any) error {
	return fmt.Errorf("sdpa: %s: %w: %s", op, ErrOption, fmt.Sprintf(format, args...))
}

// mul returns a·b for non-negative a, b, and false if it overflows an int.
func mul(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt {
		return 0, false
	}
	return int(lo), true
}

// mulAll returns the product of non-negative xs, and false on overflow.
func mulAll(xs ...int) (int, bool) {
	p := 1
	for _, x := range xs {
		var ok bool
		if p, ok = mul(p, x); !ok {
			return 0, false
		}
	}
	return p, true
}

// layoutName names the layout of q and out (kv false) or of k and v.
func layoutName(kv bool, opt Options) string {
	if !kv {
		if opt.Layout == TokensFirst {
			return "Batch·SeqQ·Heads·HeadDim"
		}
		return "Batch·Heads·SeqQ·HeadDim"
	}
	seqName := "SeqKV"
	if opt.KVCapacity != 0 {
		seqName = "KVCapacity"
	}
	if opt.KVLayout == TokensFirst {
		return "Batch·" + seqName + "·KVHeads·HeadDim"
	}
	return "Batch·KVHeads·" + seqName + "·HeadDim"
}

// newPlan validates every argument and returns the call's plan.
func newPlan(op string, out, q []float32, lenK, lenV int, sh Shape, opt Options) (*plan, error) {
	for _, d := range []struct {
		name string
		v    int
		min  int
	}{
		{"Batch", sh.Batch, 0}, {"Heads", sh.Heads, 1}, {"KVHeads", sh.KVHeads, 1},
		{"SeqQ", sh.SeqQ, 0}, {"SeqKV", sh.SeqKV, 0}, {"HeadDim", sh.HeadDim, 1},
	} {
		if d.v < d.min {
			return nil, shapeErr(op, "Shape.%s = %d, want >= %d", d.name, d.v, d.min)
		}
	}
	if sh.Heads%sh.KVHeads != 0 {
		return nil, shapeErr(op, "Shape.KVHeads = %d does not divide Shape.Heads = %d", sh.KVHeads, sh.Heads)
	}
	nq, ok1 := mulAll(sh.Batch, sh.Heads, sh.SeqQ, sh.HeadDim)
	capacity := sh.SeqKV
	if opt.KVCapacity != 0 {
		if opt.KVCapacity < sh.SeqKV {
			return nil, shapeErr(op, "Options.KVCapacity = %d, want 0 or at least Shape.SeqKV = %d", opt.KVCapacity, sh.SeqKV)
		}
		capacity = opt.KVCapacity
	}
	nkv, ok2 := mulAll(sh.Batch, sh.KVHeads, capacity, sh.HeadDim)
	nm, ok3 := mulAll(sh.SeqQ, sh.SeqKV)
	nmb, ok4 := mulAll(sh.Batch, sh.SeqQ, sh.SeqKV)
	// Work estimates multiply these by up to 2·SeqKV·HeadDim more; keep
	// everything far from overflow.
	wk, ok5 := mulAll(sh.Batch, sh.Heads, sh.SeqQ, sh.SeqKV, sh.HeadDim, 4)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return nil, shapeErr(op, "Shape %+v is too large (its sizes overflow int)", sh)
	}
	_ = wk
	for _, l := range []struct {
		name string
		l    Layout
	}{{"Layout", opt.Layout}, {"KVLayout", opt.KVLayout}} {
		if l.l != HeadsFirst && l.l != TokensFirst {
			return nil, optionErr(op, "Options.%s = %d, want HeadsFirst (%d) or TokensFirst (%d)", l.name, int(l.l), int(HeadsFirst), int(TokensFirst))
		}
	}
	// The layouts' names are built only for an error message, so that a
	// valid call allocates nothing here.
	for _, c := range []struct {
		name string
		kv   bool
		got  int
		want int
	}{
		{"q", false, len(q), nq},
		{"out", false, len(out), nq},
		{"k", true, lenK, nkv},
		{"v", true, lenV, nkv},
	} {
		if c.got != c.want {
			return nil, shapeErr(op, "len(%s) = %d, want %s = %d", c.name, c.got, layoutName(c.kv, opt), c.want)
		}
	}
	maskPerBatch := false
	if opt.Mask != nil {
		switch len(opt.Mask) {
		case nm:
		case nmb:
			maskPerBatch = true
		default:
			return nil, shapeErr(op, "len(Options.Mask) = %d, want SeqQ·SeqKV = %d or Batch·SeqQ·SeqKV = %d", len(opt.Mask), nm, nmb)
		}
	}
	scale := opt.Scale
	switch {
	case scale != scale || math.IsInf(float64(scale), 0):
		return nil, optionErr(op, "Options.Scale = %g, want a finite value (0 for 1/sqrt(HeadDim))", scale)
	case scale == 0:
		scale = float32(1 / math.Sqrt(float64(sh.HeadDim)))
	}
	if opt.Mode != Exact && opt.Mode != Fast {
		return nil, optionErr(op, "Options.Mode = %d, want Exact (%d) or Fast (%d)", int(opt.Mode), int(Exact), int(Fast))
	}
	hd := sh.HeadDim
	p := planPool.Get().(*plan)
	*p = plan{
		sh:           sh,
		scale:        scale,
		causal:       opt.Causal,
		mask:         opt.Mask,
		maskPerBatch: maskPerBatch,
		group:        sh.Heads / sh.KVHeads,
		capacity:     capacity,
		mode:         opt.Mode,
	}
	// Strides (in elements) of batch, head and row in q/out and in k/v.
	if opt.Layout == TokensFirst {
		p.qsB, p.qsH, p.qsI = sh.SeqQ*sh.Heads*hd, hd, sh.Heads*hd
	} else {
		p.qsB, p.qsH, p.qsI = sh.Heads*sh.SeqQ*hd, sh.SeqQ*hd, hd
	}
	if opt.KVLayout == TokensFirst {
		p.ksB, p.ksG, p.ksJ = capacity*sh.KVHeads*hd, hd, sh.KVHeads*hd
	} else {
		p.ksB, p.ksG, p.ksJ = sh.KVHeads*capacity*hd, capacity*hd, hd
	}
	return p, nil
}

// span returns the address range [lo, hi) of a slice's elements.
func span[T any](s []T) (lo, hi uintptr) {
	if len(s) == 0 {
		return 0, 0
	}
	lo = uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return lo, lo + uintptr(len(s))*unsafe.Sizeof(s[0])
}

// checkOverlap rejects an out that shares memory with an input: one unit
// would read what another writes, and the result would depend on the
// schedule.
func checkOverlap[T kvElem](op string, out, q []float32, k, v []T, mask []float32) error {
	type region struct {
		name   string
		lo, hi uintptr
	}
	var ins [4]region
	ins[0].name, ins[1].name, ins[2].name, ins[3].name = "q", "k", "v", "Options.Mask"
	ins[0].lo, ins[0].hi = span(q)
	ins[1].lo, ins[1].hi = span(k)
	ins[2].lo, ins[2].hi = span(v)
	ins[3].lo, ins[3].hi = span(mask)
	olo, ohi := span(out)
	for _, in := range ins {
		if olo < in.hi && in.lo < ohi {
			return fmt.Errorf("sdpa: %s: %w: out overlaps %s", op, ErrOverlap, in.name)
		}
	}
	return nil
}
