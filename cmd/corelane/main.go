// Command corelane shows what corelane does on this machine.
//
//	corelane run -model FILE [-prompt TEXT] [-n N]
//	                          run a llama GGUF file: text (or -ids) as it is
//	                          generated, tok/s on stderr
//	corelane profile [flags]  a Llama-shaped decoder on corelane ops: time per
//	                          part, tok/s, and a bit-identity check across schedules
//	corelane tokenize -model FILE -text TEXT [-bos]
//	                          the token ids of TEXT in the model's vocabulary
//	corelane info [-json]     CPU, features, topology, affinity and the kernel table
//
// CORELANE_KERNELS=name forces a kernel variant; an unknown or unsupported
// name is an error listing what this CPU supports.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/kernels"
)

const usage = `usage: corelane <command> [flags]

commands:
  run -model FILE [-prompt TEXT] [-n N] [flags]
                  run a llama GGUF file: generate N tokens after the prompt,
                  streamed as text (or -ids), with tok/s on stderr (-h for
                  flags: sampling, -threads, -kernels, -attention, -kv,
                  -logits, -force)
  profile [flags] run a Llama-shaped decoder (random Q4_K_M weights, or
                  -model FILE) under the sequential and hardware schedules
                  and both attention modes; print where the time goes, the
                  roofline, and check the logits are bit-identical across
                  schedules (-h for flags)
  tokenize -model FILE -text TEXT [-bos]
                  print TEXT's token ids in FILE's vocabulary, as llama.cpp
                  tokenizes it (BOS first only with -bos)
  info [-json]    CPU, features, cores, affinity and the kernel table
`

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "corelane:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(out, usage)
		return fmt.Errorf("no command given")
	}
	switch args[0] {
	case "info":
		return info(args[1:], out)
	case "profile":
		if err := kernels.InitErr(); err != nil {
			return err
		}
		return profile(args[1:], out)
	case "tokenize":
		return tokenize(args[1:], out)
	case "run":
		if err := kernels.InitErr(); err != nil {
			return err
		}
		return runCmd(args[1:], out, os.Stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(out, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q (want run, profile, tokenize or info)", args[0])
}

// infoReport is what `corelane info` prints.
type infoReport struct {
	Kernels       kernels.Report `json:"kernels"`
	PhysicalCores int            `json:"physical_cores"`
	LogicalCores  int            `json:"logical_cores"`
	GOMAXPROCS    int            `json:"gomaxprocs"`
	Affinity      []int          `json:"affinity,omitempty"`
	AffinityErr   string         `json:"affinity_error,omitempty"`
}

func info(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	fs.SetOutput(out)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := kernels.InitErr(); err != nil {
		return err
	}
	r := infoReport{
		Kernels:       kernels.Info(),
		PhysicalCores: cpuid.CPU.PhysicalCores,
		LogicalCores:  cpuid.CPU.LogicalCores,
		GOMAXPROCS:    runtime.GOMAXPROCS(0),
	}
	if cpus, err := affinity(); err != nil {
		r.AffinityErr = err.Error()
	} else {
		r.Affinity = cpus
	}
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	fmt.Fprintf(out, "cores: %d physical, %d logical; GOMAXPROCS %d\n", r.PhysicalCores, r.LogicalCores, r.GOMAXPROCS)
	if r.AffinityErr != "" {
		fmt.Fprintf(out, "affinity: unknown (%s)\n", r.AffinityErr)
	} else {
		fmt.Fprintf(out, "affinity: cpus %v\n", r.Affinity)
	}
	fmt.Fprint(out, r.Kernels.String())
	return nil
}
