//go:build !race

package sdpa

const raceEnabled = false
