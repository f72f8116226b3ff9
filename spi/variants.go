package spi

import "github.com/corelane/corelane/kernels"

// Variants names the kernel variants this CPU can run, best first: the
// names WithKernels accepts. An engine's tests run every one of them (the
// quantized products, WithExactFloat's float products and Exact attention
// give the same bits under each).
func Variants() []string { return kernels.Variants() }
