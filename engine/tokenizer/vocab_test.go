package tokenizer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/corelane/corelane/engine/tokenizer"
	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/internal/refdata"
)

// vocabCase is one test of llama.cpp's tokenizer test files.
type vocabCase struct {
	text string
	ids  []int32
}

// readVocabCases reads X.gguf.inp (inputs, each followed by the separator
// line) and X.gguf.out (one line of space-separated ids per input).
func readVocabCases(t *testing.T, base string) []vocabCase {
	t.Helper()
	inp, err := os.ReadFile(base + ".inp")
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(base + ".out")
	if err != nil {
		t.Fatal(err)
	}
	const sep = "\n__ggml_vocab_test__\n"
	texts := strings.Split(string(inp), sep)
	if texts[len(texts)-1] != "" {
		t.Fatalf("%s.inp does not end with the separator", base)
	}
	texts = texts[:len(texts)-1]
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(texts) != len(lines) {
		t.Fatalf("%d inputs, %d output lines", len(texts), len(lines))
	}
	cases := make([]vocabCase, len(texts))
	for i, text := range texts {
		cases[i].text = text
		for _, f := range strings.Fields(lines[i]) {
			id, err := strconv.ParseInt(f, 10, 32)
			if err != nil {
				t.Fatalf("%s.out line %d: %v", base, i+1, err)
			}
			cases[i].ids = append(cases[i].ids, int32(id))
		}
	}
	return cases
}

func openTokenizer(t *testing.T, path string) *tokenizer.Tokenizer {
	t.Helper()
	f, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tok, err := tokenizer.FromGGUF(f)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func caseName(i int, s string) string {
	q := strconv.Quote(s)
	if len(q) > 40 {
		q = q[:37] + "..."
	}
	return fmt.Sprintf("%02d/%s", i, q)
}

// TestVocab runs llama.cpp's test-tokenizer-0 cases: the ids must be
// exactly the .out file's, with and without BOS, and both those ids and
// ours must decode back to the input.
func TestVocab(t *testing.T) {
	dir := refdata.Dir(t, "vocab")
	for _, name := range []string{"ggml-vocab-llama-spm.gguf", "ggml-vocab-gpt-2.gguf"} {
		t.Run(name, func(t *testing.T) {
			base := filepath.Join(dir, name)
			tok := openTokenizer(t, base)
			cases := readVocabCases(t, base)
			if len(cases) != 46 {
				t.Fatalf("%d cases, want 46", len(cases))
			}
			for i, c := range cases {
				t.Run(caseName(i, c.text), func(t *testing.T) {
					got, err := tok.Encode(c.text, false)
					if err != nil {
						t.Fatal(err)
					}
					if fmt.Sprint(got) != fmt.Sprint(c.ids) {
						t.Errorf("Encode(%q)\n got %v\nwant %v", c.text, got, c.ids)
					}
					withBOS, err := tok.Encode(c.text, true)
					if err != nil {
						t.Fatal(err)
					}
					if len(withBOS) != len(got)+1 || withBOS[0] != tok.BOS() || fmt.Sprint(withBOS[1:]) != fmt.Sprint(got) {
						t.Errorf("Encode(%q, BOS) = %v, want BOS %d then %v", c.text, withBOS, tok.BOS(), got)
					}
					for _, ids := range [][]int32{c.ids, withBOS} {
						if s, err := tok.Decode(ids); err != nil || s != c.text {
							t.Errorf("Decode(%v) = %q, %v; want %q", ids, s, err, c.text)
						}
					}
				})
			}
		})
	}
}

// TestVocabConcurrent: one tokenizer serves many goroutines (run with -race).
func TestVocabConcurrent(t *testing.T) {
	dir := refdata.Dir(t, "vocab")
	base := filepath.Join(dir, "ggml-vocab-gpt-2.gguf")
	tok := openTokenizer(t, base)
	cases := readVocabCases(t, base)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range cases {
				if got, _ := tok.Encode(c.text, false); fmt.Sprint(got) != fmt.Sprint(c.ids) {
					t.Errorf("Encode(%q) = %v", c.text, got)
				}
			}
		}()
	}
	wg.Wait()
}
