package spi

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/corelane/corelane/internal/testexec"
	"github.com/corelane/corelane/kernels"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// TestNewReportsBadKernelsSetting runs this test binary again with
// CORELANE_KERNELS set to a name no CPU has: spi.New must return the
// start-up error (naming the setting and what this CPU supports), not run
// the best variant instead. With WithKernels the backend is pinned and
// the setting does not apply to it.
func TestNewReportsBadKernelsSetting(t *testing.T) {
	if os.Getenv("CORELANE_SPI_CHILD") == "1" {
		_, err := New()
		switch {
		case err == nil:
			fmt.Println("child: New() returned no error")
		case !errors.Is(err, kernels.ErrUnknownVariant) || !strings.Contains(err.Error(), "CORELANE_KERNELS=no-such-variant"):
			fmt.Println("child: New() =", err)
		default:
			if _, err := New(WithKernels(kernels.Generic)); err != nil {
				fmt.Println("child: New(WithKernels(generic)) =", err)
				os.Exit(1)
			}
			fmt.Println("child: ok:", err)
			os.Exit(0)
		}
		os.Exit(1)
	}
	cmd := testexec.Self("-test.run=^TestNewReportsBadKernelsSetting$", "-test.count=1")
	cmd.Env = append(os.Environ(), "CORELANE_SPI_CHILD=1", "CORELANE_KERNELS=no-such-variant")
	out, err := cmd.CombinedOutput()
	var ee *exec.Error
	if errors.As(err, &ee) || strings.Contains(fmt.Sprint(err), "exec format error") {
		// Under user-mode emulation (the arm64 tests run in qemu-user) the
		// binary cannot start itself again; the native run covers this.
		t.Skipf("cannot re-run the test binary here: %v", err)
	}
	if err != nil || !strings.Contains(string(out), "child: ok:") {
		t.Fatalf("child run: %v\n%s", err, out)
	}
}

// TestGetRowsUsesBackendKernels: GetRows dequantizes with the Backend's
// kernels, not the process-wide registry's. A backend whose Q4_K
// dequantizer writes a marker must return the marker.
func TestGetRowsUsesBackendKernels(t *testing.T) {
	ops, err := kernels.Lookup(kernels.Generic)
	if err != nil {
		t.Fatal(err)
	}
	ops.DequantQ4K = func(dst []float32, _ []quant.BlockQ4K) {
		for i := range dst {
			dst[i] = 42
		}
	}
	b := &Backend{variant: "marker", ops: ops, sched: sched.Sequential}
	table := Matrix{Type: quant.Q4K, Rows: 3, Cols: 256, Data: make([]byte, 3*144)}
	dst := make([]float32, 2*256)
	if err := b.Context().GetRows(dst, table, []int{2, 0}); err != nil {
		t.Fatal(err)
	}
	for i, v := range dst {
		if v != 42 {
			t.Fatalf("dst[%d] = %v: GetRows did not use the backend's dequantizer", i, v)
		}
	}
}

// TestOneExponential: Softmax and SiLU use kernels.Exp, the exponential
// Exact attention uses, not the vectorised approximation kernels.Exp32.
// The inputs are ones where the two differ, so the test tells them apart.
func TestOneExponential(t *testing.T) {
	b, err := New(WithSchedule(sched.Sequential))
	if err != nil {
		t.Fatal(err)
	}
	ctx := b.Context()
	var xs []float32
	for x := float32(-20); x < 20 && len(xs) < 64; x += 0.0371 {
		if kernels.Exp(x) != kernels.Exp32(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) < 16 {
		t.Fatalf("only %d inputs where Exp and Exp32 differ", len(xs))
	}
	for _, x := range xs {
		// Softmax of the row [x, 0] with x < 0: max 0, weights exp(x), 1.
		if x >= 0 {
			continue
		}
		got := make([]float32, 2)
		if err := ctx.Softmax(got, []float32{x, 0}, 1, 2); err != nil {
			t.Fatal(err)
		}
		e := kernels.Exp(x)
		if want := e / (e + 1); got[0] != want {
			t.Errorf("Softmax([%v, 0])[0] = %v, want exp(x)/(exp(x)+1) = %v with kernels.Exp", x, got[0], want)
		}
		s := make([]float32, 1)
		if err := ctx.SiLU(s, []float32{-x}); err != nil {
			t.Fatal(err)
		}
		if want := -x / (1 + kernels.Exp(x)); s[0] != want {
			t.Errorf("SiLU(%v) = %v, want %v with kernels.Exp", -x, s[0], want)
		}
	}
}
