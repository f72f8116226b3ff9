package kernels

import (
	"fmt"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/klauspost/cpuid/v2"
)

// Report is what Info returns: the CPU features the kernels care about, the
// registered variants, and which variant each op uses and why.
type Report struct {
	CPU      string        `json:"cpu"`
	Arch     string        `json:"arch"`
	Features []FeatureInfo `json:"features"`
	Variants []VariantInfo `json:"variants"`
	Forced   string        `json:"forced,omitempty"`
	InitErr  string        `json:"init_error,omitempty"`
	Ops      []OpInfo      `json:"ops"`
	// Tuning lists the kernels' settings chosen for this CPU beyond the
	// variant (a prefetch distance, say), each with why; none changes a
	// result.
	Tuning []string `json:"tuning,omitempty"`
}

// FeatureInfo says whether the CPU has one feature.
type FeatureInfo struct {
	Name    string `json:"name"`
	Present bool   `json:"present"`
}

// VariantInfo describes one registered variant.
type VariantInfo struct {
	Name      string   `json:"name"`
	Supported bool     `json:"supported"`
	Requires  []string `json:"requires"`
	Missing   []string `json:"missing,omitempty"`
}

// OpInfo says which variant runs one op, why, and which variants could.
type OpInfo struct {
	Op       string   `json:"op"`
	Variant  string   `json:"variant"`
	Reason   string   `json:"reason"`
	Runnable []string `json:"runnable"`
}

// Features that matter to corelane's kernels, per architecture.
var reportFeatures = map[string][]cpuid.FeatureID{
	"amd64": {cpuid.AVX2, cpuid.FMA3, cpuid.F16C, cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VNNI, cpuid.AVXVNNI},
	"arm64": {cpuid.ASIMD, cpuid.ASIMDDP, cpuid.I8MM, cpuid.FPHP, cpuid.ASIMDHP},
}

// Info reports the CPU, the variants and the kernel each op uses.
func Info() Report {
	s := load()
	r := Report{CPU: cpu.BrandName, Arch: runtime.GOARCH, Forced: s.forced, Tuning: archTuning()}
	if initErr != nil {
		r.InitErr = initErr.Error()
	}
	for _, f := range reportFeatures[runtime.GOARCH] {
		r.Features = append(r.Features, FeatureInfo{Name: f.String(), Present: cpu.Supports(f)})
	}
	for _, v := range s.variants {
		vi := VariantInfo{Name: v.Name, Supported: v.Supported(), Requires: []string{}}
		for _, f := range v.Requires {
			vi.Requires = append(vi.Requires, f.String())
			if !cpu.Supports(f) {
				vi.Missing = append(vi.Missing, f.String())
			}
		}
		r.Variants = append(r.Variants, vi)
	}
	for i, name := range opNames {
		oi := OpInfo{Op: name, Variant: s.source[i], Reason: s.reason[i], Runnable: []string{}}
		for _, v := range s.variants {
			if v.Supported() && opHas(&v.Ops, i) {
				oi.Runnable = append(oi.Runnable, v.Name)
			}
		}
		r.Ops = append(r.Ops, oi)
	}
	return r
}

// String formats the report as the table `corelane info` prints.
func (r Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cpu: %s (%s)\nfeatures:", r.CPU, r.Arch)
	for _, f := range r.Features {
		mark := "-"
		if f.Present {
			mark = "+"
		}
		fmt.Fprintf(&b, " %s%s", mark, f.Name)
	}
	b.WriteString("\nvariants:")
	for _, v := range r.Variants {
		if v.Supported {
			fmt.Fprintf(&b, " %s", v.Name)
		} else {
			fmt.Fprintf(&b, " (%s: needs %s)", v.Name, strings.Join(v.Missing, ","))
		}
	}
	b.WriteString("\n")
	if r.Forced != "" {
		fmt.Fprintf(&b, "forced: %s\n", r.Forced)
	}
	if r.InitErr != "" {
		fmt.Fprintf(&b, "error: %s\n", r.InitErr)
	}
	tw := tabwriter.NewWriter(&b, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "op\tvariant\trunnable\twhy")
	for _, o := range r.Ops {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", o.Op, o.Variant, strings.Join(o.Runnable, ","), o.Reason)
	}
	tw.Flush()
	for _, t := range r.Tuning {
		fmt.Fprintf(&b, "tuning: %s\n", t)
	}
	return b.String()
}
