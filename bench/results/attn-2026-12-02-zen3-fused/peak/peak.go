// Package peak measures the throughput of independent float32 ymm streams
// on one core: VMULPS+VADDPS pairs (MulAdd), VFMADD231PS (FMA) and the
// weighted-sum shape (Bcast: a memory broadcast, two products and sums).
// Run: go test -bench . -count 5
package peak

func mulAdd(n int)
func fma(n int)
func bcastMulAdd(n int, p *float32)
