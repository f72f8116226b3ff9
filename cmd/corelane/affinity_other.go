//go:build !linux

package main

import "errors"

// affinity is only implemented on Linux.
func affinity() ([]int, error) {
	return nil, errors.New("process affinity is not available on this OS")
}
