package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/corelane/corelane/quant"
)

// The attention kernels of every variant this CPU runs against the generic
// twins: the Exact ones and WidenF16 bit for bit, DotRows within the
// float32 tolerance. Inputs mix ordinary values with zeros of both signs,
// Inf, NaN, subnormals and huge values, and every length around the
// kernels' 4-, 8- and 16-wide steps; outputs carry guard values around
// them, and inputs end at a PROT_NONE page.

// attnValue returns a random float32 that is sometimes special.
func attnValue(r *rand.Rand, mag float32) float32 {
	switch r.IntN(40) {
	case 0:
		return 0
	case 1:
		return float32(math.Copysign(0, -1))
	case 2:
		return float32(math.Inf(1))
	case 3:
		return float32(math.Inf(-1))
	case 4:
		return float32(math.NaN())
	case 5:
		return math.Float32frombits(r.Uint32()) // any bit pattern
	case 6:
		return math.SmallestNonzeroFloat32 * float32(r.IntN(100))
	case 7:
		return 3e38 * (2*r.Float32() - 1)
	}
	return mag * (2*r.Float32() - 1)
}

func attnVec(r *rand.Rand, n int, mag float32, special bool) []float32 {
	x := make([]float32, n)
	for i := range x {
		if special {
			x[i] = attnValue(r, mag)
		} else {
			x[i] = mag * (2*r.Float32() - 1)
		}
	}
	return x
}

// sameBits32 reports whether a and b have the same bits, where a NaN
// matches any NaN: which NaN operand's payload a result carries is not part
// of the Exact kernels' contract (it depends on operand order in the
// machine code, which Go does not fix).
func sameBits32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return true
}

// attnGuardedOut returns a copy of x with 16 guard values (a NaN payload no
// kernel makes) on each side, and a check that they are untouched.
func attnGuardedOut(t *testing.T, x []float32) ([]float32, func()) {
	const g = 16
	buf := make([]float32, len(x)+2*g)
	bad := math.Float32frombits(0x7fa5a5a5)
	for i := range buf {
		buf[i] = bad
	}
	copy(buf[g:], x)
	return buf[g : g+len(x) : g+len(x)], func() {
		t.Helper()
		for i := range g {
			if math.Float32bits(buf[i]) != 0x7fa5a5a5 || math.Float32bits(buf[g+len(x)+i]) != 0x7fa5a5a5 {
				t.Fatal("a kernel wrote outside its output")
			}
		}
	}
}

func attnVariants(t testing.TB) map[string]Ops {
	m := map[string]Ops{}
	for _, name := range Variants() {
		ops, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = ops
	}
	return m
}

func TestWidenF16Variants(t *testing.T) {
	src := make([]quant.F16, 1<<16+13)
	for i := range src {
		src[i] = quant.F16(i)
	}
	want := make([]float32, len(src))
	widenF16Generic(want, src)
	for i, h := range src {
		if math.Float32bits(want[i]) != math.Float32bits(h.Float32()) {
			t.Fatalf("generic widen %#04x", uint16(h))
		}
	}
	for name, ops := range attnVariants(t) {
		for _, n := range []int{0, 1, 15, 16, 17, 33, len(src)} {
			s := guarded(t, src[len(src)-n:])
			got, check := attnGuardedOut(t, make([]float32, n))
			ops.WidenF16(got, s)
			check()
			// Every bit, NaN payloads included: widening is exact.
			{
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[len(src)-n+i]) {
						t.Fatalf("%s: n=%d: widen(%#04x) = %#08x, want %#08x", name, n, uint16(s[i]), math.Float32bits(got[i]), math.Float32bits(want[len(src)-n+i]))
					}
				}
			}
		}
	}
}

func TestExactScoresVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, ops := range attnVariants(t) {
		for _, rs := range []int{1, 3, 16, 32, 48} {
			for _, hd := range []int{1, 5, 16, 64, 67} {
				for _, n := range []int{0, 1, 7, 8, 9, 17, 48} {
					for _, extra := range []int{0, 3} {
						ldk := hd + extra
						special := r.IntN(3) == 0
						qt := guarded(t, attnVec(r, hd*rs, 1, special))
						k := guarded(t, attnVec(r, max(0, (n-1)*ldk+hd), 1, special))
						if n == 0 {
							k = nil
						}
						want := make([]float32, n*rs)
						exactScoresGeneric(want, qt, rs, k, ldk)
						got, check := attnGuardedOut(t, make([]float32, n*rs))
						ops.ExactScores(got, qt, rs, k, ldk)
						check()
						if !sameBits32(got, want) {
							t.Fatalf("%s: rs=%d hd=%d n=%d ldk=%d special=%v: differs from generic", name, rs, hd, n, ldk, special)
						}
					}
				}
			}
		}
	}
}

func TestExactExpVariants(t *testing.T) {
	// Every 4099th float32 bit pattern (and the edges of the range) minus
	// m, with m of period 1, 16 and 48 and a few values of m.
	var xs []float32
	for b := uint64(0); b < 1<<32; b += 4099 {
		xs = append(xs, math.Float32frombits(uint32(b)))
	}
	for _, x := range []float32{ExpOverflow, math.Nextafter32(ExpOverflow, 0), ExpUnderflow, math.Nextafter32(ExpUnderflow, 0), math.Nextafter32(ExpUnderflow, -200), -103.97207, -87.33655, 0, float32(math.Copysign(0, -1))} {
		xs = append(xs, x, -x)
	}
	xs = xs[:len(xs)/48*48]
	r := rand.New(rand.NewPCG(3, 4))
	for name, ops := range attnVariants(t) {
		for _, p := range []int{1, 16, 48, 3} {
			m := attnVec(r, p, 2, true)
			m[0] = 0
			for _, n := range []int{len(xs), 16 * p, 17 * p, p} {
				x := guarded(t, xs[len(xs)-n:])
				want := make([]float32, n)
				exactExpGeneric(want, x, m)
				got, check := attnGuardedOut(t, make([]float32, n))
				ops.ExactExp(got, x, m)
				check()
				if !sameBits32(got, want) {
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%s: period %d: exp(%g − %g) = %#08x, want %#08x", name, p, x[i], m[i%p], math.Float32bits(got[i]), math.Float32bits(want[i]))
						}
					}
				}
				// In place.
				inPlace := append([]float32(nil), x...)
				ops.ExactExp(inPlace, inPlace, m)
				if !sameBits32(inPlace, want) {
					t.Fatalf("%s: period %d: in place differs", name, p)
				}
			}
		}
	}
	// The generic twin is ExactExp32 itself.
	for _, x := range xs[:1000] {
		var d [1]float32
		exactExpGeneric(d[:], []float32{x}, []float32{0})
		if math.Float32bits(d[0]) != math.Float32bits(Exp(x)) {
			t.Fatalf("exactExpGeneric(%g) != ExactExp32", x)
		}
	}
}

func TestExactDivVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for name, ops := range attnVariants(t) {
		for _, p := range []int{1, 2, 16, 32} {
			for _, rows := range []int{0, 1, 5, 16, 17} {
				x := attnVec(r, rows*p, 3, true)
				d := attnVec(r, p, 3, true)
				want := append([]float32(nil), x...)
				exactDivGeneric(want, d)
				got, check := attnGuardedOut(t, x)
				ops.ExactDiv(got, guarded(t, d))
				check()
				if !sameBits32(got, want) {
					t.Fatalf("%s: period %d rows %d: differs from generic", name, p, rows)
				}
			}
		}
	}
}

func TestExactWeightedVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for name, ops := range attnVariants(t) {
		for _, rs := range []int{1, 4, 16, 21} {
			for _, rows := range []int{1, 3, 4, 5, 9, 16, 21} {
				if rows > rs {
					continue
				}
				for _, hd := range []int{3, 8, 16, 48, 64, 72, 80, 128, 144} {
					for _, n := range []int{0, 1, 5, 33} {
						for _, extra := range []int{0, 16} {
							ldv := hd + extra
							special := r.IntN(2) == 0
							pt := attnVec(r, n*rs, 1, special)
							// A zero weight skips the key, Inf and NaN in V
							// included: zeros at one weight in 4 (most keys
							// have some), in 64 (most runs of four keys have
							// none), or none.
							if zeros := []int{4, 64, 0}[r.IntN(3)]; zeros > 0 {
								for i := range pt {
									if r.IntN(zeros) == 0 {
										pt[i] = [2]float32{0, float32(math.Copysign(0, -1))}[r.IntN(2)]
									}
								}
							}
							v := attnVec(r, max(0, (n-1)*ldv+hd), 2, special)
							if n == 0 {
								v = nil
							}
							o := attnVec(r, rows*hd, 1, false)
							want := append([]float32(nil), o...)
							exactWeightedGeneric(want, hd, pt, rs, v, ldv)
							got, check := attnGuardedOut(t, o)
							ops.ExactWeighted(got, hd, guarded(t, pt), rs, guarded(t, v), ldv)
							check()
							if !sameBits32(got, want) {
								t.Fatalf("%s: rs=%d rows=%d hd=%d n=%d ldv=%d special=%v: differs from generic", name, rs, rows, hd, n, ldv, special)
							}
						}
					}
				}
			}
		}
	}
}

// TestFastTileVariants: FastScores and FastWeighted of every variant are
// within one rounding per term of the generic (Exact) kernels, and a ±0
// weight skips its key exactly as there: Inf and NaN in V under a zero
// weight change nothing, under a nonzero one they give what Exact gives.
func TestFastTileVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	const u = 0x1p-24
	for name, ops := range attnVariants(t) {
		for _, rs := range []int{1, 8, 16, 24} {
			for _, hd := range []int{3, 8, 16, 64, 72, 128} {
				for _, n := range []int{0, 1, 3, 4, 5, 17, 64} {
					ldk := hd + 4*(n%2)
					qt := attnVec(r, hd*rs, 1, false)
					k := attnVec(r, max(0, (n-1)*ldk+hd), 1, false)
					want := make([]float32, n*rs)
					exactScoresGeneric(want, qt, rs, k, ldk)
					got, check := attnGuardedOut(t, make([]float32, n*rs))
					ops.FastScores(got, qt, rs, guarded(t, k), ldk)
					check()
					for j := range n {
						for i := range rs {
							var abs float64
							for d := range hd {
								abs += math.Abs(float64(qt[d*rs+i]) * float64(k[j*ldk+d]))
							}
							g, w := got[j*rs+i], want[j*rs+i]
							if bound := 2 * float64(hd) * u * abs; math.Abs(float64(g)-float64(w)) > bound {
								t.Fatalf("%s: FastScores rs=%d hd=%d n=%d: st[%d,%d] = %g, Exact %g (bound %g)", name, rs, hd, n, j, i, g, w, bound)
							}
						}
					}
					for _, rows := range []int{1, 3, 4, 7, 8, 16} {
						if rows > rs {
							continue
						}
						pt := attnVec(r, n*rs, 1, false)
						zeros := []int{4, 64, 0}[r.IntN(3)]
						for i := range pt {
							switch {
							case zeros > 0 && r.IntN(zeros) == 0:
								pt[i] = [2]float32{0, float32(math.Copysign(0, -1))}[r.IntN(2)]
							case r.IntN(128) == 0:
								// Not zero, so not skipped: NaN, and subnormals
								// (whose exponent bits are all 0).
								pt[i] = [2]float32{float32(math.NaN()), math.SmallestNonzeroFloat32 * float32(1+r.IntN(1000))}[r.IntN(2)]
							}
						}
						v := attnVec(r, max(0, (n-1)*ldk+hd), 2, false)
						for j := range n {
							if r.IntN(8) == 0 {
								v[j*ldk+r.IntN(hd)] = [3]float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}[r.IntN(3)]
							}
						}
						o := attnVec(r, rows*hd, 1, false)
						wantO := append([]float32(nil), o...)
						exactWeightedGeneric(wantO, hd, pt, rs, v, ldk)
						gotO, checkO := attnGuardedOut(t, o)
						ops.FastWeighted(gotO, hd, guarded(t, pt), rs, guarded(t, v), ldk)
						checkO()
						for i := range rows {
							for c := range hd {
								abs := math.Abs(float64(o[i*hd+c]))
								for j := range n {
									if pt[j*rs+i] != 0 {
										abs += math.Abs(float64(pt[j*rs+i]) * float64(v[j*ldk+c]))
									}
								}
								g, w := gotO[i*hd+c], wantO[i*hd+c]
								bad := math.Abs(float64(g)-float64(w)) > 2*float64(n+1)*u*abs
								if math.IsInf(abs, 0) || math.IsNaN(abs) {
									bad = !sameBits32([]float32{g}, []float32{w})
								}
								if bad {
									t.Fatalf("%s: FastWeighted rs=%d rows=%d hd=%d n=%d zeros=1/%d: o[%d,%d] = %g, Exact %g", name, rs, rows, hd, n, zeros, i, c, g, w)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFastScoresSpecial: FastScores (and FastScoresF16, on the binary16
// bits of K) against Exact's kernel on inputs where a few query columns and
// key rows hold one value of every kind float32 has: ±0, ±Inf, NaN, any bit
// pattern, subnormals and values up to 3e38. ops.go states what Fast keeps
// there, and that is what is checked, score by score:
//   - a NaN operand, or an Inf times 0, gives NaN;
//   - else an Inf times a non-zero value gives ±Inf or NaN, and the Inf of
//     the infinite products' sign when they have one sign and the finite
//     products cannot overflow;
//   - else, where the finite products cannot overflow, Fast is within one
//     rounding per term of Exact (and 2^−149 per term for the products a
//     multiply rounds to a subnormal or 0 that a fused one keeps);
//   - where they can overflow, nothing: one order overflows where another
//     does not. Those scores are counted, and must be a minority.
func TestFastScoresSpecial(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	special := func(x []float32) {
		for range 1 + r.IntN(2) {
			v := attnValue(r, 1)
			for v == v && !math.IsInf(float64(v), 0) && math.Abs(float64(v)) < 2 && v != 0 && math.Abs(float64(v)) >= 0x1p-126 {
				v = attnValue(r, 1) // one of the special kinds
			}
			x[r.IntN(len(x))] = v
		}
	}
	const u = 0x1p-24
	for name, ops := range attnVariants(t) {
		var checked, overflow int
		for _, rs := range []int{1, 8, 16} {
			for _, hd := range []int{3, 8, 16, 64, 128} {
				for _, n := range []int{1, 5, 17, 64} {
					ldk := hd + 4*(n%2)
					qt := attnVec(r, hd*rs, 1, false)
					k := attnVec(r, (n-1)*ldk+hd, 1, false)
					col := make([]float32, hd)
					for i := range rs {
						if r.IntN(3) == 0 {
							for d := range hd {
								col[d] = qt[d*rs+i]
							}
							special(col)
							for d := range hd {
								qt[d*rs+i] = col[d]
							}
						}
					}
					for j := range n {
						if r.IntN(3) == 0 {
							special(k[j*ldk:][:hd])
						}
					}
					// The binary16 form gets K rounded to binary16, so
					// that both are checked on the same values.
					k16 := make([]quant.F16, len(k))
					kw := make([]float32, len(k))
					for i, x := range k {
						k16[i] = quant.FromFloat32(x)
						kw[i] = k16[i].Float32()
					}
					for _, form := range []struct {
						op   string
						k    []float32
						fast func(st []float32)
					}{
						{"FastScores", k, func(st []float32) { ops.FastScores(st, qt, rs, guarded(t, k), ldk) }},
						{"FastScoresF16", kw, func(st []float32) { ops.FastScoresF16(st, qt, rs, guarded(t, k16), ldk) }},
					} {
						want := make([]float32, n*rs)
						exactScoresGeneric(want, qt, rs, form.k, ldk)
						got, check := attnGuardedOut(t, make([]float32, n*rs))
						form.fast(got)
						check()
						for j := range n {
							for i := range rs {
								g, w := got[j*rs+i], want[j*rs+i]
								nan, inf, pos, neg := false, false, false, false
								var abs float64
								for d := range hd {
									a, b := float64(qt[d*rs+i]), float64(form.k[j*ldk+d])
									p := a * b
									switch {
									case math.IsNaN(p):
										nan = true
									case math.IsInf(p, 0):
										inf, pos, neg = true, pos || p > 0, neg || p < 0
									default:
										abs += math.Abs(p)
									}
								}
								fits := abs <= math.MaxFloat32/2
								var bad bool
								switch {
								case nan:
									bad = g == g
								case inf && (!fits || (pos && neg)):
									bad = g == g && !math.IsInf(float64(g), 0)
								case inf:
									bad = !math.IsInf(float64(g), map[bool]int{true: 1, false: -1}[pos])
								case fits:
									checked++
									bad = math.Abs(float64(g)-float64(w)) > 2*float64(hd)*u*abs+float64(hd)*0x1p-149
								default:
									overflow++
								}
								if bad {
									t.Fatalf("%s: %s rs=%d hd=%d n=%d: st[%d,%d] = %g, Exact %g", name, form.op, rs, hd, n, j, i, g, w)
								}
							}
						}
					}
				}
			}
		}
		if overflow > checked/4 {
			t.Fatalf("%s: %d scores could overflow, %d checked against Exact: the inputs test too little", name, overflow, checked)
		}
	}
}

func TestDotRowsVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for name, ops := range attnVariants(t) {
		for _, hd := range []int{1, 16, 20, 64, 128} {
			for _, n := range []int{0, 1, 3, 4, 5, 13, 16, 17, 40} {
				ldk := hd + 7
				q := attnVec(r, hd, 1, false)
				k := guarded(t, attnVec(r, max(0, (n-1)*ldk+hd), 1, false))
				got, check := attnGuardedOut(t, make([]float32, n))
				ops.DotRows(got, q, k, ldk)
				check()
				for j := range got {
					var want, abs float64
					for d := range hd {
						want += float64(q[d]) * float64(k[j*ldk+d])
						abs += math.Abs(float64(q[d]) * float64(k[j*ldk+d]))
					}
					if d := math.Abs(float64(got[j]) - want); d > float64(hd)*0x1p-23*abs+1e-30 {
						t.Fatalf("%s: hd=%d n=%d: dot %d = %g, want %g (±%g)", name, hd, n, j, got[j], want, float64(hd)*0x1p-23*abs)
					}
				}
			}
		}
	}
}

// TestDotRowsSpecial: DotRows (the scores of Fast decoding) and
// DotRowsF16 on queries and keys that hold one value of every kind float32
// has in some rows and columns (±0, ±Inf, NaN, any bit pattern,
// subnormals, values up to 3e38), at key counts that take every path of
// the SIMD kernels (16 keys at a time, then 4, then 1). Each dot is held to
// what any order of a float32 sum of its products gives:
//   - a NaN operand, or an Inf times 0, makes it NaN;
//   - else infinite products of both signs make it NaN, and of one sign,
//     with finite products that cannot overflow, that Inf;
//   - else, where no partial sum can overflow, it is within hd·2^−23 of
//     the sum of |products| (plus hd·2^−149 for products a fused multiply
//     keeps below the smallest subnormal);
//   - where a partial sum can overflow, nothing is checked; those dots are
//     counted and must be a minority.
//
// DotRowsF16 must give DotRows' bits on the widened K.
func TestDotRowsSpecial(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	special := func(x []float32) {
		for range 1 + r.IntN(2) {
			v := attnValue(r, 1)
			for v == v && !math.IsInf(float64(v), 0) && math.Abs(float64(v)) < 2 && v != 0 && math.Abs(float64(v)) >= 0x1p-126 {
				v = attnValue(r, 1) // one of the special kinds
			}
			x[r.IntN(len(x))] = v
		}
	}
	for name, ops := range attnVariants(t) {
		var checked, overflow int
		for _, hd := range []int{16, 20, 64, 128} {
			for _, n := range []int{1, 4, 15, 16, 17, 33, 48} {
				for range 4 {
					ldk := hd + 4*(n%2)
					q := attnVec(r, hd, 1, false)
					if r.IntN(4) == 0 {
						special(q)
					}
					k := attnVec(r, (n-1)*ldk+hd, 1, false)
					for j := range n {
						if r.IntN(3) == 0 {
							special(k[j*ldk:][:hd])
						}
					}
					got, check := attnGuardedOut(t, make([]float32, n))
					ops.DotRows(got, q, guarded(t, k), ldk)
					check()
					for j := range n {
						var sum, abs float64
						var nan, posInf, negInf bool
						for d := range hd {
							a, b := float64(q[d]), float64(k[j*ldk+d])
							p := a * b
							switch {
							case a != a || b != b || (math.IsInf(a, 0) && b == 0) || (math.IsInf(b, 0) && a == 0):
								nan = true
							case math.IsInf(p, 1):
								posInf = true
							case math.IsInf(p, -1):
								negInf = true
							default:
								sum += p
								abs += math.Abs(p)
							}
						}
						g := float64(got[j])
						checked++
						switch {
						case nan || (posInf && negInf):
							if g == g {
								t.Fatalf("%s: DotRows hd=%d n=%d: dot %d = %g, want NaN", name, hd, n, j, g)
							}
						case abs >= 1e38:
							overflow++
						case posInf || negInf:
							if !math.IsInf(g, map[bool]int{true: 1, false: -1}[posInf]) {
								t.Fatalf("%s: DotRows hd=%d n=%d: dot %d = %g, want the products' Inf", name, hd, n, j, g)
							}
						default:
							if bound := float64(hd)*0x1p-23*abs + float64(hd)*0x1p-149; !(math.Abs(g-sum) <= bound) {
								t.Fatalf("%s: DotRows hd=%d n=%d: dot %d = %g, want %g (±%g)", name, hd, n, j, g, sum, bound)
							}
						}
					}
					// The binary16 form on K rounded to binary16 gives the
					// float32 form's bits on the widened values.
					k16 := make([]quant.F16, len(k))
					kw := make([]float32, len(k))
					for i, x := range k {
						k16[i] = quant.FromFloat32(x)
						kw[i] = k16[i].Float32()
					}
					want := make([]float32, n)
					ops.DotRows(want, q, kw, ldk)
					ops.DotRowsF16(got, q, k16, ldk)
					if !sameBits32(got, want) {
						t.Fatalf("%s: DotRowsF16 hd=%d n=%d differs from DotRows on the widened K", name, hd, n)
					}
				}
			}
		}
		if overflow > checked/4 {
			t.Fatalf("%s: %d of %d dots could overflow: the inputs test too little", name, overflow, checked)
		}
	}
}

// TestAttnKernelBounds: a call whose lengths do not fit panics in Go
// before any assembly runs, with a message that names the op called.
func TestAttnKernelBounds(t *testing.T) {
	f32, f16 := make([]float32, 5), make([]quant.F16, 5)
	for name, ops := range attnVariants(t) {
		for i, c := range []struct {
			op   string
			call func()
		}{
			{"ExactScores", func() { ops.ExactScores(make([]float32, 32), make([]float32, 64), 16, f32, 4) }},
			{"ExactScores", func() { ops.ExactScores(make([]float32, 33), make([]float32, 64), 16, make([]float32, 8), 4) }},
			{"ExactScoresF16", func() { ops.ExactScoresF16(make([]float32, 32), make([]float32, 64), 16, f16, 4) }},
			{"FastScores", func() { ops.FastScores(make([]float32, 32), make([]float32, 64), 16, f32, 4) }},
			{"FastScores", func() { ops.FastScores(make([]float32, 33), make([]float32, 64), 16, make([]float32, 8), 4) }},
			{"FastScoresF16", func() { ops.FastScoresF16(make([]float32, 32), make([]float32, 64), 16, f16, 4) }},
			{"ExactWeighted", func() { ops.ExactWeighted(make([]float32, 64), 16, make([]float32, 32), 16, make([]float32, 20), 16) }},
			{"ExactWeighted", func() { ops.ExactWeighted(make([]float32, 64), 16, make([]float32, 6), 2, make([]float32, 64), 16) }},
			{"ExactWeightedF16", func() { ops.ExactWeightedF16(make([]float32, 64), 16, make([]float32, 32), 16, f16, 16) }},
			{"FastWeighted", func() { ops.FastWeighted(make([]float32, 64), 16, make([]float32, 32), 16, make([]float32, 20), 16) }},
			{"FastWeighted", func() { ops.FastWeighted(make([]float32, 64), 16, make([]float32, 6), 2, make([]float32, 64), 16) }},
			{"FastWeightedF16", func() { ops.FastWeightedF16(make([]float32, 64), 16, make([]float32, 32), 16, f16, 16) }},
			{"ExactExp", func() { ops.ExactExp(make([]float32, 15), make([]float32, 16), []float32{1}) }},
			{"ExactDiv", func() { ops.ExactDiv(make([]float32, 17), make([]float32, 16)) }},
			{"DotRows", func() { ops.DotRows(make([]float32, 3), make([]float32, 16), make([]float32, 40), 16) }},
			{"WidenF16", func() { ops.WidenF16(make([]float32, 15), make([]quant.F16, 16)) }},
			{"ExactSoftmax", func() { ops.ExactSoftmax(make([]float32, 17), make([]int32, 16), 1) }},
			{"SoftmaxCols", func() { ops.SoftmaxCols(make([]float32, 17), make([]int32, 16), 1) }},
			{"FastSoftmax", func() { ops.FastSoftmax(make([]float32, 17), make([]int32, 16), 1) }},
		} {
			t.Run(fmt.Sprintf("%s/%d-%s", name, i, c.op), func(t *testing.T) {
				defer func() {
					msg, _ := recover().(string)
					if !strings.HasPrefix(msg, "kernels: "+c.op+": ") {
						t.Errorf("panic %q, want one naming %s", msg, c.op)
					}
				}()
				c.call()
			})
		}
	}
}

// TestExactSoftmaxVariants: ExactSoftmax and SoftmaxCols (the same with
// Exp32) return their generic twins' bits on every variant.
// softmaxKinds are the score sets of softmaxInputs.
var softmaxKinds = []string{"rand", "special", "peaked", "masked"}

// softmaxInputs returns scores st[j·rs + r] of n keys of kind "rand"
// (magnitude 3), "special" (Inf, NaN, subnormals and extremes among them),
// "peaked" (magnitude 200: most weights underflow) or "masked" (two in
// three −Inf), limits from 0 to n+1 and a scale.
func softmaxInputs(r *rand.Rand, rs, n int, kind string) ([]float32, []int32, float32) {
	mag := float32(3)
	if kind == "peaked" {
		mag = 200
	}
	st := attnVec(r, n*rs, mag, kind == "special")
	if kind == "masked" {
		for i := range st {
			if r.IntN(3) > 0 {
				st[i] = float32(math.Inf(-1))
			}
		}
	}
	lim := make([]int32, rs)
	for i := range lim {
		lim[i] = int32(r.IntN(n + 2))
	}
	return st, lim, []float32{0.125, -0.7, 1}[r.IntN(3)]
}

func TestExactSoftmaxVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for variant, ops := range attnVariants(t) {
		for _, k := range []struct {
			name      string
			got, want func(st []float32, lim []int32, scale float32)
		}{{"ExactSoftmax", ops.ExactSoftmax, exactSoftmaxGeneric}, {"SoftmaxCols", ops.SoftmaxCols, softmaxColsGeneric}} {
			name := variant + "/" + k.name
			for _, rs := range []int{1, 5, 16, 32} {
				for _, n := range []int{0, 1, 2, 17, 300} {
					for _, kind := range softmaxKinds {
						st, lim, scale := softmaxInputs(r, rs, n, kind)
						want := append([]float32(nil), st...)
						k.want(want, lim, scale)
						got, check := attnGuardedOut(t, st)
						k.got(got, guarded(t, lim), scale)
						check()
						if !sameBits32(got, want) {
							t.Fatalf("%s: rs=%d n=%d %s: differs from generic", name, rs, n, kind)
						}
					}
				}
			}
		}
	}
}

// TestSoftmaxColsReference: softmaxColsGeneric is a softmax: within 2e-6
// (relative; the float32 sum over 70 keys rounds 70 times) of a float64
// one on ordinary scores, 0 past each row's limit, and 0 in
// a row with no key.
// TestFastSoftmaxVariants: FastSoftmax of every variant against the
// generic SoftmaxCols, on the inputs of TestExactSoftmaxVariants: the same
// zeros (past a row's limit, rows without a key), NaN where it gives NaN,
// Inf where it gives Inf, and every other weight within (24 + 2n) ulp
// relative to it, or 1e−37 absolute (FastSoftmax may give 0 where Exp32
// gives less).
func TestFastSoftmaxVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for variant, ops := range attnVariants(t) {
		for _, rs := range []int{1, 5, 8, 16, 32} {
			for _, n := range []int{0, 1, 2, 17, 300} {
				for _, kind := range softmaxKinds {
					st, lim, scale := softmaxInputs(r, rs, n, kind)
					want := append([]float32(nil), st...)
					softmaxColsGeneric(want, lim, scale)
					got, check := attnGuardedOut(t, st)
					ops.FastSoftmax(got, guarded(t, lim), scale)
					check()
					bound := float64(24+2*n) * 0x1p-24
					for i, w := range want {
						g := got[i]
						var ok bool
						switch {
						case w != w:
							ok = g != g
						case w == 0 || math.IsInf(float64(w), 0):
							ok = math.Float32bits(g) == math.Float32bits(w)
						default:
							d := math.Abs(float64(g) - float64(w))
							ok = d <= bound*float64(w) || d <= 1e-37
						}
						if !ok {
							t.Fatalf("%s: rs=%d n=%d %s: weight %d (key %d, row %d) = %g, SoftmaxCols %g", variant, rs, n, kind, i, i/rs, i%rs, g, w)
						}
					}
				}
			}
		}
	}
}

func TestSoftmaxColsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	const rs, n = 5, 70
	st := make([]float32, rs*n)
	for i := range st {
		st[i] = float32(r.NormFloat64() * 4)
	}
	lim := []int32{0, 1, 2, 69, 70}
	const scale = 0.7
	got := append([]float32(nil), st...)
	softmaxColsGeneric(got, lim, scale)
	for row, L := range lim {
		m := math.Inf(-1)
		for j := range int(L) {
			m = math.Max(m, float64(float32(st[j*rs+row]*scale)))
		}
		var sum float64
		for j := range int(L) {
			sum += math.Exp(float64(float32(st[j*rs+row]*scale)) - m)
		}
		for j := range n {
			want := 0.0
			if j < int(L) {
				want = math.Exp(float64(float32(st[j*rs+row]*scale))-m) / sum
			}
			if g := float64(got[j*rs+row]); math.Abs(g-want) > 2e-6*want {
				t.Fatalf("row %d (lim %d) key %d: %g, want %g", row, L, j, g, want)
			}
		}
	}
}

// TestF16KernelsVariants: the binary16 forms give what the float32 forms
// give on the widened values, for every variant, on random bit patterns
// (Inf, NaN and subnormals among them) and ordinary values.
func TestF16KernelsVariants(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	f16s := func(n int, raw bool) []quant.F16 {
		h := make([]quant.F16, n)
		for i := range h {
			if raw && r.IntN(8) == 0 {
				h[i] = quant.F16(r.Uint32())
			} else {
				h[i] = quant.FromFloat32(2*r.Float32() - 1)
			}
		}
		return h
	}
	widened := func(h []quant.F16) []float32 {
		w := make([]float32, len(h))
		widenF16Generic(w, h)
		return w
	}
	for name, ops := range attnVariants(t) {
		for _, hd := range []int{5, 16, 64, 80} {
			for _, n := range []int{0, 1, 15, 16, 33, 48} {
				for _, raw := range []bool{false, true} {
					ld := hd + 3*(n%2)
					kv := f16s(max(0, (n-1)*ld+hd), raw)
					if n == 0 {
						kv = nil
					}
					kw := widened(kv)
					k16 := guarded(t, kv)
					for _, rs := range []int{1, 16} {
						qt := attnVec(r, hd*rs, 1, false)
						want := make([]float32, n*rs)
						ops.ExactScores(want, qt, rs, kw, ld)
						got, check := attnGuardedOut(t, make([]float32, n*rs))
						ops.ExactScoresF16(got, qt, rs, k16, ld)
						check()
						if !sameBits32(got, want) {
							t.Fatalf("%s: ExactScoresF16 hd=%d n=%d rs=%d raw=%v differs from ExactScores on the widened K", name, hd, n, rs, raw)
						}
						rows := min(rs, 1+r.IntN(16)) // the one-row loop and the four-row blocks
						pt := attnVec(r, n*rs, 1, false)
						for i := range pt {
							if r.IntN(4) == 0 {
								pt[i] = 0
							}
						}
						o := attnVec(r, rows*hd, 1, false)
						wantO := append([]float32(nil), o...)
						ops.ExactWeighted(wantO, hd, pt, rs, kw, ld)
						gotO, checkO := attnGuardedOut(t, o)
						ops.ExactWeightedF16(gotO, hd, pt, rs, k16, ld)
						checkO()
						if !sameBits32(gotO, wantO) {
							t.Fatalf("%s: ExactWeightedF16 hd=%d n=%d rs=%d raw=%v differs from ExactWeighted on the widened V", name, hd, n, rs, raw)
						}
						// The Fast forms: binary16 gives the float32 form's
						// bits on the widened values too.
						ops.FastScores(want, qt, rs, kw, ld)
						got, check = attnGuardedOut(t, make([]float32, n*rs))
						ops.FastScoresF16(got, qt, rs, k16, ld)
						check()
						if !sameBits32(got, want) {
							t.Fatalf("%s: FastScoresF16 hd=%d n=%d rs=%d raw=%v differs from FastScores on the widened K", name, hd, n, rs, raw)
						}
						copy(wantO, o)
						ops.FastWeighted(wantO, hd, pt, rs, kw, ld)
						gotO, checkO = attnGuardedOut(t, o)
						ops.FastWeightedF16(gotO, hd, pt, rs, k16, ld)
						checkO()
						if !sameBits32(gotO, wantO) {
							t.Fatalf("%s: FastWeightedF16 hd=%d n=%d rs=%d raw=%v differs from FastWeighted on the widened V", name, hd, n, rs, raw)
						}
						// And the generic F16 twins agree with the generic float32 ones.
						g := make([]float32, n*rs)
						exactScoresGeneric(g, qt, rs, kw, ld)
						g16 := make([]float32, n*rs)
						exactScoresF16Generic(g16, qt, rs, kv, ld)
						if !sameBits32(g, g16) {
							t.Fatalf("exactScoresF16Generic differs")
						}
					}
					// DotRowsF16 returns the variant's DotRows bits on the
					// widened K (Fast AttentionF16 promises Fast Attention's
					// bits on widened K/V), raw bit patterns included, and
					// is a dot.
					q := attnVec(r, hd, 1, false)
					same := make([]float32, n)
					ops.DotRows(same, q, kw, ld)
					got, check := attnGuardedOut(t, make([]float32, n))
					ops.DotRowsF16(got, q, k16, ld)
					check()
					if !sameBits32(got, same) {
						t.Fatalf("%s: DotRowsF16 hd=%d n=%d raw=%v differs from DotRows on the widened K", name, hd, n, raw)
					}
					if !raw {
						want := make([]float32, n)
						dotRowsGeneric(want, q, kw, ld)
						for j := range got {
							if d := math.Abs(float64(got[j] - want[j])); d > float64(hd)*0x1p-22 {
								t.Fatalf("%s: DotRowsF16 hd=%d n=%d: dot %d = %g, want %g", name, hd, n, j, got[j], want[j])
							}
						}
					}
				}
			}
		}
	}
}

// TestAttnStreamingPath: the decode kernels take another loop (with
// prefetches) when K or V is large (1 MiB and more on AVX-512, counted to
// the end of the slice); the result must not change. DotRows over a few
// keys of a 2 MiB buffer equals DotRows over the same keys sliced short,
// and so does FastWeighted with one row; ExactWeighted with one row equals
// the generic kernel; float32 and binary16, on every variant.
func TestAttnStreamingPath(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	const hd, keys = 64, 8192 // 2 MiB of float32, 1 MiB of binary16
	k := attnVec(r, keys*hd, 1, false)
	k16 := make([]quant.F16, len(k))
	for i, x := range k {
		k16[i] = quant.FromFloat32(x)
	}
	wide := make([]float32, len(k))
	widenF16Generic(wide, k16)
	q := attnVec(r, hd, 1, false)
	w := attnVec(r, keys, 1, false)
	for i := range w {
		if i%7 == 0 {
			w[i] = 0
		}
	}
	for name, ops := range attnVariants(t) {
		for _, n := range []int{5, 300} {
			long, short := make([]float32, n), make([]float32, n)
			ops.DotRows(long, q, k, hd)
			ops.DotRows(short, q, k[:n*hd], hd)
			if !sameBits32(long, short) {
				t.Errorf("%s: DotRows n=%d: a long K gives other bits than the same keys sliced short", name, n)
			}
			ops.DotRowsF16(long, q, k16, hd)
			ops.DotRowsF16(short, q, k16[:n*hd], hd)
			if !sameBits32(long, short) {
				t.Errorf("%s: DotRowsF16 n=%d: a long K gives other bits than the same keys sliced short", name, n)
			}
			// Fast's one-row weighted sum (decoding) prefetches a long V
			// too: the same keys give the same bits either way.
			long, short = make([]float32, hd), make([]float32, hd)
			ops.FastWeighted(long, hd, w[:n], 1, k, hd)
			ops.FastWeighted(short, hd, w[:n], 1, k[:n*hd], hd)
			if !sameBits32(long, short) {
				t.Errorf("%s: FastWeighted n=%d: a long V gives other bits than the same keys sliced short", name, n)
			}
			clear(long)
			clear(short)
			ops.FastWeightedF16(long, hd, w[:n], 1, k16, hd)
			ops.FastWeightedF16(short, hd, w[:n], 1, k16[:n*hd], hd)
			if !sameBits32(long, short) {
				t.Errorf("%s: FastWeightedF16 n=%d: a long V gives other bits than the same keys sliced short", name, n)
			}
		}
		got, want := make([]float32, hd), make([]float32, hd)
		ops.ExactWeighted(got, hd, w, 1, k, hd)
		exactWeightedGeneric(want, hd, w, 1, k, hd)
		if !sameBits32(got, want) {
			t.Errorf("%s: ExactWeighted over 2 MiB of V differs from generic", name)
		}
		clear(got)
		clear(want)
		ops.ExactWeightedF16(got, hd, w, 1, k16, hd)
		exactWeightedGeneric(want, hd, w, 1, wide, hd)
		if !sameBits32(got, want) {
			t.Errorf("%s: ExactWeightedF16 over 1 MiB of V differs from generic on the widened V", name)
		}
	}
}
