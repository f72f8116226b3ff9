package spi

import (
	"github.com/corelane/corelane/internal/scratch"
	"github.com/corelane/corelane/quant"
)

// WithF16Activations returns a context whose MatVec, MatMul and
// MatMulShared round the activations to binary16 (to nearest, ties to
// even, as quant.FromFloat32) before multiplying F16 weights, when on is
// true — what ggml's CPU backend does (it converts the input of an F16
// matrix product to F16 first), so that an engine can reproduce
// llama.cpp's results on files with F16 tensors: a small model can be
// sensitive enough to that rounding to move its logits by tenths. By
// default (on = false) F16 weights multiply the float32 activations as
// they are, which is more accurate. Other weight types are unaffected.
func (c Context) WithF16Activations(on bool) Context {
	c.f16act = on
	return c
}

// F16Activations reports whether c rounds the activations of F16 weights
// to binary16 (WithF16Activations).
func (c Context) F16Activations() bool { return c.f16act }

// f16Input returns x rounded to binary16 when c asks for it and one of ws
// is F16 (with the scratch buffer to release), else x and nil.
func (c Context) f16Input(ws []Matrix, x []float32) ([]float32, *scratch.Buf) {
	if !c.f16act {
		return x, nil
	}
	for _, w := range ws {
		if w.Type == quant.FP16 {
			xh, b := scratch.Float32s(len(x))
			t := quant.F16Table()
			for i, v := range x {
				xh[i] = t.At(quant.FromFloat32(v))
			}
			return xh, b
		}
	}
	return x, nil
}
