package kernels

import "testing"

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
