//go:build !linux

package kernels

import "testing"

// Without mmap the guarded copies are plain copies; the guard-page tests run
// on Linux (where CI runs).
func guarded[T any](t testing.TB, src []T) []T { return append([]T(nil), src...) }

func guardedTemp[T any](t testing.TB, src []T) ([]T, func()) {
	return append([]T(nil), src...), func() {}
}

const haveGuardPages = false
