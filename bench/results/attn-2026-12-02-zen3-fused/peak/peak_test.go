package peak

import "testing"

func BenchmarkMulAdd(b *testing.B) {
	mulAdd(b.N)
	b.ReportMetric(float64(b.N)*128/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
func BenchmarkFMA(b *testing.B) {
	fma(b.N)
	b.ReportMetric(float64(b.N)*128/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
func BenchmarkBcast(b *testing.B) {
	p := make([]float32, 16)
	bcastMulAdd(b.N, &p[0])
	b.ReportMetric(float64(b.N)*128/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
