package kernels

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"
	xcpu "golang.org/x/sys/cpu"
)

// The registration tests decide which variants must be runnable from what
// cpuid reports. This test cross-checks cpuid against two independent
// readings — golang.org/x/sys/cpu (its own CPUID/HWCAP decoding) and, where
// the kernel provides it, the flags line of /proc/cpuinfo — so that a
// feature cpuid misreads fails here instead of silently making a variant
// "not required".

// featureCheck is one CPU feature as the three sources name it.
type featureCheck struct {
	id      cpuid.FeatureID
	xsys    *bool  // golang.org/x/sys/cpu's field, nil if it has none
	cpuinfo string // the /proc/cpuinfo flag, "" if not checked there
}

func archFeatureChecks() []featureCheck {
	switch runtime.GOARCH {
	case "amd64":
		return []featureCheck{
			{cpuid.AVX2, &xcpu.X86.HasAVX2, "avx2"},
			{cpuid.FMA3, &xcpu.X86.HasFMA, "fma"},
			{cpuid.F16C, nil, "f16c"},
			{cpuid.AVX512F, &xcpu.X86.HasAVX512F, "avx512f"},
			{cpuid.AVX512BW, &xcpu.X86.HasAVX512BW, "avx512bw"},
			{cpuid.AVX512VL, &xcpu.X86.HasAVX512VL, "avx512vl"},
			{cpuid.AVX512VNNI, &xcpu.X86.HasAVX512VNNI, "avx512_vnni"},
			{cpuid.AVXVNNI, &xcpu.X86.HasAVXVNNI, "avx_vnni"},
		}
	case "arm64":
		return []featureCheck{
			{cpuid.ASIMD, &xcpu.ARM64.HasASIMD, ""},
			{cpuid.ASIMDDP, &xcpu.ARM64.HasASIMDDP, ""},
		}
	}
	return nil
}

// cpuinfoFlags returns the flags of the first processor in /proc/cpuinfo,
// or nil where there is none (not Linux, or an emulator that shows the
// host's).
func cpuinfoFlags() map[string]bool {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil || runtime.GOARCH != "amd64" {
		return nil
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			m := map[string]bool{}
			for _, f := range strings.Fields(v) {
				m[f] = true
			}
			return m
		}
	}
	return nil
}

func TestCPUFeaturesAgree(t *testing.T) {
	checks := archFeatureChecks()
	if len(checks) == 0 {
		t.Skipf("no assembly variants on %s", runtime.GOARCH)
	}
	flags := cpuinfoFlags()
	for _, c := range checks {
		got := cpuid.CPU.Supports(c.id)
		if c.xsys != nil && *c.xsys != got {
			t.Errorf("%v: cpuid says %v, golang.org/x/sys/cpu says %v", c.id, got, *c.xsys)
		}
		if flags != nil && c.cpuinfo != "" && flags[c.cpuinfo] != got {
			t.Errorf("%v: cpuid says %v, /proc/cpuinfo flag %q says %v", c.id, got, c.cpuinfo, flags[c.cpuinfo])
		}
	}
	// Every variant whose features the independent readings report must be
	// runnable (not merely "not required" because cpuid misread one).
	if len(archVariants()) == 0 {
		return // purego build
	}
	have := map[cpuid.FeatureID]bool{}
	for _, c := range checks {
		switch {
		case c.xsys != nil:
			have[c.id] = *c.xsys
		case flags != nil:
			have[c.id] = flags[c.cpuinfo]
		default:
			have[c.id] = cpuid.CPU.Supports(c.id)
		}
	}
	for _, v := range archVariants() {
		ok := true
		for _, f := range v.Requires {
			if h, known := have[f]; known && !h {
				ok = false
			}
		}
		if ok && !slices.Contains(Variants(), v.Name) {
			t.Errorf("%s: the CPU has %v by the independent readings, but the variant is not runnable (runnable: %v)", v.Name, v.Requires, Variants())
		}
	}
}
