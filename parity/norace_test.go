//go:build !race

package parity

// raceEnabled: see onOneGoroutine.
const raceEnabled = false
