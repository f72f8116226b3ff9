// What the quantized dot kernels share: the row loop, the lane sums of the
// two variants, and the horizontal sum of the package doc's contract.
//
// Each kernel shape (q4k_arm64.s, q6k_arm64.s, ...) is written once, as a
// block macro, and each variant is one TEXT that runs the row loop with
// that block and the variant's lane-sum macro:
//
//	TEXT ·DotQ6KSDOT(SB), NOSPLIT, $0-40
//		DOT_ROWS(Q6K_SETUP, Q6K_ZERO, Q6K_BLOCK(LANES_SDOT), Q6K_REDUCE)
//
// Vector registers are named by role, each twice: in upper case for the
// Go assembler's own instructions (#define ACC V16) and in lower case as
// the number that asimd_arm64.h's macros take (#define acc 16); the two
// always name the same register. Scalar float operations name a role's
// register F(acc), register lists V(acc). A macro here uses the roles its
// comment lists, which every file that includes this one defines.
//
// General registers: the row loop's are below; R7..R15 are the block's.

// func Dot*(dst *float32, w, x unsafe.Pointer, rows, nb int)
#define DST R0 // *float32, advanced one element per row
#define W R1 // weight cursor: the current block of the current row
#define X R2 // the activation row
#define ROWS R3 // rows left
#define NB R4 // blocks per row
#define XP R5 // activation cursor: the current block
#define N R6 // blocks left in this row

// DOT_ROWS is the body of every rows kernel: dst[r] = dot(row r of w, x)
// for r < rows, a row being nb blocks. SETUP runs once (constants), ZERO
// at the start of each row, BLOCK once per block (it advances W and XP;
// it may branch to rows_reduce when N reaches 0 inside an unrolled step),
// REDUCE after the row's last block, leaving the result in F(res).
#define DOT_ROWS(SETUP, ZERO, BLOCK, REDUCE) \
	MOVD dst+0(FP), DST \
	MOVD w+8(FP), W \
	MOVD x+16(FP), X \
	MOVD rows+24(FP), ROWS \
	MOVD nb+32(FP), NB \
	SETUP \
	CBZ ROWS, rows_done \
rows_row: \
	ZERO \
	MOVD X, XP \
	MOVD NB, N \
	CBZ N, rows_reduce \
	PCALIGN $32 \
rows_block: \
	BLOCK \
	SUBS $1, N \
	BNE rows_block \
rows_reduce: \
	REDUCE \
	FMOVS F(res), (DST) \
	ADD $4, DST \
	SUBS $1, ROWS \
	BNE rows_row \
rows_done: \
	RET

// NONE is an empty step.
#define NONE

// The lane sums, S.S[l] = Σ_{k<4} x[4l+k]·w[4l+k] for the 16 bytes of
// Vx and Vw (signed), one macro per variant. Each takes the numbers x, w,
// s and the name S of the sum's register. LANES_NEON (ASIMD only) !!!
// forms the products with smull/smull2 (16-bit), adds pairs with addp
// (still 16-bit) and pairs of pairs with saddlp (to 32 bits): exact only
// while |x·w| ≤ 2^14, which every weight type but Q8_0 keeps (|q| ≤ 32,
// |y| ≤ 128). LANES8_NEON, for Q8_0, adds pairs with saddlp first (exact
// for every int8 pair). Both use T/t as a temporary. LANES_SDOT needs
// FEAT_DotProd and serves both.
#define LANES_SDOT(x, w, s, S) VEOR S.B16, S.B16, S.B16; SDOT(x, w, s)
#define LANES_NEON(x, w, s, S) SMULL(x, w, s); SMULL2(x, w, t); VADDP T.H8, S.H8, S.H8; SADDLP(s, s)
#define LANES8_NEON(x, w, s, S) SMULL(x, w, s); SMULL2(x, w, t); SADDLP(s, s); SADDLP(t, t); VADDP T.S4, S.S4, S.S4

// HSUM8 sets F(lo) to hsum(v) = ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7))
// of the eight lanes v0..3 in LO, v4..7 in HI (HI is clobbered): t = lo +
// hi, u = t + t[2,3,0,1], faddp u0, u1.
#define HSUM8(lo, LO, hi, HI) \
	FADD4S(hi, lo, lo) \
	VEXT $8, LO.B16, LO.B16, HI.B16 \
	FADD4S(hi, lo, lo) \
	FADDP2S(lo, lo)

// ACC_A adds a block's lane sums to the accumulators: acc ← acc +
// dd·float32(A), A in ALO (lanes 0..3) and AHI (4..7), acc in ACCLO, ACCHI
// (all numbers), a separate FMUL and FADD.
#define ACC_A(dd) \
	SCVTF4S(alo, alo) \
	SCVTF4S(ahi, ahi) \
	FMUL4SE(dd, 0, alo, alo) \
	FMUL4SE(dd, 0, ahi, ahi) \
	FADD4S(alo, acclo, acclo) \
	FADD4S(ahi, acchi, acchi)

// F16S converts the binary16 at off(base) to float32 in F(f), exactly
// (R7 is clobbered).
#define F16S(off, base, f) \
	MOVHU off(base), R7 \
	FMOVS R7, F(f) \
	FCVTHS F(f), F(f)
