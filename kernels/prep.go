package kernels

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/corelane/corelane/internal/scratch"
)

// Prep holds what a variant's MatMul kernel prepares from the activations
// once per product — columns packed in pairs or for the packed Q4_K
// matvec, per-column tables — so that
// every row chunk of that product, run by any number of tasks at once,
// shares one copy instead of building its own.
//
// A Prep belongs to one product: one x, one cols, one kernel variant. The
// caller passes the same *Prep to every MatMul call that computes rows of
// that product (in any order, concurrently) and calls Release when all of
// them have returned. A nil *Prep is allowed: the kernel then prepares
// what it needs per call, with the same bits.
//
// The preparation never changes a result bit; it changes only where the
// kernel reads its operands from.
type Prep struct {
	state atomic.Int32
	buf   *scratch.Buf
	data  []byte
}

// Release gives the prepared memory back and makes p ready for another
// product.
func (p *Prep) Release() {
	if p.buf != nil {
		p.buf.Release()
	}
	*p = Prep{}
}

// The states of a Prep.
const (
	prepEmpty   = iota
	prepFilling // one goroutine is running fill
	prepReady
	prepFailed // fill panicked
)

// bytes returns n bytes written by fill on the first call for this
// product; later calls (from any goroutine) wait for that one and get the
// same bytes. On a nil p it fills a fresh scratch buffer every call and
// returns it as owned too, for the caller to give back with release(owned)
// (nil otherwise). A *scratch.Buf, not a release func: the method value
// buf.Release would cost an allocation per call.
//
// The wait spins (yielding the processor) instead of sleeping on a lock:
// the fill takes microseconds, and a helper that parks on a contended
// sync.Once wakes tens of microseconds late, which on two cores cost a
// 512-row matmul a third of its speed (bench/results/2026-12-04-zen5/).
func (p *Prep) bytes(n int, fill func([]byte)) (b []byte, owned *scratch.Buf) {
	if p == nil {
		buf := scratch.Get(n)
		b = buf.Bytes(n)
		fill(b)
		return b, buf
	}
	if p.state.CompareAndSwap(prepEmpty, prepFilling) {
		p.fill(n, fill)
	}
	for {
		switch p.state.Load() {
		case prepReady:
			return p.data, nil
		case prepFailed:
			panic("kernels: the preparation of this product's activations panicked on another goroutine")
		}
		runtime.Gosched()
	}
}

// release gives back what bytes returned as owned (nothing when nil).
func release(owned *scratch.Buf) {
	if owned != nil {
		owned.Release()
	}
}

// fill runs the preparation and publishes its state, prepFailed if it
// panics (the panic goes on).
func (p *Prep) fill(n int, fill func([]byte)) {
	state := int32(prepFailed)
	defer func() { p.state.Store(state) }()
	p.buf = scratch.Get(n)
	p.data = p.buf.Bytes(n)
	fill(p.data)
	state = prepReady
}

var prepPool = sync.Pool{New: func() any { return new(Prep) }}

// NewPrep returns a Prep from a pool; Release it, then PutPrep it. Callers
// that run many products in a loop use the pair to stay allocation-free.
func NewPrep() *Prep { return prepPool.Get().(*Prep) }

// PutPrep releases p and returns it to the pool.
func PutPrep(p *Prep) {
	p.Release()
	prepPool.Put(p)
}
