// Shared definitions for the Q4_K and Q5_K kernels (q4k_amd64.s,
// q5k_amd64.s): constant tables, the 6-bit scale unpack and the fixed
// horizontal sums. Every table is file-static (<>), so each .s file that
// includes this header gets its own copy.
//
// Scale bytes. KQ_SCALES turns the 12 packed scale bytes of a Q4_K/Q5_K
// block (six bits each: sc_j, m_j = s[j]&63, s[j+4]&63 for j < 4; for j ≥ 4
// the low four bits come from s[j+4] and the top two from the top bits of
// s[j-4] and s[j]) into two little-endian qwords,
//
//	lo = sc0 sc1 sc2 sc3 m0 m1 m2 m3
//	hi = sc4 sc5 sc6 sc7 m4 m5 m6 m7
//
// which the kernels place side by side in every 128-bit lane of a vector
// register (16 bytes: sc(j) at byte j<4 ? j : j+4, m(j) at j<4 ? j+4 : j+8).
// VPSHUFB with the kqSc*/kqMin tables then widens them to int16 words.

// KQ_SCALES(b, off, g0, g1, g2) and KQ_SCALES_TO(b, off, g0, g1, g2, lo,
// hi): b+off points at the 12 scale bytes; writes lo and hi to the frame at
// 0(SP) and 8(SP) (KQ_SCALES, the routines' 16-byte frame) or to the given
// addresses. g0..g2 are scratch GPRs. Scalar code, so that the vector ports
// stay free:
//
//	lo = s[0:8] & 0x3f..                  (u0, u1: sc0..3 and m0..3)
//	hi = ((u2 | (u2>>4)<<32) & 0x0f..)    (low 4 bits of sc4..7, m4..7)
//	   | ((s[0:8] >> 2) & 0x30..)         (bits 4..5: the tops of u0, u1)
#define KQ_SCALES_TO(b, off, g0, g1, g2, lo, hi) \
	MOVQ off(b), g0         \
	MOVL off+8(b), g1       \
	MOVQ g0, g2             \
	ANDQ kqM3F<>(SB), g2    \
	MOVQ g2, lo             \
	SHRQ $2, g0             \
	ANDQ kqM30<>(SB), g0    \
	MOVL g1, g2             \
	SHRL $4, g2             \
	SHLQ $32, g2            \
	ORQ  g2, g1             \
	ANDQ kqNib<>(SB), g1    \
	ORQ  g0, g1             \
	MOVQ g1, hi

#define KQ_SCALES(b, off, g0, g1, g2) KQ_SCALES_TO(b, off, g0, g1, g2, 0(SP), 8(SP))

// KQ_PREFETCH(p, size): prefetch the weight block 16 blocks ahead of p
// (blocks of size bytes, at most 192). The matrix-vector kernels stream
// their weights from L3 or memory; the hardware prefetchers alone leave the
// loop waiting. A prefetch past the end of the weights is harmless (it
// never faults).
#define KQ_PREFETCH(p, size) \
	PREFETCHT0 (16*size)(p)     \
	PREFETCHT0 (16*size+64)(p)  \
	PREFETCHT0 (16*size+128)(p)

// KQ_PREFETCH2(p, stride): the same for the two-row kernels, which read two
// streams a row apart: prefetch the blocks of the next two rows (p points
// into the second row of the current pair).
#define KQ_PREFETCH2(p, stride) \
	PREFETCHT0 (p)(stride*1)    \
	PREFETCHT0 64(p)(stride*1)  \
	PREFETCHT0 128(p)(stride*1) \
	PREFETCHT0 (p)(stride*2)    \
	PREFETCHT0 64(p)(stride*2)  \
	PREFETCHT0 128(p)(stride*2)

// KQ_SBYTES_Z(s, t) and KQ_SBYTES_Y(s, t) load lo, hi from the frame into
// every 128-bit lane of s (t is clobbered). K2 must hold 0xAA.
#define KQ_SBYTES_Z(s, t) \
	VPBROADCASTQ 0(SP), s   \
	VPBROADCASTQ 8(SP), t   \
	VPBLENDMQ    t, s, K2, s

#define KQ_SBYTES_Y(s, t) \
	VPBROADCASTQ 0(SP), s   \
	VPBROADCASTQ 8(SP), t   \
	VPBLENDD     $0xCC, t, s, s

// The zmm kernels hold a 64-value chunk c (sub-blocks 2c, 2c+1) in one
// register: the 32 quant bytes broadcast to both halves, the low nibbles
// kept in the low half and the high nibbles shifted down in the high half
// (K1 = 0xFFFF0000 selects the high 16 words). The int32 lanes l and l+8 of
// a product then both belong to lane l of the contract, and the kernels add
// the two halves (exactly, in int32) before converting.
//
// KQ_NIBBLES_Z(addr, q): q = [low nibbles | high nibbles] of the 32 bytes
// at addr. Needs Z16 = 0x0F bytes, K1.
#define KQ_NIBBLES_Z(addr, q) \
	VBROADCASTI64X4 addr, q  \
	VPSRLW          $4, q, K1, q \
	VPANDD          Z16, q, q

// KQ_MUL_Z / KQ_ACC_BW_Z / KQ_ACC_VNNI_Z(sc, p, acc): int16 words p times the
// scale words sc, summed in pairs into int32 lanes; MUL starts acc, the ACC
// forms add to it (AVX512BW: VPMADDWD + VPADDD; AVX512VNNI: VPDPWSSD). p may
// be clobbered.
#define KQ_MUL_Z(sc, p, acc) VPMADDWD sc, p, acc
#define KQ_ACC_BW_Z(sc, p, acc) VPMADDWD sc, p, p; VPADDD p, acc, acc
#define KQ_ACC_VNNI_Z(sc, p, acc) VPDPWSSD sc, p, acc

// KQ_FINISH_Z(i, w, t, ddm, acc): i = the 16 int32 lanes of the scaled
// products, w = [anything | M] (the mins products in the high half). Adds
// the halves of i into the low half of w (w = [A | M]), converts, multiplies
// by ddm = [dd x8 | dm x8] and adds to acc = [acc | accm]. Needs K3 = 0x00FF.
#define KQ_FINISH_Z(i, w, t, ddm, acc) \
	VSHUFI64X2 $0x4E, i, i, t \
	VPADDD     t, i, K3, w    \
	VCVTDQ2PS  w, w           \
	VMULPS     ddm, w, w      \
	VADDPS     w, acc, acc

// KQ_HSUM_Z(v, t): v = [acc(8) | accm(8)] float32; leaves hsum(acc) −
// hsum(accm) in the low lane of v (as X register x). The order is the
// package contract: ((v0+v4) + (v2+v6)) + ((v1+v5) + (v3+v7)), done on both
// 256-bit halves at once: add 128-bit lanes 1→0 (3→2), then the high qword
// to the low one, then lane 1 to lane 0.
#define KQ_HSUM_Z(v, t, x, tx) \
	VSHUFF64X2    $0xB1, v, v, t \
	VADDPS        t, v, v        \
	VPERMILPS     $0x4E, v, t    \
	VADDPS        t, v, v        \
	VPERMILPS     $0xB1, v, t    \
	VADDPS        t, v, v        \
	VEXTRACTF32X4 $2, v, tx      \
	VSUBSS        tx, x, x

// KQ_HSUM_Y(acc, accm, xacc, xaccm, xt): the same order for two ymm
// accumulators (X registers xacc, xaccm are their low halves); leaves
// hsum(acc) − hsum(accm) in the low lane of xacc.
#define KQ_HSUM_Y(acc, accm, xacc, xaccm, xt) \
	VEXTRACTF128 $1, acc, xt   \
	VADDPS       xt, xacc, xacc   \
	VEXTRACTF128 $1, accm, xt  \
	VADDPS       xt, xaccm, xaccm \
	VPERMILPS    $0x4E, xacc, xt  \
	VADDPS       xt, xacc, xacc   \
	VPERMILPS    $0x4E, xaccm, xt \
	VADDPS       xt, xaccm, xaccm \
	VMOVSHDUP    xacc, xt         \
	VADDSS       xt, xacc, xacc   \
	VMOVSHDUP    xaccm, xt        \
	VADDSS       xt, xaccm, xaccm \
	VSUBSS       xaccm, xacc, xacc

// kqNib: 0x0F in every byte (nibble mask; its first 8 bytes are the 0x0F.. GPR mask).
DATA kqNib<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+32(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+40(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+48(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA kqNib<>+56(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL kqNib<>(SB), RODATA|NOPTR, $64

// kqM3F, kqM30: GPR masks for the 6-bit scale unpack.
DATA kqM3F<>+0(SB)/8, $0x3f3f3f3f3f3f3f3f
GLOBL kqM3F<>(SB), RODATA|NOPTR, $8
DATA kqM30<>+0(SB)/8, $0x3030303030303030
GLOBL kqM30<>(SB), RODATA|NOPTR, $8

// kqScZ: VPSHUFB controls, 64 bytes per 64-value chunk c: words sc(2c) in the low
// 256 bits, sc(2c+1) in the high 256 bits.
DATA kqScZ<>+0(SB)/8, $0x8000800080008000
DATA kqScZ<>+8(SB)/8, $0x8000800080008000
DATA kqScZ<>+16(SB)/8, $0x8000800080008000
DATA kqScZ<>+24(SB)/8, $0x8000800080008000
DATA kqScZ<>+32(SB)/8, $0x8001800180018001
DATA kqScZ<>+40(SB)/8, $0x8001800180018001
DATA kqScZ<>+48(SB)/8, $0x8001800180018001
DATA kqScZ<>+56(SB)/8, $0x8001800180018001
DATA kqScZ<>+64(SB)/8, $0x8002800280028002
DATA kqScZ<>+72(SB)/8, $0x8002800280028002
DATA kqScZ<>+80(SB)/8, $0x8002800280028002
DATA kqScZ<>+88(SB)/8, $0x8002800280028002
DATA kqScZ<>+96(SB)/8, $0x8003800380038003
DATA kqScZ<>+104(SB)/8, $0x8003800380038003
DATA kqScZ<>+112(SB)/8, $0x8003800380038003
DATA kqScZ<>+120(SB)/8, $0x8003800380038003
DATA kqScZ<>+128(SB)/8, $0x8008800880088008
DATA kqScZ<>+136(SB)/8, $0x8008800880088008
DATA kqScZ<>+144(SB)/8, $0x8008800880088008
DATA kqScZ<>+152(SB)/8, $0x8008800880088008
DATA kqScZ<>+160(SB)/8, $0x8009800980098009
DATA kqScZ<>+168(SB)/8, $0x8009800980098009
DATA kqScZ<>+176(SB)/8, $0x8009800980098009
DATA kqScZ<>+184(SB)/8, $0x8009800980098009
DATA kqScZ<>+192(SB)/8, $0x800a800a800a800a
DATA kqScZ<>+200(SB)/8, $0x800a800a800a800a
DATA kqScZ<>+208(SB)/8, $0x800a800a800a800a
DATA kqScZ<>+216(SB)/8, $0x800a800a800a800a
DATA kqScZ<>+224(SB)/8, $0x800b800b800b800b
DATA kqScZ<>+232(SB)/8, $0x800b800b800b800b
DATA kqScZ<>+240(SB)/8, $0x800b800b800b800b
DATA kqScZ<>+248(SB)/8, $0x800b800b800b800b
GLOBL kqScZ<>(SB), RODATA|NOPTR, $256

// kqScY: VPSHUFB controls, 32 bytes per sub-block j: sc(j) in every word.
DATA kqScY<>+0(SB)/8, $0x8000800080008000
DATA kqScY<>+8(SB)/8, $0x8000800080008000
DATA kqScY<>+16(SB)/8, $0x8000800080008000
DATA kqScY<>+24(SB)/8, $0x8000800080008000
DATA kqScY<>+32(SB)/8, $0x8001800180018001
DATA kqScY<>+40(SB)/8, $0x8001800180018001
DATA kqScY<>+48(SB)/8, $0x8001800180018001
DATA kqScY<>+56(SB)/8, $0x8001800180018001
DATA kqScY<>+64(SB)/8, $0x8002800280028002
DATA kqScY<>+72(SB)/8, $0x8002800280028002
DATA kqScY<>+80(SB)/8, $0x8002800280028002
DATA kqScY<>+88(SB)/8, $0x8002800280028002
DATA kqScY<>+96(SB)/8, $0x8003800380038003
DATA kqScY<>+104(SB)/8, $0x8003800380038003
DATA kqScY<>+112(SB)/8, $0x8003800380038003
DATA kqScY<>+120(SB)/8, $0x8003800380038003
DATA kqScY<>+128(SB)/8, $0x8008800880088008
DATA kqScY<>+136(SB)/8, $0x8008800880088008
DATA kqScY<>+144(SB)/8, $0x8008800880088008
DATA kqScY<>+152(SB)/8, $0x8008800880088008
DATA kqScY<>+160(SB)/8, $0x8009800980098009
DATA kqScY<>+168(SB)/8, $0x8009800980098009
DATA kqScY<>+176(SB)/8, $0x8009800980098009
DATA kqScY<>+184(SB)/8, $0x8009800980098009
DATA kqScY<>+192(SB)/8, $0x800a800a800a800a
DATA kqScY<>+200(SB)/8, $0x800a800a800a800a
DATA kqScY<>+208(SB)/8, $0x800a800a800a800a
DATA kqScY<>+216(SB)/8, $0x800a800a800a800a
DATA kqScY<>+224(SB)/8, $0x800b800b800b800b
DATA kqScY<>+232(SB)/8, $0x800b800b800b800b
DATA kqScY<>+240(SB)/8, $0x800b800b800b800b
DATA kqScY<>+248(SB)/8, $0x800b800b800b800b
GLOBL kqScY<>(SB), RODATA|NOPTR, $256

// kqMin: VPSHUFB control for the mins: zero words in the low 256 bits, then
// m0,m0,m1,m1,...,m7,m7 (the 256-bit variants use kqMin<>+32).
DATA kqMin<>+0(SB)/8, $0x8080808080808080
DATA kqMin<>+8(SB)/8, $0x8080808080808080
DATA kqMin<>+16(SB)/8, $0x8080808080808080
DATA kqMin<>+24(SB)/8, $0x8080808080808080
DATA kqMin<>+32(SB)/8, $0x8005800580048004
DATA kqMin<>+40(SB)/8, $0x8007800780068006
DATA kqMin<>+48(SB)/8, $0x800d800d800c800c
DATA kqMin<>+56(SB)/8, $0x800f800f800e800e
GLOBL kqMin<>(SB), RODATA|NOPTR, $64

// kqDDM: VPERMPS indices: lane 0 (d) to lanes 0..7, lane 1 (dmin) to lanes 8..15.
DATA kqDDM<>+0(SB)/8, $0x0000000000000000
DATA kqDDM<>+8(SB)/8, $0x0000000000000000
DATA kqDDM<>+16(SB)/8, $0x0000000000000000
DATA kqDDM<>+24(SB)/8, $0x0000000000000000
DATA kqDDM<>+32(SB)/8, $0x0000000100000001
DATA kqDDM<>+40(SB)/8, $0x0000000100000001
DATA kqDDM<>+48(SB)/8, $0x0000000100000001
DATA kqDDM<>+56(SB)/8, $0x0000000100000001
GLOBL kqDDM<>(SB), RODATA|NOPTR, $64

// kqHbZ: q5_K high-bit masks, 64 bytes per chunk c: bit 2c in the low 256
// bits, bit 2c+1 in the high 256 bits.
DATA kqHbZ<>+0(SB)/8, $0x0101010101010101
DATA kqHbZ<>+8(SB)/8, $0x0101010101010101
DATA kqHbZ<>+16(SB)/8, $0x0101010101010101
DATA kqHbZ<>+24(SB)/8, $0x0101010101010101
DATA kqHbZ<>+32(SB)/8, $0x0202020202020202
DATA kqHbZ<>+40(SB)/8, $0x0202020202020202
DATA kqHbZ<>+48(SB)/8, $0x0202020202020202
DATA kqHbZ<>+56(SB)/8, $0x0202020202020202
DATA kqHbZ<>+64(SB)/8, $0x0404040404040404
DATA kqHbZ<>+72(SB)/8, $0x0404040404040404
DATA kqHbZ<>+80(SB)/8, $0x0404040404040404
DATA kqHbZ<>+88(SB)/8, $0x0404040404040404
DATA kqHbZ<>+96(SB)/8, $0x0808080808080808
DATA kqHbZ<>+104(SB)/8, $0x0808080808080808
DATA kqHbZ<>+112(SB)/8, $0x0808080808080808
DATA kqHbZ<>+120(SB)/8, $0x0808080808080808
DATA kqHbZ<>+128(SB)/8, $0x1010101010101010
DATA kqHbZ<>+136(SB)/8, $0x1010101010101010
DATA kqHbZ<>+144(SB)/8, $0x1010101010101010
DATA kqHbZ<>+152(SB)/8, $0x1010101010101010
DATA kqHbZ<>+160(SB)/8, $0x2020202020202020
DATA kqHbZ<>+168(SB)/8, $0x2020202020202020
DATA kqHbZ<>+176(SB)/8, $0x2020202020202020
DATA kqHbZ<>+184(SB)/8, $0x2020202020202020
DATA kqHbZ<>+192(SB)/8, $0x4040404040404040
DATA kqHbZ<>+200(SB)/8, $0x4040404040404040
DATA kqHbZ<>+208(SB)/8, $0x4040404040404040
DATA kqHbZ<>+216(SB)/8, $0x4040404040404040
DATA kqHbZ<>+224(SB)/8, $0x8080808080808080
DATA kqHbZ<>+232(SB)/8, $0x8080808080808080
DATA kqHbZ<>+240(SB)/8, $0x8080808080808080
DATA kqHbZ<>+248(SB)/8, $0x8080808080808080
GLOBL kqHbZ<>(SB), RODATA|NOPTR, $256

// kq10: 0x10 in every byte (the fifth bit of a q5_K quant).
DATA kq10<>+0(SB)/8, $0x1010101010101010
DATA kq10<>+8(SB)/8, $0x1010101010101010
DATA kq10<>+16(SB)/8, $0x1010101010101010
DATA kq10<>+24(SB)/8, $0x1010101010101010
DATA kq10<>+32(SB)/8, $0x1010101010101010
DATA kq10<>+40(SB)/8, $0x1010101010101010
DATA kq10<>+48(SB)/8, $0x1010101010101010
DATA kq10<>+56(SB)/8, $0x1010101010101010
GLOBL kq10<>(SB), RODATA|NOPTR, $64

// kqScD: VPSHUFB control (256 bits) for the MatMul8 kernels: dword j = sc(j)
// in both words, for VPDPWSSD / VPMADDWD against one sub-block.
DATA kqScD<>+0(SB)/8, $0x8001800180008000
DATA kqScD<>+8(SB)/8, $0x8003800380028002
DATA kqScD<>+16(SB)/8, $0x8009800980088008
DATA kqScD<>+24(SB)/8, $0x800b800b800a800a
GLOBL kqScD<>(SB), RODATA|NOPTR, $32

// kqMin2: VPSHUFB control for the MatMul8 kernels: m0,m0,m1,m1,...,m7,m7 in
// both 256-bit halves.
DATA kqMin2<>+0(SB)/8, $0x8005800580048004
DATA kqMin2<>+8(SB)/8, $0x8007800780068006
DATA kqMin2<>+16(SB)/8, $0x800d800d800c800c
DATA kqMin2<>+24(SB)/8, $0x800f800f800e800e
DATA kqMin2<>+32(SB)/8, $0x8005800580048004
DATA kqMin2<>+40(SB)/8, $0x8007800780068006
DATA kqMin2<>+48(SB)/8, $0x800d800d800c800c
DATA kqMin2<>+56(SB)/8, $0x800f800f800e800e
GLOBL kqMin2<>(SB), RODATA|NOPTR, $64

// kqHb8: q5_K high-bit masks of the MatMul8 kernels, 64 bytes per sub-block j:
// bit j in every byte.
DATA kqHb8<>+0(SB)/8, $0x0101010101010101
DATA kqHb8<>+8(SB)/8, $0x0101010101010101
DATA kqHb8<>+16(SB)/8, $0x0101010101010101
DATA kqHb8<>+24(SB)/8, $0x0101010101010101
DATA kqHb8<>+32(SB)/8, $0x0101010101010101
DATA kqHb8<>+40(SB)/8, $0x0101010101010101
DATA kqHb8<>+48(SB)/8, $0x0101010101010101
DATA kqHb8<>+56(SB)/8, $0x0101010101010101
DATA kqHb8<>+64(SB)/8, $0x0202020202020202
DATA kqHb8<>+72(SB)/8, $0x0202020202020202
DATA kqHb8<>+80(SB)/8, $0x0202020202020202
DATA kqHb8<>+88(SB)/8, $0x0202020202020202
DATA kqHb8<>+96(SB)/8, $0x0202020202020202
DATA kqHb8<>+104(SB)/8, $0x0202020202020202
DATA kqHb8<>+112(SB)/8, $0x0202020202020202
DATA kqHb8<>+120(SB)/8, $0x0202020202020202
DATA kqHb8<>+128(SB)/8, $0x0404040404040404
DATA kqHb8<>+136(SB)/8, $0x0404040404040404
DATA kqHb8<>+144(SB)/8, $0x0404040404040404
DATA kqHb8<>+152(SB)/8, $0x0404040404040404
DATA kqHb8<>+160(SB)/8, $0x0404040404040404
DATA kqHb8<>+168(SB)/8, $0x0404040404040404
DATA kqHb8<>+176(SB)/8, $0x0404040404040404
DATA kqHb8<>+184(SB)/8, $0x0404040404040404
DATA kqHb8<>+192(SB)/8, $0x0808080808080808
DATA kqHb8<>+200(SB)/8, $0x0808080808080808
DATA kqHb8<>+208(SB)/8, $0x0808080808080808
DATA kqHb8<>+216(SB)/8, $0x0808080808080808
DATA kqHb8<>+224(SB)/8, $0x0808080808080808
DATA kqHb8<>+232(SB)/8, $0x0808080808080808
DATA kqHb8<>+240(SB)/8, $0x0808080808080808
DATA kqHb8<>+248(SB)/8, $0x0808080808080808
DATA kqHb8<>+256(SB)/8, $0x1010101010101010
DATA kqHb8<>+264(SB)/8, $0x1010101010101010
DATA kqHb8<>+272(SB)/8, $0x1010101010101010
DATA kqHb8<>+280(SB)/8, $0x1010101010101010
DATA kqHb8<>+288(SB)/8, $0x1010101010101010
DATA kqHb8<>+296(SB)/8, $0x1010101010101010
DATA kqHb8<>+304(SB)/8, $0x1010101010101010
DATA kqHb8<>+312(SB)/8, $0x1010101010101010
DATA kqHb8<>+320(SB)/8, $0x2020202020202020
DATA kqHb8<>+328(SB)/8, $0x2020202020202020
DATA kqHb8<>+336(SB)/8, $0x2020202020202020
DATA kqHb8<>+344(SB)/8, $0x2020202020202020
DATA kqHb8<>+352(SB)/8, $0x2020202020202020
DATA kqHb8<>+360(SB)/8, $0x2020202020202020
DATA kqHb8<>+368(SB)/8, $0x2020202020202020
DATA kqHb8<>+376(SB)/8, $0x2020202020202020
DATA kqHb8<>+384(SB)/8, $0x4040404040404040
DATA kqHb8<>+392(SB)/8, $0x4040404040404040
DATA kqHb8<>+400(SB)/8, $0x4040404040404040
DATA kqHb8<>+408(SB)/8, $0x4040404040404040
DATA kqHb8<>+416(SB)/8, $0x4040404040404040
DATA kqHb8<>+424(SB)/8, $0x4040404040404040
DATA kqHb8<>+432(SB)/8, $0x4040404040404040
DATA kqHb8<>+440(SB)/8, $0x4040404040404040
DATA kqHb8<>+448(SB)/8, $0x8080808080808080
DATA kqHb8<>+456(SB)/8, $0x8080808080808080
DATA kqHb8<>+464(SB)/8, $0x8080808080808080
DATA kqHb8<>+472(SB)/8, $0x8080808080808080
DATA kqHb8<>+480(SB)/8, $0x8080808080808080
DATA kqHb8<>+488(SB)/8, $0x8080808080808080
DATA kqHb8<>+496(SB)/8, $0x8080808080808080
DATA kqHb8<>+504(SB)/8, $0x8080808080808080
GLOBL kqHb8<>(SB), RODATA|NOPTR, $512

// kqScP: VPSHUFB controls of the two-row MatVec2 kernels, 64 bytes per
// sub-block j: sc(j) in every word (of the row whose scale bytes the 128-bit
// lane holds).
DATA kqScP<>+0(SB)/8, $0x8000800080008000
DATA kqScP<>+8(SB)/8, $0x8000800080008000
DATA kqScP<>+16(SB)/8, $0x8000800080008000
DATA kqScP<>+24(SB)/8, $0x8000800080008000
DATA kqScP<>+32(SB)/8, $0x8000800080008000
DATA kqScP<>+40(SB)/8, $0x8000800080008000
DATA kqScP<>+48(SB)/8, $0x8000800080008000
DATA kqScP<>+56(SB)/8, $0x8000800080008000
DATA kqScP<>+64(SB)/8, $0x8001800180018001
DATA kqScP<>+72(SB)/8, $0x8001800180018001
DATA kqScP<>+80(SB)/8, $0x8001800180018001
DATA kqScP<>+88(SB)/8, $0x8001800180018001
DATA kqScP<>+96(SB)/8, $0x8001800180018001
DATA kqScP<>+104(SB)/8, $0x8001800180018001
DATA kqScP<>+112(SB)/8, $0x8001800180018001
DATA kqScP<>+120(SB)/8, $0x8001800180018001
DATA kqScP<>+128(SB)/8, $0x8002800280028002
DATA kqScP<>+136(SB)/8, $0x8002800280028002
DATA kqScP<>+144(SB)/8, $0x8002800280028002
DATA kqScP<>+152(SB)/8, $0x8002800280028002
DATA kqScP<>+160(SB)/8, $0x8002800280028002
DATA kqScP<>+168(SB)/8, $0x8002800280028002
DATA kqScP<>+176(SB)/8, $0x8002800280028002
DATA kqScP<>+184(SB)/8, $0x8002800280028002
DATA kqScP<>+192(SB)/8, $0x8003800380038003
DATA kqScP<>+200(SB)/8, $0x8003800380038003
DATA kqScP<>+208(SB)/8, $0x8003800380038003
DATA kqScP<>+216(SB)/8, $0x8003800380038003
DATA kqScP<>+224(SB)/8, $0x8003800380038003
DATA kqScP<>+232(SB)/8, $0x8003800380038003
DATA kqScP<>+240(SB)/8, $0x8003800380038003
DATA kqScP<>+248(SB)/8, $0x8003800380038003
DATA kqScP<>+256(SB)/8, $0x8008800880088008
DATA kqScP<>+264(SB)/8, $0x8008800880088008
DATA kqScP<>+272(SB)/8, $0x8008800880088008
DATA kqScP<>+280(SB)/8, $0x8008800880088008
DATA kqScP<>+288(SB)/8, $0x8008800880088008
DATA kqScP<>+296(SB)/8, $0x8008800880088008
DATA kqScP<>+304(SB)/8, $0x8008800880088008
DATA kqScP<>+312(SB)/8, $0x8008800880088008
DATA kqScP<>+320(SB)/8, $0x8009800980098009
DATA kqScP<>+328(SB)/8, $0x8009800980098009
DATA kqScP<>+336(SB)/8, $0x8009800980098009
DATA kqScP<>+344(SB)/8, $0x8009800980098009
DATA kqScP<>+352(SB)/8, $0x8009800980098009
DATA kqScP<>+360(SB)/8, $0x8009800980098009
DATA kqScP<>+368(SB)/8, $0x8009800980098009
DATA kqScP<>+376(SB)/8, $0x8009800980098009
DATA kqScP<>+384(SB)/8, $0x800a800a800a800a
DATA kqScP<>+392(SB)/8, $0x800a800a800a800a
DATA kqScP<>+400(SB)/8, $0x800a800a800a800a
DATA kqScP<>+408(SB)/8, $0x800a800a800a800a
DATA kqScP<>+416(SB)/8, $0x800a800a800a800a
DATA kqScP<>+424(SB)/8, $0x800a800a800a800a
DATA kqScP<>+432(SB)/8, $0x800a800a800a800a
DATA kqScP<>+440(SB)/8, $0x800a800a800a800a
DATA kqScP<>+448(SB)/8, $0x800b800b800b800b
DATA kqScP<>+456(SB)/8, $0x800b800b800b800b
DATA kqScP<>+464(SB)/8, $0x800b800b800b800b
DATA kqScP<>+472(SB)/8, $0x800b800b800b800b
DATA kqScP<>+480(SB)/8, $0x800b800b800b800b
DATA kqScP<>+488(SB)/8, $0x800b800b800b800b
DATA kqScP<>+496(SB)/8, $0x800b800b800b800b
DATA kqScP<>+504(SB)/8, $0x800b800b800b800b
GLOBL kqScP<>(SB), RODATA|NOPTR, $512

// kqDD2, kqDM2: VPERMPS indices of the MatVec2 kernels: from [d, dmin, d', dmin']
// to [d x8 | d' x8] and [dmin x8 | dmin' x8].
DATA kqDD2<>+0(SB)/8, $0x0000000000000000
DATA kqDD2<>+8(SB)/8, $0x0000000000000000
DATA kqDD2<>+16(SB)/8, $0x0000000000000000
DATA kqDD2<>+24(SB)/8, $0x0000000000000000
DATA kqDD2<>+32(SB)/8, $0x0000000200000002
DATA kqDD2<>+40(SB)/8, $0x0000000200000002
DATA kqDD2<>+48(SB)/8, $0x0000000200000002
DATA kqDD2<>+56(SB)/8, $0x0000000200000002
GLOBL kqDD2<>(SB), RODATA|NOPTR, $64
DATA kqDM2<>+0(SB)/8, $0x0000000100000001
DATA kqDM2<>+8(SB)/8, $0x0000000100000001
DATA kqDM2<>+16(SB)/8, $0x0000000100000001
DATA kqDM2<>+24(SB)/8, $0x0000000100000001
DATA kqDM2<>+32(SB)/8, $0x0000000300000003
DATA kqDM2<>+40(SB)/8, $0x0000000300000003
DATA kqDM2<>+48(SB)/8, $0x0000000300000003
DATA kqDM2<>+56(SB)/8, $0x0000000300000003
GLOBL kqDM2<>(SB), RODATA|NOPTR, $64
