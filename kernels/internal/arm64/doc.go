// Package arm64 holds corelane's hand-written arm64 assembly kernels
// (NEON and the dot-product extension) and their Go stubs.
//
// It is a leaf package: it imports nothing of corelane, checks no CPU
// features and no bounds. The kernels package registers these functions as
// variants, checks every length in Go before calling them, and tests each
// one against its pure-Go twin (the generic kernels). This file has no build
// tags so that the package builds on every GOARCH and with -tags purego,
// where it is empty.
package arm64
