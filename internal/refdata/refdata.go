// Package refdata locates the read-only reference data that lives beside
// the repository in ../shared/testdata (it is never copied into the repo).
//
// Tests call refdata.Dir(t, "ggml"). Where the data is missing the test is skipped
// with a message, except under CI=true, where missing data is a failure.
package refdata

import (
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot returns the folder holding go.mod, searching upward from the
// working directory, or "" if there is none.
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Path returns ../shared/testdata/<sub> relative to the module root, and
// whether it exists.
func Path(sub string) (string, bool) {
	root := ModuleRoot()
	if root == "" {
		return "", false
	}
	p := filepath.Join(root, "..", "shared", "testdata", sub)
	st, err := os.Stat(p)
	return p, err == nil && st.IsDir()
}

// Dir returns the reference data folder ../shared/testdata/<sub>. If it is
// missing, the test is skipped, or fails when the environment says CI=true.
func Dir(t testing.TB, sub string) string {
	t.Helper()
	p, ok := Path(sub)
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatalf("reference data %s is missing (CI=true: missing data is a failure)", p)
		}
		t.Skipf("reference data %s is missing; skipping (it lives in ../shared beside the module root)", p)
	}
	return p
}
