package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/corelane/corelane/quant"
)

func TestInfo(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"info"}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cores:", "features:", "variants:", "MatVecQ4K", "generic"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("info output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := run([]string{"info", "-json"}, &out); err != nil {
		t.Fatal(err)
	}
	var r infoReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("info -json: %v\n%s", err, out.String())
	}
	if len(r.Kernels.Ops) == 0 || r.LogicalCores < 1 {
		t.Fatalf("info -json: incomplete report %+v", r)
	}
}

func TestProfileTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("profile runs a small model")
	}
	var out bytes.Buffer
	if err := run([]string{"profile", "-preset", "tiny", "-layers", "1", "-prefill", "5", "-decode", "3", "-quiet"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	s := out.String()
	if strings.Count(s, "bit-identical") != 2 || !strings.Contains(s, "decode tok/s") {
		t.Fatalf("profile output:\n%s", s)
	}
}

// TestProfileCPUProfile: -cpuprofile writes a CPU profile (a gzipped
// pprof protocol buffer); a file that cannot be created is an error naming
// the flag.
func TestProfileCPUProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("profile runs a small model")
	}
	f := filepath.Join(t.TempDir(), "cpu.prof")
	var out bytes.Buffer
	if err := run([]string{"profile", "-preset", "tiny", "-prefill", "16", "-decode", "64", "-quiet", "-cpuprofile", f}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	raw, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	// A pprof profile is a gzipped protocol buffer.
	if len(raw) < 100 || raw[0] != 0x1f || raw[1] != 0x8b {
		t.Fatalf("-cpuprofile wrote %d bytes that are not a gzipped profile", len(raw))
	}
	bad := filepath.Join(t.TempDir(), "no-such-dir", "cpu.prof")
	err = run([]string{"profile", "-preset", "tiny", "-layers", "1", "-prefill", "2", "-decode", "1", "-quiet", "-cpuprofile", bad}, &out)
	if err == nil || !strings.Contains(err.Error(), "-cpuprofile") {
		t.Fatalf("unwritable -cpuprofile: err = %v, want one naming -cpuprofile", err)
	}
}

func TestBadArgs(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"frobnicate"}, {"profile", "-preset", "nope"}, {"profile", "-prefill", "0"}} {
		if err := run(args, &out); err == nil {
			t.Errorf("corelane %v: no error", args)
		}
	}
}

// TestMoreBits: llama.cpp's Q4_K_M rule gives attn_v/ffn_down Q6_K in
// layers 0, 1, 4, 7, 10, 13, 14 and 15 of a 16-layer model.
func TestMoreBits(t *testing.T) {
	var got []int
	for l := 0; l < 16; l++ {
		if vdType(mixQ4KM, l, 16) == quant.Q6K {
			got = append(got, l)
		}
		if vdType(mixPeer, l, 16) != quant.Q6K {
			t.Errorf("mix peer, layer %d: not Q6_K", l)
		}
	}
	if fmt.Sprint(got) != "[0 1 4 7 10 13 14 15]" {
		t.Errorf("Q6_K layers of 16 = %v, want [0 1 4 7 10 13 14 15]", got)
	}
}

// TestProfileBenchfmt: with -benchfmt every line is a benchmark result in
// the peer harness's format or a # comment, one line per (schedule, mode,
// phase).
func TestProfileBenchfmt(t *testing.T) {
	if testing.Short() {
		t.Skip("profile runs a small model")
	}
	var out bytes.Buffer
	if err := run([]string{"profile", "-preset", "tiny", "-layers", "1", "-prefill", "3", "-decode", "2", "-quiet", "-benchfmt", "-kv", "f16"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	re := regexp.MustCompile(`^BenchmarkPeerDecoder/model=tiny/phase=(prefill/tokens=3|decode/tokens=2)/threads=[12]/kv=f16/impl=corelane-([a-z0-9]+-)?(exact|fast)(-\d+)?\t1\t\d+ ns/op\t[0-9.]+ tok/s$`)
	n := 0
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "# "):
		case re.MatchString(line):
			n++
		default:
			t.Errorf("line is neither a benchmark result nor a comment: %q", line)
		}
	}
	if n != 8 {
		t.Errorf("%d benchmark lines, want 8 (2 schedules × 2 modes × 2 phases):\n%s", n, out.String())
	}
}

// TestProfileHugePages: random models go where the page probe reads
// faster unless -hugepages says, files get huge pages only with
// -hugepages; each run says which (the probe: with its measurement), and
// where the weights are changes no logit.
func TestProfileHugePages(t *testing.T) {
	if testing.Short() {
		t.Skip("profile runs a small model")
	}
	hashes := map[string]string{}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"preset-probe", []string{"-preset", "tiny", "-layers", "1"}, "from 4 KiB pages (median of 15 alternating reads"},
		{"preset", []string{"-preset", "tiny", "-layers", "1", "-hugepages"}, "pages: huge pages requested for the"},
		{"preset-off", []string{"-preset", "tiny", "-layers", "1", "-hugepages=false"}, "pages: weights in the Go heap (-hugepages=false)"},
		{"file", []string{"-model", stories}, "pages: weights mapped from the file"},
		{"file-huge", []string{"-model", stories, "-hugepages"}, "pages: huge pages requested for the"},
	} {
		var out bytes.Buffer
		args := append([]string{"profile", "-prefill", "3", "-decode", "2", "-quiet", "-attention", "exact"}, c.args...)
		if err := run(args, &out); err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, out.String())
		}
		s := out.String()
		if !strings.Contains(s, c.want) {
			t.Errorf("%s: output lacks %q:\n%s", c.name, c.want, s)
		}
		if runtime.GOOS == "linux" && strings.HasPrefix(c.want, "pages: huge") && !strings.Contains(s, "of the process's memory is in huge pages") {
			t.Errorf("%s: no huge page count on Linux:\n%s", c.name, s)
		}
		h := regexp.MustCompile(`(?m) ([0-9a-f]{16})$`).FindStringSubmatch(s)
		if h == nil {
			t.Fatalf("%s: no logits hash in:\n%s", c.name, s)
		}
		hashes[c.name] = h[1]
	}
	if hashes["preset"] != hashes["preset-off"] || hashes["preset"] != hashes["preset-probe"] || hashes["file"] != hashes["file-huge"] {
		t.Errorf("logits hashes depend on the pages: %v", hashes)
	}
}

// TestProfileModel: profile -model runs a real file through the same
// table, bit-identity check and roofline as the random presets, and
// names it in the -benchfmt lines.
func TestProfileModel(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"profile", "-model", stories, "-prefill", "4", "-decode", "2", "-quiet"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	s := out.String()
	for _, want := range []string{"dim 64, 5 layers, 8 heads (4 kv, head size 8), ffn 172, vocab 512; weights f32 ×37", "decode tok/s", "roofline: 1.0 MB of weights per token"} {
		if !strings.Contains(s, want) {
			t.Errorf("profile -model output lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "bit-identical") != 2 {
		t.Errorf("profile -model: want both modes bit-identical across schedules:\n%s", s)
	}
	out.Reset()
	if err := run([]string{"profile", "-model", stories, "-prefill", "3", "-decode", "2", "-quiet", "-benchfmt", "-attention", "fast"}, &out); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^BenchmarkPeerDecoder/model=stories260K-f32/phase=(prefill/tokens=3|decode/tokens=2)/threads=[12]/kv=f32/impl=corelane-([a-z0-9]+-)?fast(-\d+)?\t1\t\d+ ns/op\t[0-9.]+ tok/s$`)
	if n := len(re.FindAllString(out.String(), -1)); n != 4 {
		t.Errorf("%d benchmark lines, want 4:\n%s", n, out.String())
	}
	for _, args := range [][]string{
		{"profile", "-model", stories, "-preset", "tiny"},
		{"profile", "-model", stories, "-layers", "2"},
		{"profile", "-model", "no-such.gguf"},
	} {
		if err := run(args, &out); err == nil {
			t.Errorf("corelane %v: no error", args)
		}
	}
}
