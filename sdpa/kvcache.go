package sdpa

import (
	"fmt"

	"github.com/corelane/corelane/quant"
)

// KVWrite says where WriteKV and WriteKVF16 put new rows in a KV cache.
// The cache holds Capacity rows per K/V head, laid out as Layout says:
// [Batch, KVHeads, Capacity, HeadDim] (HeadsFirst) or [Batch, Capacity,
// KVHeads, HeadDim] (TokensFirst), the layouts Attention reads with
// Options.KVCapacity and Options.KVLayout. The new rows are Tokens rows per
// head, written at positions Pos, Pos+1, …; the source is [Batch, Tokens,
// KVHeads, HeadDim], what a matrix product of the token rows with the K or
// V projection gives.
type KVWrite struct {
	Batch, KVHeads, HeadDim int
	Capacity                int
	Pos, Tokens             int
	Layout                  Layout
}

// WriteKV copies the new rows src into a float32 cache in place (see
// KVWrite). Bad dimensions are an error wrapping ErrShape (or ErrOption
// for the layout) that names the field; the cache is then untouched. src
// must not overlap the rows it is written to (ErrOverlap).
func WriteKV(cache, src []float32, w KVWrite) error {
	if err := w.check("WriteKV", len(cache), len(src)); err != nil {
		return err
	}
	clo, chi := span(cache)
	slo, shi := span(src)
	if clo < shi && slo < chi {
		return fmt.Errorf("sdpa: WriteKV: %w: src overlaps cache", ErrOverlap)
	}
	w.each(func(dst, s int) { copy(cache[dst:dst+w.HeadDim], src[s:s+w.HeadDim]) })
	return nil
}

// WriteKVF16 writes the new rows src into a binary16 cache in place (see
// KVWrite), each value rounded to the nearest binary16 (ties to even; NaN
// stays NaN, values beyond the binary16 range become ±Inf), as
// quant.FromFloat32 does: an engine never converts the whole cache. Bad
// dimensions are an error wrapping ErrShape (or ErrOption for the layout)
// that names the field; the cache is then untouched.
func WriteKVF16(cache []quant.F16, src []float32, w KVWrite) error {
	if err := w.check("WriteKVF16", len(cache), len(src)); err != nil {
		return err
	}
	w.each(func(dst, s int) {
		c := cache[dst : dst+w.HeadDim]
		for d, x := range src[s : s+w.HeadDim] {
			c[d] = quant.FromFloat32(x)
		}
	})
	return nil
}

func (w KVWrite) check(op string, lenCache, lenSrc int) error {
	for _, d := range []struct {
		name string
		v    int
		min  int
	}{
		{"Batch", w.Batch, 0}, {"KVHeads", w.KVHeads, 1}, {"HeadDim", w.HeadDim, 1},
		{"Capacity", w.Capacity, 0}, {"Pos", w.Pos, 0}, {"Tokens", w.Tokens, 0},
	} {
		if d.v < d.min {
			return shapeErr(op, "KVWrite.%s = %d, want >= %d", d.name, d.v, d.min)
		}
	}
	if w.Layout != HeadsFirst && w.Layout != TokensFirst {
		return optionErr(op, "KVWrite.Layout = %d, want HeadsFirst (%d) or TokensFirst (%d)", int(w.Layout), int(HeadsFirst), int(TokensFirst))
	}
	if w.Pos > w.Capacity || w.Tokens > w.Capacity-w.Pos {
		return shapeErr(op, "KVWrite.Pos + KVWrite.Tokens = %d + %d is beyond KVWrite.Capacity = %d", w.Pos, w.Tokens, w.Capacity)
	}
	nc, ok1 := mulAll(w.Batch, w.KVHeads, w.Capacity, w.HeadDim)
	ns, ok2 := mulAll(w.Batch, w.Tokens, w.KVHeads, w.HeadDim)
	if !ok1 || !ok2 {
		return shapeErr(op, "KVWrite %+v is too large (its sizes overflow int)", w)
	}
	layout := "Batch·KVHeads·Capacity·HeadDim"
	if w.Layout == TokensFirst {
		layout = "Batch·Capacity·KVHeads·HeadDim"
	}
	if lenCache != nc {
		return shapeErr(op, "len(cache) = %d, want %s = %d", lenCache, layout, nc)
	}
	if lenSrc != ns {
		return shapeErr(op, "len(src) = %d, want Batch·Tokens·KVHeads·HeadDim = %d", lenSrc, ns)
	}
	return nil
}

// each calls f with the cache and source offsets of every new row.
func (w KVWrite) each(f func(dst, src int)) {
	hd := w.HeadDim
	for b := range w.Batch {
		for t := range w.Tokens {
			for g := range w.KVHeads {
				s := ((b*w.Tokens+t)*w.KVHeads + g) * hd
				var dst int
				if w.Layout == TokensFirst {
					dst = ((b*w.Capacity+w.Pos+t)*w.KVHeads + g) * hd
				} else {
					dst = ((b*w.KVHeads+g)*w.Capacity + w.Pos + t) * hd
				}
				f(dst, s)
			}
		}
	}
}
