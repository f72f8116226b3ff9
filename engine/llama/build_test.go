package llama

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/quant"
)

// A test model: a Config, a type per tensor and random weights, written
// with gguf.Encode and parsed back, as a file would be.

type buildOpts struct {
	c         Config
	typeOf    func(name string) quant.Type // nil: F32
	ropeFreqs bool                         // add rope_freqs.weight
	seed      uint64
	// edit may change the metadata and tensors before they are written.
	edit func(kv *[]gguf.KV, ts *[]gguf.Tensor)
}

// build returns the encoded file.
func build(t testing.TB, o buildOpts) []byte {
	t.Helper()
	kv, ts := Schema(o.c)
	r := rand.New(rand.NewPCG(o.seed, o.seed+1))
	if o.ropeFreqs {
		ts = append(ts, gguf.Tensor{Name: "rope_freqs.weight", Type: quant.F32, Dims: []int64{int64(o.c.RoPEDims / 2)}})
	}
	for i := range ts {
		tn := &ts[i]
		if o.typeOf != nil && len(tn.Dims) == 2 {
			tn.Type = o.typeOf(tn.Name)
		}
		vals := make([]float32, tn.NumValues())
		for j := range vals {
			switch {
			case strings.HasSuffix(tn.Name, "norm.weight"):
				vals[j] = 1 + 0.2*float32(r.NormFloat64())
			case tn.Name == "rope_freqs.weight":
				vals[j] = 1 + float32(j)
			case tn.Name == "token_embd.weight":
				vals[j] = float32(0.3 * r.NormFloat64())
			default:
				vals[j] = float32(r.NormFloat64() / math.Sqrt(float64(tn.Dims[0])))
			}
		}
		rb, err := quant.RowSize(tn.Type, int(tn.Dims[0]))
		if err != nil {
			t.Fatalf("%s: %v", tn.Name, err)
		}
		tn.Data = make([]byte, int(tn.Rows())*rb)
		if err := quant.QuantizeRows(tn.Type, tn.Data, vals, int(tn.Dims[0])); err != nil {
			t.Fatalf("%s: %v", tn.Name, err)
		}
	}
	if o.edit != nil {
		o.edit(&kv, &ts)
	}
	var buf bytes.Buffer
	if err := gguf.Encode(&buf, &gguf.File{KV: kv, Tensors: ts}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func buildModel(t testing.TB, o buildOpts) *Model {
	t.Helper()
	f, err := gguf.Parse(build(t, o))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// refModel is a float64 Llama forward pass written from the model's
// definition, independently of the package's code: weights dequantized
// from the file, every sum in float64.
type refModel struct {
	c      Config
	w      map[string][]float64
	freqs  []float64
	kc, vc [][][]float64 // per layer, [pos][kvd]
}

func newRef(t testing.TB, f *gguf.File, c Config) *refModel {
	t.Helper()
	r := &refModel{c: c, w: map[string][]float64{}, kc: make([][][]float64, c.Layers), vc: make([][][]float64, c.Layers)}
	for _, tn := range f.Tensors {
		v := make([]float32, tn.NumValues())
		if err := quant.Dequantize(tn.Type, v, tn.Data); err != nil {
			t.Fatal(err)
		}
		d := make([]float64, len(v))
		for i, x := range v {
			d[i] = float64(x)
		}
		r.w[tn.Name] = d
	}
	r.freqs = r.w["rope_freqs.weight"]
	if _, ok := r.w["output.weight"]; !ok {
		r.w["output.weight"] = r.w["token_embd.weight"]
	}
	return r
}

func (r *refModel) matvec(name string, x []float64, rows int) []float64 {
	w, cols := r.w[name], len(x)
	y := make([]float64, rows)
	for i := range y {
		for k := 0; k < cols; k++ {
			y[i] += w[i*cols+k] * x[k]
		}
	}
	return y
}

func (r *refModel) norm(x []float64, name string) []float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	s := 1 / math.Sqrt(ss/float64(len(x))+float64(r.c.NormEps))
	w := r.w[name]
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * s * w[i]
	}
	return y
}

func (r *refModel) rope(x []float64, heads, pos int) {
	c := r.c
	for h := 0; h < heads; h++ {
		v := x[h*c.HeadDim : (h+1)*c.HeadDim]
		for i := 0; i < c.RoPEDims/2; i++ {
			theta := float64(pos) * float64(c.RoPEScale) * math.Pow(float64(c.RoPEBase), -2*float64(i)/float64(c.RoPEDims))
			if r.freqs != nil {
				theta /= r.freqs[i]
			}
			a, b := v[2*i], v[2*i+1]
			v[2*i], v[2*i+1] = a*math.Cos(theta)-b*math.Sin(theta), a*math.Sin(theta)+b*math.Cos(theta)
		}
	}
}

// step feeds one token at the next position and returns its logits.
func (r *refModel) step(tok int) []float64 {
	c := r.c
	pos := len(r.kc[0])
	hd, qd, kvd := c.HeadDim, c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	x := append([]float64(nil), r.w["token_embd.weight"][tok*c.Dim:(tok+1)*c.Dim]...)
	for l := 0; l < c.Layers; l++ {
		p := "blk." + strconv.Itoa(l) + "."
		h := r.norm(x, p+"attn_norm.weight")
		q, k, v := r.matvec(p+"attn_q.weight", h, qd), r.matvec(p+"attn_k.weight", h, kvd), r.matvec(p+"attn_v.weight", h, kvd)
		r.rope(q, c.Heads, pos)
		r.rope(k, c.KVHeads, pos)
		r.kc[l], r.vc[l] = append(r.kc[l], k), append(r.vc[l], v)
		att := make([]float64, qd)
		for head := 0; head < c.Heads; head++ {
			g := head / (c.Heads / c.KVHeads)
			qh := q[head*hd : (head+1)*hd]
			scores := make([]float64, pos+1)
			m := math.Inf(-1)
			for j := range scores {
				for d := 0; d < hd; d++ {
					scores[j] += qh[d] * r.kc[l][j][g*hd+d]
				}
				scores[j] /= math.Sqrt(float64(hd))
				m = math.Max(m, scores[j])
			}
			var sum float64
			for j := range scores {
				scores[j] = math.Exp(scores[j] - m)
				sum += scores[j]
			}
			for j := range scores {
				for d := 0; d < hd; d++ {
					att[head*hd+d] += scores[j] / sum * r.vc[l][j][g*hd+d]
				}
			}
		}
		o := r.matvec(p+"attn_output.weight", att, c.Dim)
		for i := range x {
			x[i] += o[i]
		}
		h = r.norm(x, p+"ffn_norm.weight")
		gate, up := r.matvec(p+"ffn_gate.weight", h, c.FFN), r.matvec(p+"ffn_up.weight", h, c.FFN)
		for i := range gate {
			gate[i] = gate[i] / (1 + math.Exp(-gate[i])) * up[i]
		}
		d := r.matvec(p+"ffn_down.weight", gate, c.Dim)
		for i := range x {
			x[i] += d[i]
		}
	}
	return r.matvec("output.weight", r.norm(x, "output_norm.weight"), c.Vocab)
}
