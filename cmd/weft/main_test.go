package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"weft": func() { os.Exit(main1(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: one .txtar per
// behaviour, prefixed by the language it exercises (weft_, cudac_, audala_,
// prism_, cli_).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(e *testscript.Env) error {
			// Scripts may refer to the repository's examples and shared test data.
			wd, _ := os.Getwd()
			e.Setenv("REPO", wd+"/../..")
			e.Setenv("SHARED", wd+"/../../../shared")
			return nil
		},
	})
}
