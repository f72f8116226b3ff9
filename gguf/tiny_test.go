package gguf_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/corelane/corelane/gguf"
	"github.com/corelane/corelane/internal/refdata"
)

// manifest is the part of ../shared/testdata/gguf/manifest.json the reader
// is checked against.
type manifest struct {
	GGUF struct {
		Path       string `json:"path"`
		Bytes      int64  `json:"bytes"`
		Version    uint32 `json:"version"`
		Alignment  int64  `json:"alignment"`
		NKV        int    `json:"n_kv"`
		NTensors   int    `json:"n_tensors"`
		DataOffset int64  `json:"data_offset"`
	} `json:"gguf"`
	KV []struct {
		Key     string `json:"key"`
		Type    string `json:"type"`
		Value   any    `json:"value"`
		ArrType string `json:"arr_type"`
		N       int    `json:"n"`
		First   []any  `json:"first"`
		Last    any    `json:"last"`
		Values  []any  `json:"values"`
	} `json:"kv"`
	Tensors []struct {
		Index     int     `json:"index"`
		Name      string  `json:"name"`
		Type      string  `json:"type"`
		ID        uint32  `json:"ggml_type_id"`
		NDims     int     `json:"n_dims"`
		Ne        []int64 `json:"ne"`
		Offset    int64   `json:"offset"`
		AbsOffset int64   `json:"abs_offset"`
		NBytes    int64   `json:"nbytes"`
		SHA256    string  `json:"sha256"`
	} `json:"tensors"`
	Matmuls []struct {
		Tensor     string `json:"tensor"`
		Type       string `json:"type"`
		K, M, N    int
		VecDotType string `json:"vec_dot_type"`
		Activation string `json:"activation"`
		ActQuant   string `json:"activation_quantized"`
		Out        struct {
			Path string `json:"path"`
		} `json:"out"`
	} `json:"matmuls"`
}

func loadManifest(t *testing.T) (string, *manifest) {
	t.Helper()
	dir := refdata.Dir(t, "gguf")
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // u64 values exceed float64's integers
	var m manifest
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return dir, &m
}

// TestTiny: tiny.gguf (written by ggml's own gguf API) parses to exactly
// what its manifest records, mapped, read, and parsed from bytes alike.
func TestTiny(t *testing.T) {
	dir, m := loadManifest(t)
	path := filepath.Join(dir, m.GGUF.Path)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := gguf.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	mapped, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer mapped.Close()
	read, err := gguf.OpenWith(path, gguf.Options{NoMmap: true})
	if err != nil {
		t.Fatal(err)
	}
	huge, err := gguf.OpenWith(path, gguf.Options{HugePages: true})
	if err != nil {
		t.Fatal(err)
	}
	defer huge.Close()
	for name, f := range map[string]*gguf.File{"Parse": parsed, "Open": mapped, "Open NoMmap": read, "Open HugePages": huge} {
		t.Run(name, func(t *testing.T) { checkTiny(t, f, m, int64(len(raw))) })
	}
}

func checkTiny(t *testing.T, f *gguf.File, m *manifest, size int64) {
	if size != m.GGUF.Bytes || f.Version != m.GGUF.Version || f.Alignment != m.GGUF.Alignment || f.DataOffset != m.GGUF.DataOffset {
		t.Errorf("file %d bytes v%d alignment %d data at %d; manifest %d bytes v%d alignment %d data at %d",
			size, f.Version, f.Alignment, f.DataOffset, m.GGUF.Bytes, m.GGUF.Version, m.GGUF.Alignment, m.GGUF.DataOffset)
	}
	if len(f.KV) != m.GGUF.NKV || len(m.KV) != m.GGUF.NKV {
		t.Fatalf("%d kvs, manifest %d (%d listed)", len(f.KV), m.GGUF.NKV, len(m.KV))
	}
	for i, want := range m.KV {
		kv := f.KV[i]
		if kv.Key != want.Key || kv.Value.Type().String() != want.Type {
			t.Errorf("kv %d: %s %s, manifest %s %s", i, kv.Key, kv.Value.Type(), want.Key, want.Type)
			continue
		}
		if want.Type == "array" {
			checkArray(t, kv, want.ArrType, want.N, want.First, want.Last, want.Values)
			continue
		}
		got := fmt.Sprint(kv.Value.Any())
		if x, ok := kv.Value.Any().(float32); ok {
			got = fmt.Sprint(float64(x)) // the manifest prints the exact double
		}
		if exp := jsonScalar(want.Value); got != exp {
			t.Errorf("kv %s = %s, manifest %s", kv.Key, got, exp)
		}
	}
	if len(f.Tensors) != m.GGUF.NTensors || len(m.Tensors) != m.GGUF.NTensors {
		t.Fatalf("%d tensors, manifest %d", len(f.Tensors), m.GGUF.NTensors)
	}
	for i, want := range m.Tensors {
		tn := f.Tensors[want.Index]
		sum := sha256.Sum256(tn.Data)
		got := fmt.Sprintf("%s %s(%d) %v off %d abs %d %d bytes sha %s", tn.Name, gguf.TypeName(tn.Type), tn.Type, tn.Dims,
			tn.Offset-f.DataOffset, tn.Offset, len(tn.Data), hex.EncodeToString(sum[:]))
		exp := fmt.Sprintf("%s %s(%d) %v off %d abs %d %d bytes sha %s", want.Name, want.Type, want.ID, want.Ne,
			want.Offset, want.AbsOffset, want.NBytes, want.SHA256)
		if got != exp || len(tn.Dims) != want.NDims || tn.Bytes() != want.NBytes || i != want.Index {
			t.Errorf("tensor %d:\n got %s\nwant %s", i, got, exp)
		}
		if lt, ok := f.Tensor(want.Name); !ok || lt != &f.Tensors[want.Index] {
			t.Errorf("Tensor(%q) = %v, %v", want.Name, lt, ok)
		}
	}
}

// jsonScalar formats a manifest scalar as fmt formats the Go value.
func jsonScalar(v any) string {
	if n, ok := v.(json.Number); ok {
		if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		if u, err := strconv.ParseUint(string(n), 10, 64); err == nil {
			return strconv.FormatUint(u, 10)
		}
		f, _ := n.Float64()
		return fmt.Sprint(f)
	}
	return fmt.Sprint(v)
}

func checkArray(t *testing.T, kv gguf.KV, elem string, n int, first []any, last any, values []any) {
	t.Helper()
	v := kv.Value
	if v.ElemType().String() != elem || v.Len() != n {
		t.Errorf("kv %s: array[%s] of %d, manifest array[%s] of %d", kv.Key, v.ElemType(), v.Len(), elem, n)
		return
	}
	var items []string
	switch a := v.Any().(type) {
	case []string:
		items = a
	case []float32:
		for _, x := range a {
			if x == 0 && math.Signbit(float64(x)) {
				items = append(items, "-0")
			} else {
				items = append(items, fmt.Sprint(float64(x)))
			}
		}
	default:
		for i := 0; i < n; i++ {
			items = append(items, fmt.Sprint(indexAny(a, i)))
		}
	}
	expect := func(i int, want any) {
		w := jsonScalar(want)
		if w == "0" && fmt.Sprint(want) == "-0.0" {
			w = "-0"
		}
		if items[i] != w {
			t.Errorf("kv %s[%d] = %s, manifest %s", kv.Key, i, items[i], w)
		}
	}
	for i, w := range first {
		expect(i, w)
	}
	if last != nil {
		expect(n-1, last)
	}
	for i, w := range values {
		expect(i, w)
	}
}

func indexAny(a any, i int) any {
	switch a := a.(type) {
	case []int32:
		return a[i]
	case []uint16:
		return a[i]
	case []uint32:
		return a[i]
	case []bool:
		return a[i]
	case []float64:
		return a[i]
	}
	return nil
}
