package tokenizer_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/corelane/corelane/internal/refdata"
)

// TestSynthPrompt: the synthetic models' prompt tokenizes to exactly
// llama.cpp's ids (BOS added as the files say, no special parsing), with
// the pieces the manifest lists; this vocabulary is cut to 1024 pieces, so
// the prompt exercises byte fallback.
func TestSynthPrompt(t *testing.T) {
	dir := refdata.Dir(t, "models/synth")
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Models map[string]struct {
			GGUF struct {
				File string `json:"file"`
			} `json:"gguf"`
			Prompt struct {
				Text         string   `json:"text"`
				AddSpecial   bool     `json:"add_special (BOS)"`
				ParseSpecial bool     `json:"parse_special"`
				IDs          []int32  `json:"ids"`
				Pieces       []string `json:"pieces"`
			} `json:"prompt"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Models) == 0 {
		t.Fatal("no models in the manifest")
	}
	for name, md := range m.Models {
		t.Run(name, func(t *testing.T) {
			p := md.Prompt
			if !p.AddSpecial || p.ParseSpecial || len(p.IDs) == 0 {
				t.Fatalf("manifest prompt settings changed: %+v", p)
			}
			tok := openTokenizer(t, filepath.Join(dir, md.GGUF.File))
			if !tok.AddBOS() {
				t.Errorf("AddBOS() = false; the file has no add_bos_token key, llama.cpp's llama default is true")
			}
			got, err := tok.Encode(p.Text, tok.AddBOS())
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(p.IDs) {
				t.Errorf("Encode(%q)\n got %v\nwant %v", p.Text, got, p.IDs)
			}
			for i, id := range p.IDs {
				if tok.Token(id) != p.Pieces[i] {
					t.Errorf("token %d = %q, manifest %q", id, tok.Token(id), p.Pieces[i])
				}
			}
			if s, err := tok.Decode(got); err != nil || s != p.Text {
				t.Errorf("Decode = %q, %v", s, err)
			}
		})
	}
}

// TestPlaceholderVocabs: files whose vocabulary has no byte tokens (the
// stories260K conversion's "<i>" pieces, tiny.gguf's "tokNNNN") still load;
// text they cannot spell becomes UNK, one per byte.
func TestPlaceholderVocabs(t *testing.T) {
	for _, c := range []struct{ sub, file, text string }{
		{"models/stories260K", "stories260K-f32.gguf", "hi"},
		{"gguf", "tiny.gguf", "hi"},
	} {
		tok := openTokenizer(t, filepath.Join(refdata.Dir(t, c.sub), c.file))
		if tok.BOS() != 1 || tok.EOS() != 2 || tok.UNK() != 0 || !tok.IsEOG(2) || tok.IsEOG(1) {
			t.Errorf("%s: BOS %d EOS %d UNK %d", c.file, tok.BOS(), tok.EOS(), tok.UNK())
		}
		got, err := tok.Encode(c.text, true)
		if err != nil {
			t.Fatal(err)
		}
		// "▁hi" is 5 bytes, none with a token of its own.
		if fmt.Sprint(got) != "[1 0 0 0 0 0]" {
			t.Errorf("%s: Encode(%q) = %v, want BOS then five UNK", c.file, c.text, got)
		}
	}
	tok := openTokenizer(t, filepath.Join(refdata.Dir(t, "gguf"), "tiny.gguf"))
	if id, ok := tok.ID("tok0300"); !ok || id != 300 || tok.VocabSize() != 768 {
		t.Errorf("tiny.gguf: ID(tok0300) = %d, %v; %d tokens", id, ok, tok.VocabSize())
	}
	if got, _ := tok.EncodeSpecial("<s></s>", false); fmt.Sprint(got) != "[1 2]" {
		t.Errorf("EncodeSpecial(<s></s>) = %v, want [1 2]", got)
	}
}
