package frontend

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// progressDelay is how long a run goes silently before Progress shows a
// line (issue 14: anything longer than about 2 s says it is working).
var progressDelay = 2 * time.Second

// Progress shows, when stderr is a terminal and the work takes longer
// than about 2 seconds, one line on stderr that says what is running and
// for how long, rewritten in place every second; stop erases it. It
// prints nothing when stderr is not a terminal (logs and tests stay
// clean).
func Progress(env *Env, what string) (stop func()) {
	if !env.StderrIsTerminal {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	start := time.Now()
	go func() {
		defer wg.Done()
		width := 0
		select {
		case <-done:
			return
		case <-time.After(progressDelay):
		}
		tick := time.NewTicker(progressDelay / 2)
		defer tick.Stop()
		for {
			line := fmt.Sprintf("%s: running for %ds (Ctrl-C stops it)", what, int(time.Since(start).Seconds()))
			fmt.Fprintf(env.Stderr, "\r%s", line)
			width = len(line)
			select {
			case <-done:
				fmt.Fprintf(env.Stderr, "\r%s\r", strings.Repeat(" ", width))
				return
			case <-tick.C:
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			wg.Wait()
		})
	}
}
