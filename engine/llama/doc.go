// Package llama is a reference decoder for GGUF files of
// general.architecture "llama" (Llama 1, 2 and 3 and the many models that
// share their layout), written only against package spi, the way an engine
// outside this module links corelane: it imports spi, gguf and quant (and
// sdpa for the Shape and Options types spi's Attention takes), never the
// kernels.
//
// The model: token embedding; per layer RMSNorm, the Q, K and V
// projections (one spi.MatMulShared, so the normed input is quantized once
// for the three), RoPE in the "normal" layout (adjacent pairs, as Llama
// GGUFs store Q and K) with the file's rope.freq_base, rope.dimension_count
// and optional linear scaling or rope_freqs factors (spi.RoPEWith),
// grouped-query causal attention over a KV cache written in place
// (spi.WriteKV or WriteKVF16, float32 or binary16), the output projection
// and a residual add, then RMSNorm, SwiGLU(gate, up) (one MatMulShared),
// down and a residual add; a final RMSNorm and the output layer
// (output.weight, or token_embd.weight when the file ties them). Every
// tensor type spi multiplies may appear: F32, F16, Q8_0, Q4_K, Q5_K, Q6_K,
// Q4_0, Q4_1, Q5_0, Q5_1, mixed as a file mixes them.
//
// A Session holds one sequence: its KV cache and position. Forward runs a
// whole prompt as one prefill (every position at once) or one token at a
// time; Generate adds teacher forcing and sampling (spi.Sampler, which
// draws on the caller's goroutine from its own seed).
//
// Determinism: quantized weights are multiplied in the kernels' one fixed
// order and F32/F16 weights in one fixed order too (float64 sums,
// spi.Context.WithExactFloat), so in the Exact mode (the default:
// sdpa.Exact attention) the logits have the same bits under every schedule
// and every kernel variant. In the Fast mode (sdpa.Fast attention) they
// depend on the kernel variant, but still not on the schedule.
//
// Compatibility with llama.cpp: F16 weights multiply activations rounded
// to binary16 as ggml's CPU backend does (spi.Context.WithF16Activations),
// and quantized weights activations quantized as ggml's reference
// quantizers do. Float sums are ordered differently from ggml's SIMD code,
// so logits agree with llama.cpp's to float rounding — until, in a
// quantized model, some activation lands that close to a rounding boundary
// and rounds the other way, which a small model can amplify (see the
// acceptance tests).
//
// What is not supported, with an error naming it: other architectures,
// mixture-of-experts files (llama.expert_count > 0), tensors a Llama layer
// does not have (biases, for one), YaRN RoPE scaling, K and V heads of
// different sizes, and batches of several sequences.
package llama
