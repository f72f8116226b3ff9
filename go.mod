module github.com/corelane/corelane

go 1.24

require (
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	golang.org/x/sys v0.30.0 // indirect
	gonum.org/v1/gonum v0.16.0 // indirect
)
