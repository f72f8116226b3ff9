module github.com/corelane/corelane

go 1.24.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2
	golang.org/x/sync v0.18.0
	golang.org/x/sys v0.41.0
	gonum.org/v1/gonum v0.16.0
)
