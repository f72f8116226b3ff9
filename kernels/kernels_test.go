package kernels

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/cpuid/v2"

	"github.com/corelane/corelane/quant"
)

func TestMain(m *testing.M) {
	fmt.Printf("kernels: cpu %q, variants runnable here: %s\n", cpu.BrandName, strings.Join(Variants(), ", "))
	m.Run()
}

// forEachVariant runs f with every variant this CPU supports forced in turn.
func forEachVariant(t *testing.T, f func(t *testing.T, name string, k Ops)) {
	for _, name := range Variants() {
		t.Run("variant="+name, func(t *testing.T) {
			restore, err := Use(name)
			if err != nil {
				t.Fatal(err)
			}
			defer restore()
			f(t, name, Current())
		})
	}
}

// maxBlocks is two super-blocks' worth of 32-value blocks plus one, and the
// K-quant sweep goes to 2·8+1 super-blocks so the tails of 8-, 4- and
// 2-block unrolled loops are all reached.
const maxBlocks = 17

func TestQuantDotsMatchGeneric(t *testing.T) {
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(1, 2))
		for nb := 0; nb <= maxBlocks; nb++ {
			for rep := 0; rep < 4; rep++ {
				x := randQ8K(r, nb)
				if rep == 3 {
					x = extremeQ8K(nb, -127)
				}
				if w := randQ4K(r, nb); !sameBits(k.DotQ4K(w, x), dotQ4KGeneric(w, x)) {
					t.Fatalf("q4_K nb=%d rep=%d: %v, generic %v", nb, rep, k.DotQ4K(w, x), dotQ4KGeneric(w, x))
				}
				if w := randQ5K(r, nb); !sameBits(k.DotQ5K(w, x), dotQ5KGeneric(w, x)) {
					t.Fatalf("q5_K nb=%d rep=%d: %v, generic %v", nb, rep, k.DotQ5K(w, x), dotQ5KGeneric(w, x))
				}
				if w := randQ6K(r, nb); !sameBits(k.DotQ6K(w, x), dotQ6KGeneric(w, x)) {
					t.Fatalf("q6_K nb=%d rep=%d: %v, generic %v", nb, rep, k.DotQ6K(w, x), dotQ6KGeneric(w, x))
				}
			}
		}
		for nb := 0; nb <= 8*maxBlocks+1; nb++ {
			w, x := randQ8_0(r, nb), randQ8_0(r, nb)
			if !sameBits(k.DotQ8_0(w, x), dotQ8_0Generic(w, x)) {
				t.Fatalf("q8_0 nb=%d: %v, generic %v", nb, k.DotQ8_0(w, x), dotQ8_0Generic(w, x))
			}
		}
	})
}

// TestMatVecMatMulMatchDot checks that every element of the row kernels has
// exactly the bits of the generic dot for its (row, column) pair, and that
// nothing outside the output is written.
func TestMatVecMatMulMatchDot(t *testing.T) {
	const guard = float32(-12345.5)
	forEachVariant(t, func(t *testing.T, name string, k Ops) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, rows := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17} {
			for _, cols := range []int{1, 2, 3, 4, 5, 8} {
				for _, nb := range []int{1, 2, 3} {
					ldd := rows + 3
					check := func(typ string, dot func(r, c int) float32, mm func(dst []float32)) {
						t.Helper()
						dst := make([]float32, cols*ldd)
						for i := range dst {
							dst[i] = guard
						}
						mm(dst)
						for c := 0; c < cols; c++ {
							for rr := 0; rr < ldd; rr++ {
								got := dst[c*ldd+rr]
								if rr >= rows {
									if got != guard {
										t.Fatalf("%s rows=%d cols=%d nb=%d: wrote padding dst[%d,%d]", typ, rows, cols, nb, c, rr)
									}
									continue
								}
								if want := dot(rr, c); !sameBits(got, want) {
									t.Fatalf("%s rows=%d cols=%d nb=%d: [%d,%d] = %v, dot %v", typ, rows, cols, nb, c, rr, got, want)
								}
							}
						}
					}
					xk := randQ8K(r, nb*cols)
					w4 := randQ4K(r, nb*rows)
					check("q4_K", func(rr, c int) float32 { return dotQ4KGeneric(w4[rr*nb:(rr+1)*nb], xk[c*nb:(c+1)*nb]) },
						func(dst []float32) { k.MatMulQ4K(dst, ldd, w4, xk, cols, nil) })
					w5 := randQ5K(r, nb*rows)
					check("q5_K", func(rr, c int) float32 { return dotQ5KGeneric(w5[rr*nb:(rr+1)*nb], xk[c*nb:(c+1)*nb]) },
						func(dst []float32) { k.MatMulQ5K(dst, ldd, w5, xk, cols, nil) })
					w6 := randQ6K(r, nb*rows)
					check("q6_K", func(rr, c int) float32 { return dotQ6KGeneric(w6[rr*nb:(rr+1)*nb], xk[c*nb:(c+1)*nb]) },
						func(dst []float32) { k.MatMulQ6K(dst, ldd, w6, xk, cols, nil) })
					x8 := randQ8_0(r, nb*cols)
					w8 := randQ8_0(r, nb*rows)
					check("q8_0", func(rr, c int) float32 { return dotQ8_0Generic(w8[rr*nb:(rr+1)*nb], x8[c*nb:(c+1)*nb]) },
						func(dst []float32) { k.MatMulQ8_0(dst, ldd, w8, x8, cols, nil) })
					if cols == 1 {
						check("q4_K matvec", func(rr, c int) float32 { return dotQ4KGeneric(w4[rr*nb:(rr+1)*nb], xk[:nb]) },
							func(dst []float32) { k.MatVecQ4K(dst[:rows], w4, xk[:nb]) })
						check("q5_K matvec", func(rr, c int) float32 { return dotQ5KGeneric(w5[rr*nb:(rr+1)*nb], xk[:nb]) },
							func(dst []float32) { k.MatVecQ5K(dst[:rows], w5, xk[:nb]) })
						check("q6_K matvec", func(rr, c int) float32 { return dotQ6KGeneric(w6[rr*nb:(rr+1)*nb], xk[:nb]) },
							func(dst []float32) { k.MatVecQ6K(dst[:rows], w6, xk[:nb]) })
						check("q8_0 matvec", func(rr, c int) float32 { return dotQ8_0Generic(w8[rr*nb:(rr+1)*nb], x8[:nb]) },
							func(dst []float32) { k.MatVecQ8_0(dst[:rows], w8, x8[:nb]) })
					}
				}
			}
		}
	})
}

func TestRegistryErrors(t *testing.T) {
	if _, err := Use("no-such-variant"); !errors.Is(err, ErrUnknownVariant) || !strings.Contains(err.Error(), "generic") {
		t.Fatalf("Use(unknown) = %v, want ErrUnknownVariant listing the supported variants", err)
	}
	if err := Register(Variant{Name: Generic, Ops: Ops{DotF32: dotF32Generic}}); !errors.Is(err, ErrDuplicateVariant) {
		t.Fatalf("duplicate Register = %v", err)
	}
	if err := Register(Variant{Name: "empty"}); !errors.Is(err, ErrBadVariant) {
		t.Fatalf("Register with no ops = %v", err)
	}
	// A variant whose feature this CPU lacks is registered but not runnable.
	missing := cpuid.FeatureID(-1)
	for _, f := range []cpuid.FeatureID{cpuid.AMXTILE, cpuid.SVE, cpuid.AVX10_512, cpuid.AVX512FP16, cpuid.I8MM} {
		if !cpu.Supports(f) {
			missing = f
			break
		}
	}
	if missing == -1 {
		t.Fatal("test needs some feature this CPU lacks")
	}
	if err := Register(Variant{Name: "test-unsupported", Rank: 1000, Requires: []cpuid.FeatureID{missing}, Ops: Ops{DotF32: dotF32Generic}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unregister(t, "test-unsupported") })
	for _, v := range Variants() {
		if v == "test-unsupported" {
			t.Fatal("unsupported variant listed as runnable")
		}
	}
	_, err := Use("test-unsupported")
	if !errors.Is(err, ErrUnsupportedVariant) || !strings.Contains(err.Error(), missing.String()) {
		t.Fatalf("Use(unsupported) = %v, want ErrUnsupportedVariant naming %v", err, missing)
	}
	if Info().Ops[0].Variant == "test-unsupported" {
		t.Fatal("unsupported variant chosen")
	}
}

func TestUseAndInfo(t *testing.T) {
	before := Forced() // CORELANE_KERNELS may force a variant at start-up
	restore, err := Use(Generic)
	if err != nil {
		t.Fatal(err)
	}
	r := Info()
	if r.Forced != Generic {
		t.Fatalf("Forced = %q", r.Forced)
	}
	for _, o := range r.Ops {
		if o.Variant != Generic || o.Reason != "forced" {
			t.Fatalf("op %s: variant %s (%s) under Use(generic)", o.Op, o.Variant, o.Reason)
		}
	}
	if !strings.Contains(r.String(), "forced: generic") {
		t.Fatalf("report does not show the forced variant:\n%s", r)
	}
	restore()
	if Forced() != before {
		t.Fatalf("restore left %q forced, want %q", Forced(), before)
	}
	best := Variants()[0]
	if before != "" {
		t.Logf("CORELANE_KERNELS forced %s at start-up; skipping the best-variant check", before)
		return
	}
	for _, o := range Info().Ops {
		if o.Variant == "" {
			t.Fatalf("op %s has no kernel", o.Op)
		}
		if o.Runnable[0] != o.Variant && !strings.Contains(o.Reason, o.Runnable[0]+" yields it") {
			t.Fatalf("op %s uses %s, but %s is the best runnable and does not yield it (%s)", o.Op, o.Variant, o.Runnable[0], o.Reason)
		}
	}
	t.Logf("best variant: %s", best)
}

// TestConcurrentDispatch dispatches from many goroutines while others
// register variants and force them; run it with -race.
func TestConcurrentDispatch(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	w, x := randQ4K(r, 4), randQ8K(r, 4)
	want := dotQ4KGeneric(w, x)
	wb := quantBytes(w)
	xb := quantBytes(x)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				got, err := Dot(quant.Q4K, wb, xb)
				if err != nil || !sameBits(got, want) {
					t.Errorf("Dot = %v, %v; want %v", got, err, want)
					return
				}
			}
		}()
	}
	for i := 0; i < 50; i++ {
		name := fmt.Sprintf("race-%d", i)
		if err := Register(Variant{Name: name, Rank: -1 - i, Ops: Ops{DotF32: dotF32Generic}}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unregister(t, name) })
		for _, v := range Variants() {
			restore, err := Use(v)
			if err != nil {
				t.Fatal(err)
			}
			restore()
		}
	}
	close(stop)
	wg.Wait()
}

func TestLookup(t *testing.T) {
	before := Forced()
	for _, name := range Variants() {
		k, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		restore, _ := Use(name)
		cur := Current()
		restore()
		for i := range opNames {
			if opField(&k, i).Pointer() != opField(&cur, i).Pointer() {
				t.Fatalf("Lookup(%s).%s differs from Use(%s)", name, opNames[i], name)
			}
		}
	}
	if _, err := Lookup("no-such"); !errors.Is(err, ErrUnknownVariant) {
		t.Fatalf("Lookup(unknown) = %v", err)
	}
	if Forced() != before {
		t.Fatal("Lookup changed the registry")
	}
}

// TestYield: a variant's Yield hands the default of an op to the next
// supported variant with that op and says why in Info; forcing the variant
// still runs its own kernel; a Yield naming an op the variant lacks is an
// error.
func TestYield(t *testing.T) {
	if Forced() != "" {
		t.Skipf("CORELANE_KERNELS forced %s", Forced())
	}
	const top, next = "test-yield-top", "test-yield-next"
	topDot := func(a, b []float32) float32 { return 1 }
	nextDot := func(a, b []float32) float32 { return 2 }
	topMax := func(x []float32) float32 { return 3 }
	for _, bad := range []map[string]string{{"Max": "x"}, {"NoSuchOp": "x"}} {
		if err := Register(Variant{Name: "test-yield-bad", Ops: Ops{DotF32: topDot}, Yield: bad}); !errors.Is(err, ErrBadVariant) {
			unregister(t, "test-yield-bad")
			t.Fatalf("Register with Yield %v = %v, want ErrBadVariant", bad, err)
		}
	}
	if err := Register(Variant{Name: top, Rank: 1001, Ops: Ops{DotF32: topDot, Max: topMax},
		Yield: map[string]string{"DotF32": "measured slower"}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unregister(t, top) })
	if err := Register(Variant{Name: next, Rank: 1000, Ops: Ops{DotF32: nextDot}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unregister(t, next) })
	if got := Current().DotF32(nil, nil); got != 2 {
		t.Errorf("DotF32 comes from the variant returning %v, want %s's", got, next)
	}
	if got := Current().Max(nil); got != 3 {
		t.Errorf("Max comes from the variant returning %v, want %s's (it yields only DotF32)", got, top)
	}
	for _, o := range Info().Ops {
		if o.Op == "DotF32" && (o.Variant != next || !strings.Contains(o.Reason, top+" yields it (measured slower)")) {
			t.Errorf("Info: DotF32 from %s (%s)", o.Variant, o.Reason)
		}
	}
	restore, err := Use(top)
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	if got := Current().DotF32(nil, nil); got != 1 {
		t.Errorf("Use(%s): DotF32 returns %v, want the forced variant's own", top, got)
	}
}
