// Package amd64 holds corelane's hand-written amd64 assembly kernels
// (AVX2+FMA+F16C, AVX-512 F/BW/VL, AVX-512 VNNI, AVX-VNNI) and their Go stubs.
//
// It is a leaf package: it imports nothing of corelane, checks no CPU
// features and no bounds. The kernels package registers these functions as
// variants, checks every length in Go before calling them, and tests each
// one against its pure-Go twin (the generic kernels). This file has no build
// tags so that the package builds on every GOARCH and with -tags purego,
// where it is empty.
package amd64

// q4k_amd64.s and q5k_amd64.s are written by kqgen (see kqgen/main.go for
// why a generator), q8_0_amd64.s and q6k_amd64.s by simdgen; `make
// gencheck` (and simdgen's test) check that they are up to date.
//
//go:generate go run ./kqgen
//go:generate go run ./simdgen
