package kernels

import (
	"reflect"
	"testing"
)

// skipSweepInShort skips an exhaustive single-goroutine sweep in -short
// mode. `make test` runs every package twice: with -race -short (where the
// race detector would slow these sweeps tenfold and could find nothing in
// them: they run one goroutine) and without -race in full, so each sweep
// still runs on every CI run.
func skipSweepInShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: exhaustive sweep; it runs in the full (non-race) pass of make test")
	}
}

// unregister removes a variant that a test registered, so that later tests
// (which loop over Variants()) see only the real variants again.
func unregister(t *testing.T, name string) {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	s := load()
	var vs []*Variant
	for _, v := range s.variants {
		if v.Name != name {
			vs = append(vs, v)
		}
	}
	forced := s.forced
	if forced == name {
		forced = ""
	}
	current.Store(resolve(vs, forced))
}

// opField returns op i of o as a reflect.Value (tests only: the registry
// itself goes through opList).
func opField(o *Ops, i int) reflect.Value { return reflect.ValueOf(o).Elem().Field(i) }

// TestOpList: opList names every field of Ops in order, and its has and
// copy read and write that field and no other.
func TestOpList(t *testing.T) {
	typ := reflect.TypeOf(Ops{})
	if len(opList) != typ.NumField() {
		t.Fatalf("opList has %d ops, Ops %d fields", len(opList), typ.NumField())
	}
	full := genericVariant().Ops
	for i, op := range opList {
		if f := typ.Field(i); f.Name != op.name {
			t.Fatalf("opList[%d] is %s, field %d of Ops is %s", i, op.name, i, f.Name)
		}
		var one Ops
		op.copy(&one, &full)
		for j := range opList {
			if got := opList[j].has(&one); got != (j == i) || opField(&one, j).IsNil() == got {
				t.Fatalf("copying %s: %s has = %v", op.name, opList[j].name, got)
			}
		}
		if opField(&one, i).Pointer() != opField(&full, i).Pointer() {
			t.Fatalf("copying %s copied another function", op.name)
		}
	}
}
