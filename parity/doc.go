// Package parity holds only tests: they prove corelane's determinism
// promise. For every op of package spi, every kernel variant this CPU runs
// (each through its own spi.New(spi.WithKernels(v)) backend) and every
// schedule column, the result is bit-identical to sched.Sequential with the
// same variant; quantized MatVec/MatMul are also bit-identical to the
// generic variant; Fast attention is bit-identical across schedules.
//
// A cell (variant, op, schedule) counts only if it can fail. On a pool
// column a helper must really have executed a chunk in that cell: the cell
// is re-run (every run compared) until the pool's trace shows one, and a
// cell where none ever did is a failure, not a pass. The other columns are
// deterministic permutations of the chunk order (reverse, sched.Shuffle with
// several seeds), where a result that depends on the order in which chunks
// run or finish changes on every run. Schedules that run inline by
// construction (Sequential itself, which is the reference; a one-worker
// pool; an op nested in another region) are not cells, and neither are
// generic-against-generic comparisons. The test raises GOMAXPROCS to at
// least 4 and its pools have 2 to 4 workers whatever the machine
// (sched.WithOversubscribe), so even a one-core machine runs chunks on
// helpers concurrently.
//
// Every op's shape splits into at least 3 chunks on the pools (checked per
// cell): with 2, a completion-order combine of two partial sums would still
// be exact, since a+b == b+a. The matmuls run 13 tokens (an 8-column tile, a
// 4-column tile and a tail column of the kernels), decode attention has 3
// key chunks, and Q4_K/Q5_K/Q6_K matrices of 1536×1024 are larger than the
// kernels' weight panel and chunk (kqPanelBytes, q6kChunkBytes), so
// Sequential crosses a panel boundary that the split rows do not.
//
// TestParityBites proves the suite can fail: run through the same cells, a
// copy of Fast decode's chunked softmax whose partial states are combined in
// completion order fails, the same way on every run, while the chunk-order
// copy passes.
//
// Every cell is a subtest, TestParity/variant=V/op=O/sched=S, so a failure
// re-runs alone with -run. Run it with `go test ./parity` (CI also runs it
// with -race, with -tags purego, and under qemu for arm64); -v prints the
// count of cells proven. Under -race only the cells that run on several
// goroutines (the pool columns) run: the others have nothing for the race
// detector to check, and the run without -race proves them.
package parity
