module peak
go 1.24
