package kernels

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPrepOnce: goroutines that ask one Prep for its bytes at once see one
// fill and the same bytes, and a Prep released and reused fills again.
func TestPrepOnce(t *testing.T) {
	p := NewPrep()
	defer PutPrep(p)
	for round := 0; round < 2; round++ {
		var fills atomic.Int32
		var wg sync.WaitGroup
		got := make([][]byte, 8)
		for g := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b, owned := p.bytes(64, func(b []byte) {
					fills.Add(1)
					for i := range b {
						b[i] = byte(i + round)
					}
				})
				defer release(owned)
				got[g] = b
			}()
		}
		wg.Wait()
		if n := fills.Load(); n != 1 {
			t.Fatalf("round %d: %d fills, want 1", round, n)
		}
		for g, b := range got {
			if &b[0] != &got[0][0] || b[0] != byte(round) || b[63] != byte(63+round) {
				t.Fatalf("round %d: goroutine %d got other bytes", round, g)
			}
		}
		p.Release()
	}
}

// TestPrepFillPanics: a fill that panics re-panics on its goroutine, and
// every later caller panics too instead of waiting for bytes that never come.
func TestPrepFillPanics(t *testing.T) {
	p := NewPrep()
	defer PutPrep(p)
	catch := func(fill func([]byte)) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg, _ = r.(string)
				if msg == "" {
					msg = "non-string panic"
				}
			}
		}()
		p.bytes(8, fill)
		return ""
	}
	if msg := catch(func([]byte) { panic("boom") }); msg != "boom" {
		t.Fatalf("the filling goroutine: panic %q, want boom", msg)
	}
	if msg := catch(func([]byte) { t.Error("a second fill ran") }); !strings.Contains(msg, "panicked on another goroutine") {
		t.Fatalf("a later caller: panic %q, want the failed preparation named", msg)
	}
}
