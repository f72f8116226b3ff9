package spi

import (
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/corelane/corelane/internal/testexec"
	"github.com/corelane/corelane/quant"
	"github.com/corelane/corelane/sched"
)

// recorder collects a backend's events from any goroutine.
type recorder struct {
	mu sync.Mutex
	ev []Event
}

func (r *recorder) sink(e Event) {
	r.mu.Lock()
	r.ev = append(r.ev, e)
	r.mu.Unlock()
}

func (r *recorder) downgrades(what string) []sched.Downgraded {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ds []sched.Downgraded
	for _, e := range r.ev {
		if d, ok := e.(sched.Downgraded); ok && (what == "" || d.What == what) {
			ds = append(ds, d)
		}
	}
	return ds
}

func sameDowngrades(a, b []sched.Downgraded) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func testPool(t *testing.T, n int) *sched.Pool {
	t.Helper()
	p, err := sched.NewPool(sched.WithWorkers(n), sched.WithOversubscribe(), sched.WithPinning(false))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestTraceScheduleDowngrades: New replays the default schedule's start-up
// downgrades to the sink, for a dedicated pool and for sched.Hardware().
func TestTraceScheduleDowngrades(t *testing.T) {
	p, err := sched.NewPool(sched.WithWorkers(1000))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var rec recorder
	if _, err := New(WithSchedule(p), WithTrace(rec.sink)); err != nil {
		t.Fatal(err)
	}
	if got := rec.downgrades(""); len(got) == 0 || !sameDowngrades(got, p.Downgrades()) {
		t.Fatalf("sink got %v, pool reports %v", got, p.Downgrades())
	}
	var hw recorder
	if _, err := New(WithTrace(hw.sink)); err != nil {
		t.Fatal(err)
	}
	if got, want := hw.downgrades(""), sched.Hardware().Downgrades(); !sameDowngrades(got, want) {
		t.Fatalf("default backend: sink got %v, Hardware reports %v", got, want)
	}
	t.Log(rec.downgrades("")[0])
}

// TestTraceHardwareGOMAXPROCS1: a process started with GOMAXPROCS=1 on a
// machine of several cores has a downgraded Hardware pool, and the default
// backend's sink hears of it (checked in a child process, which starts its
// own Hardware pool).
func TestTraceHardwareGOMAXPROCS1(t *testing.T) {
	if os.Getenv("SPI_TEST_CHILD") == "1" {
		var rec recorder
		if _, err := New(WithTrace(rec.sink)); err != nil {
			t.Fatal(err)
		}
		want := sched.Hardware().Downgrades()
		if got := rec.downgrades(""); !sameDowngrades(got, want) {
			t.Fatalf("sink got %v, Hardware reports %v", got, want)
		}
		t.Logf("%d downgrades: %v", len(want), want)
		return
	}
	cmd := testexec.Self("-test.run=^TestTraceHardwareGOMAXPROCS1$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "SPI_TEST_CHILD=1", "GOMAXPROCS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "0 downgrades") {
		t.Logf("this machine has one usable core, nothing to report:\n%s", out)
	} else if !strings.Contains(string(out), "GOMAXPROCS=1") {
		t.Fatalf("child did not report the GOMAXPROCS downgrade:\n%s", out)
	}
}

// TestTraceBusyRegion: an op whose region finds the cores busy runs inline,
// gives the same bits, and the backend's sink is told — for a concurrent
// caller on the same pool and for an op called from inside a body of
// another pool's region.
func TestTraceBusyRegion(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	w := quantized(t, r, quant.Q4K, 300, 512)
	x := randVec(r, 512)
	want := make([]float32, 300)
	if err := newBackend(t).Context().MatVec(want, w, x); err != nil {
		t.Fatal(err)
	}
	check := func(what string, rec *recorder, got []float32, holder string) {
		t.Helper()
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: dst[%d] = %v, want %v", what, i, got[i], want[i])
			}
		}
		ds := rec.downgrades("region")
		if len(ds) == 0 || ds[0].Effective != 1 || ds[0].Requested < 2 || !strings.Contains(ds[0].Reason, holder) {
			t.Fatalf("%s: region downgrades %v", what, ds)
		}
		t.Log(what+":", ds[0])
	}

	p := testPool(t, 2)
	var rec recorder
	b, err := New(WithSchedule(p), WithTrace(rec.sink))
	if err != nil {
		t.Fatal(err)
	}
	ctx := b.Context()
	if ctx.Schedule() != sched.Schedule(p) {
		t.Fatalf("Schedule() = %v, want the pool itself", ctx.Schedule())
	}
	// Concurrent caller: another goroutine's region holds the pool.
	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var once sync.Once
	go func() {
		defer close(done)
		p.ForEach(2, 1, func(int) {
			once.Do(func() { close(entered) })
			<-release
		})
	}()
	<-entered
	got := make([]float32, 300)
	err = ctx.MatVec(got, w, x)
	close(release)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	check("concurrent caller", &rec, got, "the pool was running another region")

	// Nested: the op runs inside a body of another pool's region.
	outer := testPool(t, 2)
	var rec2 recorder
	b2, err := New(WithSchedule(p), WithTrace(rec2.sink))
	if err != nil {
		t.Fatal(err)
	}
	outs := make([][]float32, 2)
	errs := make([]error, 2)
	outer.ForEach(2, 1, func(i int) {
		outs[i] = make([]float32, 300)
		errs[i] = b2.Context().MatVec(outs[i], w, x)
	})
	for i := range outs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		check("nested", &rec2, outs[i], outer.Name()+" was running a region")
	}
}

// TestWithScheduleNil: the Option and the Context method agree: a nil
// schedule panics, naming the call.
func TestWithScheduleNil(t *testing.T) {
	catch := func(f func()) (msg string) {
		defer func() {
			if v := recover(); v != nil {
				msg, _ = v.(string)
				if msg == "" {
					msg = "non-string panic"
				}
			}
		}()
		f()
		return ""
	}
	ctx := newBackend(t).Context()
	if msg := catch(func() { ctx.WithSchedule(nil) }); !strings.Contains(msg, "Context.WithSchedule(nil)") {
		t.Fatalf("Context.WithSchedule(nil): panic %q", msg)
	}
	if msg := catch(func() { WithSchedule(nil) }); !strings.Contains(msg, "spi: WithSchedule(nil)") {
		t.Fatalf("WithSchedule(nil) Option: panic %q", msg)
	}
	if s := ctx.WithSchedule(sched.Sequential).Schedule(); s != sched.Sequential {
		t.Fatalf("Schedule() = %v", s)
	}
}
