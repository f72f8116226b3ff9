//go:build race

package kernels

// raceEnabled: the race detector slows scalar loops ~10x; the heaviest
// sweeps use fewer points under it.
const raceEnabled = true
