//go:build tools

// Package tools pins the module's library dependencies so that every package
// of the toolchain builds against the same versions.
package tools

import (
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/sbinet/npyio"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/x448/float16"
	_ "go.starlark.net/starlark"
	_ "golang.org/x/term"
	_ "golang.org/x/tools/txtar"
)
