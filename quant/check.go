package quant

import (
	"encoding/binary"
	"fmt"
	"math"
)

// scaleFields lists, per type, the byte offsets and names of the scale
// fields inside one block (binary16 unless the name says float32).
var scaleFields = map[Type][]struct {
	off  int
	name string
}{
	Q4_0: {{0, "d"}},
	Q4_1: {{0, "d"}, {2, "m"}},
	Q5_0: {{0, "d"}},
	Q5_1: {{0, "d"}, {2, "m"}},
	Q8_0: {{0, "d"}},
	Q8_1: {{0, "d"}, {2, "s"}},
	Q4K:  {{0, "d"}, {2, "dmin"}},
	Q5K:  {{0, "d"}, {2, "dmin"}},
	Q6K:  {{208, "d"}},
	Q8K:  {{0, "d (float32)"}},
	FP16: {{0, "value"}},
	F32:  {{0, "value (float32)"}},
}

// CheckScales reports the first non-finite scale (or value, for F32 and
// F16) in data, whole blocks of type t: an error wrapping ErrNotFinite that
// names the block and the field. Kernels accept any scale bits (Inf and NaN
// propagate as their formulas say); a loader that wants to refuse a tensor
// with such scales calls this once when it maps the file. It reads only
// the scale fields, so it costs a small fraction of one pass over the data.
func CheckScales(t Type, data []byte) error {
	ti, ok := types[t]
	if !ok {
		return fmt.Errorf("quant: CheckScales: %w %v", ErrUnknownType, t)
	}
	if len(data)%ti.blockBytes != 0 {
		return fmt.Errorf("quant: CheckScales %s: %w: %d bytes is not a whole number of %d-byte blocks", t, ErrLength, len(data), ti.blockBytes)
	}
	fields := scaleFields[t]
	for b, off := 0, 0; off < len(data); b, off = b+1, off+ti.blockBytes {
		for _, f := range fields {
			p := data[off+f.off:]
			var v float32
			var bits uint32
			if t == Q8K || t == F32 {
				bits = binary.LittleEndian.Uint32(p)
				v = math.Float32frombits(bits)
			} else {
				bits = uint32(binary.LittleEndian.Uint16(p))
				if bits&0x7c00 != 0x7c00 { // finite binary16
					continue
				}
				v = F16(bits).Float32()
			}
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("quant: CheckScales %s: %w: block %d (byte %d): %s is %v (%#x)", t, ErrNotFinite, b, off+f.off, f.name, v, bits)
			}
		}
	}
	return nil
}
