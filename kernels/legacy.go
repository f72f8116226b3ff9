package kernels

import (
	"encoding/binary"

	"github.com/corelane/corelane/quant"
)

// The legacy 32-value types have generic kernels only. They follow ggml's
// generic accumulation order (float32, no FMA, blocks in order), so they are
// bit-exact with ggml's generic build (TestLegacyDotGGML).

func dotQ4_0Generic(w []quant.BlockQ4_0, x []quant.BlockQ8_0) float32 {
	var sum float32
	for b := range w {
		var s int32
		for i := 0; i < 16; i++ {
			s += (int32(w[b].Qs[i]&0xF) - 8) * int32(x[b].Qs[i])
			s += (int32(w[b].Qs[i]>>4) - 8) * int32(x[b].Qs[i+16])
		}
		// ggml rounds S·dx before multiplying by dy.
		sum += float32(float32(float32(s)*w[b].D.Float32()) * x[b].D.Float32())
	}
	return canonNaN(sum)
}

func dotQ5_0Generic(w []quant.BlockQ5_0, x []quant.BlockQ8_0) float32 {
	var sum float32
	for b := range w {
		qh := binary.LittleEndian.Uint32(w[b].Qh[:])
		var s int32
		for i := 0; i < 16; i++ {
			lo := int32(w[b].Qs[i]&0xF) | int32((qh>>i)&1)<<4
			hi := int32(w[b].Qs[i]>>4) | int32((qh>>(i+16))&1)<<4
			s += (lo-16)*int32(x[b].Qs[i]) + (hi-16)*int32(x[b].Qs[i+16])
		}
		sum += float32(float32(w[b].D.Float32()*x[b].D.Float32()) * float32(s))
	}
	return canonNaN(sum)
}

func dotQ4_1Generic(w []quant.BlockQ4_1, x []quant.BlockQ8_1) float32 {
	var sum float32
	for b := range w {
		var s int32
		for i := 0; i < 16; i++ {
			s += int32(w[b].Qs[i]&0xF)*int32(x[b].Qs[i]) + int32(w[b].Qs[i]>>4)*int32(x[b].Qs[i+16])
		}
		t := float32(float32(w[b].D.Float32()*x[b].D.Float32())*float32(s)) + float32(w[b].M.Float32()*x[b].S.Float32())
		sum += float32(t)
	}
	return canonNaN(sum)
}

func dotQ5_1Generic(w []quant.BlockQ5_1, x []quant.BlockQ8_1) float32 {
	var sum float32
	for b := range w {
		qh := binary.LittleEndian.Uint32(w[b].Qh[:])
		var s int32
		for i := 0; i < 16; i++ {
			lo := int32(w[b].Qs[i]&0xF) | int32((qh>>i)&1)<<4
			hi := int32(w[b].Qs[i]>>4) | int32((qh>>(i+16))&1)<<4
			s += lo*int32(x[b].Qs[i]) + hi*int32(x[b].Qs[i+16])
		}
		t := float32(float32(w[b].D.Float32()*x[b].D.Float32())*float32(s)) + float32(w[b].M.Float32()*x[b].S.Float32())
		sum += float32(t)
	}
	return canonNaN(sum)
}
