package quant

// Block layouts, byte-identical to ggml's C structs (size_test.go checks
// unsafe.Sizeof and every field offset). All multi-byte fields are
// little-endian; F16 fields are IEEE binary16 bits.

// Super-block and block sizes in values.
const (
	QK_K = 256 // values per K-quant super-block
	QK8  = 32  // values per Q8_0/Q8_1 (and Q4_0, Q4_1, Q5_0, Q5_1) block
	// KScaleSize is the size of the packed 6-bit scales of Q4_K and Q5_K.
	KScaleSize = 12
)

// BlockQ4K is ggml's block_q4_K: 256 values in 8 sub-blocks of 32, 144 bytes.
type BlockQ4K struct {
	D      F16              // super-block scale for the sub-block scales
	DMin   F16              // super-block scale for the sub-block mins
	Scales [KScaleSize]byte // 8 six-bit scales and 8 six-bit mins, packed
	Qs     [QK_K / 2]byte   // 4-bit quants
}

// BlockQ5K is ggml's block_q5_K: 256 values in 8 sub-blocks of 32, 176 bytes.
type BlockQ5K struct {
	D      F16
	DMin   F16
	Scales [KScaleSize]byte
	Qh     [QK_K / 8]byte // fifth bits
	Qs     [QK_K / 2]byte // low 4 bits
}

// BlockQ6K is ggml's block_q6_K: 256 values in 16 sub-blocks of 16, 210
// bytes. Note that D comes last and the struct has 2-byte alignment.
type BlockQ6K struct {
	Ql     [QK_K / 2]byte  // low 4 bits
	Qh     [QK_K / 4]byte  // high 2 bits
	Scales [QK_K / 16]int8 // signed sub-block scales
	D      F16
}

// BlockQ8K is ggml's block_q8_K: 256 int8 quants with a float32 scale and
// the sums of each 16 quants, 292 bytes. Used for activations.
type BlockQ8K struct {
	D     float32
	Qs    [QK_K]int8
	BSums [QK_K / 16]int16
}

// BlockQ8_0 is ggml's block_q8_0: 32 int8 quants with an fp16 scale, 34 bytes.
type BlockQ8_0 struct {
	D  F16
	Qs [QK8]int8
}

// BlockQ8_1 is ggml's block_q8_1: as Q8_0 plus S = fp16(d·Σqs), 36 bytes.
type BlockQ8_1 struct {
	D  F16
	S  F16
	Qs [QK8]int8
}

// BlockQ4_0 is ggml's block_q4_0: 32 4-bit codes with an fp16 scale, 18 bytes.
type BlockQ4_0 struct {
	D  F16
	Qs [QK8 / 2]byte
}

// BlockQ4_1 is ggml's block_q4_1: 32 4-bit codes, fp16 scale and min, 20 bytes.
type BlockQ4_1 struct {
	D  F16
	M  F16
	Qs [QK8 / 2]byte
}

// BlockQ5_0 is ggml's block_q5_0: 32 5-bit codes with an fp16 scale, 22
// bytes. Qh is a little-endian uint32 at an unaligned offset, so it is kept
// as bytes.
type BlockQ5_0 struct {
	D  F16
	Qh [4]byte
	Qs [QK8 / 2]byte
}

// BlockQ5_1 is ggml's block_q5_1: 32 5-bit codes, fp16 scale and min, 24 bytes.
type BlockQ5_1 struct {
	D  F16
	M  F16
	Qh [4]byte
	Qs [QK8 / 2]byte
}

// KScaleMin unpacks the 6-bit scale and min of sub-block j (0..7) from the
// packed 12 bytes of a Q4_K or Q5_K block.
func KScaleMin(s *[KScaleSize]byte, j int) (sc, m uint8) {
	if j < 4 {
		return s[j] & 63, s[j+4] & 63
	}
	return (s[j+4] & 0x0F) | ((s[j-4] >> 6) << 4), (s[j+4] >> 4) | ((s[j] >> 6) << 4)
}
