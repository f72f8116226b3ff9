package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated fails when a committed .s file is not what simdgen writes
// (run `go generate` in kernels/internal/amd64 after changing simdgen).
func TestGenerated(t *testing.T) {
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join("..", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if want := generate(f.gen); !bytes.Equal(got, want) {
			t.Errorf("%s differs from simdgen's output: run go generate in kernels/internal/amd64", f.name)
		}
	}
}
