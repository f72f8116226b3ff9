package kernels

import (
	"errors"
	"strings"
	"testing"

	"github.com/corelane/corelane/quant"
)

// TestCheckedLengthsAreExact: the checked entry points accept only the
// lengths their docs give, and the errors speak of the caller's own
// arguments (not of a length or ldd some inner call invented).
func TestCheckedLengthsAreExact(t *testing.T) {
	const rows, cols = 4, 3
	w := make([]byte, rows*144) // 4 rows of one q4_K block
	x := make([]byte, cols*292) // 3 q8_K rows
	x1 := x[:292]
	cases := []struct {
		name    string
		err     error
		mention string
	}{
		{"MatVec dst longer than rows", MatVec(quant.Q4K, make([]float32, rows+1), w, x1), "len(dst) = 5, want 4"},
		{"MatVec dst shorter than rows", MatVec(quant.Q4K, make([]float32, rows-1), w, x1), "len(dst) = 3, want 4"},
		{"Dot on two rows", func() error { _, err := Dot(quant.Q4K, w[:288], x1); return err }(), "w is 288 bytes: 2 rows"},
		{"Dot on no row", func() error { _, err := Dot(quant.Q4K, nil, x1); return err }(), "w is 0 bytes"},
		{"MatMul dst past cols·ldd", MatMul(quant.Q4K, make([]float32, cols*rows+1), rows, w, x, cols), "len(dst) = 13, want 12 to 12"},
		{"MatMul dst short", MatMul(quant.Q4K, make([]float32, 2*6+3), 6, w, x, cols), "len(dst) = 15, want 16 to 18"},
		{"MatMul ldd < rows", MatMul(quant.Q4K, make([]float32, 12), 3, w, x, cols), "ldd = 3 < 4 rows"},
		{"MatMul x not whole columns", MatMul(quant.Q4K, make([]float32, 12), 4, w, x[:500], cols), "x is 500 bytes"},
	}
	for _, c := range cases {
		if !errors.Is(c.err, ErrShape) || !errors.Is(c.err, quant.ErrShape) {
			t.Errorf("%s: %v, want an ErrShape", c.name, c.err)
			continue
		}
		if !strings.Contains(c.err.Error(), c.mention) {
			t.Errorf("%s: %q does not say %q", c.name, c.err, c.mention)
		}
		if strings.Contains(c.err.Error(), "ldd") && !strings.HasPrefix(c.name, "MatMul") {
			t.Errorf("%s: %q names an ldd the caller never passed", c.name, c.err)
		}
	}
	// The lengths the docs allow are accepted.
	if err := MatVec(quant.Q4K, make([]float32, rows), w, x1); err != nil {
		t.Errorf("MatVec with len(dst) = rows: %v", err)
	}
	if err := MatMul(quant.Q4K, make([]float32, 2*6+4), 6, w, x, cols); err != nil {
		t.Errorf("MatMul with the shortest dst: %v", err)
	}
	if err := MatMul(quant.Q4K, make([]float32, cols*6), 6, w, x, cols); err != nil {
		t.Errorf("MatMul with a full [cols, ldd] dst: %v", err)
	}
}
