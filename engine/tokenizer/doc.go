// Package tokenizer turns text into the token ids of a GGUF model's
// vocabulary and back, giving the ids llama.cpp gives.
//
// Two tokenizer models (tokenizer.ggml.model) are implemented:
//
//   - "llama": SentencePiece BPE with byte fallback. A space is put before
//     the text and after each special token (tokenizer.ggml.add_space_prefix,
//     default true), spaces become U+2581, adjacent pieces merge by score,
//     and text no token covers becomes byte tokens <0xNN> (or UNK).
//     tokenizer.ggml.pre is not used, as in llama.cpp.
//   - "gpt2": byte-level BPE. The pre-tokenizer named by tokenizer.ggml.pre
//     splits the text into words, each word's bytes are written as GPT-2's
//     printable characters, and adjacent symbols merge by the rank of
//     tokenizer.ggml.merges.
//
// The pre-tokenizers accepted for "gpt2" are those llama.cpp runs with the
// GPT-2 pattern 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// (written by hand here: Go's regexp has no lookahead): gpt-2, phi-2,
// jina-es, jina-de, jina-v1-en, gigachat, a.x-4.0, mellum, roberta-bpe,
// exaone4, mpt, olmo, jais, trillion and granite-docling; and those that
// first split every digit (\p{N}) into its own word: starcoder, refact,
// command-r, smollm, codeshell, exaone, minerva-7b and mellum2. Any other
// name (llama3, qwen2, deepseek-*, default, ...), or none, is an error
// naming it: a different pattern would give different ids silently. Other
// models (bert, t5, rwkv, ...) are errors too.
//
// Special tokens follow llama.cpp's tokenizer tests (parse_special off):
// Encode tokenizes the literal text of control tokens ("<s>",
// "<|endoftext|>") as plain text and matches only user-defined tokens
// whole; EncodeSpecial matches control tokens too, for chat templates.
// Tokens llama.cpp recognises by their text as end-of-generation or
// fill-in-the-middle markers ("<|im_end|>", "<|endoftext|>", "<|fim_prefix|>",
// ...) are control tokens here as there. Not reproduced: the per-model
// token attributes llama.cpp sets by model name (phi-3's rstrip of special
// tokens, jina's lstrip of <mask>), and the token renaming of gpt-oss.
//
// Decode is the inverse of Encode for valid UTF-8 that needed no UNK (and,
// with llama, has no U+2581, the space marker); Piece gives one token's bytes for streaming. Code points are
// classified with Go's unicode tables, which may differ from llama.cpp's
// in characters assigned by a newer Unicode version than one of them
// knows.
package tokenizer
