package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"weft.dev/weft/frontend"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"weft": func() { os.Exit(main1(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// weft-fsize BYTES ARGS... runs weft with RLIMIT_FSIZE set to BYTES:
		// a disk that fills up after BYTES bytes of any one file. SIGXFSZ is
		// ignored so that the write fails with EFBIG, as on a full disk.
		"weft-fsize": func() {
			n, err := strconv.ParseUint(os.Args[1], 10, 64)
			if err != nil {
				fmt.Fprintln(os.Stderr, "weft-fsize: want BYTES ARGS...")
				os.Exit(2)
			}
			signal.Ignore(syscall.SIGXFSZ)
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				fmt.Fprintln(os.Stderr, "weft-fsize:", err)
				os.Exit(2)
			}
			os.Exit(main1(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
		},
		// weft-aslimit BYTES ARGS... runs weft in a fresh process whose
		// address space is limited to BYTES (ulimit -v): package
		// initialization, too, runs under the limit.
		"weft-aslimit": func() {
			n, err := strconv.ParseUint(os.Args[1], 10, 64)
			weft, err2 := exec.LookPath("weft")
			if err != nil || err2 != nil {
				fmt.Fprintln(os.Stderr, "weft-aslimit: want BYTES ARGS...", err, err2)
				os.Exit(2)
			}
			if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				fmt.Fprintln(os.Stderr, "weft-aslimit:", err)
				os.Exit(2)
			}
			err = syscall.Exec(weft, append([]string{"weft"}, os.Args[2:]...), os.Environ())
			fmt.Fprintln(os.Stderr, "weft-aslimit:", err)
			os.Exit(2)
		},
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
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// notemps DIR: DIR holds no temporary file of an output
			// (safeio's .NAME.tmp-*).
			"notemps": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: notemps DIR")
				}
				ents, err := os.ReadDir(ts.MkAbs(args[0]))
				ts.Check(err)
				var temps []string
				for _, e := range ents {
					if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), ".tmp-") {
						temps = append(temps, e.Name())
					}
				}
				if (len(temps) > 0) != neg {
					ts.Fatalf("temporaries in %s: %v", args[0], temps)
				}
			},
			// mkfifo NAME makes a named pipe.
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
			},
			// crlines FILE replaces FILE's "\n" line endings with a lone
			// "\r", except the first, which becomes "\r\n": a file mixing
			// the three conventions.
			"crlines": func(ts *testscript.TestScript, neg bool, args []string) {
				p := ts.MkAbs(args[0])
				b, err := os.ReadFile(p)
				ts.Check(err)
				s := strings.Replace(string(b), "\n", "\r\n", 1)
				s = strings.ReplaceAll(s, "\r\n", "\x00")
				s = strings.ReplaceAll(s, "\n", "\r")
				s = strings.ReplaceAll(s, "\x00", "\r\n")
				ts.Check(os.WriteFile(p, []byte(s), 0o644))
			},
			// nul FILE replaces every "@" in FILE with a NUL byte.
			"nul": func(ts *testscript.TestScript, neg bool, args []string) {
				p := ts.MkAbs(args[0])
				b, err := os.ReadFile(p)
				ts.Check(err)
				ts.Check(os.WriteFile(p, bytes.ReplaceAll(b, []byte("@"), []byte{0}), 0o644))
			},
			// truncate FILE BYTES cuts FILE to BYTES bytes.
			"truncate": func(ts *testscript.TestScript, neg bool, args []string) {
				n, err := strconv.ParseInt(args[1], 10, 64)
				ts.Check(err)
				ts.Check(os.Truncate(ts.MkAbs(args[0]), n))
			},
		},
	})
}

// TestGuard: a panic in a verb is one line naming the verb and the file,
// a request for a report, and status 3; the Go trace only with
// WEFT_TRACEBACK=1.
func TestGuard(t *testing.T) {
	for _, trace := range []string{"", "1"} {
		t.Setenv(traceEnv, trace)
		var out bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &out}
		st := guard(env, "run", []string{"--json", "k.weft", "N=4"}, func() int { panic("index out of range [3] with length 3") })
		if st != exitCrash || exitCrash != 3 {
			t.Errorf("status %d, want 3", st)
		}
		first, rest, _ := strings.Cut(out.String(), "\n")
		if first != "weft: internal error in weft run k.weft: index out of range [3] with length 3" {
			t.Errorf("first line %q", first)
		}
		hasTrace := strings.Contains(rest, "goroutine ")
		if hasTrace != (trace == "1") {
			t.Errorf("WEFT_TRACEBACK=%q: trace printed %v:\n%s", trace, hasTrace, rest)
		}
		if trace == "" && rest != "weft: this is a bug in weft: please report it with the input file (WEFT_TRACEBACK=1 prints the Go trace)\n" {
			t.Errorf("second line %q", rest)
		}
	}
}

// TestParseBytes: --max-input values.
func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1000": 1000, "64K": 64 << 10, "16M": 16 << 20, "2G": 2 << 30} {
		if got, err := frontend.ParseBytes(in); err != nil || got != want {
			t.Errorf("%s: %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "-1", "1.5M", "M", "1T", "0x10"} {
		if _, err := frontend.ParseBytes(in); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
}
