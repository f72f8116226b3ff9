package sched

// SetRangeSeats sets how Pool ForRange regions split their range (see
// rangeSeats) and returns a function that restores the previous setting:
// for the benchmarks in package sched_test.
func SetRangeSeats(on bool) (restore func()) {
	old := rangeSeats
	rangeSeats = on
	return func() { rangeSeats = old }
}
