// Package quant implements the GGML block formats that GGUF files store:
// F32, F16, Q8_0, Q4_K, Q5_K, Q6_K and Q8_K, plus the older 32-value formats
// Q4_0, Q4_1, Q5_0, Q5_1 and their activation format Q8_1.
//
// What the package promises:
//
//   - Block structs (BlockQ4K, ...) have the exact byte layout of ggml's C
//     structs, so a GGUF tensor's bytes can be viewed in place (AsQ4K and
//     friends) without copying. A view of bytes of the wrong length or
//     alignment is an error, never a panic.
//   - Dequantize is bit-exact with ggml's dequantize_row_* functions.
//   - Quantize and QuantizeRows are bit-exact with ggml's
//     quantize_row_*_ref reference quantizers, for every type. NaN or ±Inf
//     input to a quantized type is a *NonFiniteError (wrapping
//     ErrNotFinite) that names the row and the block; F32 and F16 store
//     such values as they are.
//   - Every error wraps one of ErrUnknownType, ErrLength, ErrAlignment or
//     ErrNotFinite. Bad lengths or alignment never panic in the byte API.
//
// The typed row helpers (QuantizeRowQ8K, DequantizeRowQ4K, ... one pair
// per block type) are the same code on block slices. They do not allocate,
// so the kernels use them as their generic dequantizers and activation
// quantizers; the DequantizeRow* ones panic on a length mismatch instead of
// returning an error.
//
// Views and block structs use host byte order, so they assume a
// little-endian host, as GGUF data is little-endian (corelane targets amd64
// and arm64).
//
// Every float32 expression whose rounding matters is written with explicit
// float32(...) conversions so that the Go compiler cannot fuse a multiply and
// an add into an FMA (it does so on arm64, and on amd64 with GOAMD64=v3+).
//
// The package imports nothing else of corelane.
package quant
