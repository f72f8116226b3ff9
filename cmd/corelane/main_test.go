package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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

func TestBadArgs(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{}, {"frobnicate"}, {"profile", "-preset", "nope"}, {"profile", "-prefill", "0"}} {
		if err := run(args, &out); err == nil {
			t.Errorf("corelane %v: no error", args)
		}
	}
}
