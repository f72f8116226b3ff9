package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/internal/refdata"
	"github.com/corelane/corelane/internal/testexec"
)

// TestTokenize: the command prints llama.cpp's ids for the vocabulary
// test cases (one line, no BOS unless -bos), for both tokenizer models.
func TestTokenize(t *testing.T) {
	dir := refdata.Dir(t, "vocab")
	for _, c := range []struct {
		vocab, text, want, withBOS string
	}{
		// From ggml-vocab-*.gguf.out (llama.cpp's own expectations).
		{"ggml-vocab-llama-spm.gguf", "Hello world", "15043 3186", "1 15043 3186"},
		{"ggml-vocab-llama-spm.gguf", " this is 🦙.cpp", "29871 445 338 29871 243 162 169 156 29889 8223", "1 29871 445 338 29871 243 162 169 156 29889 8223"},
		{"ggml-vocab-llama-spm.gguf", "", "", "1"},
		{"ggml-vocab-gpt-2.gguf", "Hello, world!", "15496 11 995 0", "50256 15496 11 995 0"},
		{"ggml-vocab-gpt-2.gguf", "\n =", "198 796", "50256 198 796"},
	} {
		for _, bos := range []bool{false, true} {
			args := []string{"tokenize", "-model", filepath.Join(dir, c.vocab), "-text", c.text}
			want := c.want
			if bos {
				args, want = append(args, "-bos"), c.withBOS
			}
			var out bytes.Buffer
			if err := run(args, &out); err != nil {
				t.Fatalf("corelane %q: %v", args, err)
			}
			if out.String() != want+"\n" {
				t.Errorf("corelane tokenize %s -text %q (bos %v): %q, want %q", c.vocab, c.text, bos, out.String(), want+"\n")
			}
		}
	}
	var out bytes.Buffer
	if err := run([]string{"tokenize", "-h"}, &out); err != nil || !strings.Contains(out.String(), "-model") {
		t.Errorf("tokenize -h: %v\n%s", err, out.String())
	}
}

// badFiles writes GGUF files the command must refuse and returns their paths.
func badFiles(t *testing.T) map[string]string {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	enc := func(kvs ...gguf.KV) []byte {
		var b bytes.Buffer
		if err := gguf.Encode(&b, &gguf.File{KV: kvs}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	gpt2 := []gguf.KV{{Key: "tokenizer.ggml.model", Value: gguf.String("gpt2")},
		{Key: "tokenizer.ggml.tokens", Value: gguf.Array([]string{"a", "b"})},
		{Key: "tokenizer.ggml.merges", Value: gguf.Array([]string{"a b"})}}
	return map[string]string{
		"not gguf":    write("text.gguf", []byte("hello, I am not a model\n")),
		"no metadata": write("bare.gguf", enc(gguf.KV{Key: "general.name", Value: gguf.String("bare")})),
		"unknown pre": write("pre.gguf", enc(append(gpt2, gguf.KV{Key: "tokenizer.ggml.pre", Value: gguf.String("llama3")})...)),
		"missing":     filepath.Join(dir, "missing.gguf"),
	}
}

// TestTokenizeErrors: each bad input is an error naming the problem.
func TestTokenizeErrors(t *testing.T) {
	files := badFiles(t)
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{"tokenize", "-text", "x"}, "-model FILE is required"},
		{[]string{"tokenize", "-model"}, "flag needs an argument"},
		{[]string{"tokenize", "-frob"}, "flag provided but not defined: -frob"},
		{[]string{"tokenize", "-model", files["missing"], "stray"}, `unexpected arguments ["stray"]`},
		{[]string{"tokenize", "-model", files["missing"]}, "no such file or directory"},
		{[]string{"tokenize", "-model", files["not gguf"]}, "not a GGUF file"},
		{[]string{"tokenize", "-model", files["no metadata"]}, `key "tokenizer.ggml.model": missing metadata key`},
		{[]string{"tokenize", "-model", files["unknown pre"]}, `unsupported pre-tokenizer "llama3"`},
	}
	for _, c := range cases {
		var out bytes.Buffer
		err := run(c.args, &out)
		if err == nil || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("corelane %q: error %v, want one line containing %q", c.args, err, c.msg)
		}
		if out.Len() != 0 {
			t.Errorf("corelane %q printed %q on stdout", c.args, out.String())
		}
	}
}

// TestTokenizeExit runs the command as a process: an error is one line on
// stderr, nothing on stdout, and exit status 1.
func TestTokenizeExit(t *testing.T) {
	if os.Getenv("CORELANE_TEST_MAIN") == "1" {
		os.Args = append([]string{"corelane"}, strings.Fields(os.Getenv("CORELANE_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	files := badFiles(t)
	for _, name := range []string{"missing", "not gguf", "unknown pre"} {
		cmd := testexec.Self("-test.run=^TestTokenizeExit$")
		cmd.Env = append(os.Environ(), "CORELANE_TEST_MAIN=1", "CORELANE_TEST_ARGS=tokenize -text x -model "+files[name])
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Errorf("%s: %v, want exit status 1 (stderr %q)", name, err, stderr.String())
		}
		if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "corelane: ") || !strings.Contains(stderr.String(), files[name]) {
			t.Errorf("%s: stdout %q, stderr %q: want one line on stderr naming the file", name, stdout.String(), stderr.String())
		}
	}
}
