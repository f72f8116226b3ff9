package sched

import (
	"errors"
	"math"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

// runThreads drives ls as threads goroutines would, and returns the pieces
// each thread got.
func runThreads(ls LoopScheduler, start, end, threads, chunk int) [][][2]int {
	ls.LoopInit(start, end, threads, chunk)
	got := make([][][2]int, threads)
	var wg sync.WaitGroup
	for t := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				s, e := ls.LoopNext(t)
				if s >= e {
					return
				}
				got[t] = append(got[t], [2]int{s, e})
			}
		}()
	}
	wg.Wait()
	return got
}

func flatten(per [][][2]int) [][2]int {
	var all [][2]int
	for _, p := range per {
		all = append(all, p...)
	}
	return all
}

// TestLoopSchedulersCover: for random shapes, thread counts and chunks,
// including bounds at the int limits, every scheduler hands out every index
// exactly once in non-empty pieces.
func TestLoopSchedulersCover(t *testing.T) {
	rng := newRand(t)
	for trial := range 400 {
		n := rng.IntN(3000)
		if trial%8 == 0 {
			n = rng.IntN(3)
		}
		start := rng.IntN(2000) - 1000
		switch trial % 5 {
		case 1:
			start = math.MaxInt - n
		case 2:
			start = math.MinInt
		}
		threads := 1 + rng.IntN(9)
		chunk := 1 + rng.IntN(50)
		for name, mk := range schedulers() {
			per := runThreads(mk(), start, start+n, threads, chunk)
			checkCover(t, name, start, start+n, flatten(per))
			for _, ps := range per {
				for _, p := range ps {
					size := p[1] - p[0]
					switch name {
					case "static", "dynamic", "workstealing":
						if size > chunk || size < chunk && p[1] != start+n {
							t.Fatalf("%s: piece %v of chunk %d", name, p, chunk)
						}
					case "guided":
						if size < chunk && p[1] != start+n {
							t.Fatalf("guided: piece %v below chunk %d", p, chunk)
						}
					}
				}
			}
		}
	}
}

// TestLoopSchedulersHuge cuts [MinInt, MaxInt) — 2^64-1 indices — into big
// pieces and checks they tile it: no overflow in any counter or offset.
func TestLoopSchedulersHuge(t *testing.T) {
	for name, mk := range schedulers() {
		for _, threads := range []int{1, 2, 3, 7} {
			per := runThreads(mk(), math.MinInt, math.MaxInt, threads, math.MaxInt>>5+1) // 64 pieces of 2^58 (2^26 on 32-bit ints)
			checkCover(t, name, math.MinInt, math.MaxInt, flatten(per))
		}
	}
	// Work stealing with 2^63 pieces per thread widens its pieces instead of
	// overflowing the packed counters. Thread 0's own block starts at MinInt;
	// once it is out of its own, it steals from the back, ending at MaxInt.
	ws := WorkStealing().(*workStealing)
	ws.LoopInit(math.MinInt, math.MaxInt, 2, 1)
	for i := range ws.seats {
		if c := ws.seats[i].count; c >= maxSeatPieces {
			t.Fatalf("seat owns %d pieces", c)
		}
	}
	s0, e0 := ws.LoopNext(0)
	s1, e1 := ws.LoopNext(1)
	if s0 != math.MinInt || e0 <= s0 || s1 <= e0 || e1 <= s1 {
		t.Fatalf("first pieces [%d,%d) [%d,%d)", s0, e0, s1, e1)
	}
	ws.seats[0].ownDone = true
	if s, e := ws.LoopNext(0); e != math.MaxInt || s >= e || e-s > e0-s0 {
		t.Fatalf("stolen piece [%d,%d)", s, e)
	}
}

// TestStaticAssignment: piece k goes to thread k mod T, whatever the timing.
func TestStaticAssignment(t *testing.T) {
	per := runThreads(Static(), 0, 20, 3, 2)
	want := [][][2]int{
		{{0, 2}, {6, 8}, {12, 14}, {18, 20}},
		{{2, 4}, {8, 10}, {14, 16}},
		{{4, 6}, {10, 12}, {16, 18}},
	}
	if !reflect.DeepEqual(per, want) {
		t.Fatalf("static,2 on 3 threads: %v", per)
	}
	per = runThreads(staticBlocks(), 0, 10, 3, 1)
	if want := [][][2]int{{{0, 4}}, {{4, 8}}, {{8, 10}}}; !reflect.DeepEqual(per, want) {
		t.Fatalf("static blocks: %v", per)
	}
	// More threads than pieces: the extra threads get nothing.
	per = runThreads(staticBlocks(), 0, 2, 4, 1)
	if want := [][][2]int{{{0, 1}}, {{1, 2}}, nil, nil}; !reflect.DeepEqual(per, want) {
		t.Fatalf("static blocks, 2 on 4: %v", per)
	}
}

// TestGuidedFormula: each piece is max(ceil(remaining/threads), chunk).
func TestGuidedFormula(t *testing.T) {
	g := Guided()
	g.LoopInit(0, 100, 4, 3)
	var sizes []int
	for {
		s, e := g.LoopNext(0)
		if s >= e {
			break
		}
		sizes = append(sizes, e-s)
	}
	// 100 -> 25 (75 left) -> 19 -> 14 -> 11 -> 8 -> 6 -> 5 -> 3 -> 3 -> 3 -> 3
	if want := []int{25, 19, 14, 11, 8, 6, 5, 3, 3, 3, 3}; !reflect.DeepEqual(sizes, want) {
		t.Fatalf("guided 100/4/3: %v, want %v", sizes, want)
	}
	// In order, from the start, whoever asks.
	g.LoopInit(10, 20, 2, 1)
	s, e := g.LoopNext(1)
	if s != 10 || e != 15 {
		t.Fatalf("first guided piece [%d,%d)", s, e)
	}
}

func TestDynamicOrder(t *testing.T) {
	d := Dynamic()
	d.LoopInit(-5, 6, 3, 4)
	var got [][2]int
	for th := 0; ; th = (th + 1) % 3 {
		s, e := d.LoopNext(th)
		if s >= e {
			break
		}
		got = append(got, [2]int{s, e})
	}
	if want := [][2]int{{-5, -1}, {-1, 3}, {3, 6}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("dynamic: %v", got)
	}
}

// TestWorkStealing: an owner takes its block from the front; an idle thread
// steals from the back of the others.
func TestWorkStealing(t *testing.T) {
	ws := WorkStealing()
	ws.LoopInit(0, 8, 2, 1) // thread 0 owns 0..3, thread 1 owns 4..7
	var zero [][2]int
	for {
		s, e := ws.LoopNext(0)
		if s >= e {
			break
		}
		zero = append(zero, [2]int{s, e})
	}
	if want := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {7, 8}, {6, 7}, {5, 6}, {4, 5}}; !reflect.DeepEqual(zero, want) {
		t.Fatalf("thread 0 alone: %v", zero)
	}
	if s, e := ws.LoopNext(1); s < e {
		t.Fatalf("thread 1 got [%d,%d) after everything was taken", s, e)
	}
	// Interleaved: the owner's front and a thief's back meet in the middle.
	ws.LoopInit(0, 5, 2, 1) // thread 0 owns 0..2, thread 1 owns 3..4
	var got [][2]int
	for _, th := range []int{1, 1, 1, 0, 1, 0, 1, 0} {
		if s, e := ws.LoopNext(th); s < e {
			got = append(got, [2]int{s, e})
		}
	}
	sort.Slice(got, func(i, j int) bool { return got[i][0] < got[j][0] })
	checkCover(t, "interleaved", 0, 5, got)
}

func TestRuntime(t *testing.T) {
	for _, c := range []struct {
		env, kind string
		chunk     int
	}{
		{"", "static", 1}, {"dynamic,4", "dynamic", 4}, {"guided", "guided", 1}, {" Guided , 7 ", "guided", 7},
		{"static", "static", 1}, {"static,3", "static", 3}, {"workstealing,2", "workstealing", 2},
		{"work-stealing", "workstealing", 1},
	} {
		t.Setenv(ScheduleEnv, c.env)
		ls, chunk, err := Runtime()
		if err != nil {
			t.Fatalf("%q: %v", c.env, err)
		}
		if schedulerName(ls) != c.kind || chunk != c.chunk {
			t.Fatalf("%q: %s,%d", c.env, schedulerName(ls), chunk)
		}
	}
	// Without a chunk, static is contiguous blocks; with one, round robin.
	t.Setenv(ScheduleEnv, "static")
	ls, chunk, _ := Runtime()
	if per := runThreads(ls, 0, 4, 2, chunk); !reflect.DeepEqual(per, [][][2]int{{{0, 2}}, {{2, 4}}}) {
		t.Fatalf("static without chunk: %v", per)
	}
	for _, bad := range []struct{ env, names string }{
		{"bogus", `"bogus"`}, {"dynamic,0", `"0"`}, {"dynamic,-2", `"-2"`}, {"guided,x", `"x"`},
		{"dynamic,", `""`}, {"static,1,2", `"1,2"`}, {"auto", `"auto"`},
	} {
		t.Setenv(ScheduleEnv, bad.env)
		_, _, err := Runtime()
		if err == nil || !errors.Is(err, ErrSchedule) || !strings.Contains(err.Error(), bad.names) ||
			!strings.Contains(err.Error(), ScheduleEnv) {
			t.Fatalf("%q: error %v", bad.env, err)
		}
	}
}
