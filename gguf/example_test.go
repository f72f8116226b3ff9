package gguf_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
)

// A small file to read back: what a converter would write.
func exampleFile() []byte {
	f := &gguf.File{
		KV: []gguf.KV{
			{Key: "general.architecture", Value: gguf.String("llama")},
			{Key: "llama.context_length", Value: gguf.Uint32(2048)},
			{Key: "llama.rope.freq_base", Value: gguf.Float32(10000)},
			{Key: "tokenizer.ggml.tokens", Value: gguf.Array([]string{"<unk>", "<s>", "</s>"})},
		},
		Tensors: []gguf.Tensor{
			{Name: "output_norm.weight", Type: quant.F32, Dims: []int64{4}, Data: make([]byte, 16)},
			{Name: "output.weight", Type: quant.Q8_0, Dims: []int64{32, 3}, Data: make([]byte, 3*34)},
		},
	}
	var buf bytes.Buffer
	if err := gguf.Encode(&buf, f); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "gguf")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.gguf")
	os.WriteFile(path, exampleFile(), 0o644)

	f, err := gguf.Open(path) // memory-mapped; the tensor data are views of the mapping
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	for _, t := range f.Tensors {
		fmt.Printf("%s %s %v: %d bytes at %d\n", t.Name, gguf.TypeName(t.Type), t.Dims, len(t.Data), t.Offset)
	}
	// Output:
	// output_norm.weight f32 [4]: 16 bytes at 352
	// output.weight q8_0 [32 3]: 102 bytes at 384
}

func ExampleParse() {
	f, err := gguf.Parse(exampleFile())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("version", f.Version, "alignment", f.Alignment, "data at", f.DataOffset)
	for _, kv := range f.KV {
		fmt.Println(kv.Key, kv.Value)
	}
	// Output:
	// version 3 alignment 32 data at 352
	// general.architecture string "llama"
	// llama.context_length u32 2048
	// llama.rope.freq_base f32 10000
	// tokenizer.ggml.tokens array[string] of 3
}

func ExampleFile_Uint32() {
	f, _ := gguf.Parse(exampleFile())
	n, err := f.Uint32("llama.context_length")
	fmt.Println(n, err)
	_, err = f.Uint32("llama.embedding_length")
	fmt.Println(errors.Is(err, gguf.ErrMissingKey), err)
	_, err = f.Uint32("general.architecture")
	fmt.Println(errors.Is(err, gguf.ErrType), err)
	// Output:
	// 2048 <nil>
	// true gguf: key "llama.embedding_length": missing metadata key
	// true gguf: key "general.architecture": wrong metadata type: want an unsigned integer, found string
}

func ExampleFile_Strings() {
	f, _ := gguf.Parse(exampleFile())
	tokens, _ := f.Strings("tokenizer.ggml.tokens")
	base, _ := f.Float32("llama.rope.freq_base")
	arch, _ := f.String("general.architecture")
	fmt.Println(tokens, base, arch)
	// Output: [<unk> <s> </s>] 10000 llama
}

func ExampleFile_Tensor() {
	f, _ := gguf.Parse(exampleFile())
	t, ok := f.Tensor("output.weight")
	if !ok {
		return
	}
	blocks, err := quant.AsQ8_0(t.Data) // a zero-copy view of the blocks
	fmt.Println(len(blocks), err, "rows", t.Rows(), "of", t.Dims[0])
	// Output: 3 <nil> rows 3 of 32
}

func ExampleEncode() {
	var buf bytes.Buffer
	err := gguf.Encode(&buf, &gguf.File{KV: []gguf.KV{{Key: "general.name", Value: gguf.String("tiny")}}})
	fmt.Println(buf.Len(), err)
	_, err = gguf.Parse(buf.Bytes()[:40])
	fmt.Println(err)
	// Output:
	// 60 <nil>
	// gguf: kv 0 key: string length 12 exceeds the 8 bytes left in the file at byte 24
}
