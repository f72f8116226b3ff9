// Package parity holds only tests: they prove corelane's determinism
// promise. For every op of package spi, under every schedule (Sequential,
// Hardware(), pools of 1–4 workers, every loop scheduler, a reverse-order
// schedule, a region entered from inside a pool worker) and every kernel
// variant this CPU runs, the result is bit-identical to Sequential with the
// same variant; quantized MatVec/MatMul are also bit-identical across
// variants; Fast attention is bit-identical across schedules.
//
// Run it with `go test ./parity` (CI also runs it with -race, with
// -tags purego, and under qemu for arm64). It prints the size of the matrix
// it proved.
package parity
