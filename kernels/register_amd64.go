//go:build !purego

package kernels

import (
	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/kernels/internal/amd64"
	"github.com/corelane/corelane/quant"
)

// The amd64 table: every variant, the CPU features its code uses, and the
// function behind each of its ops. The kernels live in kernels/internal/amd64;
// the adapters (kquant_amd64.go, q8_amd64.go, misc_amd64.go) check lengths
// and tile the products. An op a variant leaves out comes from the best
// lower variant that has it; Yield names ops a variant has but should not be
// the default for, because a lower tier measured faster on this CPU.
var amd64Variants = []Variant{
	{
		Name: "avx2", Rank: 10,
		Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C},
		Ops: Ops{
			DotQ4K: dotQ4KAVX2, MatVecQ4K: q4kAVX2.matVecOp, MatMulQ4K: q4kAVX2.matMul,
			DotQ5K: dotQ5KAVX2, MatVecQ5K: q5kAVX2.matVecOp, MatMulQ5K: q5kAVX2.matMul,
			DotQ6K: q6kAVX2.dot, MatVecQ6K: q6kAVX2.matVec, MatMulQ6K: q6kAVX2.matMul,
			DotQ8_0: q80AVX2.dot, MatVecQ8_0: q80AVX2.matVec, MatMulQ8_0: q80AVX2.matMul,
			DotQ4_0: q40.dot, MatVecQ4_0: q40.matVec, MatMulQ4_0: q40.matMul,
			DotQ5_0: q50.dot, MatVecQ5_0: q50.matVec, MatMulQ5_0: q50.matMul,
			DequantQ4K:   dequantK[quant.BlockQ4K](amd64.DequantQ4KAVX2),
			DequantQ5K:   dequantK[quant.BlockQ5K](amd64.DequantQ5KAVX2),
			DequantQ6K:   dequantK[quant.BlockQ6K](amd64.DequantQ6KAVX2),
			DequantQ8_0:  dequantQ8_0(amd64.DequantQ8_0AVX2),
			QuantizeQ8K:  quantizeQ8K(amd64.QuantizeQ8KAVX2),
			QuantizeQ8_0: quantizeQ8_0(amd64.QuantizeQ8_0AVX2),
			DotF32:       dotF32(amd64.DotF32AVX2),
			MatVecF16:    matVecF16(amd64.MatVecF16AVX2),
			Axpy:         axpy(amd64.AxpyAVX2),
			Scale:        amd64.ScaleAVX2,
			Max:          amd64.MaxAVX2,
			ExpSum:       expSum(amd64.ExpSumAVX2),
			// Attention (attn_amd64.go).
			WidenF16: widenF16AVX2, ExactScores: exactScoresAVX2, ExactWeighted: exactWeightedAVX2,
			ExactExp: exactExpAVX2, ExactSoftmax: exactSoftmaxAVX2, ExactDiv: exactDivAVX2, SwiGLU: swiGLUAVX2,
			SoftmaxCols: softmaxColsAVX2, DotRows: dotRowsAVX2,
			ExactScoresF16: exactScoresF16AVX2, ExactWeightedF16: exactWeightedF16AVX2, DotRowsF16: dotRowsF16AVX2,
			FastScores: fastScoresAVX2, FastWeighted: fastWeightedAVX2,
			FastScoresF16: fastScoresF16AVX2, FastWeightedF16: fastWeightedF16AVX2, FastSoftmax: fastSoftmaxAVX2,
		},
	},
	{
		// AVX-VNNI adds the VEX VPDPWSSD/VPDPBUSD to the quantized dots; the
		// dequantizers, quantizers and float32 kernels are avx2's.
		Name: "avxvnni", Rank: 15,
		Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVXVNNI},
		Ops: Ops{
			DotQ4K: dotQ4KAVXVNNI, MatVecQ4K: q4kAVXVNNI.matVecOp, MatMulQ4K: q4kAVXVNNI.matMul,
			DotQ5K: dotQ5KAVXVNNI, MatVecQ5K: q5kAVXVNNI.matVecOp, MatMulQ5K: q5kAVXVNNI.matMul,
			DotQ6K: q6kAVXVNNI.dot, MatVecQ6K: q6kAVXVNNI.matVec, MatMulQ6K: q6kAVXVNNI.matMul,
			DotQ8_0: q80AVXVNNI.dot, MatVecQ8_0: q80AVXVNNI.matVec, MatMulQ8_0: q80AVXVNNI.matMul,
			DotQ4_0: q40.dot, MatVecQ4_0: q40.matVec, MatMulQ4_0: q40.matMul,
			DotQ5_0: q50.dot, MatVecQ5_0: q50.matVec, MatMulQ5_0: q50.matMul,
			DequantQ4K:   dequantK[quant.BlockQ4K](amd64.DequantQ4KAVX2),
			DequantQ5K:   dequantK[quant.BlockQ5K](amd64.DequantQ5KAVX2),
			DequantQ6K:   dequantK[quant.BlockQ6K](amd64.DequantQ6KAVX2),
			DequantQ8_0:  dequantQ8_0(amd64.DequantQ8_0AVX2),
			QuantizeQ8K:  quantizeQ8K(amd64.QuantizeQ8KAVX2),
			QuantizeQ8_0: quantizeQ8_0(amd64.QuantizeQ8_0AVX2),
			DotF32:       dotF32(amd64.DotF32AVX2),
			MatVecF16:    matVecF16(amd64.MatVecF16AVX2),
			Axpy:         axpy(amd64.AxpyAVX2),
			Scale:        amd64.ScaleAVX2,
			Max:          amd64.MaxAVX2,
			ExpSum:       expSum(amd64.ExpSumAVX2),
			// Attention (attn_amd64.go).
			WidenF16: widenF16AVX2, ExactScores: exactScoresAVX2, ExactWeighted: exactWeightedAVX2,
			ExactExp: exactExpAVX2, ExactSoftmax: exactSoftmaxAVX2, ExactDiv: exactDivAVX2, SwiGLU: swiGLUAVX2,
			SoftmaxCols: softmaxColsAVX2, DotRows: dotRowsAVX2,
			ExactScoresF16: exactScoresF16AVX2, ExactWeightedF16: exactWeightedF16AVX2, DotRowsF16: dotRowsF16AVX2,
			FastScores: fastScoresAVX2, FastWeighted: fastWeightedAVX2,
			FastScoresF16: fastScoresF16AVX2, FastWeightedF16: fastWeightedF16AVX2, FastSoftmax: fastSoftmaxAVX2,
		},
	},
	{
		Name: "avx512", Rank: 20,
		Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL},
		Yield:    onZen4(map[string]string{"MatVecQ4K": q4kZmmSlowerFromDRAM}),
		Ops:      avx512Ops,
	},
	{
		Name: "avx512vnni", Rank: 30,
		Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VNNI},
		Yield:    avx512vnniYield(),
		Ops:      avx512vnniOps(),
	},
	{
		// GFNI splits the Q4_K and Q5_K nibbles in one instruction: the
		// matrix-vector kernels (and so the dots) of avx512vnni with one
		// VGF2P8AFFINEQB a chunk for a shift and a mask, the same bits;
		// 4% faster in cache on Zen 5 (bench/results/2026-12-05-zen5/,
		// q4k-q5k-gfni-variant-paired.txt). They also take four blocks
		// at a time with one vector scale unpack for the four: against
		// avx512vnni's, Q4_K 0.89 in cache and 0.88 from DRAM, Q5_K 0.97
		// and 0.84 (gfni-quad-paired.txt). Its Q4_K matrix-vector
		// kernel runs on activations packed once per product (from
		// kqQuadRows rows on; spi's decode always): plain loads for the
		// broadcasts, the same bits, 0.82-0.86 of the time in cache
		// (2026-12-06-zen5-packed/). Its Q6_K matrix-vector
		// kernel (MatVecQ6K, and the columns MatMulQ6K leaves over,
		// so spi's decode) decodes with GFNI too and starts each
		// VPDPBUSD from the activations' quad sums, prepared once per
		// product: four VPMADDUBSW and four VPSUBW a block fewer, the
		// same bits; 7% faster in cache on Zen 5, 4% from memory
		// (2026-12-05-zen5/q6k-quad-gfni-paired.txt). Every other op
		// is avx512vnni's kernel, and it yields what avx512vnni yields.
		Name: "avx512gfni", Rank: 35,
		Requires: []cpuid.FeatureID{cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VNNI, cpuid.GFNI},
		Yield:    avx512vnniYield(),
		Ops:      avx512gfniOps(),
	},
}

// avx512Ops are the avx512 variant's kernels.
var avx512Ops = Ops{
	DotQ4K: dotQ4KAVX512, MatVecQ4K: q4kAVX512.matVecOp, MatMulQ4K: q4kAVX512.matMul,
	DotQ5K: dotQ5KAVX512, MatVecQ5K: q5kAVX512.matVecOp, MatMulQ5K: q5kAVX512.matMul,
	DotQ6K: q6kAVX512.dot, MatVecQ6K: q6kAVX512.matVec, MatMulQ6K: q6kAVX512.matMul,
	DotQ8_0: q80AVX512.dot, MatVecQ8_0: q80AVX512.matVec, MatMulQ8_0: q80AVX512.matMul,
	DotQ4_0: q40.dot, MatVecQ4_0: q40.matVec, MatMulQ4_0: q40.matMul,
	DotQ5_0: q50.dot, MatVecQ5_0: q50.matVec, MatMulQ5_0: q50.matMul,
	DequantQ4K:   dequantK[quant.BlockQ4K](amd64.DequantQ4KAVX512),
	DequantQ5K:   dequantK[quant.BlockQ5K](amd64.DequantQ5KAVX512),
	DequantQ6K:   dequantK[quant.BlockQ6K](amd64.DequantQ6KAVX512),
	DequantQ8_0:  dequantQ8_0(amd64.DequantQ8_0AVX512),
	QuantizeQ8K:  quantizeQ8K(amd64.QuantizeQ8KAVX512),
	QuantizeQ8_0: quantizeQ8_0(amd64.QuantizeQ8_0AVX512),
	DotF32:       dotF32(amd64.DotF32AVX512),
	MatVecF16:    matVecF16(amd64.MatVecF16AVX512),
	Axpy:         axpy(amd64.AxpyAVX512),
	Scale:        amd64.ScaleAVX512,
	Max:          amd64.MaxAVX512,
	ExpSum:       expSum(amd64.ExpSumAVX512),
	// Attention (attn_amd64.go).
	WidenF16: widenF16AVX512, ExactScores: exactScoresAVX512, ExactExp: exactExpAVX512, ExactDiv: exactDivAVX512, SwiGLU: swiGLUAVX512,
	ExactWeighted: exactWeightedAVX512, ExactSoftmax: exactSoftmaxAVX512, SoftmaxCols: softmaxColsAVX512, DotRows: dotRowsAVX512,
	ExactScoresF16: exactScoresF16AVX512, ExactWeightedF16: exactWeightedF16AVX512, DotRowsF16: dotRowsF16AVX512,
	// Fast's prefill tiles keep the unfused zmm kernels: avx2's fused
	// ymm ones took 24-60% longer on Zen 5
	// (bench/results/2026-12-05-zen5-attn/prefill-avx512-vs-avx2.txt);
	// its one-row weighted sums (decoding) are fused.
	FastScores: fastScoresVia("FastScores", exactScoresAVX512), FastWeighted: fastWeightedAVX512,
	FastScoresF16: fastScoresVia("FastScoresF16", exactScoresF16AVX512), FastWeightedF16: fastWeightedF16AVX512, FastSoftmax: fastSoftmaxVia(softmaxColsAVX512),
}

// avx512vnniOps are the avx512vnni variant's kernels: AVX-512 VNNI adds
// VPDPWSSD/VPDPBUSD to the quantized products; the dequantizers,
// quantizers, float32 and attention kernels are avx512's.
func avx512vnniOps() Ops {
	o := avx512Ops
	o.DotQ4K, o.MatVecQ4K, o.MatMulQ4K = dotQ4KAVX512VNNI, q4kAVX512VNNI.matVecOp, q4kAVX512VNNI.matMul
	o.DotQ5K, o.MatVecQ5K, o.MatMulQ5K = dotQ5KAVX512VNNI, q5kAVX512VNNI.matVecOp, q5kAVX512VNNI.matMul
	o.DotQ6K, o.MatVecQ6K, o.MatMulQ6K = q6kAVX512VNNI.dot, q6kAVX512VNNI.matVec, q6kAVX512VNNI.matMul
	o.DotQ8_0, o.MatVecQ8_0, o.MatMulQ8_0 = q80AVX512VNNI.dot, q80AVX512VNNI.matVec, q80AVX512VNNI.matMul
	return o
}

// avx512vnniYield is what avx512vnni, and avx512gfni with the same kernels
// for those ops, leave to a lower tier on this CPU.
func avx512vnniYield() map[string]string {
	return merge(onAMD(map[string]string{
		"DotQ6K": q6kVNNISlower,
	}), onZen4(map[string]string{
		"MatVecQ4K": q4kZmmSlowerFromDRAM,
	}))
}

// avx512gfniOps are avx512vnni's kernels with the GFNI form of the Q4_K and
// Q5_K matrix-vector kernels (and so of their dots), and the Q6_K
// matrix-vector kernel that reads the activations' quad sums (also for the
// columns MatMulQ6K leaves over).
func avx512gfniOps() Ops {
	o := avx512vnniOps()
	o.DotQ4K, o.MatVecQ4K, o.MatMulQ4K = dotQ4KAVX512VNNIGFNI, q4kAVX512VNNIGFNI.matVecOp, q4kAVX512VNNIGFNI.matMul
	o.DotQ5K, o.MatVecQ5K, o.MatMulQ5K = dotQ5KAVX512VNNIGFNI, q5kAVX512VNNIGFNI.matVecOp, q5kAVX512VNNIGFNI.matMul
	o.MatVecQ6K, o.MatMulQ6K = q6kAVX512VNNIGFNI.matVec, q6kAVX512VNNIGFNI.matMul
	return o
}

// q6kVNNISlower is why avx512vnni yields its Q6_K dot to avx512 on AMD
// CPUs, the only ones it was measured on. (Its matvec, which overlaps the
// VPDPWSSD chains of consecutive rows, is the faster one.)
const q6kVNNISlower = "AMD: its Q6_K dot (one row: VPDPWSSD latency chains) is slower than avx512's " +
	"(Zen 5, min of 4-5 rounds, thread CPU time: 99-113 vs 90-100 ns per 4096 values; " +
	"matvec 4096×4096 315 vs 340-365 µs: only the dot is yielded, not the Q6_K matvec)"

// onAMD returns y on an AMD CPU and nil elsewhere: a choice by CPU family
// for yields measured on AMD's cores only.
func onAMD(y map[string]string) map[string]string {
	if cpu.VendorID != cpuid.AMD {
		return nil
	}
	return y
}

// q4kZmmSlowerFromDRAM is why avx512vnni and avx512 yield the Q4_K matvec
// to avx2 on Zen 4: the zmm kernels tie it with the matrix in cache but
// are slower when it streams from DRAM, which is where a decoder's
// matvecs read their weights.
const q4kZmmSlowerFromDRAM = "Zen 4: the zmm Q4_K matvec is slower than avx2's from DRAM " +
	"(BenchmarkMatVecDRAM 14336×4096, 1 thread, 6-8 alternating rounds: avx2 7-10% faster, p < 0.01; " +
	"2 threads and 4096×4096 in cache: no difference)"

// onZen4 returns y on an AMD Zen 4 (family 25 with AVX-512; Zen 3, the
// other family-25 core, has no AVX-512 variant to yield) and nil
// elsewhere: yields measured on that core only.
func onZen4(y map[string]string) map[string]string {
	if cpu.VendorID != cpuid.AMD || cpu.Family != 25 {
		return nil
	}
	return y
}

// merge returns the union of yield maps (nil when all are nil).
func merge(ys ...map[string]string) map[string]string {
	var m map[string]string
	for _, y := range ys {
		for op, why := range y {
			if m == nil {
				m = make(map[string]string)
			}
			m[op] = why
		}
	}
	return m
}

// The kernels behind the quantized ops of each variant.
var (
	q4kAVX2       = kqKernels[quant.BlockQ4K]{matVec: amd64.MatVecQ4KAVX2, matMul4: amd64.MatMul4Q4KAVX2, matMul8x: amd64.MatMul8Q4KAVX2}
	q4kAVXVNNI    = kqKernels[quant.BlockQ4K]{matVec: amd64.MatVecQ4KAVXVNNI, matMul4: amd64.MatMul4Q4KAVXVNNI, matMul8x: amd64.MatMul8Q4KAVXVNNI}
	q4kAVX512     = kqKernels[quant.BlockQ4K]{matVec: amd64.MatVecQ4KAVX512, matMul4: amd64.MatMul4Q4KAVX512, matMul8: amd64.MatMul8Q4KAVX512}
	q4kAVX512VNNI = kqKernels[quant.BlockQ4K]{matVec: amd64.MatVecQ4KAVX512VNNI, matMul4: amd64.MatMul4Q4KAVX512VNNI, matMul8: amd64.MatMul8Q4KAVX512VNNI}
	q5kAVX2       = kqKernels[quant.BlockQ5K]{matVec: amd64.MatVecQ5KAVX2, matMul4: amd64.MatMul4Q5KAVX2, matMul8x: amd64.MatMul8Q5KAVX2}
	q5kAVXVNNI    = kqKernels[quant.BlockQ5K]{matVec: amd64.MatVecQ5KAVXVNNI, matMul4: amd64.MatMul4Q5KAVXVNNI, matMul8x: amd64.MatMul8Q5KAVXVNNI}
	q5kAVX512     = kqKernels[quant.BlockQ5K]{matVec: amd64.MatVecQ5KAVX512, matMul4: amd64.MatMul4Q5KAVX512, matMul8: amd64.MatMul8Q5KAVX512}
	q5kAVX512VNNI = kqKernels[quant.BlockQ5K]{matVec: amd64.MatVecQ5KAVX512VNNI, matMul4: amd64.MatMul4Q5KAVX512VNNI, matMul8: amd64.MatMul8Q5KAVX512VNNI}
	// The GFNI form of the matrix-vector kernels; the tiles are avx512vnni's.
	q4kAVX512VNNIGFNI = kqKernels[quant.BlockQ4K]{matVec: amd64.MatVecQ4KAVX512VNNIGFNI, matVecP: amd64.MatVecQ4KPackedAVX512VNNIGFNI, matMul4: amd64.MatMul4Q4KAVX512VNNI, matMul8: amd64.MatMul8Q4KAVX512VNNI}
	q5kAVX512VNNIGFNI = kqKernels[quant.BlockQ5K]{matVec: amd64.MatVecQ5KAVX512VNNIGFNI, matMul4: amd64.MatMul4Q5KAVX512VNNI, matMul8: amd64.MatMul8Q5KAVX512VNNI}

	q6kAVX2       = q6kKernels{mv: amd64.MatVecQ6KAVX2, mm: amd64.MatMulQ6KAVX2}
	q6kAVXVNNI    = q6kKernels{mv: amd64.MatVecQ6KAVXVNNI, mm: amd64.MatMulQ6KAVXVNNI}
	q6kAVX512     = q6kKernels{mv: amd64.MatVecQ6KAVX512, mm: amd64.MatMulQ6KAVX512, seg: q6kSegZmm}
	q6kAVX512VNNI = q6kKernels{mv: amd64.MatVecQ6KAVX512VNNI, mm: amd64.MatMulQ6KAVX512VNNI, seg: q6kSegZmm, corr: true}
	// The quad-sum matrix-vector kernel; the dot and the tile are avx512vnni's.
	q6kAVX512VNNIGFNI = q6kKernels{mv: amd64.MatVecQ6KAVX512VNNI, mvt: amd64.MatVecQ6KAVX512VNNIGFNI, mvi: amd64.MatVecQ6KAVX512VNNIGFNIInline, mm: amd64.MatMulQ6KAVX512VNNI, seg: q6kSegZmm, corr: true}

	// avx512 has no Q8_0 MatMul tile of its own: it runs avx2's (faster
	// than a zmm tile on sign-extended words, see q8_0_amd64.s).
	// Q4_0 and Q5_0: one AVX2 kernel each, for every variant.
	q40 = legacyKernel[quant.BlockQ4_0](amd64.MatVecQ4_0AVX2)
	q50 = legacyKernel[quant.BlockQ5_0](amd64.MatVecQ5_0AVX2)

	q80AVX2 = q80Kernels{mv: amd64.MatVecQ8_0AVX2, mvp: amd64.MatVecQ8_0PackedAVX2, pack: amd64.PackQ8_0Sext,
		mm: amd64.MatMulQ8_0AVX2, cols: 2}
	q80AVXVNNI = q80Kernels{mv: amd64.MatVecQ8_0AVXVNNI, mvp: amd64.MatVecQ8_0PackedAVXVNNI, pack: amd64.PackQ8_0VNNI,
		mm: amd64.MatMulQ8_0AVXVNNI, cols: 2, vnni: true}
	q80AVX512 = q80Kernels{mv: amd64.MatVecQ8_0AVX512, mvp: amd64.MatVecQ8_0PackedAVX512, pack: amd64.PackQ8_0Sext,
		mm: amd64.MatMulQ8_0AVX2, cols: 2}
	q80AVX512VNNI = q80Kernels{mv: amd64.MatVecQ8_0AVX512VNNI, mvp: amd64.MatVecQ8_0PackedAVX512VNNI, pack: amd64.PackQ8_0VNNI,
		mm: amd64.MatMulQ8_0AVX512VNNI, cols: 8, vnni: true}
)

// archVariants returns the amd64 assembly variants.
func archVariants() []Variant { return amd64Variants }
