package amd64

// Mirrors of the quant package's block structs (same field order, sizes and
// alignment; kernels/layout_test.go checks every offset against quant's), so
// that go_asm.h gives the .s files their offsets: blockQ4K_qs, blockQ4K__size.

type blockQ4K struct {
	d, dmin uint16
	scales  [12]byte
	qs      [128]byte
}

type blockQ5K struct {
	d, dmin uint16
	scales  [12]byte
	qh      [32]byte
	qs      [128]byte
}

type blockQ6K struct {
	ql     [128]byte
	qh     [64]byte
	scales [16]int8
	d      uint16
}

type blockQ8K struct {
	d     float32
	qs    [256]int8
	bsums [16]int16
}

type blockQ8_0 struct {
	d  uint16
	qs [32]int8
}

type blockQ4_0 struct {
	d  uint16
	qs [16]byte
}

type blockQ5_0 struct {
	d  uint16
	qh [4]byte
	qs [16]byte
}

// Mirrors maps the quant type name of each mirrored block to a zero value of
// its mirror, for the layout test in package kernels.
var Mirrors = map[string]any{
	"BlockQ4K":  blockQ4K{},
	"BlockQ5K":  blockQ5K{},
	"BlockQ6K":  blockQ6K{},
	"BlockQ8K":  blockQ8K{},
	"BlockQ8_0": blockQ8_0{},
	"BlockQ4_0": blockQ4_0{},
	"BlockQ5_0": blockQ5_0{},
}
