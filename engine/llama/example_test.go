package llama_test

import (
	"fmt"

	"github.com/corelane/corelane/engine/llama"
	"github.com/corelane/corelane/spi"
)

// Greedy decoding of the repository's small model from BOS: open the file,
// make a session on a backend's context, generate.
func Example() {
	m, err := llama.Open("../../testdata/stories260K-f32.gguf")
	if err != nil {
		panic(err)
	}
	defer m.Close()
	b, err := spi.New() // the best kernels for this CPU, every core
	if err != nil {
		panic(err)
	}
	s, err := m.NewSession(b.Context(), llama.Options{Context: 16})
	if err != nil {
		panic(err)
	}
	ids, _, err := s.Generate(llama.Generation{Prompt: []int{1}, N: 8})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Config.Layers, "layers,", m.Config.Vocab, "tokens:", ids)
	// Output: 5 layers, 512 tokens: [461 461 401 401 401 461 378 455]
}
