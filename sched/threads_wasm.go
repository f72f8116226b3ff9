//go:build wasm

package sched

// haveThreads is false on wasm: there is one thread and no asynchronous
// preemption, so a spinning worker would stop the program.
const haveThreads = false

const noThreadsReason = "wasm has one thread"
