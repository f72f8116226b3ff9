//go:build !purego

package kernels

import (
	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/kernels/internal/arm64"
	"github.com/corelane/corelane/quant"
)

// The arm64 variants, in one table: what each contains and the CPU features
// its code uses. The kernels live in kernels/internal/arm64; adapt_arm64.go
// checks lengths before any of them touches memory.
//
//	neon     ASIMD                  quantized dots with smull/saddlp lane sums
//	dotprod  ASIMD, FEAT_DotProd    quantized dots with sdot
//
// Both share the float32 kernels, the activation quantizers and the
// dequantizers (asimdOps): the dot-product extension has nothing to add
// to them.
func archVariants() []Variant {
	return []Variant{
		{Name: "neon", Rank: 10, Requires: []cpuid.FeatureID{cpuid.ASIMD}, Ops: asimdOps(rowKernels{
			q4k:  arm64.DotQ4KNEON,
			q5k:  arm64.DotQ5KNEON,
			q6k:  arm64.DotQ6KNEON,
			q8_0: arm64.DotQ8_0NEON,
			q4_0: arm64.DotQ4_0NEON,
			q5_0: arm64.DotQ5_0NEON,
		})},
		{Name: "dotprod", Rank: 20, Requires: []cpuid.FeatureID{cpuid.ASIMD, cpuid.ASIMDDP}, Ops: asimdOps(rowKernels{
			q4k:  arm64.DotQ4KSDOT,
			q5k:  arm64.DotQ5KSDOT,
			q6k:  arm64.DotQ6KSDOT,
			q8_0: arm64.DotQ8_0SDOT,
			q4_0: arm64.DotQ4_0SDOT,
			q5_0: arm64.DotQ5_0SDOT,
		})},
	}
}

// rowKernels are a variant's quantized dot routines, one per weight type,
// each computing whole rows (see kernels/internal/arm64).
type rowKernels struct {
	q4k, q5k, q6k, q8_0, q4_0, q5_0 rowsKernel
}

// asimdOps is the Ops of an arm64 variant whose quantized dots are k: Dot
// is one row of k, MatVec all rows in one call, MatMul one call per
// activation column; the rest is ASIMD code every variant shares.
func asimdOps(k rowKernels) Ops {
	return Ops{
		DotQ4K:     dotRows[quant.BlockQ4K, quant.BlockQ8K](k.q4k),
		DotQ5K:     dotRows[quant.BlockQ5K, quant.BlockQ8K](k.q5k),
		DotQ6K:     dotRows[quant.BlockQ6K, quant.BlockQ8K](k.q6k),
		DotQ8_0:    dotRows[quant.BlockQ8_0, quant.BlockQ8_0](k.q8_0),
		DotQ4_0:    dotRows[quant.BlockQ4_0, quant.BlockQ8_0](k.q4_0),
		DotQ5_0:    dotRows[quant.BlockQ5_0, quant.BlockQ8_0](k.q5_0),
		MatVecQ4K:  matVecRows[quant.BlockQ4K, quant.BlockQ8K](k.q4k),
		MatVecQ5K:  matVecRows[quant.BlockQ5K, quant.BlockQ8K](k.q5k),
		MatVecQ6K:  matVecRows[quant.BlockQ6K, quant.BlockQ8K](k.q6k),
		MatVecQ8_0: matVecRows[quant.BlockQ8_0, quant.BlockQ8_0](k.q8_0),
		MatVecQ4_0: matVecRows[quant.BlockQ4_0, quant.BlockQ8_0](k.q4_0),
		MatVecQ5_0: matVecRows[quant.BlockQ5_0, quant.BlockQ8_0](k.q5_0),
		MatMulQ4K:  matMulRows[quant.BlockQ4K, quant.BlockQ8K](k.q4k),
		MatMulQ5K:  matMulRows[quant.BlockQ5K, quant.BlockQ8K](k.q5k),
		MatMulQ6K:  matMulRows[quant.BlockQ6K, quant.BlockQ8K](k.q6k),
		MatMulQ8_0: matMulRows[quant.BlockQ8_0, quant.BlockQ8_0](k.q8_0),
		MatMulQ4_0: matMulRows[quant.BlockQ4_0, quant.BlockQ8_0](k.q4_0),
		MatMulQ5_0: matMulRows[quant.BlockQ5_0, quant.BlockQ8_0](k.q5_0),

		DequantQ4K:   dequantRows[quant.BlockQ4K](arm64.DequantQ4KNEON, quant.QK_K),
		DequantQ5K:   dequantRows[quant.BlockQ5K](arm64.DequantQ5KNEON, quant.QK_K),
		DequantQ6K:   dequantRows[quant.BlockQ6K](arm64.DequantQ6KNEON, quant.QK_K),
		DequantQ8_0:  dequantRows[quant.BlockQ8_0](arm64.DequantQ8_0NEON, quant.QK8),
		QuantizeQ8K:  quantizeRows[quant.BlockQ8K](arm64.QuantizeQ8KNEON, quant.QK_K),
		QuantizeQ8_0: quantizeRows[quant.BlockQ8_0](arm64.QuantizeQ8_0NEON, quant.QK8),

		DotF32:    func(a, b []float32) float32 { return arm64.DotF32NEON(a, b[:len(a)]) },
		MatVecF16: matVecF16NEON,

		// Attention (attn_arm64.go).
		WidenF16: widenF16NEON, ExactScores: exactScoresNEON, ExactWeighted: exactWeightedNEON, ExactDiv: exactDivNEON,
		ExactExp: exactExpNEON, ExactSoftmax: exactSoftmaxNEON, SwiGLU: swiGLUNEON,
		DotRows: dotRowsNEON, DotRowsF16: dotRowsF16NEON,
		ExactScoresF16: exactScoresF16NEON, ExactWeightedF16: exactWeightedF16NEON,
		// Fast's tiles: the unfused NEON kernels.
		FastScores: fastScoresVia("FastScores", exactScoresNEON), FastWeighted: fastWeightedVia("FastWeighted", exactWeightedNEON),
		FastScoresF16: fastScoresVia("FastScoresF16", exactScoresF16NEON), FastWeightedF16: fastWeightedVia("FastWeightedF16", exactWeightedF16NEON),

		Axpy:   func(alpha float32, x, y []float32) { arm64.AxpyNEON(alpha, x, y[:len(x)]) },
		Scale:  arm64.ScaleNEON,
		Max:    arm64.MaxNEON,
		ExpSum: expSumNEON,
	}
}

// archTuning is Report.Tuning: nothing is tuned per CPU here.
func archTuning() []string { return nil }
