// Package kernels holds corelane's compute kernels and the registry that
// picks one variant of each at run time.
//
// # Variants
//
// A variant is a named set of kernel functions (Ops) with the CPU features it
// needs: "generic" (pure Go, always present), and on amd64 "avx2",
// "avx512", "avx512vnni", "avx512gfni" (avx512vnni with GFNI's nibble split
// in the Q4_K and Q5_K matrix-vector kernels and a Q6_K one that reads
// the activations' quad sums), "avxvnni", on arm64 "neon", "dotprod". The
// registry
// keeps an immutable snapshot behind an atomic pointer; Register and Use
// publish a new snapshot under a mutex, so any number of goroutines may
// dispatch while another registers or forces a variant. A variant may leave
// an op out; that op then runs the best variant that has it (generic at
// worst), and Info says so for every op.
//
// CORELANE_KERNELS=name forces a variant at start-up. An unknown name, or one
// this CPU cannot run, is an error (see InitErr) that lists what this CPU
// supports; the registry then stays on the best supported variant and Info
// reports the error — the bad setting is never silently ignored.
//
// # The quantized dot contract (every variant returns the same bits)
//
// A quantized dot does its integer work exactly and its float work in one
// fixed order, so every variant on every ISA returns the bits of the generic
// kernel. The order is chosen so that SIMD code can follow it without
// horizontal reductions inside the loop. Within a 32-value group, value i
// belongs to lane i/4 (lanes 0..7): the lane an int32 SIMD lane gets when
// four adjacent byte products are summed (vpdpbusd, pmaddubsw+pmaddwd,
// sdot). f16(h) is the exact binary16→float32 conversion, D the float32
// scale of the Q8_K block, and every arrow below is one float32 operation
// rounded on its own (no fused multiply-add):
//
// Q4_K and Q5_K, per super-block, with sub-block scales sc_j and mins m_j:
//
//	A[l]  = Σ_j sc_j · Σ_{i in sub-block j, lane l} q_i·y_i      (exact int32)
//	M[j]  = m_j · (bsums[2j] + bsums[2j+1])                       (exact int32)
//	dd    ← f16(d)·D ;  dm ← f16(dmin)·D
//	acc[l]  ← acc[l]  + (dd · float32(A[l]))      for l = 0..7
//	accm[j] ← accm[j] + (dm · float32(M[j]))      for j = 0..7
//	result  ← hsum(acc) − hsum(accm)
//
// Q6_K, per super-block, with signed group scales sc_g (16 values a group)
// and q in −32..31:
//
//	A[l]  = Σ_g sc_g · Σ_{i in group g, lane l} q_i·y_i          (exact int32)
//	dd    ← f16(d)·D ;  acc[l] ← acc[l] + (dd · float32(A[l]))
//	result ← hsum(acc)
//
// Q8_0 against Q8_0, per 32-value block b, into accumulator set s = b mod 4:
//
//	A[l]  = Σ_{i in lane l} x_i·y_i                              (exact int32)
//	dd    ← f16(dx)·f16(dy) ;  acc_s[l] ← acc_s[l] + (dd · float32(A[l]))
//	result ← hsum((acc_0 + acc_1) + (acc_2 + acc_3))              (lane-wise, then hsum)
//
// with hsum(v) = ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)) and all
// accumulators starting at +0. Matrix-vector and matrix-matrix kernels
// compute every output element with exactly this dot.
//
// # Untrusted bytes
//
// Weight bytes come from files nobody here wrote, so the contract covers
// every byte pattern, not only what a quantizer produces: any quant byte
// (0x80, the int8 −128, included, on either side), any 6-bit scale or min,
// any Q6_K scale (−128 included), any binary16 scale — subnormal, huge,
// ±Inf or NaN — and, for activations passed as bytes, any Q8_K scale bits
// and block sums that need not match the quants. For all of them every
// variant returns exactly the generic kernel's bits. Non-finite scales are
// not rejected here; they propagate as the formulas say (an Inf scale times
// a zero sum is NaN), and a result that is NaN is always the quiet NaN
// 0x7fc00000, in every variant and for every type: the payload IEEE
// arithmetic would propagate depends on the order of operands inside each
// instruction (and a compiler may swap those of a commutative add), which
// no fixed float order can pin. quant.CheckScales finds non-finite scales
// when a tensor is loaded, for callers that want to refuse such files.
// TestRawBytesMatchGeneric and FuzzRawKernels check all of this for every
// variant.
//
// The legacy types (Q4_0, Q5_0 against Q8_0; Q4_1, Q5_1 against Q8_1)
// follow ggml's generic accumulation order (bit-exact with ggml's generic
// build). Q4_0 and Q5_0 have AVX2 and NEON kernels with the generic
// kernel's bits; Q4_1 and Q5_1 have generic kernels only.
//
// # Float32 kernels
//
// DotF32, Axpy, Scale, Max and ExpSum reassociate for SIMD. They are
// tolerance-tested against float64 references and documented per function;
// they are not bit-identical across variants. SwiGLU is elementwise and
// does not reassociate: every variant returns the bits of SiLU(gate)·up
// (Exp's float64 steps, then one float32 add, divide and multiply), NaN
// results the canonical NaN.
package kernels
