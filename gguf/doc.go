// Package gguf reads and writes GGUF files, the container llama.cpp and ggml
// use for models: a header, typed metadata, tensor infos, and the tensor
// data.
//
// What the package promises:
//
//   - GGUF v2 and v3 (little-endian) are read: every metadata value type
//     (u8, i8, u16, i16, u32, i32, u64, i64, f32, f64, bool, string) and
//     arrays of each, arrays of strings and arrays of arrays included;
//     metadata keeps its file order (File.KV) and is looked up by key with
//     typed accessors (File.String, File.Uint32, File.Int, File.Float32,
//     File.Strings, ...) whose errors tell a missing key (ErrMissingKey)
//     from a wrong type (ErrType) and name the key and the type found.
//   - general.alignment is honoured (32 when absent; a power of two, else
//     the file is rejected).
//   - Tensor data are zero-copy views (Tensor.Data) into a read-only,
//     shared memory map of the file (Open), or into the caller's bytes
//     (Parse). Where mmap is unavailable or fails, Open reads the file.
//     The views are aligned as the file is: with the default alignment of
//     32 every tensor starts on a 32-byte boundary of the file, and so of
//     the page-aligned mapping, which is what quant's block views need.
//   - Tensor types map to quant.Type (the value is ggml's type id). A type
//     ggml defines but package quant does not implement (q2_K, q3_K, the
//     IQ types, bf16, ...) is an ErrUnsupportedType error naming the
//     tensor, the id and the name, unless Options.AllowUnsupportedTypes
//     asks for the file anyway; it is never skipped silently.
//   - Every malformed input is a *FormatError naming the field and its
//     byte offset, wrapping ErrFormat (and ErrTruncated when the file ends
//     early) or ErrVersion: bad magic, an unknown version, truncation
//     anywhere, string lengths and counts larger than the rest of the file
//     can hold (nothing is allocated from a count before that check),
//     unknown value types, bool bytes other than 0 and 1, duplicate or
//     empty keys, general.alignment of the wrong type or not a power of
//     two, more than 4 dimensions, overflowing dimension products, rows
//     that are not a whole number of blocks, unknown or removed tensor
//     types, tensor names longer than 64 bytes or duplicated, offsets not
//     a multiple of the alignment, tensor data outside the file, and
//     tensors whose data overlap. Parsing never panics and never reads
//     outside the file (FuzzParse checks both).
//   - Encode writes files Parse reads back to equal values (the writer
//     tests build their edge cases with it).
//
// What it accepts that a stricter reader might not: tensors with no
// dimensions (one value) or a zero dimension (no data), as ggml does; gaps
// between tensors and tensors stored out of order (ggml's own reader
// requires each tensor to follow the previous one, padded to the
// alignment, which every ggml and llama.cpp writer produces). The data
// section starts at the end of the tensor infos rounded up to the
// alignment, even in a file without tensors.
//
// A memory-mapped file must not be truncated by another process while it
// is open: reading a page that no longer exists faults.
//
// # Why not github.com/gpustack/gguf-parser-go
//
// It parses metadata (and estimates memory use), but gives no access to the
// tensor data, which is what an engine needs, and it is about 14,000 lines
// with several dependencies. GGUF is a small, fixed format: this
// package, writer included, is under 2,000 lines and depends only on
// package quant and golang.org/x/sys/unix (for mmap).
package gguf
