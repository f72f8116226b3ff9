//go:build race

package llama

// raceEnabled: the race detector makes sync.Pool drop values on purpose,
// so allocation counts mean nothing under it.
const raceEnabled = true
