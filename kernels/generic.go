package kernels

import "github.com/corelane/corelane/quant"

// Generic is the name of the pure-Go variant, present on every platform.
const Generic = "generic"

func genericVariant() Variant {
	return Variant{Name: Generic, Rank: 0, Ops: Ops{
		DotQ4K:  dotQ4KGeneric,
		DotQ5K:  dotQ5KGeneric,
		DotQ6K:  dotQ6KGeneric,
		DotQ8_0: dotQ8_0Generic,
		DotQ4_0: dotQ4_0Generic,
		DotQ5_0: dotQ5_0Generic,
		DotQ4_1: dotQ4_1Generic,
		DotQ5_1: dotQ5_1Generic,

		MatVecQ4K:  matVec(dotQ4KGeneric),
		MatVecQ5K:  matVec(dotQ5KGeneric),
		MatVecQ6K:  matVec(dotQ6KGeneric),
		MatVecQ8_0: matVec(dotQ8_0Generic),

		MatMulQ4K:  matMul(dotQ4KGeneric),
		MatMulQ5K:  matMul(dotQ5KGeneric),
		MatMulQ6K:  matMul(dotQ6KGeneric),
		MatMulQ8_0: matMul(dotQ8_0Generic),

		MatVecQ4_0: matVec(dotQ4_0Generic),
		MatVecQ5_0: matVec(dotQ5_0Generic),
		MatVecQ4_1: matVec(dotQ4_1Generic),
		MatVecQ5_1: matVec(dotQ5_1Generic),
		MatMulQ4_0: matMul(dotQ4_0Generic),
		MatMulQ5_0: matMul(dotQ5_0Generic),
		MatMulQ4_1: matMul(dotQ4_1Generic),
		MatMulQ5_1: matMul(dotQ5_1Generic),

		DequantQ4K:  quant.DequantizeRowQ4K,
		DequantQ5K:  quant.DequantizeRowQ5K,
		DequantQ6K:  quant.DequantizeRowQ6K,
		DequantQ8_0: quant.DequantizeRowQ8_0,

		QuantizeQ8K:  func(dst []quant.BlockQ8K, src []float32) { _ = quant.QuantizeRowQ8K(dst, src) },
		QuantizeQ8_0: func(dst []quant.BlockQ8_0, src []float32) { _ = quant.QuantizeRowQ8_0(dst, src) },
		QuantizeQ8_1: func(dst []quant.BlockQ8_1, src []float32) { _ = quant.QuantizeRowQ8_1(dst, src) },

		DotF32:    dotF32Generic,
		MatVecF16: matVecF16Generic,
		Axpy:      axpyGeneric,
		Scale:     scaleGeneric,
		Max:       maxGeneric,
		ExpSum:    expSumGeneric,
		SwiGLU:    swiGLUGeneric,

		WidenF16:      widenF16Generic,
		ExactScores:   exactScoresGeneric,
		ExactExp:      exactExpGeneric,
		ExactDiv:      exactDivGeneric,
		ExactWeighted: exactWeightedGeneric,
		DotRows:       dotRowsGeneric,
		ExactSoftmax:  exactSoftmaxGeneric,
		SoftmaxCols:   softmaxColsGeneric,

		ExactScoresF16:   exactScoresF16Generic,
		ExactWeightedF16: exactWeightedF16Generic,
		DotRowsF16:       dotRowsF16Generic,

		FastScores:      fastScoresVia("FastScores", exactScoresGeneric),
		FastWeighted:    fastWeightedVia("FastWeighted", exactWeightedGeneric),
		FastScoresF16:   fastScoresVia("FastScoresF16", exactScoresF16Generic),
		FastWeightedF16: fastWeightedVia("FastWeightedF16", exactWeightedF16Generic),
		FastSoftmax:     fastSoftmaxVia(softmaxColsGeneric),
	}}
}
