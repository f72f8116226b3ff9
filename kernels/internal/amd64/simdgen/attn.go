package main

import (
	"fmt"
	"log"
)

// The AVX2 attention kernels of package sdpa (attn_avx2_amd64.s): binary16
// widening, Exact mode's scores and weighted sum, Fast mode's
// one-query-many-keys dot. The AVX-512 forms are hand-written in
// attn_amd64.s (they lean on mask registers and 32 vector registers, which
// these do not have); these are their ymm forms, one body per kernel shape
// with the K/V element type (float32, binary16) as the parameter, so that
// each binary16 form returns its float32 form's bits on the widened
// values.

// elem is the type of the K or V rows a kernel reads.
type elem struct {
	suffix string // routine name: "" or "F16"
	size   int    // bytes per value
	goType string // in the signature comment
}

var (
	elemF32 = elem{"", 4, "*float32"}
	elemF16 = elem{"F16", 2, "*uint16"}
)

// load8 writes the load of eight K/V values at addr into the ymm register
// dst as float32 (binary16 widened exactly by VCVTPH2PS).
func (e elem) load8(g *gen, addr, dst string) {
	if e.size == 2 {
		g.i("VCVTPH2PS", addr+", "+dst)
		return
	}
	g.i("VMOVUPS", addr+", "+dst)
}

// bcast writes the broadcast of one K value at addr into dst.
func (e elem) bcast(g *gen, addr, dst string) {
	if e.size == 2 {
		xd := g.x(dst)
		g.i("VPBROADCASTW", addr+", "+xd)
		g.i("VCVTPH2PS", xd+", "+dst)
		return
	}
	g.i("VBROADCASTSS", addr+", "+dst)
}

func attnFile(g *gen) {
	g.p(`// Attention kernels of package sdpa for AVX2 (the avx2 and avxvnni
// variants; avx512 and avx512vnni use attn_amd64.s). Each mirrors a generic
// kernel in package kernels (attn.go):
//
//	WidenF16AVX2              widenF16Generic        exact, a signalling NaN
//	                                                 kept signalling
//	ExactScores[F16]AVX2      exactScores[F16]Generic lane r is query row r
//	ExactWeighted[F16]AVX2    exactWeighted[F16]Generic lane c is output
//	                                                 column c; a zero weight
//	                                                 skips the key
//	FastScores[F16]AVX2       exactScores[F16]Generic !!! ExactScores fused
//	FastWeighted[F16]AVX2     exactWeighted[F16]Generic !!! ExactWeighted
//	                                                 fused
//	DotRows[F16]AVX2          dotRowsGeneric         !!! reassociated, fused
//
// The Fast routines are their Exact forms with each product and sum one
// VFMADD231PS (Fast mode's prefill tiles; within the fused rounding of the
// twin, not its bits). The Exact routines never fuse: every product is a VMULPS and every sum a
// separate VADDPS, with the operands in the twin's order, so each lane
// rounds as the scalar code does. A binary16 form is its float32 form with
// VCVTPH2PS (exact) where the float32 form loads, so it returns the
// float32 form's bits on the widened values.
//
// Requires: AVX2, FMA3, F16C.

#include "textflag.h"
`)
	g.v = isa{name: "AVX2", req: "AVX2, FMA3, F16C"}
	g.data("attnAVX2Tab", []uint32{0x7fff, 0x7c00, 0x7e00, 0x00400000})
	widenAVX2(g)
	for _, e := range []elem{elemF32, elemF16} {
		for _, fused := range []bool{false, true} {
			scoresAVX2(g, e, fused)
		}
		scoresRowAVX2(g, e)
		for _, fused := range []bool{false, true} {
			weightedAVX2(g, e, fused)
		}
		dotRowsAVX2(g, e)
	}
	expTab(g)
	exactExpAVX2(g)
	exactSoftmaxAVX2(g)
	exactDivAVX2(g)
	swiGLUAVX2(g)
	fastSoftmaxAVX2(g)
}

// widenAVX2: WidenF16AVX2(dst *float32, src *uint16, n int), n a multiple
// of 8.
func widenAVX2(g *gen) {
	g.text("WidenF16AVX2", "$0-24", "(dst *float32, src *uint16, n int)", `
dst[i] = the value of the binary16 src[i] for i < n, n a multiple of 8.
VCVTPH2PS quiets a signalling NaN (sets bit 22); the table quant.F16Table
keeps it signalling, so where |h| is in (0x7c00, 0x7e00) bit 22 is flipped
back. Twin: kernels.widenF16Generic.`)
	g.named(
		reg{"VAL", 0, "the widened values"}, reg{"ABS", 1, "|h| as 32-bit lanes"},
		reg{"SNAN", 2, "signalling NaN lanes"}, reg{"T", 3, "scratch"},
		reg{"MASK", 4, "0x7fff"}, reg{"INF", 5, "0x7c00"}, reg{"QNAN", 6, "0x7e00"},
		reg{"QUIET", 7, "bit 22"},
	)
	g.i("MOVQ", "dst+0(FP), DI")
	g.i("MOVQ", "src+8(FP), SI")
	g.i("MOVQ", "n+16(FP), CX")
	g.i("SHRQ", "$3, CX")
	g.jmp("JZ", "ret")
	g.i("VPBROADCASTD", "attnAVX2Tab<>+0(SB), MASK")
	g.i("VPBROADCASTD", "attnAVX2Tab<>+4(SB), INF")
	g.i("VPBROADCASTD", "attnAVX2Tab<>+8(SB), QNAN")
	g.i("VPBROADCASTD", "attnAVX2Tab<>+12(SB), QUIET")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("loop")
	g.i("VCVTPH2PS", "(SI), VAL")
	g.i("VPMOVZXWD", "(SI), ABS")
	g.i("VPAND", "MASK, ABS, ABS")
	g.ic("VPCMPGTD", "INF, ABS, SNAN", "|h| > 0x7c00: NaN")
	g.ic("VPCMPGTD", "ABS, QNAN, T", "|h| < 0x7e00: signalling")
	g.i("VPAND", "T, SNAN, SNAN")
	g.i("VPAND", "QUIET, SNAN, SNAN")
	g.ic("VPXOR", "SNAN, VAL, VAL", "clear the quiet bit VCVTPH2PS set")
	g.i("VMOVUPS", "VAL, (DI)")
	g.i("ADDQ", "$16, SI")
	g.i("ADDQ", "$32, DI")
	g.i("DECQ", "CX")
	g.jmp("JNZ", "loop")
	g.blank()
	g.end()
}

// scoresAVX2: ExactScores[F16]AVX2(st, qt *float32, rs int, k *T, ldk, hd,
// n int): four keys at a time (then one), per two 8-row lane groups of qt
// (then one): one accumulator per key and group over d, a qt load per
// group and a broadcast key value per key, each used twice. Eight
// accumulators hide the latency of VADDPS (the one-group pass has four).
func scoresAVX2(g *gen, e elem, fused bool) {
	name, how, twin := "ExactScores"+e.suffix+"AVX2", "(VMULPS then VADDPS)", "kernels.exactScores"+e.suffix+"Generic"
	if fused {
		name, how, twin = "FastScores"+e.suffix+"AVX2", "fused (VFMADD231PS)", "the same within the fused rounding"
	}
	g.text(name, "$0-56", fmt.Sprintf("(st, qt *float32, rs int, k %s, ldk, hd, n int)", e.goType), `
st[j·rs + r] = Σ_d qt[d·rs + r]·k[j·ldk + d] for j < n, r < rs, d < hd,
summed over d in order from +0 `+how+`. rs is a multiple of 8,
hd ≥ 1, n ≥ 1. Twin: `+twin+`.`)
	g.named(
		reg{"ACC0", 0, "key j's scores of lane group 0"}, reg{"ACC1", 1, "key j+1"},
		reg{"ACC2", 2, "key j+2"}, reg{"ACC3", 3, "key j+3"},
		reg{"ACC4", 4, "key j's scores of lane group 1"}, reg{"ACC5", 5, "key j+1"},
		reg{"ACC6", 6, "key j+2"}, reg{"ACC7", 7, "key j+3"},
		reg{"Q0", 8, "qt[d, group 0]"}, reg{"Q1", 9, "qt[d, group 1]"},
		reg{"B0", 10, "k[j, d] broadcast"}, reg{"B1", 11, "k[j+1, d]"},
		reg{"B2", 12, "k[j+2, d]"}, reg{"B3", 13, "k[j+3, d]"},
		reg{"T0", 14, "a product of group 0"}, reg{"T1", 15, "a product of group 1"},
	)
	g.p("#define ST DI  // st row of key j")
	g.p("#define QT SI  // qt")
	g.p("#define RS4 R8 // rs·4: bytes per st / qt row")
	g.p("#define KR R9  // key row j")
	g.p("#define LDK R10 // ldk in bytes")
	g.p("#define HD R11")
	g.p("#define N R12  // keys left")
	g.p("#define QP R13 // walks qt down the lane group")
	g.p("#define KP R14 // walks key j's row along d")
	g.p("#define D R15  // d left")
	g.p("#define L3 BX  // 3·ldk in bytes")
	g.p("#define G CX   // lane group byte offset")
	g.p("#define SP_ AX // st store pointer")
	g.defs = append(g.defs, "ST", "QT", "RS4", "KR", "LDK", "HD", "N", "QP", "KP", "D", "L3", "G", "SP_")
	g.blank()
	g.i("MOVQ", "st+0(FP), ST")
	g.i("MOVQ", "qt+8(FP), QT")
	g.i("MOVQ", "rs+16(FP), RS4")
	g.i("SHLQ", "$2, RS4")
	g.i("MOVQ", "k+24(FP), KR")
	g.i("MOVQ", "ldk+32(FP), LDK")
	g.i("SHLQ", fmt.Sprintf("$%d, LDK", map[int]int{4: 2, 2: 1}[e.size]))
	g.i("MOVQ", "hd+40(FP), HD")
	g.i("MOVQ", "n+48(FP), N")
	g.i("LEAQ", "(LDK)(LDK*2), L3")
	g.blank()
	addr := []string{"(KP)", "(KP)(LDK*1)", "(KP)(LDK*2)", "(KP)(L3*1)"}
	for _, keys := range []int{4, 1} {
		tag := fmt.Sprint("keys", keys)
		g.label(tag)
		g.i("CMPQ", fmt.Sprintf("N, $%d", keys))
		if keys == 4 {
			g.jmp("JB", "keys1")
		} else {
			g.jmp("JB", "ret")
		}
		g.i("XORQ", "G, G")
		for _, groups := range []int{2, 1} {
			gtag := fmt.Sprintf("%s_g%d", tag, groups)
			g.label(gtag)
			g.i("LEAQ", fmt.Sprintf("%d(G), SP_", 32*groups))
			g.i("CMPQ", "SP_, RS4")
			if groups == 2 {
				g.jmp("JA", tag+"_g1")
			} else {
				g.jmp("JA", tag+"_next")
			}
			for gr := range groups {
				for a := range keys {
					r := fmt.Sprint("ACC", 4*gr+a)
					g.i("VXORPS", r+", "+r+", "+r)
				}
			}
			g.i("LEAQ", "(QT)(G*1), QP")
			g.i("MOVQ", "KR, KP")
			g.i("MOVQ", "HD, D")
			g.blank()
			g.i("PCALIGN", "$32")
			g.label(gtag + "_d")
			for gr := range groups {
				g.i("VMOVUPS", fmt.Sprintf("%d(QP), Q%d", 32*gr, gr))
			}
			for a := range keys {
				e.bcast(g, addr[a], fmt.Sprint("B", a))
			}
			for a := range keys {
				for gr := range groups {
					if fused {
						g.i("VFMADD231PS", fmt.Sprintf("Q%d, B%d, ACC%d", gr, a, 4*gr+a))
						continue
					}
					g.i("VMULPS", fmt.Sprintf("Q%d, B%d, T%d", gr, a, gr))
					g.i("VADDPS", fmt.Sprintf("T%d, ACC%d, ACC%d", gr, 4*gr+a, 4*gr+a))
				}
			}
			g.i("ADDQ", "RS4, QP")
			g.i("ADDQ", fmt.Sprintf("$%d, KP", e.size))
			g.i("DECQ", "D")
			g.jmp("JNZ", gtag+"_d")
			g.blank()
			for gr := range groups {
				g.i("LEAQ", fmt.Sprintf("%d(ST)(G*1), SP_", 32*gr))
				for a := range keys {
					g.i("VMOVUPS", fmt.Sprintf("ACC%d, (SP_)", 4*gr+a))
					if a+1 < keys {
						g.i("ADDQ", "RS4, SP_")
					}
				}
			}
			g.i("ADDQ", fmt.Sprintf("$%d, G", 32*groups))
			g.jmp("JMP", gtag)
			g.blank()
		}
		g.label(tag + "_next")
		if keys == 4 {
			g.ic("LEAQ", "(KR)(LDK*4), KR", "the next four keys")
			g.i("MOVQ", "RS4, AX")
			g.i("SHLQ", "$2, AX")
			g.i("ADDQ", "AX, ST")
			g.i("SUBQ", "$4, N")
			g.jmp("JMP", "keys4")
		} else {
			g.i("ADDQ", "LDK, KR")
			g.i("ADDQ", "RS4, ST")
			g.i("DECQ", "N")
			g.jmp("JMP", "keys1")
		}
		g.blank()
	}
	g.end()
}

// weightedAVX2: ExactWeighted[F16]AVX2(o *float32, rows, hd int, pt
// *float32, rs int, v *T, ldv, n int): blocks of four rows first, each in
// column chunks of 16 (eight ymm accumulators, two per row, held over
// every key; the fused form first takes chunks of 24, see
// weightedBlocksAVX2) then of 8, so that a V row is loaded once for four rows:
// per key the four weights are tested for ±0 together (one branch; past
// the rows' limits they are 0 together and the key is skipped, a block
// with only some of them 0 takes an out-of-line path that skips those
// rows), otherwise per ymm of V a load and per row a broadcast weight, a
// multiply and an add. The rows left over go one at a time, in column
// chunks of 64 (eight accumulators) then of 8, per key a test of the
// weight's bits (a branch) that skips a ±0 weight.
func weightedAVX2(g *gen, e elem, fused bool) {
	name, how, twin := "ExactWeighted"+e.suffix+"AVX2", "products and sums separately rounded", "kernels.exactWeighted"+e.suffix+"Generic"
	if fused {
		name, how, twin = "FastWeighted"+e.suffix+"AVX2", "each product and sum fused (VFMADD231PS)", "the same within the fused rounding"
	}
	g.text(name, "$0-72", fmt.Sprintf("(o *float32, rows, hd int, pt *float32, rs int, v %s, ldv, n, pf int)", e.goType), `
o[r·hd + c] += pt[j·rs + r]·v[j·ldv + c] for r < rows, c < hd and j < n in
order, skipping a key whose weight is 0 (a NaN weight is not skipped),
`+how+`. hd is a multiple of 8, rows ≥ 1,
n ≥ 1. With pf ≠ 0 the one-row 64-column loop prefetches V 8 KiB ahead
(V that streams from beyond the caches). Twin: `+twin+`.`)
	if fused {
		// Twelve accumulators (blocks of four rows × 24 columns, three per
		// row) and the three V loads of a key: no register is left for
		// temporaries, so V0, V1 and P stand in for them before they are
		// loaded (the ±0 tests use V0, V1 and P zeroed).
		rs := make([]reg, 0, 16)
		for a := range 12 {
			rs = append(rs, reg{fmt.Sprint("ACC", a), a, "sums: row r + a/3 of a block, columns c + 8·(a mod 3)..; one row: o[r, c + 8a..]"})
		}
		g.named(append(rs,
			reg{"V0", 12, "v[j, c..c+7]; one row: v·p; the ±0 tests"}, reg{"V1", 13, "v[j, c+8..]; one row: v·p; the ±0 tests"},
			reg{"V2", 14, "v[j, c+16..]"}, reg{"P", 15, "the weight, broadcast; +0 in the ±0 tests"})...)
	} else {
		g.named(
			reg{"ACC0", 0, "o[r, c..c+7]"}, reg{"ACC1", 1, "o[r, c+8..] (blocks: o[r, c+8..c+15])"},
			reg{"ACC2", 2, "sums (blocks: row r+1)"}, reg{"ACC3", 3, "sums"},
			reg{"ACC4", 4, "sums (blocks: row r+2)"}, reg{"ACC5", 5, "sums"},
			reg{"ACC6", 6, "sums (blocks: row r+3)"}, reg{"ACC7", 7, "sums"},
			reg{"P", 8, "the weight, broadcast"},
			reg{"T0", 9, "v·p"}, reg{"T1", 10, "v·p"},
			reg{"V0", 11, "v[j, c..c+7] (blocks)"}, reg{"V1", 12, "v[j, c+8..c+15] (blocks)"},
			reg{"W", 13, "a block's four weights, then which are ±0"}, reg{"ZERO", 14, "+0"},
		)
	}
	g.p("#define OB DI   // o's row r")
	g.p("#define ROWS BX // rows left")
	g.p("#define HD4 R8  // hd·4")
	g.p("#define PB SI   // pt[r]")
	g.p("#define RS4 R9  // rs·4")
	g.p("#define V R10   // v")
	g.p("#define LDV R11 // ldv in bytes")
	g.p("#define N R12")
	g.p("#define M R13   // a block's ±0 weights as bits; o's row r+3")
	g.p("#define C R14   // column byte offset in o")
	g.p("#define OP R15  // o[r, c]")
	g.p("#define PP AX   // pt[j, r]")
	g.p("#define VP CX   // v[j, c]")
	g.p("#define J DX    // keys left")
	g.defs = append(g.defs, "OB", "ROWS", "HD4", "PB", "RS4", "V", "LDV", "N", "M", "C", "OP", "PP", "VP", "J")
	g.blank()
	g.i("MOVQ", "o+0(FP), OB")
	g.i("MOVQ", "rows+8(FP), ROWS")
	g.i("MOVQ", "hd+16(FP), HD4")
	g.i("SHLQ", "$2, HD4")
	g.i("MOVQ", "pt+24(FP), PB")
	g.i("MOVQ", "rs+32(FP), RS4")
	g.i("SHLQ", "$2, RS4")
	g.i("MOVQ", "v+40(FP), V")
	g.i("MOVQ", "ldv+48(FP), LDV")
	g.i("SHLQ", fmt.Sprintf("$%d, LDV", map[int]int{4: 2, 2: 1}[e.size]))
	g.i("MOVQ", "n+56(FP), N")
	if !fused {
		g.i("VXORPS", "ZERO, ZERO, ZERO")
	}
	g.blank()
	weightedBlocksAVX2(g, e, fused)
	g.label("row")
	g.i("TESTQ", "ROWS, ROWS")
	g.jmp("JZ", "ret")
	g.i("MOVQ", "OB, OP")
	g.i("XORQ", "C, C")
	g.blank()
	for _, accs := range []int{8, 1} {
		tag := fmt.Sprint("c", 8*accs)
		g.label(tag)
		g.i("MOVQ", "HD4, J")
		g.i("SUBQ", "C, J")
		g.i("CMPQ", fmt.Sprintf("J, $%d", 32*accs))
		if accs == 8 {
			g.jmp("JB", "c8")
		} else {
			g.jmp("JB", "next")
		}
		for a := range accs {
			g.i("VMOVUPS", fmt.Sprintf("%d(OP), ACC%d", 32*a, a))
		}
		g.i("MOVQ", "PB, PP")
		g.i("MOVQ", "C, VP")
		if e.size == 2 {
			g.ic("SHRQ", "$1, VP", "column offset in binary16 values")
		}
		g.i("ADDQ", "V, VP")
		g.i("MOVQ", "N, J")
		loops := []string{""}
		if accs == 8 {
			loops = []string{"", "pf"}
			g.ic("CMPQ", "pf+64(FP), $0", "not 0: prefetch V 8 KiB ahead")
			g.jmp("JNE", tag+"_keyspf")
		}
		for _, l := range loops {
			g.blank()
			g.i("PCALIGN", "$32")
			g.label(tag + "_keys" + l)
			if l == "pf" {
				g.prefetchLines("VP", 8192, 8*accs*e.size)
			}
			g.ic("TESTL", "$0x7fffffff, (PP)", "p is ±0: skip the key (a NaN p is not 0)")
			g.jmp("JZ", tag+"_skip"+l)
			g.i("VBROADCASTSS", "(PP), P")
			for a := range accs {
				t := fmt.Sprint("T", a%2)
				if fused {
					t = fmt.Sprint("V", a%2)
				}
				e.load8(g, fmt.Sprintf("%d(VP)", 8*e.size*a), t)
				if fused {
					g.i("VFMADD231PS", fmt.Sprintf("P, %s, ACC%d", t, a))
					continue
				}
				g.i("VMULPS", "P, "+t+", "+t)
				g.i("VADDPS", fmt.Sprintf("%s, ACC%d, ACC%d", t, a, a))
			}
			g.label(tag + "_skip" + l)
			g.i("ADDQ", "RS4, PP")
			g.i("ADDQ", "LDV, VP")
			g.i("DECQ", "J")
			g.jmp("JNZ", tag+"_keys"+l)
			if l == "" && len(loops) > 1 {
				g.jmp("JMP", tag+"_store")
			}
		}
		g.blank()
		if accs == 8 {
			g.label(tag + "_store")
		}
		for a := range accs {
			g.i("VMOVUPS", fmt.Sprintf("ACC%d, %d(OP)", a, 32*a))
		}
		g.i("ADDQ", fmt.Sprintf("$%d, OP", 32*accs))
		g.i("ADDQ", fmt.Sprintf("$%d, C", 32*accs))
		g.jmp("JMP", tag)
		g.blank()
	}
	g.label("next")
	g.i("ADDQ", "HD4, OB")
	g.i("ADDQ", "$4, PB")
	g.i("DECQ", "ROWS")
	g.jmp("JMP", "row")
	g.blank()
	g.end()
}

// weightedBlocksAVX2 writes ExactWeighted[F16]AVX2's loop over blocks of
// four rows (see weightedAVX2); it falls through to the one-row loop with
// fewer than four rows left. The columns go in chunks of 16 (two ymm
// accumulators per row) then of 8; the fused form starts with chunks of
// 24 (three per row: twelve independent multiply-add chains, enough to
// cover the latency of VFMADD231PS) while at least 40 columns are left, or
// exactly 24. Row i of a block has the accumulators ACC(w·i + c), w = 3
// in the 24-column chunks, else 2. The keys go four at a time while none
// of their sixteen weights is ±0 (one test for the four), else one at a
// time with a test of the key's four weights.
func weightedBlocksAVX2(g *gen, e elem, fused bool) {
	orow := []string{"(OP)", "(OP)(HD4*1)", "(OP)(HD4*2)", "(M)"}
	chunks := []int{2, 1}
	// The ±0 tests' registers: two for weights, one for +0.
	tw, tw2, zero := "W", "V0", "ZERO"
	if fused {
		chunks = []int{3, 2, 1}
		tw, tw2, zero = "V0", "V1", "P"
	}
	setZero := func() {
		if fused {
			g.i("VXORPS", "P, P, P")
		}
	}
	g.label("blk")
	g.i("CMPQ", "ROWS, $4")
	g.jmp("JB", "row")
	g.i("XORQ", "C, C")
	for ci, cols := range chunks {
		tag := fmt.Sprint("b", 8*cols)
		next := "blk_next"
		if ci+1 < len(chunks) {
			next = fmt.Sprint("b", 8*chunks[ci+1])
		}
		stride := max(cols, 2)
		acc := func(r, c int) string { return fmt.Sprint("ACC", stride*r+c) }
		g.label(tag)
		g.i("MOVQ", "HD4, J")
		g.i("SUBQ", "C, J")
		if cols == 3 {
			g.ic("CMPQ", "J, $160", "at least 40 columns left")
			g.jmp("JAE", tag+"_go")
			g.ic("CMPQ", "J, $96", "or exactly 24")
			g.jmp("JNE", next)
			g.label(tag + "_go")
		} else {
			g.i("CMPQ", fmt.Sprintf("J, $%d", 32*cols))
			g.jmp("JB", next)
		}
		g.i("LEAQ", "(OB)(C*1), OP")
		g.i("LEAQ", "(OP)(HD4*2), M")
		g.ic("ADDQ", "HD4, M", "o's row r+3")
		for r := range 4 {
			for c := range cols {
				g.i("VMOVUPS", fmt.Sprintf("%d%s, %s", 32*c, orow[r], acc(r, c)))
			}
		}
		g.i("MOVQ", "PB, PP")
		g.i("MOVQ", "C, VP")
		if e.size == 2 {
			g.ic("SHRQ", "$1, VP", "column offset in binary16 values")
		}
		g.i("ADDQ", "V, VP")
		g.i("MOVQ", "N, J")
		// key writes the products and sums of the key whose weights are at
		// pp and V row at vp, for the rows whose bit of M is clear when
		// masked (V in V0, V1, V2).
		key := func(pp, vp string, masked bool, skip string) {
			for c := range cols {
				e.load8(g, fmt.Sprintf("%d%s", 8*e.size*c, vp), fmt.Sprint("V", c))
			}
			for r := range 4 {
				if masked {
					g.i("BTL", fmt.Sprintf("$%d, M", r))
					g.jmp("JCS", fmt.Sprintf("%s%d", skip, r))
				}
				g.i("VBROADCASTSS", fmt.Sprintf("%d%s, P", 4*r, pp))
				for c := range cols {
					if fused {
						g.i("VFMADD231PS", fmt.Sprintf("V%d, P, %s", c, acc(r, c)))
						continue
					}
					t := fmt.Sprint("T", c)
					g.i("VMULPS", fmt.Sprintf("V%d, P, %s", c, t))
					g.i("VADDPS", fmt.Sprintf("%s, %s, %s", t, acc(r, c), acc(r, c)))
				}
				if masked {
					g.label(fmt.Sprintf("%s%d", skip, r))
				}
			}
		}
		w, w2 := g.x(tw), g.x(tw2)
		yw, yw2 := g.y(tw), g.y(tw2)
		{
			k4, k1 := tag+"_keys", tag+"_key"
			g.blank()
			g.i("PCALIGN", "$32")
			g.label(k4)
			if cols > 1 { // (the 8-column tail goes one key at a time)
				g.i("CMPQ", "J, $4")
				g.jmp("JB", k1+"_tail")
				g.ic("VMOVUPS", "(PP), "+w, "the sixteen weights of keys j..j+3")
				g.i("VINSERTF128", "$1, (PP)(RS4*1), "+yw+", "+yw)
				g.i("LEAQ", "(PP)(RS4*2), M")
				g.i("VMOVUPS", "(M), "+w2)
				g.i("VINSERTF128", "$1, (M)(RS4*1), "+yw2+", "+yw2)
				g.ic("VPSLLD", "$1, "+yw+", "+yw, "without the signs")
				g.i("VPSLLD", "$1, "+yw2+", "+yw2)
				g.ic("VPMINUD", yw2+", "+yw+", "+yw, "0 where either is ±0")
				setZero()
				g.i("VPCMPEQD", g.y(zero)+", "+yw+", "+yw)
				g.i("VPTEST", yw+", "+yw)
				g.ic("JNZ", g.l(k1), "some weight is ±0: one key at a time")
				key("(PP)", "(VP)", false, "")
				key("(PP)(RS4*1)", "(VP)(LDV*1)", false, "")
				g.i("LEAQ", "(PP)(RS4*2), PP")
				g.i("LEAQ", "(VP)(LDV*2), VP")
				key("(PP)", "(VP)", false, "")
				key("(PP)(RS4*1)", "(VP)(LDV*1)", false, "")
				g.i("LEAQ", "(PP)(RS4*2), PP")
				g.i("LEAQ", "(VP)(LDV*2), VP")
				g.i("SUBQ", "$4, J")
				g.jmp("JMP", k4)
				g.blank()
			}
			g.label(k1 + "_tail")
			g.i("TESTQ", "J, J")
			g.jmp("JZ", tag+"_store")
			g.label(k1)
			g.ic("VMOVUPS", "(PP), "+w, "the four rows' weights of key j")
			g.ic("VPSLLD", "$1, "+w+", "+w, "without the sign")
			setZero()
			g.ic("VPCMPEQD", g.x(zero)+", "+w+", "+w, "±0")
			g.i("VMOVMSKPS", w+", M")
			g.i("TESTL", "M, M")
			g.ic("JNZ", g.l(k1+"_some"), "some weight is ±0")
			key("(PP)", "(VP)", false, "")
			g.label(k1 + "_skip")
			g.i("ADDQ", "RS4, PP")
			g.i("ADDQ", "LDV, VP")
			g.i("DECQ", "J")
			g.jmp("JMP", k4)
			g.blank()
			g.label(k1 + "_some")
			g.i("CMPL", "M, $15")
			g.ic("JEQ", g.l(k1+"_skip"), "all four: skip the key")
			key("(PP)", "(VP)", true, k1+"_row")
			g.jmp("JMP", k1+"_skip")
		}
		g.blank()
		g.label(tag + "_store")
		g.i("LEAQ", "(OP)(HD4*2), M")
		g.i("ADDQ", "HD4, M")
		for r := range 4 {
			for c := range cols {
				g.i("VMOVUPS", fmt.Sprintf("%s, %d%s", acc(r, c), 32*c, orow[r]))
			}
		}
		g.i("ADDQ", fmt.Sprintf("$%d, C", 32*cols))
		g.jmp("JMP", tag)
		g.blank()
	}
	g.label("blk_next")
	g.i("LEAQ", "(OB)(HD4*4), OB")
	g.i("ADDQ", "$16, PB")
	g.i("SUBQ", "$4, ROWS")
	g.jmp("JMP", "blk")
	g.blank()
}

// dotRowsAVX2: DotRows[F16]AVX2(dst, q *float32, hd int, k *T, ldk, n int):
// four keys at a time (then one), one FMA accumulator per key over d, then
// the four horizontal sums at once (VHADDPS). The one-key path adds in
// another order than the four-key path; which keys take it depends only
// on n.
func dotRowsAVX2(g *gen, e elem) {
	name := "DotRows" + e.suffix + "AVX2"
	g.text(name, "$0-56", fmt.Sprintf("(dst, q *float32, hd int, k %s, ldk, n, pf int)", e.goType), `
dst[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d < hd, reassociated and fused.
hd is a multiple of 8, n ≥ 1. With pf ≠ 0 the four-key loop prefetches K
8 KiB ahead. Twin: kernels.dotRowsGeneric.`)
	g.named(
		reg{"ACC0", 0, "key j"}, reg{"ACC1", 1, "key j+1"}, reg{"ACC2", 2, "key j+2"}, reg{"ACC3", 3, "key j+3"},
		reg{"Q", 4, "q[d..d+7]"}, reg{"T0", 5, "widened k, then scratch"}, reg{"T1", 6, "widened k"},
		reg{"T2", 7, "widened k"}, reg{"T3", 8, "widened k"},
	)
	g.p("#define DST DI")
	g.p("#define QB SI  // q")
	g.p("#define HD R8  // hd/8")
	g.p("#define KR R9  // key row j")
	g.p("#define LDK R10 // ldk in bytes")
	g.p("#define N R11  // keys left")
	g.p("#define QP R12")
	g.p("#define KP R13")
	g.p("#define D R14")
	g.p("#define L3 R15 // 3·ldk in bytes")
	g.p("#define PF AX  // not 0: prefetch K 8 KiB ahead")
	g.defs = append(g.defs, "DST", "QB", "HD", "KR", "LDK", "N", "QP", "KP", "D", "L3", "PF")
	g.blank()
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "q+8(FP), QB")
	g.i("MOVQ", "hd+16(FP), HD")
	g.i("SHRQ", "$3, HD")
	g.i("MOVQ", "k+24(FP), KR")
	g.i("MOVQ", "ldk+32(FP), LDK")
	g.i("SHLQ", fmt.Sprintf("$%d, LDK", map[int]int{4: 2, 2: 1}[e.size]))
	g.i("MOVQ", "n+40(FP), N")
	g.i("MOVQ", "pf+48(FP), PF")
	g.i("LEAQ", "(LDK)(LDK*2), L3")
	g.blank()
	addr := []string{"(KP)", "(KP)(LDK*1)", "(KP)(LDK*2)", "(KP)(L3*1)"}
	for _, keys := range []int{4, 1} {
		tag := fmt.Sprint("keys", keys)
		g.label(tag)
		g.i("CMPQ", fmt.Sprintf("N, $%d", keys))
		if keys == 4 {
			g.jmp("JB", "keys1")
		} else {
			g.jmp("JB", "ret")
		}
		for a := range keys {
			r := fmt.Sprint("ACC", a)
			g.i("VXORPS", r+", "+r+", "+r)
		}
		g.i("MOVQ", "QB, QP")
		g.i("MOVQ", "KR, KP")
		g.i("MOVQ", "HD, D")
		loops := []string{""}
		if keys == 4 {
			loops = []string{"", "pf"}
			g.i("TESTQ", "PF, PF")
			g.jmp("JNZ", tag+"_dpf")
		}
		for _, l := range loops {
			g.blank()
			g.i("PCALIGN", "$32")
			g.label(tag + "_d" + l)
			if l == "pf" {
				for a := range keys {
					g.i("PREFETCHT0", "8192"+addr[a])
				}
			}
			g.i("VMOVUPS", "(QP), Q")
			for a := range keys {
				if e.size == 2 {
					t := fmt.Sprint("T", a)
					g.i("VCVTPH2PS", addr[a]+", "+t)
					g.i("VFMADD231PS", fmt.Sprintf("%s, Q, ACC%d", t, a))
				} else {
					g.i("VFMADD231PS", fmt.Sprintf("%s, Q, ACC%d", addr[a], a))
				}
			}
			g.i("ADDQ", "$32, QP")
			g.i("ADDQ", fmt.Sprintf("$%d, KP", 8*e.size))
			g.i("DECQ", "D")
			g.jmp("JNZ", tag+"_d"+l)
			if l == "" && len(loops) > 1 {
				g.jmp("JMP", tag+"_sum")
			}
		}
		g.blank()
		if keys == 4 {
			g.label(tag + "_sum")
		}
		if keys == 4 {
			g.ic("VHADDPS", "ACC1, ACC0, ACC0", "pairs of keys j, j+1 per 128-bit lane")
			g.i("VHADDPS", "ACC3, ACC2, ACC2")
			g.ic("VHADDPS", "ACC2, ACC0, ACC0", "keys j..j+3, each 128-bit lane")
			g.i("VEXTRACTF128", "$1, ACC0, X5")
			g.ic("VADDPS", "X5, X0, X0", "the four dots")
			g.i("VMOVUPS", "X0, (DST)")
			g.i("ADDQ", "$16, DST")
			g.i("LEAQ", "(KR)(LDK*4), KR")
			g.i("SUBQ", "$4, N")
		} else {
			g.hsum8(0, 5)
			g.i("VMOVSS", "X0, (DST)")
			g.i("ADDQ", "$4, DST")
			g.i("ADDQ", "LDK, KR")
			g.i("DECQ", "N")
		}
		g.jmp("JMP", tag)
		g.blank()
	}
	g.end()
}

// The AVX2 forms of Exact's exponential (kernels.Exp): ExactExpAVX2 and
// ExactSoftmaxAVX2. Exp's steps run in float64 lanes, four a register,
// each separately rounded (VMULPD, VADDPD, VSUBPD, VROUNDPD; never FMA),
// with one rounding to float32 at the end (VCVTPD2PS). The special cases
// come from clamping x to [−104.5, 89] first: below −104 the float64
// result is under half the smallest subnormal and rounds to +0, from
// 88.72283935546875 on it rounds to +Inf, as Exp's cases give; a NaN is
// put back from the argument at the end.

// expTab is the table of the exponential, one 32-byte row per constant.
var expRows = []struct {
	name string
	bits uint64 // float64 bits (or an int64), four times; f32: float32 bits, eight times
	f32  bool
}{
	{"LOG2E", 0x3ff71547652b82fe, false}, {"HALF", 0x3fe0000000000000, false}, {"ONE", 0x3ff0000000000000, false},
	{"LN2HI", 0x3fe62e42fee00000, false}, {"LN2LO", 0x3dea39ef35793c76, false},
	{"C2", 0x3fe0000000000000, false}, {"C3", 0x3fc5555555555555, false}, {"C4", 0x3fa5555555555555, false},
	{"C5", 0x3f81111111111111, false}, {"C6", 0x3f56c16c16c16c17, false}, {"C7", 0x3f2a01a01a01a01a, false},
	{"C8", 0x3efa01a01a01a01a, false}, {"C9", 0x3ec71de3a556c734, false}, {"C10", 0x3e927e4fb7789f5c, false},
	{"C11", 0x3e5ae64567f544e4, false}, {"C12", 0x3e21eed8eff8d898, false}, {"C13", 0x3de6124613a86d09, false},
	{"MAGIC", 0x4338000000000000, false}, {"BIAS", 1023, false},
	{"XLO", 0xc2d10000, true}, {"XHI", 0x42b20000, true}, {"NEGINF", 0xff800000, true}, {"ONEI", 1, true},
	{"SIGN", 0x80000000, true}, {"ONEF", 0x3f800000, true}, {"QNAN", 0x7fc00000, true},
}

func expTab(g *gen) {
	var words []uint32
	for _, r := range expRows {
		for range 4 {
			if r.f32 {
				words = append(words, uint32(r.bits), uint32(r.bits))
			} else {
				words = append(words, uint32(r.bits), uint32(r.bits>>32))
			}
		}
	}
	g.data("attnAVX2Exp", words)
}

// expRow is the memory operand of a row of attnAVX2Exp.
func expRow(name string) string {
	for i, r := range expRows {
		if r.name == name {
			return fmt.Sprintf("attnAVX2Exp<>+%d(SB)", 32*i)
		}
	}
	panic("no row " + name)
}

// exppd writes Exp's steps on the four float64 lanes of the ymm register
// h (all but the special cases and the rounding to float32), in Exp's
// order; Y3-Y11 are scratch.
func exppd(g *gen, h string) {
	const n, r, r2, r4, r8, a0, a1, a2, a3 = "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "Y10", "Y11"
	k := expRow
	g.ic("VMULPD", k("LOG2E")+", "+h+", "+n, "x·log2e")
	g.ic("VADDPD", k("HALF")+", "+n+", "+n, "+ 0.5")
	g.ic("VROUNDPD", "$1, "+n+", "+n, "n = floor(...)")
	g.ic("VMULPD", k("LN2HI")+", "+n+", "+r, "n·ln2Hi")
	g.ic("VSUBPD", r+", "+h+", "+r, "x − n·ln2Hi")
	g.ic("VMULPD", k("LN2LO")+", "+n+", "+a0, "n·ln2Lo")
	g.ic("VSUBPD", a0+", "+r+", "+r, "r")
	g.ic("VMULPD", r+", "+r+", "+r2, "r²")
	g.ic("VMULPD", r2+", "+r2+", "+r4, "r⁴")
	g.ic("VMULPD", r4+", "+r4+", "+r8, "r⁸")
	g.ic("VADDPD", k("ONE")+", "+r+", "+a0, "a0 = 1 + r")
	pair := func(hi, lo, dst, comment string) { // dst = c_hi·r + c_lo
		g.i("VMULPD", k(hi)+", "+r+", "+dst)
		g.ic("VADDPD", k(lo)+", "+dst+", "+dst, comment)
	}
	pair("C3", "C2", a1, "a1 = c3·r + c2")
	g.i("VMULPD", a1+", "+r2+", "+a1)
	g.ic("VADDPD", a0+", "+a1+", "+a0, "b0 = a1·r² + a0")
	pair("C5", "C4", a1, "a2")
	pair("C7", "C6", a2, "a3")
	g.i("VMULPD", a2+", "+r2+", "+a2)
	g.ic("VADDPD", a1+", "+a2+", "+a1, "b1 = a3·r² + a2")
	pair("C9", "C8", a2, "a4")
	pair("C11", "C10", a3, "a5")
	g.i("VMULPD", a3+", "+r2+", "+a3)
	g.ic("VADDPD", a2+", "+a3+", "+a2, "b2 = a5·r² + a4")
	pair("C13", "C12", a3, "a6")
	g.i("VMULPD", a1+", "+r4+", "+a1)
	g.ic("VADDPD", a0+", "+a1+", "+a0, "c0 = b1·r⁴ + b0")
	g.i("VMULPD", a3+", "+r4+", "+a3)
	g.ic("VADDPD", a2+", "+a3+", "+a3, "c1 = a6·r⁴ + b2")
	g.i("VMULPD", a3+", "+r8+", "+a3)
	g.ic("VADDPD", a0+", "+a3+", "+a0, "p = c1·r⁸ + c0")
	g.ic("VADDPD", k("MAGIC")+", "+n+", "+n, "n + 1.5·2^52: n in the low bits")
	g.ic("VPADDQ", k("BIAS")+", "+n+", "+n, "+ 1023")
	g.ic("VPSLLQ", "$52, "+n+", "+n, "2^n")
	g.ic("VMULPD", n+", "+a0+", "+h, "p·2^n, exact")
}

// exp8 sets Y0 to Exp of its eight float32 lanes (Y1-Y13 scratch).
func exp8(g *gen) {
	g.ic("VCMPPS", "$3, Y0, Y0, Y13", "NaN lanes: the result is the argument")
	g.i("VMAXPS", expRow("XLO")+", Y0, Y12")
	g.ic("VMINPS", expRow("XHI")+", Y12, Y12", "x clamped to [−104.5, 89]")
	g.i("VCVTPS2PD", "X12, Y1")
	g.i("VEXTRACTF128", "$1, Y12, X2")
	g.i("VCVTPS2PD", "X2, Y2")
	exppd(g, "Y1")
	exppd(g, "Y2")
	g.ic("VCVTPD2PSY", "Y1, X1", "the one rounding to float32")
	g.i("VCVTPD2PSY", "Y2, X2")
	g.i("VINSERTF128", "$1, X2, Y1, Y1")
	g.i("VBLENDVPS", "Y13, Y0, Y1, Y0")
}

// exactExpAVX2: ExactExpAVX2(dst, x, m *float32, n, period int), period a
// multiple of 8.
func exactExpAVX2(g *gen) {
	g.text("ExactExpAVX2", "$0-40", "(dst, x, m *float32, n, period int)", `
dst[i] = Exp(x[i] − m[i mod period]) for i < n, n a multiple of period,
period a multiple of 8 (dst may be x). Twin: kernels.exactExpGeneric.`)
	g.regs, g.defs = map[string]int{}, nil
	g.i("MOVQ", "dst+0(FP), DI")
	g.i("MOVQ", "x+8(FP), SI")
	g.i("MOVQ", "m+16(FP), DX")
	g.i("MOVQ", "n+24(FP), CX")
	g.i("MOVQ", "period+32(FP), R8")
	g.i("SHLQ", "$2, R8")
	g.i("TESTQ", "CX, CX")
	g.jmp("JZ", "ret")
	g.ic("XORQ", "R9, R9", "byte offset in the period")
	g.blank()
	g.label("loop")
	g.i("VMOVUPS", "(SI), Y0")
	g.ic("VSUBPS", "(DX)(R9*1), Y0, Y0", "x − m, rounded to float32")
	exp8(g)
	g.i("VMOVUPS", "Y0, (DI)")
	g.i("ADDQ", "$32, SI")
	g.i("ADDQ", "$32, DI")
	g.i("ADDQ", "$32, R9")
	g.i("CMPQ", "R9, R8")
	g.jmp("JB", "next")
	g.i("XORQ", "R9, R9")
	g.label("next")
	g.i("SUBQ", "$8, CX")
	g.jmp("JNZ", "loop")
	g.blank()
	g.end()
}

// exactSoftmaxAVX2: ExactSoftmaxAVX2(st *float32, rs int, lim *int32,
// scale float32, n int), rs a multiple of 8: softmaxAVX2's passes with
// Exp (exp8) for the exponential and a division. exp8 needs every
// register but X, MAX and SUM, so the live-row mask waits on the stack
// through the exponential pass and the loop constants are loaded again.
func exactSoftmaxAVX2(g *gen) {
	softmaxAVX2(g, softmaxKind{
		name: "ExactSoftmaxAVX2", frame: "$32-40", doc: `
ExactSoftmax on 8 lanes (rows) at a time: s = st·scale for j < lim[r],
else −Inf; max (strict >); e = Exp(s − max) and the sum in key order; e /
sum, or 0 for j ≥ lim[r] and in rows whose every s is −Inf. rs is a
multiple of 8, n ≥ 1. Twin: kernels.exactSoftmaxGeneric.`,
		row:   expRow,
		spill: true,
		exp: func(g *gen) string {
			exp8(g) // Y0 is X
			return "X"
		},
		weight: func(g *gen) {
			g.i("VMOVUPS", "(PT), X")
			g.ic("VDIVPS", "SUM, X, X", "e / sum")
		},
	})
}

// fastSoftmaxAVX2: FastSoftmaxAVX2(st *float32, rs int, lim *int32, scale
// float32, n int): softmaxAVX2's passes with a fused exponential
// (fastExpRows) and a multiplication by 1/sum for the division.
func fastSoftmaxAVX2(g *gen) {
	var words []uint32
	for _, r := range fastExpRows {
		for range 8 {
			words = append(words, r.bits)
		}
	}
	g.data("fastExpTab", words)
	softmaxAVX2(g, softmaxKind{
		name: "FastSoftmaxAVX2", frame: "$0-40", doc: `
SoftmaxCols on 8 lanes (rows) at a time with a fused exponential: s =
st·scale for j < lim[r], else −Inf; max (strict >); e = exp(s − max)
(within a few ulp of Exp32; 0 below e^−86) and the sum in key order;
e·(1/sum), or 0 for j ≥ lim[r] and in rows whose every s is −Inf. A NaN
score gives its row NaN weights. rs is a multiple of 8, n ≥ 1. Twin:
kernels.softmaxColsGeneric, within Fast's tolerance.`,
		row: fastExpRow,
		regs: []reg{
			{"R", 2, "r"}, {"NN", 3, "n, then 2^n"}, {"P", 4, "the polynomial, then e"},
			{"MINX", 12, "−86"}, {"ONE", 13, "1"},
		},
		setup: func(g *gen) {
			g.i("VBROADCASTSS", fastExpRow("MINX")+", MINX")
			g.i("VBROADCASTSS", fastExpRow("ONE")+", ONE")
		},
		exp: func(g *gen) string {
			g.ic("VMAXPS", "X, MINX, R", "max(x, −86); a NaN x stays")
			g.i("VMULPS", fastExpRow("LOG2E")+", R, NN")
			g.ic("VROUNDPS", "$0, NN, NN", "n = x·log2 e to nearest, in −125..0")
			g.ic("VFMADD231PS", fastExpRow("NLN2HI")+", NN, R", "r = x − n·ln2hi (exact)")
			g.ic("VFMADD231PS", fastExpRow("NLN2LO")+", NN, R", "r −= n·ln2lo")
			g.i("VBROADCASTSS", fastExpRow("C0")+", P")
			for _, c := range []string{"C1", "C2", "C3", "C4", "C5"} {
				g.ic("VFMADD213PS", fastExpRow(c)+", R, P", "p = p·r + "+c)
			}
			g.ic("VMULPS", "R, R, T", "r²")
			g.ic("VFMADD213PS", "R, T, P", "p·r² + r")
			g.ic("VADDPS", "ONE, P, P", "e^r")
			g.ic("VCVTPS2DQ", "NN, NN", "n, exact")
			g.i("VPADDD", fastExpRow("BIAS")+", NN, NN")
			g.ic("VPSLLD", "$23, NN, NN", "2^n, normal")
			g.ic("VMULPS", "NN, P, P", "e^x")
			g.ic("VCMPPS", "$0x11, MINX, X, T", "x < −86 (LT_OQ: not NaN)")
			g.ic("VANDNPS", "P, T, P", "there 0")
			return "P"
		},
		reciprocal: true,
		weight: func(g *gen) {
			g.ic("VMULPS", "(PT), SUM, X", "e·(1/sum)")
		},
	})
}

// softmaxKind is what ExactSoftmaxAVX2 and FastSoftmaxAVX2 do differently
// within softmaxAVX2.
type softmaxKind struct {
	name, frame, doc string
	row              func(name string) string // its constant table: the NEGINF and ONEI rows
	regs             []reg                    // registers of its own, beside softmaxAVX2's
	// spill: exp clobbers every register but X, MAX and SUM, so the live
	// rows wait at live-32(SP) through it and the loop constants are
	// loaded again (the frame has the 32 bytes).
	spill bool
	setup func(g *gen) // once, before the lane groups
	// exp sets e = exp(X), X = s − max, and returns e's register.
	exp        func(g *gen) string
	reciprocal bool         // SUM = 1/sum before pass 3
	weight     func(g *gen) // X = the weight of the e at (PT)
}

// softmaxAVX2 writes a softmax over the columns of st (st[j·rs + r], key
// j, row r) on 8 rows (lanes) at a time, in three passes per lane group:
// 1. s = st·scale where j < lim[r], else −Inf, stored back; the max
// (strict >) and the rows with a key that is not −Inf; a row without one
// gets max 0, to stay finite. 2. e = k.exp(s − max), stored, and their sum
// in key order. 3. k.weight, or 0 for j ≥ lim[r] and in rows without a key.
func softmaxAVX2(g *gen, k softmaxKind) {
	g.text(k.name, k.frame, "(st *float32, rs int, lim *int32, scale float32, n int)", k.doc)
	g.named(append([]reg{
		{"X", 0, "s, then x = s − max, then the weight"}, {"T", 1, "scratch"},
		{"SCALE", 5, "scale"}, {"NEGINF", 6, "−Inf"}, {"ONEI", 7, "int32 1"}, {"JV", 8, "int32 j"},
		{"LIMV", 9, "int32 lim[r]"}, {"LIVE", 10, "rows with a key that is not −Inf"}, {"M", 11, "j < lim[r]"},
		{"MAX", 14, "the rows' max"}, {"SUM", 15, "the sum of e (then 1/sum)"},
	}, k.regs...)...)
	g.p("#define ST DI   // st")
	g.p("#define RS4 R8 // rs·4")
	g.p("#define LIM SI // lim")
	g.p("#define N CX")
	g.p("#define G R9   // lane group byte offset")
	g.p("#define PT R10 // st[j, group]")
	g.p("#define J R11  // keys left")
	g.defs = append(g.defs, "ST", "RS4", "LIM", "N", "G", "PT", "J")
	g.blank()
	g.i("MOVQ", "st+0(FP), ST")
	g.i("MOVQ", "rs+8(FP), RS4")
	g.i("SHLQ", "$2, RS4")
	g.i("MOVQ", "lim+16(FP), LIM")
	g.i("MOVQ", "n+32(FP), N")
	g.i("TESTQ", "N, N")
	g.jmp("JZ", "ret")
	consts := func() {
		g.i("VBROADCASTSS", "scale+24(FP), SCALE")
		g.i("VBROADCASTSS", k.row("NEGINF")+", NEGINF")
		g.i("VBROADCASTSS", k.row("ONEI")+", ONEI")
	}
	if !k.spill {
		consts()
	}
	if k.setup != nil {
		k.setup(g)
	}
	g.i("XORQ", "G, G")
	g.blank()
	g.label("group")
	if k.spill {
		consts()
	}
	g.i("VMOVDQU", "(LIM)(G*1), LIMV")
	g.i("VPXOR", "JV, JV, JV")
	g.i("VMOVAPS", "NEGINF, MAX")
	g.i("VXORPS", "LIVE, LIVE, LIVE")
	g.i("LEAQ", "(ST)(G*1), PT")
	g.i("MOVQ", "N, J")
	g.label("scores")
	g.ic("VMULPS", "(PT), SCALE, X", "s·scale")
	g.ic("VPCMPGTD", "JV, LIMV, M", "j < lim[r]")
	g.ic("VBLENDVPS", "M, X, NEGINF, X", "else −Inf")
	g.i("VMOVUPS", "X, (PT)")
	g.ic("VMAXPS", "MAX, X, MAX", "s > max ? s : max")
	g.ic("VCMPPS", "$4, NEGINF, X, T", "s != −Inf (NaN too)")
	g.i("VORPS", "T, LIVE, LIVE")
	g.i("VPADDD", "ONEI, JV, JV")
	g.i("ADDQ", "RS4, PT")
	g.i("DECQ", "J")
	g.jmp("JNZ", "scores")
	g.i("VXORPS", "T, T, T")
	g.ic("VBLENDVPS", "LIVE, MAX, T, MAX", "rows without a key: max 0, to stay finite")
	if k.spill {
		g.ic("VMOVUPS", "LIVE, live-32(SP)", "kept through the exponential pass")
	}
	g.i("VXORPS", "SUM, SUM, SUM")
	g.i("LEAQ", "(ST)(G*1), PT")
	g.i("MOVQ", "N, J")
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("exp")
	g.i("VMOVUPS", "(PT), X")
	g.ic("VSUBPS", "MAX, X, X", "x = s − max: ≤ 0, −Inf or NaN")
	e := k.exp(g)
	g.i("VMOVUPS", e+", (PT)")
	g.ic("VADDPS", e+", SUM, SUM", "sum += e, in key order")
	g.i("ADDQ", "RS4, PT")
	g.i("DECQ", "J")
	g.jmp("JNZ", "exp")
	g.blank()
	if k.reciprocal {
		g.i("VBROADCASTSS", k.row("ONE")+", T")
		g.ic("VDIVPS", "SUM, T, SUM", "1/sum")
	}
	if k.spill {
		g.i("VBROADCASTSS", k.row("ONEI")+", ONEI")
		g.i("VMOVDQU", "(LIM)(G*1), LIMV")
		g.i("VMOVUPS", "live-32(SP), LIVE")
	}
	g.i("VPXOR", "JV, JV, JV")
	g.i("LEAQ", "(ST)(G*1), PT")
	g.i("MOVQ", "N, J")
	g.label("div")
	k.weight(g)
	g.ic("VPCMPGTD", "JV, LIMV, M", "j < lim[r]")
	g.i("VANDPS", "LIVE, M, M")
	g.ic("VANDPS", "M, X, X", "0 past lim[r] and in rows without a key")
	g.i("VMOVUPS", "X, (PT)")
	g.i("VPADDD", "ONEI, JV, JV")
	g.i("ADDQ", "RS4, PT")
	g.i("DECQ", "J")
	g.jmp("JNZ", "div")
	g.i("ADDQ", "$32, G")
	g.i("CMPQ", "G, RS4")
	g.jmp("JB", "group")
	g.blank()
	g.end()
}

// scoresRowAVX2: ExactScoresRow[F16]AVX2(s, q *float32, k *T, ldk, hd, n
// int): one query, one lane per key. Eight keys at a time, d in blocks of
// four: rows j and j+4 are loaded into the two halves of a ymm register
// (so for the four pairs), transposed within the 128-bit lanes
// (VUNPCKLPS/HPS, VUNPCKLPD/HPD) so that column c holds k[j..j+7, d+c],
// and acc += q[d+c]·that for c = 0..3 in order, separately rounded: each
// lane is the twin's sequential sum.
func scoresRowAVX2(g *gen, e elem) {
	name := "ExactScoresRow" + e.suffix + "AVX2"
	g.text(name, "$0-48", fmt.Sprintf("(s, q *float32, k %s, ldk, hd, n int)", e.goType), `
s[j] = Σ_d q[d]·k[j·ldk + d] for j < n, d < hd, summed over d in order
from +0 (VMULPS then VADDPS): ExactScores with rs = 1. n is a multiple of
8, hd a multiple of 4, both ≥ 1. Twin: kernels.exactScores`+e.suffix+`Generic (rs = 1).`)
	g.named(
		reg{"ACC", 0, "the eight keys' scores"},
		reg{"RA", 1, "keys j, j+4 (then column 0)"}, reg{"RB", 2, "keys j+1, j+5 (then column 1)"},
		reg{"RC", 3, "keys j+2, j+6 (then column 2)"}, reg{"RD", 4, "keys j+3, j+7 (then column 3)"},
		reg{"T0", 5, "interleaves"}, reg{"T1", 6, "interleaves"}, reg{"T2", 7, "interleaves"}, reg{"T3", 8, "interleaves"},
		reg{"QD", 9, "q[d+c] broadcast, then the product"},
	)
	g.p("#define S DI")
	g.p("#define QB SI  // q")
	g.p("#define KR R8  // key row j")
	g.p("#define LDK R9 // ldk in bytes")
	g.p("#define HD R10 // hd/4")
	g.p("#define N R11  // keys left")
	g.p("#define KP R12 // key row j at d")
	g.p("#define K4 R13 // key row j+4 at d")
	g.p("#define QP R14 // q at d")
	g.p("#define D R15  // d-blocks left")
	g.p("#define L3 BX  // 3·ldk in bytes")
	g.defs = append(g.defs, "S", "QB", "KR", "LDK", "HD", "N", "KP", "K4", "QP", "D", "L3")
	g.blank()
	g.i("MOVQ", "s+0(FP), S")
	g.i("MOVQ", "q+8(FP), QB")
	g.i("MOVQ", "k+16(FP), KR")
	g.i("MOVQ", "ldk+24(FP), LDK")
	g.i("SHLQ", fmt.Sprintf("$%d, LDK", map[int]int{4: 2, 2: 1}[e.size]))
	g.i("MOVQ", "hd+32(FP), HD")
	g.i("SHRQ", "$2, HD")
	g.i("MOVQ", "n+40(FP), N")
	g.i("LEAQ", "(LDK)(LDK*2), L3")
	g.blank()
	g.label("keys")
	g.i("VXORPS", "ACC, ACC, ACC")
	g.i("MOVQ", "KR, KP")
	g.i("LEAQ", "(KR)(LDK*4), K4")
	g.i("MOVQ", "QB, QP")
	g.i("MOVQ", "HD, D")
	g.blank()
	g.label("d")
	rows := []struct{ r, lo, hi string }{
		{"RA", "(KP)", "(K4)"}, {"RB", "(KP)(LDK*1)", "(K4)(LDK*1)"},
		{"RC", "(KP)(LDK*2)", "(K4)(LDK*2)"}, {"RD", "(KP)(L3*1)", "(K4)(L3*1)"},
	}
	for _, r := range rows {
		x := g.x(r.r)
		if e.size == 2 {
			g.i("VCVTPH2PS", r.lo+", "+x)
			g.i("VCVTPH2PS", r.hi+", "+g.x("T0"))
			g.i("VINSERTF128", "$1, "+g.x("T0")+", "+r.r+", "+r.r)
		} else {
			g.i("VMOVUPS", r.lo+", "+x)
			g.i("VINSERTF128", "$1, "+r.hi+", "+r.r+", "+r.r)
		}
	}
	g.ic("VUNPCKLPS", "RB, RA, T0", "per lane: a0 b0 a1 b1")
	g.ic("VUNPCKHPS", "RB, RA, T1", "a2 b2 a3 b3")
	g.ic("VUNPCKLPS", "RD, RC, T2", "c0 d0 c1 d1")
	g.ic("VUNPCKHPS", "RD, RC, T3", "c2 d2 c3 d3")
	g.ic("VUNPCKLPD", "T2, T0, RA", "column 0: a0 b0 c0 d0 per lane")
	g.ic("VUNPCKHPD", "T2, T0, RB", "column 1")
	g.ic("VUNPCKLPD", "T3, T1, RC", "column 2")
	g.ic("VUNPCKHPD", "T3, T1, RD", "column 3")
	for c, col := range []string{"RA", "RB", "RC", "RD"} {
		g.i("VBROADCASTSS", fmt.Sprintf("%d(QP), QD", 4*c))
		g.i("VMULPS", col+", QD, QD")
		g.ic("VADDPS", "QD, ACC, ACC", fmt.Sprintf("acc += q[d+%d]·k[·, d+%d]", c, c))
	}
	g.i("ADDQ", fmt.Sprintf("$%d, KP", 4*e.size))
	g.i("ADDQ", fmt.Sprintf("$%d, K4", 4*e.size))
	g.i("ADDQ", "$16, QP")
	g.i("DECQ", "D")
	g.jmp("JNZ", "d")
	g.blank()
	g.i("VMOVUPS", "ACC, (S)")
	g.i("ADDQ", "$32, S")
	g.ic("LEAQ", "(KR)(LDK*8), KR", "eight keys on")
	g.i("SUBQ", "$8, N")
	g.jmp("JNZ", "keys")
	g.blank()
	g.end()
}

// exactDivAVX2: ExactDivAVX2(x, d *float32, n, period int), period a
// multiple of 8.
func exactDivAVX2(g *gen) {
	g.text("ExactDivAVX2", "$0-32", "(x, d *float32, n, period int)", `
x[i] = x[i] / d[i mod period] for i < n, n a multiple of period, period a
multiple of 8 (VDIVPS: IEEE division). Twin: kernels.exactDivGeneric.`)
	g.regs, g.defs = map[string]int{}, nil
	g.i("MOVQ", "x+0(FP), DI")
	g.i("MOVQ", "d+8(FP), SI")
	g.i("MOVQ", "n+16(FP), CX")
	g.i("MOVQ", "period+24(FP), R8")
	g.i("SHLQ", "$2, R8")
	g.i("TESTQ", "CX, CX")
	g.jmp("JZ", "ret")
	g.ic("XORQ", "R9, R9", "byte offset in the period")
	g.blank()
	g.label("loop")
	g.i("VMOVUPS", "(DI), Y0")
	g.i("VDIVPS", "(SI)(R9*1), Y0, Y0")
	g.i("VMOVUPS", "Y0, (DI)")
	g.i("ADDQ", "$32, DI")
	g.i("ADDQ", "$32, R9")
	g.i("CMPQ", "R9, R8")
	g.jmp("JB", "next")
	g.i("XORQ", "R9, R9")
	g.label("next")
	g.i("SUBQ", "$8, CX")
	g.jmp("JNZ", "loop")
	g.blank()
	g.end()
}

// swiGLUAVX2: SwiGLUAVX2(dst, gate, up *float32, n int), n a multiple of
// 8: kernels.SiLU's steps on eight lanes, Exp by exp8 (Y0-Y13), the gate
// kept in Y14.
func swiGLUAVX2(g *gen) {
	g.text("SwiGLUAVX2", "$0-32", "(dst, gate, up *float32, n int)", `
dst[i] = SiLU(gate[i])·up[i] for i < n, n a multiple of 8: e = Exp(−g),
g / (1 + e), then the product (VADDPS, VDIVPS, VMULPS: each rounded to
float32), and the canonical NaN for a NaN result (dst may be gate or up).
Twin: kernels.swiGLUGeneric.`)
	g.regs, g.defs = map[string]int{}, nil
	g.i("MOVQ", "dst+0(FP), DI")
	g.i("MOVQ", "gate+8(FP), SI")
	g.i("MOVQ", "up+16(FP), DX")
	g.i("MOVQ", "n+24(FP), CX")
	g.i("TESTQ", "CX, CX")
	g.jmp("JZ", "ret")
	g.blank()
	g.label("loop")
	g.i("VMOVUPS", "(SI), Y14")
	g.ic("VXORPS", expRow("SIGN")+", Y14, Y0", "−g")
	exp8(g)
	g.ic("VADDPS", expRow("ONEF")+", Y0, Y0", "1 + e")
	g.ic("VDIVPS", "Y0, Y14, Y0", "g / (1 + e)")
	g.ic("VMULPS", "(DX), Y0, Y0", "· up")
	g.ic("VCMPPS", "$3, Y0, Y0, Y1", "NaN lanes")
	g.ic("VBLENDVPS", "Y1, "+expRow("QNAN")+", Y0, Y0", "the canonical NaN")
	g.i("VMOVUPS", "Y0, (DI)")
	g.i("ADDQ", "$32, SI")
	g.i("ADDQ", "$32, DX")
	g.i("ADDQ", "$32, DI")
	g.i("SUBQ", "$8, CX")
	g.jmp("JNZ", "loop")
	g.blank()
	g.end()
}

// fastExpRows are the float32 constants of FastSoftmaxAVX2's exponential,
// each a 32-byte row of eight copies (a ymm memory operand): e^x = 2^n·e^r with n = round(x·
// log2 e) and r = x − n·ln2 in two parts (Cody and Waite), e^r ≈ 1 + r +
// r²·P(r) with Cephes expf's degree-5 P, every step one fused
// multiply-add. Below MINX (e^−86 ≈ 4e−38, where 2^n stays normal) the
// result is 0.
var fastExpRows = []struct {
	name string
	bits uint32
}{
	{"LOG2E", 0x3fb8aa3b}, {"NLN2HI", 0xbf318000}, {"NLN2LO", 0x395e8083}, // log2 e, −0.693359375, +2.12194440e−4
	{"C0", 0x39506967}, {"C1", 0x3ab743ce}, {"C2", 0x3c088908}, // P(r), highest degree first
	{"C3", 0x3d2aa9c1}, {"C4", 0x3e2aaaaa}, {"C5", 0x3f000000},
	{"ONE", 0x3f800000}, {"MINX", 0xc2ac0000}, {"BIAS", 127}, {"NEGINF", 0xff800000}, {"ONEI", 1},
}

func fastExpRow(name string) string {
	for i, r := range fastExpRows {
		if r.name == name {
			return fmt.Sprintf("fastExpTab<>+%d(SB)", 32*i)
		}
	}
	log.Fatalf("no fastExpTab row %s", name)
	return ""
}
