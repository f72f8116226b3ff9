// Command kqgen writes the Q4_K and Q5_K assembly kernels of package amd64
// (q4k_amd64.s, q5k_amd64.s): run `go generate` in kernels/internal/amd64
// after changing this file; `make gencheck` (part of `make asmcheck` and so
// of CI) fails when the committed .s files differ from its output.
//
// Each kernel shape — the matrix-vector kernel (MatVec), the one-row ×
// four-column tile (MatMul4), the ymm one-row × eight-column tile
// (matMul8Y) and the zmm one over column pairs (matMul8) — is one Go
// function below,
// written once. What differs between the routines it writes is a
// parameter:
//
//   - the quant type (kind): Q5_K adds the fifth bit of every quant (the
//     fifth* steps) to Q4_K's nibbles;
//   - the vector width (isa.zmm): the ymm routines handle one 32-value
//     sub-block per register, the zmm ones a 64-value chunk (two sub-blocks)
//     or one sub-block of two columns;
//   - the multiply-accumulate (isa.vnni, mac): VPMADDWD + VPADDD, or one
//     VPDPWSSD (AVX-512 VNNI on zmm, the AVX-VNNI VEX form on ymm through
//     VPDPWSSD_Y of vex_amd64.h, with the instruction as its comment);
//   - the nibble split of the zmm MatVec (isa.gfni, nibblesZ): a masked
//     VPSRLW and a VPANDD, or one VGF2P8AFFINEQB whose bit matrices keep
//     the low nibbles in the low 256 bits and move the high ones down in
//     the high 256 bits (only MatVec has a GFNI form: the
//     AVX512VNNIGFNI routines). The GFNI MatVec also takes blocks four at
//     a time (quadLoop), their scales unpacked by one vector unpack on
//     four 128-bit lanes instead of one scalar unpack a block; Q4_K's
//     has a second form on activations packed once per product
//     (MatVecQ4KPackedAVX512VNNIGFNI, matVecPacked).
//
// Why a generator and not #define body macros: the Go assembler gives every
// instruction of a macro expansion the line of the macro's use, so a
// routine written as one body macro would show in pprof's source views and
// in the assembler listing as a single line, and scripts/asmcheck-amd64,
// which re-encodes the comment of each line that holds a VEX encoding,
// could no longer tell one VPDPWSSD_Y from the next. Go asm macros also
// cannot loop, so the four chunks of a block would still be written out by
// hand. The generated files have one instruction per line, each vector
// register named by its role (#define per routine), and read like the
// hand-written kernels they replace.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"
)

// kind is a quant type.
type kind struct {
	name  string // Q4K
	block string // blockQ4K (go_asm.h prefix)
	q5    bool   // has the fifth bit (qh)
	twin  string // the Go twin
}

// isa is an instruction-set variant.
type isa struct {
	name string // routine suffix: AVX2, AVXVNNI, AVX512, AVX512VNNI, AVX512VNNIGFNI
	zmm  bool
	vnni bool
	gfni bool // the nibbles split by VGF2P8AFFINEQB (zmm MatVec only)
}

func (v isa) requires(t kind) string {
	switch {
	case !v.zmm && !v.vnni:
		return "AVX2, F16C"
	case !v.zmm:
		return "AVX2, F16C, AVX-VNNI"
	case !v.vnni:
		return "AVX512F, AVX512BW, AVX512VL, F16C"
	case v.gfni:
		return "AVX512F, AVX512BW, AVX512VL, AVX512VNNI, GFNI, F16C"
	}
	return "AVX512F, AVX512BW, AVX512VL, AVX512VNNI, F16C"
}

var (
	q4k = kind{"Q4K", "blockQ4K", false, "dotQ4KGeneric"}
	q5k = kind{"Q5K", "blockQ5K", true, "dotQ5KGeneric"}

	avx2           = isa{"AVX2", false, false, false}
	avxvnni        = isa{"AVXVNNI", false, true, false}
	avx512         = isa{"AVX512", true, false, false}
	avx512vnni     = isa{"AVX512VNNI", true, true, false}
	avx512vnnigfni = isa{"AVX512VNNIGFNI", true, true, true}
)

// The matrix-vector kernels stream their weights from L3 or DRAM, and the
// hardware prefetchers alone leave the loop waiting at every 4 KiB page, so
// they prefetch the weights pf bytes ahead of the block being read: pf is
// an argument, since the distance that streams fastest depends on the CPU
// (package kernels chooses it, kqPrefetchBlocks). Besides, each block (GFNI:
// each quad of blocks) prefetches the first line of the 4 KiB page that
// holds the byte pf ahead: the page touch, see pageTouch.

func main() {
	for _, t := range []kind{q4k, q5k} {
		g := &gen{t: t}
		g.file()
		name := strings.ToLower(t.name[:2]) + "k_amd64.s"
		if err := os.WriteFile(name, g.out.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// gen writes one .s file.
type gen struct {
	out  bytes.Buffer
	t    kind
	fn   string            // label prefix of the current routine
	regs map[string]string // role -> register of the current routine
	defs []string          // roles #defined for the current routine
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.out, format+"\n", args...) }

// i writes one instruction: i("VPADDD", "A, ACC, ACC").
func (g *gen) i(op, args string) {
	if args == "" {
		g.p("\t%s", op)
		return
	}
	g.p("\t%-15s %s", op, args)
}

// ic writes an instruction with a trailing comment.
func (g *gen) ic(op, args, comment string) { g.p("\t%-15s %-30s // %s", op, args, comment) }

func (g *gen) c(format string, args ...any) { g.p("\t// "+format, args...) }
func (g *gen) blank()                       { g.p("") }
func (g *gen) label(l string)               { g.p("%s_%s:", g.fn, l) }
func (g *gen) l(l string) string            { return g.fn + "_" + l }

// field is a go_asm.h offset of the weight block: field("qs") = blockQ4K_qs.
func (g *gen) field(f string) string { return g.t.block + "_" + f }
func (g *gen) size() string          { return "$" + g.t.block + "__size" }

// reg is one vector register of a routine and its role.
type reg struct{ role, r, doc string }

// named #defines the routine's vector registers by role.
func (g *gen) named(rs ...reg) {
	g.regs = map[string]string{}
	g.defs = nil
	for _, r := range rs {
		if r.doc == "" {
			g.p("#define %-5s %s", r.role, r.r)
		} else {
			g.p("#define %-5s %-3s // %s", r.role, r.r, r.doc)
		}
		g.regs[r.role] = r.r
		g.defs = append(g.defs, r.role)
	}
	g.blank()
}

// num is the register number of a role (for the VEX encoding macros).
func (g *gen) num(role string) int {
	r, ok := g.regs[role]
	if !ok {
		log.Fatalf("%s: no register %s", g.fn, role)
	}
	n, err := strconv.Atoi(r[1:])
	if err != nil {
		log.Fatalf("%s: register %s of %s", g.fn, r, role)
	}
	return n
}

// x is the X (low 128 bits) name of a role's register.
func (g *gen) x(role string) string { return "X" + g.regs[role][1:] }

// ymm is the Y name of a role's register.
func (g *gen) ymm(role string) string { return "Y" + g.regs[role][1:] }

func (g *gen) end() {
	g.blank()
	g.label("ret")
	g.i("VZEROUPPER", "")
	g.i("RET", "")
	g.blank()
	for _, d := range g.defs {
		g.p("#undef %s", d)
	}
	g.blank()
}

// mac: acc = sc·p summed in pairs (first), or acc += sc·p. p may be
// clobbered. sc and p are int16 words.
func (g *gen) mac(v isa, first bool, sc, p, acc string) {
	switch {
	case first:
		g.i("VPMADDWD", sc+", "+p+", "+acc)
	case !v.vnni:
		g.i("VPMADDWD", sc+", "+p+", "+p)
		g.i("VPADDD", p+", "+acc+", "+acc)
	case v.zmm:
		g.i("VPDPWSSD", sc+", "+p+", "+acc)
	default:
		g.p("\tVPDPWSSD_Y(%d, %d, %d) // {vex} vpdpwssd ymm%d, ymm%d, ymm%d",
			g.num(sc), g.num(p), g.num(acc), g.num(acc), g.num(p), g.num(sc))
	}
}

// scales unpacks the 6-bit scales and mins of the block at base (see
// kqScales below) into the qwords lo and hi, with AX, R10, R11 as scratch.
// Scalar code, so that the vector ports stay free: the zmm routines use it.
// The ymm ones use scalesY, which measured faster on a Zen 3. The zmm
// routines measured slower with scalesY's unpack on all four lanes (seven
// vector instructions, no frame): the MatVec 10–14% slower in cache on a
// Zen 5, Q4_K and Q5_K, avx512 and avx512vnni
// (bench/results/2026-12-05-zen5/kq-scalesZ.txt), so they keep this one,
// except the GFNI MatVec's four-block loop (quadLoop): with one vector
// unpack for four blocks its Q4_K took 0.89 of avx512vnni's time in cache
// and 0.88 from DRAM (gfni-quad-paired.txt; 0.96 before), and it keeps
// this one for the last nb mod 4 blocks of a row.
func (g *gen) scales(base, lo, hi string) {
	s := g.field("scales") + "(" + base + ")"
	s8 := g.field("scales") + "+8(" + base + ")"
	g.i("MOVQ", s+", AX")
	g.i("MOVL", s8+", R10")
	g.i("MOVQ", "AX, R11")
	g.ic("ANDQ", "kqM3F<>(SB), R11", "lo = sc0..3, m0..3")
	g.i("MOVQ", "R11, "+lo)
	g.i("SHRQ", "$2, AX")
	g.ic("ANDQ", "kqM30<>(SB), AX", "bits 4..5 of sc4..7, m4..7")
	g.i("MOVL", "R10, R11")
	g.i("SHRL", "$4, R11")
	g.i("SHLQ", "$32, R11")
	g.i("ORQ", "R11, R10")
	g.ic("ANDQ", "kqNib<>(SB), R10", "bits 0..3 of sc4..7, m4..7")
	g.i("ORQ", "AX, R10")
	g.i("MOVQ", "R10, "+hi)
}

// prefetch prefetches the three cache lines a block may touch, pf bytes
// (register PF) past p.
func (g *gen) prefetch(p string) { g.prefetchAt(p, "") }

// prefetchAt is prefetch for the block at p plus the byte offset wo ("" or
// "+expression"); a block at p itself (wo "") also touches its page.
func (g *gen) prefetchAt(p, wo string) {
	if wo == "" {
		g.pageTouch(p)
	}
	for _, off := range []int{0, 64, 128} {
		g.i("PREFETCHT0", fmt.Sprintf("%d%s(%s)(PF*1)", off, wo, p))
	}
}

// pageTouch prefetches the first cache line of the 4 KiB page that holds
// the byte pf (register PF) past p, through AX (dead wherever a block
// starts). The line-by-line prefetches reach that line anyway, so this
// reads no byte they do not; but on Zen 5 the MatVec kernels streamed from
// DRAM at 1.27-1.78 times the rate without it (one thread and two), in
// cache no faster (bench/results/2026-12-06-zen5-pagetouch/). Why is not known
// (no performance counters in that guest); a control with the same
// instruction bytes and no prefetch ran as fast as no touch.
func (g *gen) pageTouch(p string) {
	g.ic("LEAQ", fmt.Sprintf("(%s)(PF*1), AX", p), "page touch: the first line of the page pf ahead")
	g.i("ANDQ", "$-4096, AX")
	g.i("PREFETCHT0", "(AX)")
}

// text starts a routine.
func (g *gen) text(name, frame, sig, doc string, v isa) {
	g.fn = strings.ToLower(name[:1]) + name[1:]
	g.p("// func %s%s", name, sig)
	g.p("//")
	for _, l := range strings.Split(doc, "\n") {
		g.p("// %s", l)
	}
	g.p("// Requires: %s", v.requires(g.t))
	g.p("TEXT ·%s(SB), NOSPLIT, %s", name, frame)
}

const (
	sigVec = "(dst *float32, w, x unsafe.Pointer, rows, nb, pf int)"
	sigMul = "(dst *float32, ldd int, w, x unsafe.Pointer, rows, nb int)"
	sigM8  = "(dst *float32, ldd int, w, xp unsafe.Pointer, rows, nb, wskip, xstride int, acc *float32, mode int)"
)

func (g *gen) file() {
	t := g.t
	g.p("// Code generated by kqgen (kqgen/main.go); DO NOT EDIT.")
	g.blank()
	g.p("//go:build !purego")
	g.blank()
	g.p(`// %s · Q8_K kernels: matrix-vector (MatVec%s*, also used for a single dot)
// and matrix-matrix tiles of one weight row by four activation columns
// (MatMul4%s*) or by eight columns (MatMul8%s*: the ymm ones read the
// columns where they are, the zmm ones read them packed in pairs,
// Q8KPair), for AVX2, AVX-VNNI, AVX-512 and AVX-512 VNNI, and the matrix-
// vector kernel once more for AVX-512 VNNI with GFNI.
//
// Every routine mirrors %s in package kernels and returns its bits:
// the integer work is exact (int16 pair products from VPMADDUBSW, which
// cannot saturate because activation quants lie in [-127, 127] and weights
// in [0, 31]; then int32 sums of scale × pair), and the float work follows
// the package contract operation by operation — per super-block
// dd = f16(d)·D and dm = f16(dmin)·D, acc[l] += dd·float32(A[l]) and
// accm[j] += dm·float32(M[j]) as separate VMULPS and VADDPS (never FMA),
// result hsum(acc) − hsum(accm). !!! Deviation from the Go twin: the
// integer sums are associated differently (exact, so the bits are the same).
//
// Layout of one super-block (go_asm.h offsets): %s_d, _dmin (fp16),
// _scales (12 bytes, 6-bit scales and mins, see below),`, t.name, t.name, t.name, t.name, t.twin, t.block)
	if t.q5 {
		g.p(`// _qh (32 bytes: bit j of byte l is the fifth bit of value 32j+l),`)
	}
	g.p(`// _qs (128 bytes; byte 32c+l holds value 64c+l in its low nibble and
// 64c+32+l in its high nibble). Activations: blockQ8K_d (float32), _qs
// (256 int8), _bsums (16 int16 sums of 16 quants).
//
// The ymm routines hold one 32-value sub-block per register, so int32 lane
// l of a product is lane l of the contract. The zmm MatVec and MatMul4 hold
// a 64-value chunk c per register (the 32 quant bytes broadcast to both
// halves: low nibbles, sub-block 2c, in the low half; high nibbles, 2c+1,
// in the high half) and add the two halves in int32 before converting; the
// MatMul8 hold one sub-block of two columns.
//
// Scales: the 12 scale bytes unpack into two qwords lo = sc0..sc3 m0..m3
// and hi = sc4..sc7 m4..m7, side by side in every 128-bit lane of a
// register (ymm routines: vector code straight into the register; zmm
// routines: scalar code, through the frame at 0(SP) and 8(SP)) (sc(j) at byte j<4 ? j : j+4, m(j) at
// j<4 ? j+4 : j+8); VPSHUFB with the kqSc*/kqMin* controls widens them to
// int16 words.

#include "go_asm.h"
#include "textflag.h"
#include "vex_amd64.h"

// General-purpose registers, common to every routine in this file.
#define DST     DI  // dst: next output (row r of column 0)
#define WP      SI  // current weight block
#define XROW    DX  // first activation block of the row (column 0)
#define XP      BX  // current activation block (column 0)
#define ROWS    R8  // rows left
#define NB      R9  // blocks per row
#define N       CX  // blocks left in the row
#define XS      R13 // MatMul: bytes from one activation column (pair) to the next
#define XS3     R12 // MatMul: 3·XS
#define PF      R12 // MatVec: how many bytes ahead to prefetch the weights
// AX, R10, R11: scratch (the scalar scale unpack of the zmm routines; AX:
// the MatVec page touch).

#define XP4     R11 // ymm MatMul8: current activation block of column 4
// AX, R10: scratch.

// Activation addresses of columns (zmm MatMul8: column pairs) 1..7.
#define XC1(off) off(XP)(XS*1)
#define XC2(off) off(XP)(XS*2)
#define XC3(off) off(XP)(XS3*1)
#define XC4(off) off(XP4)
#define XC5(off) off(XP4)(XS*1)
#define XC6(off) off(XP4)(XS*2)
#define XC7(off) off(XP4)(XS3*1)
`)
	for _, v := range []isa{avx2, avxvnni, avx512, avx512vnni, avx512vnnigfni} {
		g.matVec(v)
	}
	if !t.q5 {
		// Q5_K's took 0.85 of its unpacked kernel's time in cache but
		// 1.11-1.17 from DRAM (bench/results/2026-12-06-zen5-packed/):
		// not written.
		g.matVecPacked(avx512vnnigfni)
	}
	for _, v := range []isa{avx2, avxvnni, avx512, avx512vnni} {
		g.matMul4(v)
	}
	for _, v := range []isa{avx2, avxvnni} {
		g.matMul8Y(v)
	}
	for _, v := range []isa{avx512, avx512vnni} {
		g.matMul8(v)
	}
	g.tables()
}

// args loads the frame arguments into the general registers.
func (g *gen) args(mul bool, x string) {
	if mul {
		g.i("MOVQ", "dst+0(FP), DST")
		g.i("MOVQ", "w+16(FP), WP")
		g.i("MOVQ", x+"+24(FP), XROW")
		g.i("MOVQ", "rows+32(FP), ROWS")
		g.i("MOVQ", "nb+40(FP), NB")
		return
	}
	g.i("MOVQ", "dst+0(FP), DST")
	g.i("MOVQ", "w+8(FP), WP")
	g.i("MOVQ", x+"+16(FP), XROW")
	g.i("MOVQ", "rows+24(FP), ROWS")
	g.i("MOVQ", "nb+32(FP), NB")
	g.i("MOVQ", "pf+40(FP), PF")
}

// rowStart zeroes nothing itself: it points XP at the row's activations and
// skips the block loop when nb = 0.
func (g *gen) rowStart() {
	g.i("MOVQ", "XROW, XP")
	g.i("MOVQ", "NB, N")
	g.i("TESTQ", "N, N")
	g.i("JZ", g.l("rowend"))
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("block")
}

func (g *gen) blockEnd(xsize string) {
	g.blank()
	g.i("ADDQ", g.size()+", WP")
	g.i("ADDQ", xsize+", XP")
	g.i("DECQ", "N")
	g.i("JNZ", g.l("block"))
	g.blank()
	g.label("rowend")
}

// hsumZ: v = [acc(8) | accm(8)] float32; leaves hsum(acc) − hsum(accm) in
// the low lane of v. The order is the package contract:
// ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)), on both 256-bit halves at
// once.
func (g *gen) hsumZ(v, t string) {
	g.i("VSHUFF64X2", "$0xB1, "+v+", "+v+", "+t)
	g.i("VADDPS", t+", "+v+", "+v)
	g.i("VPERMILPS", "$0x4E, "+v+", "+t)
	g.i("VADDPS", t+", "+v+", "+v)
	g.i("VPERMILPS", "$0xB1, "+v+", "+t)
	g.i("VADDPS", t+", "+v+", "+v)
	g.i("VEXTRACTF32X4", "$2, "+v+", "+g.x(t))
	g.i("VSUBSS", g.x(t)+", "+g.x(v)+", "+g.x(v))
}

// hsumY: the same order for two ymm accumulators; leaves hsum(acc) −
// hsum(accm) in the low lane of acc.
func (g *gen) hsumY(acc, accm, t string) {
	xa, xm, xt := g.x(acc), g.x(accm), g.x(t)
	g.i("VEXTRACTF128", "$1, "+acc+", "+xt)
	g.i("VADDPS", xt+", "+xa+", "+xa)
	g.i("VEXTRACTF128", "$1, "+accm+", "+xt)
	g.i("VADDPS", xt+", "+xm+", "+xm)
	g.i("VPERMILPS", "$0x4E, "+xa+", "+xt)
	g.i("VADDPS", xt+", "+xa+", "+xa)
	g.i("VPERMILPS", "$0x4E, "+xm+", "+xt)
	g.i("VADDPS", xt+", "+xm+", "+xm)
	g.i("VMOVSHDUP", xa+", "+xt)
	g.i("VADDSS", xt+", "+xa+", "+xa)
	g.i("VMOVSHDUP", xm+", "+xt)
	g.i("VADDSS", xt+", "+xm+", "+xm)
	g.i("VSUBSS", xm+", "+xa+", "+xa)
}

// sbytesZ loads lo, hi from the frame into every 128-bit lane of s (t is
// clobbered). K2 must hold 0xAA.
func (g *gen) sbytesZ(s, t string) {
	g.i("VPBROADCASTQ", "0(SP), "+s)
	g.i("VPBROADCASTQ", "8(SP), "+t)
	g.i("VPBLENDMQ", t+", "+s+", K2, "+s)
}

// scalesY unpacks the 6-bit scales and mins of the block at base straight
// into both 128-bit lanes of s, in the layout sbytesZ gives (t and u are
// clobbered), with vector code: on the Zen 3 it was measured on, the
// scalar unpack and its trip through the frame cost about a sixth of the
// Q4_K MatVec's time, these eight instructions much less. The 16 bytes
// loaded are the 12 scale bytes and the first 4 quant bytes, all inside
// the block. With b the scale bytes:
//
//	bytes 0..7:  b[0..7] & 0x3F                               (sc0..3, m0..3)
//	bytes 8..11: b[8..11] & 0x0F | (b[0..3] >> 6) << 4        (sc4..7)
//	bytes 12..15: b[8..11] >> 4 | (b[4..7] >> 6) << 4         (m4..7)
//
// The first term of each is dword-wise: dwords [0, 1, 2, 2] of b (VPSHUFD),
// the last one shifted right by 4 (VPSRLVD), masked per byte (kqSm1). The
// second is b moved up 8 bytes (VPSLLDQ), each 16-bit word shifted right by
// 2, so that bits 6..7 of every byte land at bits 4..5 of the same byte,
// masked with kqSm2.
func (g *gen) scalesY(base, s, t, u string) {
	g.i("VBROADCASTI128", g.field("scales")+"("+base+"), "+s)
	g.i("VPSHUFD", "$0xA4, "+s+", "+t)
	g.i("VPSRLVD", "kqSv<>(SB), "+t+", "+t)
	g.i("VPAND", "kqSm1<>(SB), "+t+", "+t)
	g.i("VPSLLDQ", "$8, "+s+", "+u)
	g.i("VPSRLW", "$2, "+u+", "+u)
	g.i("VPAND", "kqSm2<>(SB), "+u+", "+u)
	g.i("VPOR", u+", "+t+", "+s)
}

// nibblesZ: q = [low nibbles | high nibbles] of the 32 bytes at addr
// (chunk layout). Needs NIB = 0x0F bytes and K1 = 0xFFFF0000, or, in a
// routine with a GFM register (kqGF's bit matrices), one VGF2P8AFFINEQB.
func (g *gen) nibblesZ(addr, q string) {
	g.i("VBROADCASTI64X4", addr+", "+q)
	if _, ok := g.regs["GFM"]; ok {
		g.ic("VGF2P8AFFINEQB", "$0, GFM, "+q+", "+q, "x & 15 | x >> 4")
		return
	}
	g.i("VPSRLW", "$4, "+q+", K1, "+q)
	g.i("VPANDD", "NIB, "+q+", "+q)
}

// fifthZ sets bit 4 of each byte of q (a nibble) to bit 4-s of the same
// byte of qh: qh shifted by s bits (left for s > 0; a word shift by less
// than 5 keeps each byte's bit 4 within that byte) into t, then
// q |= t & h10 in one VPTERNLOGD (h10 = 0x10 bytes, a register or memory).
// Plain ALU work: no mask register on the way.
func (g *gen) fifthZ(s int, qh, t, h10, q string) {
	switch {
	case s > 0:
		g.i("VPSLLW", fmt.Sprintf("$%d, %s, %s", s, qh, t))
	case s < 0:
		g.i("VPSRLW", fmt.Sprintf("$%d, %s, %s", -s, qh, t))
	default:
		t = qh
	}
	g.ic("VPTERNLOGD", fmt.Sprintf("$0xF8, %s, %s, %s", h10, t, q), "q |= t & 0x10")
}

// chunkY decodes chunk c of the weight block into QL (low nibbles,
// sub-block 2c) and QU (high nibbles, 2c+1), ymm; Q5_K adds the fifth bits
// from qh with t as scratch.
func (g *gen) chunkY(c int, qh, t string) {
	g.i("VMOVDQU", fmt.Sprintf("%s+%d(WP), QL", g.field("qs"), 32*c))
	g.i("VPSRLW", "$4, QL, QU")
	g.i("VPAND", "NIB, QL, QL")
	g.i("VPAND", "NIB, QU, QU")
	if g.t.q5 {
		g.fifthY(2*c, qh, t, "kq10<>(SB)", "QL")
		g.fifthY(2*c+1, qh, t, "kq10<>(SB)", "QU")
	}
}

// fifthY ORs bit 2c+h of each qh byte into bit 4 of q (ymm, sub-block
// 2c+h): qh shifted so that the bit lands on bit 4 (a word shift by less
// than 5 keeps each byte's bits in that byte), masked with H10.
func (g *gen) fifthY(bit int, qh, t, h10, q string) {
	switch s := 4 - bit; {
	case s > 0:
		g.i("VPSLLW", fmt.Sprintf("$%d, %s, %s", s, qh, t))
		g.i("VPAND", h10+", "+t+", "+t)
	case s < 0:
		g.i("VPSRLW", fmt.Sprintf("$%d, %s, %s", -s, qh, t))
		g.i("VPAND", h10+", "+t+", "+t)
	default:
		g.i("VPAND", h10+", "+qh+", "+t)
	}
	g.i("VPOR", t+", "+q+", "+q)
}

// ------------------------------------------------------------------ MatVec

func (g *gen) matVec(v isa) {
	t := g.t
	name := "MatVec" + t.name + v.name
	g.p("// ------------------------------------------------------------------ %s", name)
	g.blank()
	if v.zmm {
		rs := []reg{
			{"Q0", "Z0", "chunk 0 quants, then products (Q1..Q3: chunks 1..3)"},
			{"Q1", "Z1", ""}, {"Q2", "Z2", ""}, {"Q3", "Z3", ""},
			{"A", "Z4", "int32 sums A of chunks 0, 2 (16 lanes; the halves are added at the end)"},
			{"A2", "Z13", "int32 sums A of chunks 1, 3"},
			{"SCB", "Z5", "scale bytes"},
			{"SW", "Z6", "scale words of a chunk"},
			{"AM", "Z7", "[M] then [A | M]"},
			{"BS", "Z8", "bsums"},
			{"T", "Z9", "scratch"},
			{"DDM", "Z10", "[dd x8 | dm x8]"},
			{"ACC", "Z11", "[acc | accm]"},
			{"NIB", "Z16", "0x0F bytes"},
			{"CTL0", "Z17", "kqScW controls of chunks 0..3"},
			{"CTL1", "Z18", ""}, {"CTL2", "Z19", ""}, {"CTL3", "Z20", ""},
			{"MINC", "Z21", "kqMin control"},
			{"DDMI", "Z22", "kqDDM indices"},
		}
		if t.q5 {
			rs = append(rs, reg{"QH", "Z12", "the 32 qh bytes in both halves"}, reg{"H10", "Z23", "0x10 bytes"})
		}
		if v.gfni {
			rs = append(rs, reg{"GFM", "Z24", "kqGF bit matrices"},
				reg{"SC4", "Z25", "four blocks' scale bytes, one a 128-bit lane"},
				reg{"U", "Z26", "their unpacked scale bytes"},
				reg{"U2", "Z27", "scratch of the unpack"})
		}
		g.named(rs...)
	} else {
		rs := []reg{
			{"QL", "Y0", "low-nibble quants (sub-block 2c), then products"},
			{"QU", "Y1", "high-nibble quants (sub-block 2c+1), then products"},
			{"SWL", "Y2", "scale words of sub-block 2c"},
			{"SWU", "Y3", "scale words of sub-block 2c+1"},
			{"DD", "Y4", "dd x8"},
			{"DM", "Y5", "dm x8"},
			{"ONE", "Y9", "1 x8 (VPERMPS indices)"},
			{"ACCM", "Y10", "accm"},
			{"ACC", "Y11", "acc"},
			{"A", "Y12", "int32 sums A"},
			{"M", "Y13", "mins products M"},
			{"SCB", "Y14", "scale bytes"},
			{"NIB", "Y15", "0x0F bytes"},
		}
		if t.q5 {
			rs = append(rs, reg{"QH", "Y6", "qh"}, reg{"T", "Y7", "scratch"})
		}
		if v.vnni {
			rs = append(rs, reg{"A2", "Y8", "int32 sums A of the odd sub-blocks"})
		}
		g.named(rs...)
	}
	frame := "$0-48" // the ymm routines unpack the scales in registers
	if v.zmm {
		frame = "$16-48" // the scale qwords (scales)
	}
	g.text(name, frame, sigVec, fmt.Sprintf("dst[r] = %s(w[r·nb:(r+1)·nb], x[:nb]) for r < rows.", t.twin), v)
	g.args(false, "x")
	g.i("TESTQ", "ROWS, ROWS")
	g.i("JZ", g.l("ret"))
	if v.zmm {
		g.chunkConstants()
	} else {
		g.i("VMOVDQU", "kqNib<>(SB), NIB")
		g.i("VPBROADCASTD", "kqDDM<>+32(SB), ONE")
	}
	g.blank()
	g.label("row")
	if v.zmm {
		g.i("VPXORD", "ACC, ACC, ACC")
	} else {
		g.i("VXORPS", "ACC, ACC, ACC")
		g.i("VXORPS", "ACCM, ACCM, ACCM")
	}
	if v.gfni {
		g.quadLoop(v)
	} else {
		g.rowStart()
	}
	if v.zmm {
		g.blockZ(v, "", "", func() {
			g.scales("WP", "0(SP)", "8(SP)")
			g.sbytesZ("SCB", "SW")
		})
	} else {
		g.blockY(v)
	}
	g.blockEnd("$blockQ8K__size")
	if v.zmm {
		g.hsumZ("ACC", "T")
	} else {
		g.hsumY("ACC", "ACCM", "QL")
	}
	g.i("VMOVSS", g.x("ACC")+", (DST)")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.i("JNZ", g.l("row"))
	g.end()
}

// blockY writes the ymm MatVec's work on the block at WP and XP: its
// products and mins, converted, scaled and added into ACC and ACCM.
func (g *gen) blockY(v isa) {
	t := g.t
	g.prefetch("WP")
	g.scalesY("WP", "SCB", "SWL", "SWU")
	if t.q5 {
		g.i("VMOVDQU", g.field("qh")+"(WP), QH")
	}
	g.c("M[j] = m_j·(bsums[2j] + bsums[2j+1]).")
	g.i("VPSHUFB", "kqMin<>+32(SB), SCB, M")
	g.i("VPMADDWD", "blockQ8K_bsums(XP), M, M")
	// Two accumulators where the multiply-accumulate is one VPDPWSSD, so
	// that its latency chain is half as long (MatVec is also the dot,
	// whose 16 blocks give out-of-order execution little to overlap); the
	// VPMADDWD + VPADDD form needs only one (its chain is the add).
	acc := [2]string{"A", "A2"}
	if !v.vnni {
		acc[1] = "A"
	}
	for c := 0; c < 4; c++ {
		g.blank()
		g.c("Chunk %d: sub-blocks %d (low nibbles) and %d (high nibbles).", c, 2*c, 2*c+1)
		g.chunkY(c, "QH", "T")
		g.i("VPMADDUBSW", fmt.Sprintf("blockQ8K_qs+%d(XP), QL, QL", 64*c))
		g.i("VPMADDUBSW", fmt.Sprintf("blockQ8K_qs+%d(XP), QU, QU", 64*c+32))
		g.i("VPSHUFB", fmt.Sprintf("kqScW<>+%d(SB), SCB, SWL", 64*c))
		g.i("VPSHUFB", fmt.Sprintf("kqScW<>+%d(SB), SCB, SWU", 64*c+32))
		g.mac(v, c == 0, "SWL", "QL", "A")
		g.mac(v, c == 0 && v.vnni, "SWU", "QU", acc[1])
	}
	if v.vnni {
		g.i("VPADDD", "A2, A, A")
	}
	g.blank()
	g.i("VCVTDQ2PS", "A, A")
	g.i("VCVTDQ2PS", "M, M")
	g.i("VPBROADCASTD", g.field("d")+"(WP), "+g.x("DD"))
	g.ic("VCVTPH2PS", g.x("DD")+", "+g.x("DD"), "[d, dmin, d, dmin]")
	g.i("VBROADCASTSS", "blockQ8K_d(XP), "+g.x("DM"))
	g.ic("VMULPS", g.x("DM")+", "+g.x("DD")+", "+g.x("DD"), "[dd, dm, dd, dm]")
	g.ic("VPERMPS", "DD, ONE, DM", "dm x8")
	g.ic("VBROADCASTSS", g.x("DD")+", DD", "dd x8")
	g.i("VMULPS", "DD, A, A")
	g.i("VADDPS", "A, ACC, ACC")
	g.i("VMULPS", "DM, M, M")
	g.i("VADDPS", "M, ACCM, ACCM")
}

// blockZ writes the zmm MatVec's work on one block at WP+wo and XP+xo
// bytes (wo, xo: "" or "+expression"): its products and mins, converted,
// scaled and added into ACC. scb writes SCB, the block's scale bytes in
// every 128-bit lane.
func (g *gen) blockZ(v isa, wo, xo string, scb func()) {
	t := g.t
	g.prefetchAt("WP", wo)
	scb()
	if t.q5 {
		g.c("QH = [qh | qh >> 1]: bit 2c of the low half and bit 2c+1 of the high")
		g.c("half of chunk c at the same place.")
		g.i("VBROADCASTI64X4", g.field("qh")+wo+"(WP), QH")
		g.i("VPSRLW", "$1, QH, K1, QH")
	}
	g.c("M[j] = m_j·(bsums[2j] + bsums[2j+1]) in the high half of AM.")
	g.i("VBROADCASTI64X4", "blockQ8K_bsums"+xo+"(XP), BS")
	g.i("VPSHUFB", "MINC, SCB, AM")
	g.i("VPMADDWD", "BS, AM, AM")
	for c := 0; c < 4; c++ {
		g.blank()
		g.c("Chunk %d: sub-blocks %d (low nibbles) and %d (high nibbles).", c, 2*c, 2*c+1)
		q := fmt.Sprintf("Q%d", c)
		g.nibblesZ(fmt.Sprintf("%s+%d%s(WP)", g.field("qs"), 32*c, wo), q)
		if t.q5 {
			g.fifthZ(4-2*c, "QH", "T", "H10", q)
		}
		g.i("VPMADDUBSW", fmt.Sprintf("blockQ8K_qs+%d%s(XP), %s, %s", 64*c, xo, q, q))
		g.i("VPSHUFB", fmt.Sprintf("CTL%d, SCB, SW", c))
		g.mac(v, c < 2, "SW", q, [2]string{"A", "A2"}[c%2])
	}
	g.i("VPADDD", "A2, A, A")
	g.blank()
	g.c("DDM = [f16(d)·D x8 | f16(dmin)·D x8]. Only d and dmin are converted:")
	g.c("junk lanes could be subnormal and cost a microcode assist.")
	g.i("VPBROADCASTD", g.field("d")+wo+"(WP), "+g.x("DDM"))
	g.i("VCVTPH2PS", g.x("DDM")+", "+g.x("DDM"))
	g.i("VMULPS.BCST", "blockQ8K_d"+xo+"(XP), "+g.x("DDM")+", "+g.x("DDM"))
	g.i("VPERMPS", "DDM, DDMI, DDM")
	g.finishZ("A", "AM", "T", "DDM", "ACC")
}

// quadLoop (the GFNI MatVec) starts a row: blocks four at a time while
// four are left, then the row's last nb mod 4 blocks one at a time (the
// block loop that follows it). The four blocks' scales are unpacked at
// once, one block a 128-bit lane, with the ymm routines' vector unpack
// (scalesY) on four lanes, and each block takes its lane; the blocks are
// added into ACC in their order, so the sums are those of one block at a
// time. The 16 bytes loaded at each block's scales are its 12 scale bytes
// and 4 quant bytes, inside the block.
func (g *gen) quadLoop(v isa) {
	g.quadStart()
	g.quadScales("scales", "$0xA4", "$8")
	for k := 0; k < 4; k++ {
		wo, xo := "", ""
		if k > 0 {
			wo, xo = fmt.Sprintf("+%d*%s", k, g.size()[1:]), fmt.Sprintf("+%d*blockQ8K__size", k)
		}
		g.blank()
		g.c("Block %d of the four.", k)
		g.blockZ(v, wo, xo, func() {
			g.ic("VSHUFI64X2", fmt.Sprintf("$0x%02X, U, U, SCB", 0x55*k), fmt.Sprintf("lane %d", k))
		})
	}
	g.quadEnd("$4*blockQ8K__size")
}

// quadStart starts a row of a four-block loop: XP at the row's
// activations, N = nb, the tail when fewer than four blocks are left.
func (g *gen) quadStart() {
	g.i("MOVQ", "XROW, XP")
	g.i("MOVQ", "NB, N")
	g.i("CMPQ", "N, $4")
	g.i("JB", g.l("tail"))
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("quad")
}

// quadScales loads the 16 bytes at the field f of each of the four blocks
// into a 128-bit lane of SC4 and unpacks their scales into U with the
// unpack of scalesY: shuf (VPSHUFD) and sh (VPSLLDQ) are scalesY's $0xA4
// and $8 where the 12 scale bytes start the lane, $0xF9 and $4 where
// they start a dword further up.
func (g *gen) quadScales(f, shuf, sh string) {
	a := g.field(f)
	g.i("VMOVDQU32", a+"(WP), "+g.x("SC4"))
	for k := 1; k < 4; k++ {
		g.i("VINSERTI32X4", fmt.Sprintf("$%d, %s+%d*%s(WP), SC4, SC4", k, a, k, g.size()[1:]))
	}
	g.i("VPSHUFD", shuf+", SC4, U")
	g.i("VPSRLVD", "kqSv<>(SB), U, U")
	g.i("VPANDD", "kqSm1<>(SB), U, U")
	g.i("VPSLLDQ", sh+", SC4, U2")
	g.i("VPSRLW", "$2, U2, U2")
	g.ic("VPTERNLOGD", "$0xF8, kqSm2<>(SB), U2, U", "U |= U2 & 0x30")
}

// quadEnd closes the four-block loop (the activations advance by xsize)
// and starts the tail: the last nb mod 4 blocks, one at a time, in the
// block loop that follows.
func (g *gen) quadEnd(xsize string) {
	g.blank()
	g.i("ADDQ", "$4*"+g.size()[1:]+", WP")
	g.i("ADDQ", xsize+", XP")
	g.i("SUBQ", "$4, N")
	g.i("CMPQ", "N, $4")
	g.i("JAE", g.l("quad"))
	g.blank()
	g.label("tail")
	g.i("TESTQ", "N, N")
	g.i("JZ", g.l("rowend"))
	g.blank()
	g.i("PCALIGN", "$32")
	g.label("block")
}

// finishZ: i = the 16 int32 lanes of the scaled products, w = [anything |
// M]. Adds the halves of i into the low half of w (w = [A | M]), converts,
// multiplies by ddm = [dd x8 | dm x8] and adds to acc = [acc | accm].
// Needs K3 = 0x00FF.
func (g *gen) finishZ(i, w, t, ddm, acc string) {
	g.i("VSHUFI64X2", "$0x4E, "+i+", "+i+", "+t)
	g.i("VPADDD", t+", "+i+", K3, "+w)
	g.i("VCVTDQ2PS", w+", "+w)
	g.i("VMULPS", ddm+", "+w+", "+w)
	g.i("VADDPS", w+", "+acc+", "+acc)
}

// chunkConstants loads the constants of the zmm routines that hold one
// 64-value chunk per register (MatVec, MatMul4): NIB, CTL0..3, MINC, DDMI,
// H10 (Q5_K) and the masks K1 = 0xFFFF0000 (high 16 words), K2 = 0xAA (odd
// qwords), K3 = 0x00FF (low 8 dwords).
func (g *gen) chunkConstants() { g.chunkConstantsTable("kqScW") }

// chunkConstantsTable is chunkConstants with CTL0..3 from the table ctl.
func (g *gen) chunkConstantsTable(ctl string) {
	g.i("VMOVDQU64", "kqNib<>(SB), NIB")
	for c := 0; c < 4; c++ {
		g.i("VMOVDQU64", fmt.Sprintf("%s<>+%d(SB), CTL%d", ctl, 64*c, c))
	}
	g.i("VMOVDQU64", "kqMin<>(SB), MINC")
	g.i("VMOVDQU64", "kqDDM<>(SB), DDMI")
	if g.t.q5 {
		g.i("VMOVDQU64", "kq10<>(SB), H10")
	}
	if _, ok := g.regs["GFM"]; ok {
		g.i("VMOVDQU64", "kqGF<>(SB), GFM")
	}
	g.kmask("K1", "$0xFFFF0000", "KMOVD")
	g.kmask("K2", "$0xAA", "KMOVW")
	g.kmask("K3", "$0xFF", "KMOVW")
}

func (g *gen) kmask(k, imm, op string) {
	g.i("MOVL", imm+", AX")
	g.i(op, "AX, "+k)
}

// xcol is the address of activation column (MatMul8: pair) k at off.
func xcol(k int, off string) string {
	if k == 0 {
		return off + "(XP)"
	}
	return fmt.Sprintf("XC%d(%s)", k, off)
}

// ------------------------------------------------------------------ MatMul4

func (g *gen) matMul4(v isa) {
	t := g.t
	name := "MatMul4" + t.name + v.name
	g.p("// ------------------------------------------------------------------ %s", name)
	g.blank()
	doc := fmt.Sprintf(`dst[c·ldd + r] = %s(w[r·nb:(r+1)·nb], x[c·nb:(c+1)·nb]) for
r < rows and c < 4: one weight row against four activation columns at a
time, so that each weight block is decoded once for four dots.`, t.twin)
	if v.zmm {
		g.named(
			reg{"Q0", "Z0", "decoded chunks 0..3"}, reg{"Q1", "Z1", ""}, reg{"Q2", "Z2", ""}, reg{"Q3", "Z3", ""},
			reg{"SW0", "Z4", "scale words of chunks 0..3"}, reg{"SW1", "Z5", ""}, reg{"SW2", "Z6", ""}, reg{"SW3", "Z7", ""},
			reg{"MW", "Z8", "mins words"},
			reg{"DF", "Z9", "[f16(d) x8 | f16(dmin) x8]"},
			reg{"SCB", "Z10", "scale bytes, then [A | M] of the current column"},
			reg{"P0", "Z12", "products of columns 0..3"}, reg{"P1", "Z29", ""}, reg{"P2", "Z30", ""}, reg{"P3", "Z31", ""},
			reg{"A0", "Z13", "int32 sums of columns 0..3 (A3: scratch, then qh, before)"},
			reg{"A1", "Z14", ""}, reg{"A2", "Z15", ""}, reg{"A3", "Z11", ""},
			reg{"ACC0", "Z24", "[acc | accm] of columns 0..3"}, reg{"ACC1", "Z25", ""}, reg{"ACC2", "Z26", ""}, reg{"ACC3", "Z27", ""},
			reg{"DDC", "Z28", "[dd | dm] of the current column"},
			reg{"NIB", "Z16", "0x0F bytes"},
			reg{"CTL0", "Z17", "kqScW controls of chunks 0..3"}, reg{"CTL1", "Z18", ""}, reg{"CTL2", "Z19", ""}, reg{"CTL3", "Z20", ""},
			reg{"MINC", "Z21", "kqMin control"},
			reg{"DDMI", "Z22", "kqDDM indices"},
			reg{"H10", "Z23", "0x10 bytes (Q5_K)"},
		)
		g.text(name, "$16-48", sigMul, doc, v)
	} else {
		g.named(
			reg{"QL", "Y0", "low-nibble quants (sub-block 2c); M after the chunks"},
			reg{"QU", "Y1", "high-nibble quants (sub-block 2c+1); D after the chunks"},
			reg{"SWL", "Y2", "scale words of sub-block 2c; dd after the chunks"},
			reg{"SWU", "Y3", "scale words of sub-block 2c+1; dm after the chunks"},
			reg{"A0", "Y4", "int32 sums of columns 0..3"}, reg{"A1", "Y5", ""}, reg{"A2", "Y6", ""}, reg{"A3", "Y7", ""},
			reg{"PL", "Y8", "products of sub-block 2c"},
			reg{"PU", "Y9", "products of sub-block 2c+1"},
			reg{"MW", "Y10", "mins words (before: scratch)"},
			reg{"DF", "Y12", "f16(d) x8 (before: qh)"},
			reg{"DMF", "Y13", "f16(dmin) x8"},
			reg{"SCB", "Y14", "scale bytes"},
			reg{"NIB", "Y15", "0x0F bytes"},
		)
		g.text(name, "$256-48", sigMul, doc+`
The float accumulators acc and accm of column k live at 64k(SP) and
32+64k(SP).`, v)
	}
	g.args(true, "x")
	g.i("TESTQ", "ROWS, ROWS")
	g.i("JZ", g.l("ret"))
	g.i("IMUL3Q", "$blockQ8K__size, NB, XS")
	g.i("LEAQ", "(XS)(XS*2), XS3")
	if v.zmm {
		g.chunkConstants()
	} else {
		g.i("VMOVDQU", "kqNib<>(SB), NIB")
	}
	g.blank()
	g.label("row")
	if v.zmm {
		for k := 0; k < 4; k++ {
			g.i("VPXORD", fmt.Sprintf("ACC%d, ACC%d, ACC%d", k, k, k))
		}
	} else {
		g.i("VXORPS", "QL, QL, QL")
		for k := 0; k < 8; k++ {
			g.i("VMOVUPS", fmt.Sprintf("QL, %d(SP)", 32*k))
		}
	}
	g.rowStart()
	g.c("Decode the weight block once: quants, scale words, mins words, d.")
	if v.zmm {
		g.scales("WP", "0(SP)", "8(SP)")
		g.sbytesZ("SCB", "A3")
		if t.q5 {
			g.c("A3 = [qh | qh >> 1] (see MatVec).")
			g.i("VBROADCASTI64X4", g.field("qh")+"(WP), A3")
			g.i("VPSRLW", "$1, A3, K1, A3")
		}
		for c := 0; c < 4; c++ {
			q := fmt.Sprintf("Q%d", c)
			g.nibblesZ(fmt.Sprintf("%s+%d(WP)", g.field("qs"), 32*c), q)
			if t.q5 {
				g.fifthZ(4-2*c, "A3", "P0", "H10", q)
			}
		}
		for c := 0; c < 4; c++ {
			g.i("VPSHUFB", fmt.Sprintf("CTL%d, SCB, SW%d", c, c))
		}
		g.i("VPSHUFB", "MINC, SCB, MW")
		g.i("VPBROADCASTD", g.field("d")+"(WP), "+g.x("DF"))
		g.i("VCVTPH2PS", g.x("DF")+", "+g.x("DF"))
		g.i("VPERMPS", "DF, DDMI, DF")
		g.blank()
		g.c("Chunk-major over the four columns, so that the four columns'")
		g.c("dependency chains interleave.")
		for c := 0; c < 4; c++ {
			for k := 0; k < 4; k++ {
				p, a := fmt.Sprintf("P%d", k), fmt.Sprintf("A%d", k)
				g.i("VPMADDUBSW", fmt.Sprintf("%s, Q%d, %s", xcol(k, fmt.Sprintf("blockQ8K_qs+%d", 64*c)), c, p))
				g.mac(v, c == 0, fmt.Sprintf("SW%d", c), p, a)
			}
		}
		for k := 0; k < 4; k++ {
			g.blank()
			g.c("Column %d: [A | M], then acc += dd·float32(A), accm += dm·float32(M).", k)
			g.i("VBROADCASTI64X4", xcol(k, "blockQ8K_bsums")+", SCB")
			g.i("VPMADDWD", "MW, SCB, SCB")
			g.i("VMULPS.BCST", xcol(k, "blockQ8K_d")+", DF, DDC")
			g.finishZ(fmt.Sprintf("A%d", k), "SCB", fmt.Sprintf("P%d", k), "DDC", fmt.Sprintf("ACC%d", k))
		}
	} else {
		g.scalesY("WP", "SCB", "SWL", "SWU")
		if t.q5 {
			g.i("VMOVDQU", g.field("qh")+"(WP), DF")
		}
		for c := 0; c < 4; c++ {
			g.blank()
			g.c("Chunk %d: sub-blocks %d and %d.", c, 2*c, 2*c+1)
			g.chunkY(c, "DF", "MW")
			g.i("VPSHUFB", fmt.Sprintf("kqScW<>+%d(SB), SCB, SWL", 64*c))
			g.i("VPSHUFB", fmt.Sprintf("kqScW<>+%d(SB), SCB, SWU", 64*c+32))
			g.productsY(v, c, 4)
		}
		g.finishY(4, "MW", "DF", "DMF")
	}
	g.blockEnd("$blockQ8K__size")
	g.i("MOVQ", "ldd+8(FP), AX")
	g.i("SHLQ", "$2, AX")
	g.i("LEAQ", "(AX)(AX*2), R10")
	outs := []string{"(DST)", "(DST)(AX*1)", "(DST)(AX*2)", "(DST)(R10*1)"}
	for k := 0; k < 4; k++ {
		if v.zmm {
			acc := fmt.Sprintf("ACC%d", k)
			g.hsumZ(acc, "A2")
			g.i("VMOVSS", g.x(acc)+", "+outs[k])
			continue
		}
		g.i("VMOVUPS", fmt.Sprintf("%d(SP), QL", 64*k))
		g.i("VMOVUPS", fmt.Sprintf("%d(SP), QU", 32+64*k))
		g.hsumY("QL", "QU", "SWL")
		g.i("VMOVSS", g.x("QL")+", "+outs[k])
	}
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.i("JNZ", g.l("row"))
	g.end()
}

// ------------------------------------------------------------------ MatMul8

func (g *gen) matMul8(v isa) {
	t := g.t
	name := "MatMul8" + t.name + v.name
	g.p("// ------------------------------------------------------------------ %s", name)
	g.blank()
	rs := []reg{}
	for j := 0; j < 8; j++ {
		doc := ""
		if j == 0 {
			doc = "sub-blocks 0..7 of the weight block (the same quants in both halves)"
		}
		rs = append(rs, reg{fmt.Sprintf("Q%d", j), fmt.Sprintf("Z%d", j), doc})
	}
	rs = append(rs,
		reg{"P0", "Z8", "products of pairs 0..3"}, reg{"P1", "Z9", ""}, reg{"P2", "Z29", ""}, reg{"P3", "Z30", ""},
		reg{"A0", "Z12", "int32 sums A of pairs 0..3"}, reg{"A1", "Z13", ""}, reg{"A2", "Z14", ""}, reg{"A3", "Z15", ""},
		reg{"ACC0", "Z24", "acc of pairs 0..3 ([column 2p | column 2p+1])"}, reg{"ACC1", "Z25", ""}, reg{"ACC2", "Z26", ""}, reg{"ACC3", "Z27", ""},
		reg{"ACCM0", "Z16", "accm of pairs 0..3"}, reg{"ACCM1", "Z17", ""}, reg{"ACCM2", "Z18", ""}, reg{"ACCM3", "Z19", ""},
		reg{"MW", "Z20", "mins words"},
		reg{"DF", "Z21", "f16(d) x16"},
		reg{"DMF", "Z22", "f16(dmin) x16"},
		reg{"NIB", "Z23", "0x0F bytes"},
		reg{"SCB", "Z10", "scale bytes, then the scale words of a sub-block"},
		reg{"T", "Z11", "scratch"},
		reg{"T2", "Z31", "scratch"},
		reg{"ONE", "Z28", "dword 1s (VPERMPS indices), then qh (Q5_K)"},
	)
	g.named(rs...)
	mac := "VPMADDWD + VPADDD with the scale dword broadcast from the frame."
	if v.vnni {
		mac = "VPDPWSSD with the scale dword broadcast from the frame once per sub-block\n(a register operand: the {1to16} memory form is slower, once per pair)."
	}
	g.text(name, "$48-80", sigM8, fmt.Sprintf(`dst[c·ldd + r] = %s(w[r·nb:(r+1)·nb], column c) for r < rows and
c < 8, over a segment of nb blocks of each row: row r's blocks start at w
+ r·(nb·size + wskip) bytes; xp holds the eight activation columns as four
pairs in the Q8KPair layout (pair p at xp + p·xstride, block b of the
segment at + b·Q8KPair__size). One zmm register holds one sub-block of two
columns, so the int32 lanes need no folding, and one sub-block has one
scale:
%s
The frame holds the scale qwords (0..15) and the eight scale dwords
sc(j) | sc(j)<<16 (16..47). mode bit 0 (SegResume): start each row's float
sums (ACC0..3, ACCM0..3) from acc[128r:128r+128] instead of zero; bit 1
(SegFinish): sum them into dst, else store them back into acc. A row split
into segments so gets the bits of one pass over the whole row.`, t.twin, mac), v)
	g.args(true, "xp")
	g.i("TESTQ", "ROWS, ROWS")
	g.i("JZ", g.l("ret"))
	g.i("MOVQ", "xstride+56(FP), XS")
	g.i("LEAQ", "(XS)(XS*2), XS3")
	g.i("VMOVDQU64", "kqNib<>(SB), NIB")
	g.kmask("K2", "$0xAA", "KMOVW")
	g.blank()
	g.label("row")
	g.i("TESTQ", "$1, mode+72(FP)")
	g.i("JNZ", g.l("resume"))
	for p := 0; p < 4; p++ {
		g.i("VPXORD", fmt.Sprintf("ACC%d, ACC%d, ACC%d", p, p, p))
		g.i("VPXORD", fmt.Sprintf("ACCM%d, ACCM%d, ACCM%d", p, p, p))
	}
	g.i("JMP", g.l("start"))
	g.label("resume")
	g.i("MOVQ", "acc+64(FP), AX")
	for p := 0; p < 4; p++ {
		g.ic("VMOVUPS", fmt.Sprintf("%d(AX), ACC%d", 128*p, p), fmt.Sprintf("pair %d's sums so far", p))
		g.i("VMOVUPS", fmt.Sprintf("%d(AX), ACCM%d", 128*p+64, p))
	}
	g.label("start")
	g.rowStart()
	g.c("Decode the weight block once for eight columns.")
	g.scales("WP", "0(SP)", "8(SP)")
	g.sbytesZ("SCB", "T")
	g.i("VPSHUFB", "kqScD<>(SB), "+g.ymm("SCB")+", "+g.ymm("T"))
	g.i("VMOVDQU", g.ymm("T")+", 16(SP)")
	g.i("VPSHUFB", "kqMin2<>(SB), SCB, MW")
	g.i("VPBROADCASTD", g.field("d")+"(WP), "+g.x("DF"))
	g.i("VCVTPH2PS", g.x("DF")+", "+g.x("DF"))
	g.i("VPBROADCASTD", "kqDDM<>+32(SB), ONE")
	g.i("VPERMPS", "DF, ONE, DMF")
	g.i("VBROADCASTSS", g.x("DF")+", DF")
	if t.q5 {
		g.i("VBROADCASTI64X4", g.field("qh")+"(WP), ONE")
	}
	for c := 0; c < 4; c++ {
		g.i("VBROADCASTI64X4", fmt.Sprintf("%s+%d(WP), T", g.field("qs"), 32*c))
		g.i("VPANDD", fmt.Sprintf("NIB, T, Q%d", 2*c))
		g.i("VPSRLW", "$4, T, T")
		g.i("VPANDD", fmt.Sprintf("NIB, T, Q%d", 2*c+1))
	}
	if t.q5 {
		g.c("Fifth bits: bit j of qh[l] is bit 4 of value l of sub-block j.")
		for j := 0; j < 8; j++ {
			g.fifthZ(4-j, "ONE", "T", "kq10<>(SB)", fmt.Sprintf("Q%d", j))
		}
	}
	g.blank()
	g.c("Sub-block by sub-block over the four pairs.")
	for j := 0; j < 8; j++ {
		g.i("VPBROADCASTD", fmt.Sprintf("%d(SP), SCB", 16+4*j))
		for p := 0; p < 4; p++ {
			pp, a := fmt.Sprintf("P%d", p), fmt.Sprintf("A%d", p)
			g.i("VPMADDUBSW", fmt.Sprintf("%s, Q%d, %s", xcol(p, fmt.Sprintf("Q8KPair_Qs+%d", 64*j)), j, pp))
			g.mac(v, j == 0, "SCB", pp, a)
		}
	}
	for p := 0; p < 4; p++ {
		pp, a := fmt.Sprintf("P%d", p), fmt.Sprintf("A%d", p)
		g.blank()
		g.c("Pair %d (columns %d, %d): M, then acc += dd·float32(A), accm += dm·float32(M).", p, 2*p, 2*p+1)
		g.i("VPMADDWD", xcol(p, "Q8KPair_BSums")+", MW, "+pp)
		g.i("VCVTDQ2PS", a+", "+a)
		g.i("VCVTDQ2PS", pp+", "+pp)
		g.i("VMULPS", xcol(p, "Q8KPair_D")+", DF, T2")
		g.i("VMULPS", "T2, "+a+", "+a)
		g.i("VMULPS", xcol(p, "Q8KPair_D")+", DMF, T2")
		g.i("VMULPS", "T2, "+pp+", "+pp)
		g.i("VADDPS", fmt.Sprintf("%s, ACC%d, ACC%d", a, p, p))
		g.i("VADDPS", fmt.Sprintf("%s, ACCM%d, ACCM%d", pp, p, p))
	}
	g.blockEnd("$Q8KPair__size")
	g.i("TESTQ", "$2, mode+72(FP)")
	g.i("JNZ", g.l("finish"))
	g.i("MOVQ", "acc+64(FP), AX")
	for p := 0; p < 4; p++ {
		g.i("VMOVUPS", fmt.Sprintf("ACC%d, %d(AX)", p, 128*p))
		g.i("VMOVUPS", fmt.Sprintf("ACCM%d, %d(AX)", p, 128*p+64))
	}
	g.i("JMP", g.l("next"))
	g.label("finish")
	g.i("MOVQ", "ldd+8(FP), AX")
	g.i("SHLQ", "$2, AX")
	g.i("MOVQ", "DST, R10")
	for p := 0; p < 4; p++ {
		g.i("VSHUFF64X2", fmt.Sprintf("$0x44, ACCM%d, ACC%d, Q0", p, p))
		g.i("VSHUFF64X2", fmt.Sprintf("$0xEE, ACCM%d, ACC%d, Q1", p, p))
		g.hsumZ("Q0", "P1")
		g.hsumZ("Q1", "P1")
		g.i("VMOVSS", g.x("Q0")+", (R10)")
		g.i("ADDQ", "AX, R10")
		g.i("VMOVSS", g.x("Q1")+", (R10)")
		g.i("ADDQ", "AX, R10")
	}
	g.label("next")
	g.ic("ADDQ", "$512, acc+64(FP)", "the next row's sums (never read past the last)")
	g.ic("ADDQ", "wskip+48(FP), WP", "the next row's segment")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.i("JNZ", g.l("row"))
	g.end()
}

// xcol8 is the address of activation column k < 8 at off in the ymm
// MatMul8 (columns 4..7 from XP4 = XP + 4·XS).
func xcol8(k int, off string) string {
	if k < 4 {
		return xcol(k, off)
	}
	return fmt.Sprintf("XC%d(%s)", k, off)
}

// productsY adds chunk c of the weight block (QL, QU; scale words SWL,
// SWU) times columns 0..cols-1 into A0..A(cols-1), with PL and PU as
// scratch: the inner loop of the ymm MatMul tiles.
func (g *gen) productsY(v isa, c, cols int) {
	for k := 0; k < cols; k++ {
		a := fmt.Sprintf("A%d", k)
		g.i("VPMADDUBSW", fmt.Sprintf("%s, QL, PL", xcol8(k, fmt.Sprintf("blockQ8K_qs+%d", 64*c))))
		g.i("VPMADDUBSW", fmt.Sprintf("%s, QU, PU", xcol8(k, fmt.Sprintf("blockQ8K_qs+%d", 64*c+32))))
		g.mac(v, c == 0, "SWL", "PL", a)
		g.mac(v, false, "SWU", "PU", a)
	}
}

// finishY is the float step of a block in the ymm MatMul tiles: the mins
// words from SCB into mw, f16(d) and f16(dmin) broadcast into df and dmf,
// then for each column k < cols acc += dd·float32(A), accm +=
// dm·float32(M), on the frame accumulators at 64k(SP) and 32+64k(SP)
// (QL, QU, SWL, SWU as scratch).
func (g *gen) finishY(cols int, mw, df, dmf string) {
	g.blank()
	g.c("Mins words and f16(d), f16(dmin) of the weight block.")
	g.i("VPSHUFB", "kqMin<>+32(SB), SCB, "+mw)
	g.i("VPBROADCASTD", g.field("d")+"(WP), "+g.x(df))
	g.i("VCVTPH2PS", g.x(df)+", "+g.x(df))
	g.i("VMOVSHDUP", g.x(df)+", "+g.x(dmf))
	g.i("VBROADCASTSS", g.x(df)+", "+df)
	g.i("VBROADCASTSS", g.x(dmf)+", "+dmf)
	for k := 0; k < cols; k++ {
		a := fmt.Sprintf("A%d", k)
		g.blank()
		g.c("Column %d: acc += dd·float32(A), accm += dm·float32(M).", k)
		g.i("VPMADDWD", xcol8(k, "blockQ8K_bsums")+", "+mw+", QL")
		g.i("VCVTDQ2PS", a+", "+a)
		g.i("VCVTDQ2PS", "QL, QL")
		g.i("VBROADCASTSS", xcol8(k, "blockQ8K_d")+", QU")
		g.i("VMULPS", df+", QU, SWL")
		g.i("VMULPS", dmf+", QU, SWU")
		g.i("VMULPS", "SWL, "+a+", "+a)
		g.i("VMULPS", "SWU, QL, QL")
		g.i("VADDPS", fmt.Sprintf("%d(SP), %s, %s", 64*k, a, a))
		g.i("VMOVUPS", fmt.Sprintf("%s, %d(SP)", a, 64*k))
		g.i("VADDPS", fmt.Sprintf("%d(SP), QL, QL", 32+64*k))
		g.i("VMOVUPS", fmt.Sprintf("QL, %d(SP)", 32+64*k))
	}
}

// matMul8Y is the ymm one-row × eight-column tile. It reads the columns
// where they are (no pair packing: a ymm register holds one sub-block of
// one column, as in MatMul4) and decodes each weight block once for eight
// dots instead of four. Its float steps per column are MatMul4's.
func (g *gen) matMul8Y(v isa) {
	t := g.t
	name := "MatMul8" + t.name + v.name
	g.p("// ------------------------------------------------------------------ %s", name)
	g.blank()
	rs := []reg{
		{"QL", "Y0", "low-nibble quants (sub-block 2c); M after the chunks"},
		{"QU", "Y1", "high-nibble quants (sub-block 2c+1); D after the chunks"},
		{"SWL", "Y2", "scale words of sub-block 2c; dd after the chunks"},
		{"SWU", "Y3", "scale words of sub-block 2c+1; dm after the chunks"},
	}
	for k := 0; k < 8; k++ {
		doc := ""
		if k == 0 {
			doc = "int32 sums of columns 0..7"
		}
		rs = append(rs, reg{fmt.Sprintf("A%d", k), fmt.Sprintf("Y%d", 4+k), doc})
	}
	rs = append(rs,
		reg{"PL", "Y12", "products of sub-block 2c (before: qh of Q5_K); f16(d) x8 after the chunks"},
		reg{"PU", "Y13", "products of sub-block 2c+1; f16(dmin) x8 after the chunks"},
		reg{"SCB", "Y14", "scale bytes, then mins words"},
		reg{"NIB", "Y15", "0x0F bytes"},
	)
	g.named(rs...)
	g.text(name, "$512-48", sigMul, fmt.Sprintf(`dst[c·ldd + r] = %s(w[r·nb:(r+1)·nb], x[c·nb:(c+1)·nb]) for
r < rows and c < 8: MatMul4 over eight columns, so that each weight block
is decoded once for eight dots. All sixteen vector registers are in use;
the float accumulators acc and accm of column k live at 64k(SP) and
32+64k(SP).`, t.twin), v)
	g.args(true, "x")
	g.i("TESTQ", "ROWS, ROWS")
	g.i("JZ", g.l("ret"))
	g.i("IMUL3Q", "$blockQ8K__size, NB, XS")
	g.i("LEAQ", "(XS)(XS*2), XS3")
	g.i("VMOVDQU", "kqNib<>(SB), NIB")
	g.blank()
	g.label("row")
	g.i("VXORPS", "QL, QL, QL")
	for k := 0; k < 16; k++ {
		g.i("VMOVUPS", fmt.Sprintf("QL, %d(SP)", 32*k))
	}
	g.i("LEAQ", "(XROW)(XS*4), XP4")
	g.rowStart()
	g.scalesY("WP", "SCB", "SWL", "SWU")
	for c := 0; c < 4; c++ {
		g.blank()
		g.c("Chunk %d: sub-blocks %d and %d.", c, 2*c, 2*c+1)
		if t.q5 {
			g.i("VMOVDQU", g.field("qh")+"(WP), PL")
		}
		g.chunkY(c, "PL", "PU")
		g.i("VPSHUFB", fmt.Sprintf("kqScW<>+%d(SB), SCB, SWL", 64*c))
		g.i("VPSHUFB", fmt.Sprintf("kqScW<>+%d(SB), SCB, SWU", 64*c+32))
		g.productsY(v, c, 8)
	}
	g.finishY(8, "SCB", "PL", "PU")
	g.i("ADDQ", "$blockQ8K__size, XP4")
	g.blockEnd("$blockQ8K__size")
	g.i("MOVQ", "ldd+8(FP), AX")
	g.i("SHLQ", "$2, AX")
	g.i("MOVQ", "DST, R10")
	for k := 0; k < 8; k++ {
		g.i("VMOVUPS", fmt.Sprintf("%d(SP), QL", 64*k))
		g.i("VMOVUPS", fmt.Sprintf("%d(SP), QU", 32+64*k))
		g.hsumY("QL", "QU", "SWL")
		g.i("VMOVSS", g.x("QL")+", (R10)")
		if k < 7 {
			g.i("ADDQ", "AX, R10")
		}
	}
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.i("JNZ", g.l("row"))
	g.end()
}

// ------------------------------------------------------------------ tables

// table writes a file-static read-only table.
func (g *gen) table(name, doc string, b []byte) {
	g.p("// %s: %s", name, doc)
	for off := 0; off < len(b); off += 8 {
		var q uint64
		for k := 7; k >= 0; k-- {
			q = q<<8 | uint64(b[off+k])
		}
		g.p("DATA %s<>+%d(SB)/8, $0x%016x", name, off, q)
	}
	g.p("GLOBL %s<>(SB), RODATA|NOPTR, $%d", name, len(b))
	g.blank()
}

func fill(n int, v byte) []byte { return bytes.Repeat([]byte{v}, n) }

// words repeats the int16 words of ws (little-endian) into n bytes.
func words(n int, ws ...uint16) []byte {
	var b []byte
	for len(b) < n {
		for _, w := range ws {
			b = append(b, byte(w), byte(w>>8))
		}
	}
	return b[:n]
}

func dwords(ds ...uint32) []byte {
	var b []byte
	for _, d := range ds {
		b = append(b, byte(d), byte(d>>8), byte(d>>16), byte(d>>24))
	}
	return b
}

// scw and minw are the VPSHUFB control words that widen sc(j) and m(j):
// 0x80ii takes byte ii of the 128-bit lane of scale bytes into the low byte
// and zero into the high one (sc(j) at byte j<4 ? j : j+4, m(j) 4 above).
func scw(j int) uint16 {
	if j < 4 {
		return 0x8000 | uint16(j)
	}
	return 0x8000 | uint16(j+4)
}

func minw(j int) uint16 { return scw(j) + 4 }

func (g *gen) tables() {
	g.p("// ------------------------------------------------------------------ tables")
	g.blank()
	g.table("kqNib", "0x0F in every byte (nibble mask; its first 8 bytes are the GPR mask of the scale unpack)", fill(64, 0x0f))
	g.table("kqM3F", "GPR mask of the scale unpack", fill(8, 0x3f))
	g.table("kqM30", "GPR mask of the scale unpack", fill(8, 0x30))
	// The vector scale unpack's tables, one 128-bit lane repeated four
	// times (the ymm routines read the first two, the GFNI MatVec all four).
	g.table("kqSv", "VPSRLVD counts of the vector scale unpack: dword 3 of each 128-bit lane by 4", bytes.Repeat(dwords(0, 0, 0, 4), 4))
	g.table("kqSm1", "byte masks of the vector scale unpack: 0x3F (bytes 0..7), 0x0F (8..15), per 128-bit lane", bytes.Repeat(append(fill(8, 0x3f), fill(8, 0x0f)...), 4))
	g.table("kqSm2", "byte masks of the vector scale unpack: 0 (bytes 0..7), 0x30 (8..15), per 128-bit lane", bytes.Repeat(append(fill(8, 0), fill(8, 0x30)...), 4))
	var scW, scD []byte
	for j := 0; j < 8; j++ {
		scW = append(scW, words(32, scw(j))...)
	}
	for j := 0; j < 8; j++ {
		scD = append(scD, words(4, scw(j), scw(j))...)
	}
	g.table("kqScW", "VPSHUFB controls, 32 bytes per sub-block j: sc(j) in every word (the\n// zmm routines read chunk c's two sub-blocks at +64c)", scW)
	var mins []byte
	for j := 0; j < 8; j++ {
		mins = append(mins, words(4, minw(j), minw(j))...)
	}
	g.table("kqMin", "VPSHUFB control for the mins: zero words in the low 256 bits, then\n// m0,m0,m1,m1,...,m7,m7 (the ymm routines use kqMin<>+32)", append(fill(32, 0x80), mins...))
	g.table("kqMin2", "m0,m0,m1,m1,...,m7,m7 in both 256-bit halves (MatMul8)", append(append([]byte{}, mins...), mins...))
	g.table("kqDDM", "VPERMPS indices: lane 0 (d) to lanes 0..7, lane 1 (dmin) to lanes 8..15", dwords(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1))
	g.table("kqScD", "VPSHUFB control (256 bits) of MatMul8: dword j = sc(j) in both words", scD)
	// VGF2P8AFFINEQB sets bit k of each byte to the parity of the byte AND
	// byte 7−k of its qword's matrix: bytes 7..4 = 1, 2, 4, 8 keep bits
	// 0..3 (x & 15); 0x10, 0x20, 0x40, 0x80 move bits 4..7 down (x >> 4).
	var gf []byte
	for q := 0; q < 8; q++ {
		m := []byte{0, 0, 0, 0, 8, 4, 2, 1} // little-endian qword 0x0102040800000000
		if q >= 4 {
			m = []byte{0, 0, 0, 0, 0x80, 0x40, 0x20, 0x10}
		}
		gf = append(gf, m...)
	}
	g.table("kqGF", "VGF2P8AFFINEQB bit matrices: x & 15 in the low 256 bits, x >> 4 in the high", gf)
	if !g.t.q5 {
		var scWP []byte
		for _, j := range []int{0, 2, 1, 3, 4, 6, 5, 7} {
			scWP = append(scWP, words(32, scw(j))...)
		}
		g.table("kqScWP", "kqScW with the sub-blocks in Q8KQuad's order 0, 2, 1, 3, 4, 6, 5, 7\n// (MatVec*Packed: register k at +64k)", scWP)
		g.table("kqQD", "VPERMD indices (MatVec*Packed): dword 0 of each 128-bit lane, [d, dmin]\n// of blocks 0..3, to dwords 0..3", dwords(0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12, 0, 4, 8, 12))
		var qddm []byte
		for k := uint32(0); k < 4; k++ {
			qddm = append(qddm, dwords(2*k, 2*k, 2*k, 2*k, 2*k, 2*k, 2*k, 2*k, 2*k+1, 2*k+1, 2*k+1, 2*k+1, 2*k+1, 2*k+1, 2*k+1, 2*k+1)...)
		}
		g.table("kqQDDM", "VPERMPS indices (MatVec*Packed), 64 bytes per block k of a quad: lane 2k\n// (dd) to lanes 0..7, lane 2k+1 (dm) to lanes 8..15", qddm)
		return
	}
	g.table("kq10", "0x10 in every byte (the fifth bit of a quant)", fill(64, 0x10))
}

// ------------------------------------------------------------------ MatVec on packed activations

// matVecPacked writes MatVecQ4KPackedAVX512VNNIGFNI: the GFNI MatVec on
// activations packed once per product as amd64.Q8KQuad (see its doc), so
// that the loop reads the weights' quants with two plain 64-byte loads a
// block instead of four 32-byte broadcasts, and takes the four blocks' d
// and dmin from the scale load. On a Zen 5 a broadcast from memory costs a
// shuffle slot besides the load: with them gone, one accumulator chain
// instead of two, and the [d | dmin]·D of a quad converted and multiplied
// at once, the Q4_K kernel took 0.82-0.83 of the unpacked one's time in L2,
// 0.83-0.86 in L3 and 0.85-0.99 from DRAM (paired, one thread,
// bench/results/2026-12-06-zen5-packed/). Q5_K's twin took 0.85 in cache
// but 1.11-1.17 from DRAM, for no reason found: it is not written.
//
// Registers hold the same things as in the unpacked kernel, except that
// chunk register k holds the low nibbles (Q0, Q2) or high nibbles (Q1, Q3)
// of a whole 64-byte load: Q0 = [sub-block 0 | sub-block 2], Q1 = [1 | 3],
// Q2 = [4 | 6], Q3 = [5 | 7]. Q8KQuad stores the activation quants in that
// order, and kqScWP holds the scale-word controls to match; A is the sum
// of the four registers' scaled pair products, whose halves are added as
// before, so A[l] is the same exact integer.
func (g *gen) matVecPacked(v isa) {
	t := g.t
	name := "MatVec" + t.name + "Packed" + v.name
	g.p("// ------------------------------------------------------------------ %s", name)
	g.blank()
	rs := []reg{
		{"Q0", "Z0", "[sub-block 0 | 2] quants, then products (Q1: [1 | 3], Q2: [4 | 6], Q3: [5 | 7])"},
		{"Q1", "Z1", ""}, {"Q2", "Z2", ""}, {"Q3", "Z3", ""},
		{"A", "Z4", "int32 sums A (16 lanes; the halves are added at the end)"},
		{"SCB", "Z5", "scale bytes"},
		{"SW", "Z6", "scale words of a register"},
		{"AM", "Z7", "[M] then [A | M]"},
		{"T", "Z9", "scratch"},
		{"DDM", "Z10", "[dd x8 | dm x8]"},
		{"ACC", "Z11", "[acc | accm]"},
		{"DD4", "Z12", "[dd, dm] of the quad's four blocks (ymm)"},
		{"PDI", "Z13", "kqQD: VPERMD indices of the quad's [d, dmin] dwords"},
		{"GFLO", "Z14", "VGF2P8AFFINEQB bit matrix: x & 15"},
		{"GFHI", "Z15", "VGF2P8AFFINEQB bit matrix: x >> 4"},
		{"NIB", "Z16", "0x0F bytes"},
		{"CTL0", "Z17", "kqScWP controls of registers 0..3"},
		{"CTL1", "Z18", ""}, {"CTL2", "Z19", ""}, {"CTL3", "Z20", ""},
		{"MINC", "Z21", "kqMin control"},
		{"DDMI", "Z22", "kqDDM indices"},
		{"SC4", "Z25", "four blocks' d, dmin and scale bytes, one a 128-bit lane"},
		{"U", "Z26", "their unpacked scale bytes"},
		{"U2", "Z27", "scratch of the unpack"},
		{"IDX0", "Z28", "kqQDDM: VPERMPS indices of block k's [dd x8 | dm x8] in DD4"},
		{"IDX1", "Z29", ""}, {"IDX2", "Z30", ""}, {"IDX3", "Z31", ""},
	}
	g.named(rs...)
	g.text(name, "$16-48", "(dst *float32, w, xp unsafe.Pointer, rows, nb, pf int)", fmt.Sprintf(
		`dst[r] = %s(w[r·nb:(r+1)·nb], x[:nb]) for r < rows, x packed as
nb Q8KQuad (xp).`, t.twin), v)
	g.args(false, "xp")
	g.i("TESTQ", "ROWS, ROWS")
	g.i("JZ", g.l("ret"))
	g.chunkConstantsTable("kqScWP")
	g.i("VPBROADCASTQ", "kqGF<>+0(SB), GFLO")
	g.i("VPBROADCASTQ", "kqGF<>+32(SB), GFHI")
	g.i("VMOVDQU64", "kqQD<>(SB), PDI")
	for k := 0; k < 4; k++ {
		g.i("VMOVDQU64", fmt.Sprintf("kqQDDM<>+%d(SB), IDX%d", 64*k, k))
	}
	g.blank()
	g.label("row")
	g.i("VPXORD", "ACC, ACC, ACC")
	g.quadStart()
	g.c("The 16 bytes at each block's d: d, dmin and the 12 scale bytes.")
	d := g.field("d")
	g.quadScales("d", "$0xF9", "$4")
	g.c("DD4 = [f16(d_k)·D_k, f16(dmin_k)·D_k] for k = 0..3: only the d and dmin")
	g.c("halves are converted (junk could be subnormal: a microcode assist).")
	g.i("VPERMD", "SC4, PDI, DD4")
	g.i("VCVTPH2PS", g.x("DD4")+", "+g.ymm("DD4"))
	g.i("VMULPS", "Q8KQuad_D(XP), "+g.ymm("DD4")+", "+g.ymm("DD4"))
	for k := 0; k < 4; k++ {
		wo, xo := "", ""
		if k > 0 {
			wo, xo = fmt.Sprintf("+%d*%s", k, g.size()[1:]), fmt.Sprintf("+%d*Q8KQuad__size", k)
		}
		g.blank()
		g.c("Block %d of the four.", k)
		g.blockP(wo, xo, func() {
			g.ic("VSHUFI64X2", fmt.Sprintf("$0x%02X, U, U, SCB", 0x55*k), fmt.Sprintf("lane %d", k))
		}, func() {
			g.i("VPERMPS", fmt.Sprintf("DD4, IDX%d, DDM", k))
		})
	}
	g.quadEnd("$4*Q8KQuad__size")
	g.blockP("", "", func() {
		g.scales("WP", "0(SP)", "8(SP)")
		g.sbytesZ("SCB", "SW")
	}, func() {
		g.i("VPBROADCASTD", d+"(WP), "+g.x("DDM"))
		g.i("VCVTPH2PS", g.x("DDM")+", "+g.x("DDM"))
		g.i("VMULPS.BCST", "Q8KQuad_D(XP), "+g.x("DDM")+", "+g.x("DDM"))
		g.i("VPERMPS", "DDM, DDMI, DDM")
	})
	g.blockEnd("$Q8KQuad__size")
	g.hsumZ("ACC", "T")
	g.i("VMOVSS", g.x("ACC")+", (DST)")
	g.i("ADDQ", "$4, DST")
	g.i("DECQ", "ROWS")
	g.i("JNZ", g.l("row"))
	g.end()
}

// blockP writes matVecPacked's work on one block at WP+wo and XP+xo: scb
// writes SCB, ddm writes DDM.
func (g *gen) blockP(wo, xo string, scb, ddm func()) {
	g.prefetchAt("WP", wo)
	scb()
	g.c("M[j] = m_j·(bsums[2j] + bsums[2j+1]) in the high half of AM (the low")
	g.c("half multiplies the D table: junk, replaced below).")
	g.i("VPSHUFB", "MINC, SCB, AM")
	g.i("VPMADDWD", "Q8KQuad_D"+xo+"(XP), AM, AM")
	for h := 0; h < 2; h++ {
		lo, hi := fmt.Sprintf("Q%d", 2*h), fmt.Sprintf("Q%d", 2*h+1)
		g.i("VMOVDQU64", fmt.Sprintf("%s+%d%s(WP), %s", g.field("qs"), 64*h, wo, hi))
		g.ic("VGF2P8AFFINEQB", "$0, GFLO, "+hi+", "+lo, "x & 15")
		g.ic("VGF2P8AFFINEQB", "$0, GFHI, "+hi+", "+hi, "x >> 4")
	}
	for k := 0; k < 4; k++ {
		q := fmt.Sprintf("Q%d", k)
		g.i("VPMADDUBSW", fmt.Sprintf("Q8KQuad_Qs+%d%s(XP), %s, %s", 64*k, xo, q, q))
		g.i("VPSHUFB", fmt.Sprintf("CTL%d, SCB, SW", k))
		g.mac(avx512vnni, k == 0, "SW", q, "A")
	}
	g.blank()
	ddm()
	g.finishZ("A", "AM", "T", "DDM", "ACC")
}
