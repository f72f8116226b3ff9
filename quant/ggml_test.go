package quant

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/corelane/corelane/internal/refdata"
)

// ggmlCase is one entry of ../shared/testdata/ggml/manifest.json.
type ggmlCase struct {
	ID           string `json:"id"`
	Type         string `json:"type"`
	Distribution string `json:"distribution"`
	Seed         uint64 `json:"seed"` // can exceed 2^53
	Rows         int    `json:"rows"`
	Cols         int    `json:"cols"`
	BlockValues  int    `json:"block_values"`
	BlockBytes   int    `json:"block_bytes"`
	Files        map[string]struct {
		Path   string `json:"path"`
		Bytes  int    `json:"bytes"`
		SHA256 string `json:"sha256"`
	} `json:"files"`
	Checks struct {
		RMSE    float64 `json:"rmse"`
		RelRMSE float64 `json:"rel_rmse"`
	} `json:"checks"`
}

func loadManifest(t *testing.T) (dir string, cases []ggmlCase) {
	t.Helper()
	dir = refdata.Dir(t, "ggml")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Cases []ggmlCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Cases) == 0 {
		t.Fatal("manifest lists no cases")
	}
	return dir, m.Cases
}

// readCaseFile reads one file of a case and checks its size and SHA-256.
func readCaseFile(t *testing.T, dir string, c ggmlCase, kind string) []byte {
	t.Helper()
	f, ok := c.Files[kind]
	if !ok {
		t.Fatalf("case has no %q file", kind)
	}
	b, err := os.ReadFile(filepath.Join(dir, f.Path))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if len(b) != f.Bytes || hex.EncodeToString(sum[:]) != f.SHA256 {
		t.Fatalf("%s: %d bytes, sha256 %x; manifest says %d bytes, %s", f.Path, len(b), sum, f.Bytes, f.SHA256)
	}
	return b
}

func float32s(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// rmseStats holds Σ(x̂−x)², Σx² and the count, in float64.
type rmseStats struct{ sqErr, sqX, n float64 }

func (s *rmseStats) add(x, xhat []float32) {
	for i := range x {
		e := float64(xhat[i]) - float64(x[i])
		s.sqErr += e * e
		s.sqX += float64(x[i]) * float64(x[i])
	}
	s.n += float64(len(x))
}

func (s rmseStats) rmse() float64    { return math.Sqrt(s.sqErr / s.n) }
func (s rmseStats) relRMSE() float64 { return s.rmse() / math.Sqrt(s.sqX/s.n) }

// ggmlAnchors is README §8 and §10.5: RMSE and RMSE/RMS(x) of dequant.f32
// against input.f32 on the gaussian cases, as printed there ("pooled" is
// all gaussian cases of the type together).
var ggmlAnchors = map[string][2]string{
	"q4_K/gaussian-4x256": {"0.0655846", "0.06996"}, "q4_K/gaussian-2x512": {"0.0727428", "0.06975"},
	"q4_K/gaussian-1x4096": {"0.0722549", "0.07177"}, "q4_K/pooled": {"0.0712694", "0.07115"},
	"q5_K/gaussian-4x256": {"0.0326998", "0.03488"}, "q5_K/gaussian-2x512": {"0.0371382", "0.03561"},
	"q5_K/gaussian-1x4096": {"0.0364967", "0.03625"}, "q5_K/pooled": {"0.0360013", "0.03594"},
	"q6_K/gaussian-4x256": {"0.0157647", "0.01682"}, "q6_K/gaussian-2x512": {"0.0186091", "0.01784"},
	"q6_K/gaussian-1x4096": {"0.0181153", "0.01799"}, "q6_K/pooled": {"0.0178301", "0.01780"},
	"q8_K/gaussian-4x256": {"0.00587424", "0.00627"}, "q8_K/gaussian-2x512": {"0.00754007", "0.00723"},
	"q8_K/gaussian-1x4096": {"0.00689621", "0.00685"}, "q8_K/pooled": {"0.00685067", "0.00684"},
	"q8_0/gaussian-4x256": {"0.00480572", "0.00513"}, "q8_0/gaussian-2x512": {"0.00547465", "0.00525"},
	"q8_0/gaussian-1x4096": {"0.00547282", "0.00544"}, "q8_0/pooled": {"0.00536771", "0.00536"},
	"q4_0/gaussian-4x256": {"0.0749609", "0.07997"}, "q4_0/gaussian-2x512": {"0.0866288", "0.08307"},
	"q4_0/gaussian-1x4096": {"0.0868998", "0.08632"}, "q4_0/pooled": {"0.0849803", "0.08484"},
	"q4_1/gaussian-4x256": {"0.0713628", "0.07613"}, "q4_1/gaussian-2x512": {"0.0808482", "0.07753"},
	"q4_1/gaussian-1x4096": {"0.0788522", "0.07832"}, "q4_1/pooled": {"0.0779955", "0.07786"},
	"q5_0/gaussian-4x256": {"0.037817", "0.04034"}, "q5_0/gaussian-2x512": {"0.0420106", "0.04028"},
	"q5_0/gaussian-1x4096": {"0.0427782", "0.04249"}, "q5_0/pooled": {"0.0418627", "0.04179"},
	"q5_1/gaussian-4x256": {"0.0344301", "0.03673"}, "q5_1/gaussian-2x512": {"0.0383957", "0.03682"},
	"q5_1/gaussian-1x4096": {"0.0384576", "0.03820"}, "q5_1/pooled": {"0.0378057", "0.03774"},
	"q8_1/gaussian-4x256": {"0.00480572", "0.00513"}, "q8_1/gaussian-2x512": {"0.00547465", "0.00525"},
	"q8_1/gaussian-1x4096": {"0.00547282", "0.00544"}, "q8_1/pooled": {"0.00536771", "0.00536"},
}

// checkAnchor compares s with the README's figures, formatted as printed
// there: RMSE to 6 significant digits, the ratio to 5 decimals.
func checkAnchor(t *testing.T, key string, s rmseStats) {
	t.Helper()
	rmse, rel := strconv.FormatFloat(s.rmse(), 'g', 6, 64), fmt.Sprintf("%.5f", s.relRMSE())
	t.Logf("%-22s RMSE %s  RMSE/RMS(x) %s  (%.9g)", key, rmse, rel, s.rmse())
	want, ok := ggmlAnchors[key]
	if !ok {
		t.Errorf("%s: no README anchor", key)
		return
	}
	if rmse != want[0] || rel != want[1] {
		t.Errorf("%s: RMSE %s, RMSE/RMS(x) %s; README says %s, %s", key, rmse, rel, want[0], want[1])
	}
}

// TestGGMLReference runs every manifest case: Quantize(input.f32) must equal
// quant.bin byte for byte and Dequantize(quant.bin) must equal dequant.f32
// bit for bit. It also checks the RMSE figures of the manifest and README.
func TestGGMLReference(t *testing.T) {
	dir, cases := loadManifest(t)
	pooled := map[string]*rmseStats{}
	seen := map[Type]bool{}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			typ, err := ParseType(c.Type)
			if err != nil {
				t.Fatal(err)
			}
			seen[typ] = true
			if typ.BlockSize() != c.BlockValues || typ.BlockBytes() != c.BlockBytes {
				t.Fatalf("block %d values / %d bytes, manifest says %d / %d", typ.BlockSize(), typ.BlockBytes(), c.BlockValues, c.BlockBytes)
			}
			x := float32s(readCaseFile(t, dir, c, "input"))
			wantQ := readCaseFile(t, dir, c, "quant")
			wantY := float32s(readCaseFile(t, dir, c, "dequant"))
			if len(x) != c.Rows*c.Cols {
				t.Fatalf("input has %d values, want %d×%d", len(x), c.Rows, c.Cols)
			}

			q := make([]byte, len(wantQ))
			if err := QuantizeRows(typ, q, x, c.Cols); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(q, wantQ) {
				i := 0
				for q[i] == wantQ[i] {
					i++
				}
				n := 0
				for j := range q {
					if q[j] != wantQ[j] {
						n++
					}
				}
				t.Errorf("quant.bin: %d of %d bytes differ, first at byte %d (block %d, offset %d): got %#02x, want %#02x",
					n, len(q), i, i/c.BlockBytes, i%c.BlockBytes, q[i], wantQ[i])
			}
			// One call over all rows gives the same bytes.
			q1 := make([]byte, len(wantQ))
			if err := Quantize(typ, q1, x); err != nil || !bytes.Equal(q1, q) {
				t.Errorf("Quantize over all rows differs from QuantizeRows (err %v)", err)
			}

			y := make([]float32, len(wantY))
			if err := Dequantize(typ, y, wantQ); err != nil {
				t.Fatal(err)
			}
			bad := 0
			for i := range y {
				if math.Float32bits(y[i]) != math.Float32bits(wantY[i]) {
					if bad == 0 {
						t.Errorf("dequant.f32[%d]: got %g (%#08x), want %g (%#08x)", i, y[i], math.Float32bits(y[i]), wantY[i], math.Float32bits(wantY[i]))
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("dequant.f32: %d of %d values differ", bad, len(y))
			}

			var s rmseStats
			s.add(x, wantY)
			if got := s.rmse(); math.Abs(got-c.Checks.RMSE) > 1e-8*math.Max(c.Checks.RMSE, 1e-30) {
				t.Errorf("RMSE %.9g, manifest says %.9g", got, c.Checks.RMSE)
			}
			if c.Distribution == "gaussian" {
				checkAnchor(t, c.ID, s)
				p := pooled[c.Type]
				if p == nil {
					p = new(rmseStats)
					pooled[c.Type] = p
				}
				p.add(x, wantY)
			}
		})
	}
	for _, typ := range Types() {
		if typ != F32 && typ != FP16 && !seen[typ] {
			t.Errorf("manifest has no %s case", typ)
		}
	}
	for _, typ := range Types() {
		if p := pooled[typ.String()]; p != nil {
			checkAnchor(t, typ.String()+"/pooled", *p)
		}
	}
}
