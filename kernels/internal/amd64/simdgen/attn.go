package main

import "fmt"

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
//	DotRows[F16]AVX2          dotRowsGeneric         !!! reassociated, fused
//
// The Exact routines never fuse: every product is a VMULPS and every sum a
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
		scoresAVX2(g, e)
		weightedAVX2(g, e)
		dotRowsAVX2(g, e)
	}
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
// n int): four keys at a time (then one), per 8-row lane group of qt: one
// accumulator per key over d, a qt load and a broadcast key value per
// product.
func scoresAVX2(g *gen, e elem) {
	name := "ExactScores" + e.suffix + "AVX2"
	g.text(name, "$0-56", fmt.Sprintf("(st, qt *float32, rs int, k %s, ldk, hd, n int)", e.goType), `
st[j·rs + r] = Σ_d qt[d·rs + r]·k[j·ldk + d] for j < n, r < rs, d < hd,
summed over d in order from +0 (VMULPS then VADDPS). rs is a multiple of 8,
hd ≥ 1, n ≥ 1. Twin: kernels.exactScores`+e.suffix+`Generic.`)
	g.named(
		reg{"ACC0", 0, "key j's scores of the lane group"}, reg{"ACC1", 1, "key j+1"},
		reg{"ACC2", 2, "key j+2"}, reg{"ACC3", 3, "key j+3"},
		reg{"Q", 4, "qt[d, group]"},
		reg{"B0", 5, "k[j, d] broadcast, then the product"}, reg{"B1", 6, "k[j+1, d]"},
		reg{"B2", 7, "k[j+2, d]"}, reg{"B3", 8, "k[j+3, d]"},
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
		g.label(tag + "_group")
		for a := range keys {
			r := fmt.Sprint("ACC", a)
			g.i("VXORPS", r+", "+r+", "+r)
		}
		g.i("LEAQ", "(QT)(G*1), QP")
		g.i("MOVQ", "KR, KP")
		g.i("MOVQ", "HD, D")
		g.blank()
		g.label(tag + "_d")
		g.i("VMOVUPS", "(QP), Q")
		addr := []string{"(KP)", "(KP)(LDK*1)", "(KP)(LDK*2)", "(KP)(L3*1)"}
		for a := range keys {
			e.bcast(g, addr[a], fmt.Sprint("B", a))
		}
		for a := range keys {
			g.i("VMULPS", fmt.Sprintf("Q, B%d, B%d", a, a))
			g.i("VADDPS", fmt.Sprintf("B%d, ACC%d, ACC%d", a, a, a))
		}
		g.i("ADDQ", "RS4, QP")
		g.i("ADDQ", fmt.Sprintf("$%d, KP", e.size))
		g.i("DECQ", "D")
		g.jmp("JNZ", tag+"_d")
		g.blank()
		g.i("LEAQ", "(ST)(G*1), SP_")
		for a := range keys {
			g.i("VMOVUPS", fmt.Sprintf("ACC%d, (SP_)", a))
			if a+1 < keys {
				g.i("ADDQ", "RS4, SP_")
			}
		}
		g.i("ADDQ", "$32, G")
		g.i("CMPQ", "G, RS4")
		g.jmp("JB", tag+"_group")
		g.blank()
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
// *float32, rs int, v *T, ldv, n int): row by row, column chunks of 64
// (eight ymm accumulators held over every key) while they last, then of 8;
// per key and chunk a broadcast weight, its comparison with 0, and per ymm
// a V load, a multiply, an add and a blend that keeps the old sum where the
// weight is 0.
func weightedAVX2(g *gen, e elem) {
	name := "ExactWeighted" + e.suffix + "AVX2"
	g.text(name, "$0-72", fmt.Sprintf("(o *float32, rows, hd int, pt *float32, rs int, v %s, ldv, n, pf int)", e.goType), `
o[r·hd + c] += pt[j·rs + r]·v[j·ldv + c] for r < rows, c < hd and j < n in
order, skipping a key whose weight is 0 (a NaN weight is not skipped),
products and sums separately rounded. hd is a multiple of 8, rows ≥ 1,
n ≥ 1. With pf ≠ 0 the 64-column loop prefetches V 8 KiB ahead (V that
streams from beyond the caches). Twin: kernels.exactWeighted`+e.suffix+`Generic.`)
	g.named(
		reg{"ACC0", 0, "o[r, c..c+7]"}, reg{"ACC1", 1, "o[r, c+8..]"}, reg{"ACC2", 2, "sums"},
		reg{"ACC3", 3, "sums"}, reg{"ACC4", 4, "sums"}, reg{"ACC5", 5, "sums"},
		reg{"ACC6", 6, "sums"}, reg{"ACC7", 7, "sums"},
		reg{"P", 8, "the weight, broadcast"}, reg{"LIVE", 9, "weight != 0 (NaN too)"},
		reg{"ZERO", 10, "0"}, reg{"T0", 11, "v·p, then the new sum"}, reg{"T1", 12, "v·p, then the new sum"},
	)
	g.p("#define O DI    // o")
	g.p("#define ROWS BX")
	g.p("#define HD4 R8  // hd·4")
	g.p("#define PT SI   // pt")
	g.p("#define RS4 R9  // rs·4")
	g.p("#define V R10   // v")
	g.p("#define LDV R11 // ldv in bytes")
	g.p("#define N R12")
	g.p("#define R R13   // row")
	g.p("#define C R14   // column byte offset in o")
	g.p("#define OP R15  // o[r, c]")
	g.p("#define PP AX   // pt[j, r]")
	g.p("#define VP CX   // v[j, c]")
	g.p("#define J DX    // keys left")
	g.defs = append(g.defs, "O", "ROWS", "HD4", "PT", "RS4", "V", "LDV", "N", "R", "C", "OP", "PP", "VP", "J")
	g.blank()
	g.i("MOVQ", "o+0(FP), O")
	g.i("MOVQ", "rows+8(FP), ROWS")
	g.i("MOVQ", "hd+16(FP), HD4")
	g.i("SHLQ", "$2, HD4")
	g.i("MOVQ", "pt+24(FP), PT")
	g.i("MOVQ", "rs+32(FP), RS4")
	g.i("SHLQ", "$2, RS4")
	g.i("MOVQ", "v+40(FP), V")
	g.i("MOVQ", "ldv+48(FP), LDV")
	g.i("SHLQ", fmt.Sprintf("$%d, LDV", map[int]int{4: 2, 2: 1}[e.size]))
	g.i("MOVQ", "n+56(FP), N")
	g.i("VXORPS", "ZERO, ZERO, ZERO")
	g.i("XORQ", "R, R")
	g.blank()
	g.label("row")
	g.i("CMPQ", "R, ROWS")
	g.jmp("JAE", "ret")
	g.i("MOVQ", "R, OP")
	g.i("IMULQ", "HD4, OP")
	g.i("ADDQ", "O, OP")
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
		g.i("LEAQ", "(PT)(R*4), PP")
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
				g.prefetch("VP", 8192, 8*accs*e.size)
			}
			g.i("VBROADCASTSS", "(PP), P")
			g.ic("VCMPPS", "$4, ZERO, P, LIVE", "p != 0 (NEQ_UQ: NaN too)")
			for a := range accs {
				t := fmt.Sprint("T", a%2)
				e.load8(g, fmt.Sprintf("%d(VP)", 8*e.size*a), t)
				g.i("VMULPS", "P, "+t+", "+t)
				g.i("VADDPS", fmt.Sprintf("%s, ACC%d, %s", t, a, t))
				g.i("VBLENDVPS", fmt.Sprintf("LIVE, %s, ACC%d, ACC%d", t, a, a))
			}
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
	g.i("INCQ", "R")
	g.jmp("JMP", "row")
	g.blank()
	g.end()
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
