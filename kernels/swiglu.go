package kernels

// SiLU returns x/(1 + Exp(−x)), the sum and the quotient each rounded to
// float32: the sigmoid-weighted linear unit with the module's exponential,
// so it has the same bits on every GOARCH and CPU.
func SiLU(x float32) float32 { return x / float32(1+Exp(-x)) }

func checkSwiGLU(dst, gate, up []float32) {
	if len(dst) != len(gate) || len(gate) != len(up) {
		panic("kernels: SwiGLU: lengths do not match")
	}
}

func swiGLUGeneric(dst, gate, up []float32) {
	checkSwiGLU(dst, gate, up)
	for i, g := range gate {
		dst[i] = canonNaN(SiLU(g) * up[i])
	}
}
