package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/corelane/corelane/engine/tokenizer"
	"github.com/corelane/corelane/gguf"
)

// tokenize prints the ids of -text in the tokenizer of -model, space-
// separated on one line, as llama.cpp tokenizes it (no special-token
// parsing), with BOS first only if -bos is given.
func tokenize(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("tokenize", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned as one line; stdout holds only ids
	model := fs.String("model", "", "GGUF `file` whose tokenizer metadata to use (required)")
	text := fs.String("text", "", "the `text` to tokenize")
	bos := fs.Bool("bos", false, "start the ids with the vocabulary's BOS token")
	if err := fs.Parse(args); err == flag.ErrHelp {
		fmt.Fprintln(out, "usage: corelane tokenize -model FILE -text TEXT [-bos]")
		fs.SetOutput(out)
		fs.PrintDefaults()
		return nil
	} else if err != nil {
		return fmt.Errorf("tokenize: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("tokenize: unexpected arguments %q (quote the text: -text '...')", fs.Args())
	}
	if *model == "" {
		return fmt.Errorf("tokenize: -model FILE is required")
	}
	// Only the metadata is used: a file with tensor types the kernels
	// lack still has a tokenizer.
	f, err := gguf.OpenWith(*model, gguf.Options{AllowUnsupportedTypes: true})
	if err != nil {
		return err
	}
	defer f.Close()
	tok, err := tokenizer.FromGGUF(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *model, err)
	}
	ids, err := tok.Encode(*text, *bos)
	if err != nil {
		return err
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	_, err = fmt.Fprintln(out, strings.Join(s, " "))
	return err
}
