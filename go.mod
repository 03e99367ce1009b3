module weft.dev/weft

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/rogpeppe/go-internal v1.16.0
	github.com/sbinet/npyio v0.6.0
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/x448/float16 v0.8.4
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
	golang.org/x/term v0.47.0
	golang.org/x/tools v0.52.0
)

require (
	early.weft.dev/logfilter v0.0.0
	github.com/campoy/embedmd v1.0.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/sys v0.49.0 // indirect
	gonum.org/v1/gonum v0.9.3 // indirect
)

replace early.weft.dev/logfilter => ./internal/logfilter
