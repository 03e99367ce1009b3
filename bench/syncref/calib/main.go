// Command calib prints how fast this process's CPU runs a dependent chain
// of integer multiply-adds, in millions of chain steps per second of the
// process's CPU time: an index of the core's speed for one thread at the
// moment it runs (bench/syncref/window.sh runs it around each phase of
// each round).
//
// Why: this machine's speed for a process moves by a third within
// seconds (stop 41: 2.9 then 2.0 G dependent adds a second, 2 s apart),
// more than most changes a window run is made to measure. The index does
// not correct a time; it tells which rounds ran on a slow core, so that a
// round whose ratio is off can be read as the machine's and not the
// code's. Each step is a 64-bit multiply and an add, each waiting for the
// one before (no instruction-level parallelism, no memory): on this EPYC
// 4 cycles a step, so the index times 4 is the clock in MHz the process
// got.
//
// Usage: calib [-cpu D] (CPU time to run, default 300ms)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fmt.Fprintln(os.Stderr, "calib:", err)
		os.Exit(1)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// chain runs n dependent steps from x.
//
//go:noinline
func chain(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run is the command: it prints the index to stdout and returns the exit
// status (2 for bad arguments).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calib", flag.ContinueOnError)
	fs.SetOutput(stderr)
	d := fs.Duration("cpu", 300*time.Millisecond, "CPU time to run")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *d <= 0 || fs.NArg() > 0 {
		// A rate needs some time run (-cpu 0 printed NaN).
		fmt.Fprintln(stderr, "usage: calib [-cpu D] (D > 0, e.g. 300ms)")
		return 2
	}
	const batch = 1 << 22
	x, steps := uint64(1), 0
	t0 := cpu()
	var el time.Duration
	for el < *d {
		x = chain(x, batch)
		steps += batch
		el = cpu() - t0
	}
	// x is printed to stderr only if it is zero (never, the chain being
	// a bijection from 1), so that the compiler must compute it.
	if x == 0 {
		fmt.Fprintln(stderr, "calib: zero")
	}
	fmt.Fprintf(stdout, "%.0f\n", float64(steps)/el.Seconds()/1e6)
	return 0
}
