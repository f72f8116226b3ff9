//go:build !wasm

package sched

// haveThreads says whether goroutines can run in parallel on this target.
const haveThreads = true

const noThreadsReason = ""
