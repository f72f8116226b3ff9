package tokenizer_test

import (
	"bytes"
	"fmt"

	"github.com/corelane/corelane/engine/tokenizer"
	"github.com/corelane/corelane/gguf"
)

// A GGUF file's tokenizer metadata, as a converter writes it.
func exampleGGUF() *gguf.File {
	var buf bytes.Buffer
	gguf.Encode(&buf, &gguf.File{KV: []gguf.KV{
		{Key: "tokenizer.ggml.model", Value: gguf.String("llama")},
		{Key: "tokenizer.ggml.tokens", Value: gguf.Array([]string{"<unk>", "<s>", "</s>", "<0x21>", "▁",
			"ll", "llo", "ello", "▁H", "▁Hello", "▁w", "or", "▁wor", "ld", "▁world"})},
		{Key: "tokenizer.ggml.scores", Value: gguf.Array([]float32{0, 0, 0, 0, -100, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10})},
		{Key: "tokenizer.ggml.token_type", Value: gguf.Array([]int32{2, 3, 3, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})},
	}})
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		panic(err)
	}
	return f
}

func ExampleFromGGUF() {
	tok, err := tokenizer.FromGGUF(exampleGGUF())
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, _ := tok.Encode("Hello world!", tok.AddBOS())
	fmt.Println(ids)
	for i, id := range ids {
		if i > 0 {
			fmt.Print(" ")
		}
		fmt.Printf("%q", tok.Token(id))
	}
	fmt.Println()
	text, _ := tok.Decode(ids)
	fmt.Printf("%q\n", text)
	// Output:
	// [1 9 14 3]
	// "<s>" "▁Hello" "▁world" "<0x21>"
	// "Hello world!"
}

func ExampleNew() {
	// A byte-level BPE vocabulary: single characters, then merged pieces.
	tokens := []string{"h", "i", "Ġ", "t", "he", "Ġt", "Ġthe", "<|endoftext|>"}
	tok, err := tokenizer.New(tokenizer.Vocab{
		Model: tokenizer.ModelGPT2, Pre: "gpt-2", Tokens: tokens,
		Merges: []string{"h e", "Ġ t", "Ġt he"},
		BOS:    7, EOS: 7, EOT: -1, EOM: -1, UNK: -1, PAD: -1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ids, _ := tok.Encode("hi the", false)
	fmt.Println(ids, tok.IsEOG(7))
	// Output: [0 1 6] true
}

func ExampleTokenizer_Piece() {
	tok, _ := tokenizer.FromGGUF(exampleGGUF())
	// Streaming: print each generated token's piece as it comes.
	for _, id := range []int32{9, 14, 3, 2} {
		fmt.Printf("%q\n", tok.Piece(id))
	}
	// Output:
	// " Hello"
	// " world"
	// "!"
	// ""
}

func ExampleTokenizer_EncodeSpecial() {
	tok, _ := tokenizer.FromGGUF(exampleGGUF())
	plain, _ := tok.Encode("<s>", false)
	special, _ := tok.EncodeSpecial("<s>", false)
	fmt.Println(plain, special)
	// Output: [4 0 0 0] [1]
}
