package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Mutation testing (issue 12, item 8): every synchronization statement of
// the generated code (a barrier, an mbarrier arrive or wait, a fence, a
// cp.async or bulk or wgmma commit/wait group, a cluster barrier) is
// deleted in turn, the statement replaced by an empty one so that line
// numbers stay, and the program validated again. A mutant is killed when
// the semantics reports a race, a deadlock or another error, or an output
// differs; a surviving mutant is either redundant at these inputs or a
// synchronization bug validation misses.

// syncCall matches a line that is one call of a synchronization function.
// Compiled on first use: compiling it at package init was ~0.48 M
// instructions of every weft process's start (issue 13, stop 44).
var syncCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*)(if \([^;{}]*\) )?((weft::)?(barrier_cta_sync|cp_async_wait_all|cp_async_wait_group<\d+>|cp_async_commit_group|cp_async_mbarrier_arrive_noinc|mbarrier_arrive\w*|mbarrier_wait|fence_\w+|bulk_commit_group|bulk_wait_group\w*|wgmma_fence|wgmma_commit_group|wgmma_wait_group<\d+>|cluster_(arrive|wait|sync))|__syncthreads|__syncwarp|__threadfence\w*|\w+\.sync|prism_(mbar_wait|mbar_arrive|mbar_expect_tx|mbar_init_fence|wgmma_fence|wgmma_commit|wgmma_wait\w*|cp_async_wait\w*|bar_sync)(<[^>]*>)?)\s*\(.*\);\s*(// .*)?$`)
})

type mutant struct {
	file string
	line int
	text string
}

// mutants validates every mutant of t and prints one line each and the
// kill rate.
func (v *run) mutants(t *target) {
	syncCall := syncCall()
	files, _ := filepath.Glob(filepath.Join(t.build, "*.cu*"))
	sort.Strings(files)
	var ms []mutant
	for _, f := range files {
		if filepath.Base(f) == "weft_cuda.cuh" {
			continue // the runtime's definitions, not generated statements
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for i, l := range strings.Split(string(b), "\n") {
			if syncCall.MatchString(l) {
				_, src, _ := strings.Cut(l, "// weft:src ")
				code, _, _ := strings.Cut(l, "//")
				code = strings.TrimSpace(code)
				if src != "" {
					code += " (source " + strings.TrimSpace(src) + ")"
				}
				ms = append(ms, mutant{f, i + 1, code})
			}
		}
	}
	// Other schedules, for the mutants the default schedule (threads
	// interleaved one instruction at a time, nearly in step) does not
	// kill: the run-ahead schedule (each thread runs until it blocks
	// before the next gets a turn: a thread whose wait was deleted races
	// ahead of the others) and three seeded random schedules (random order
	// and slices of up to 40 instructions: a thread is preempted between
	// two arrives, say, while another laps it). A schedule is used when the
	// program itself validates under it. The race check does not depend
	// on the schedule; what it changes is which phase an arrival lands
	// in, and whether a thread reaches an access at all.
	type schedule struct {
		name string
		args []string
	}
	var scheds []schedule
	all := []schedule{{"run-ahead", []string{"--quantum", "1000000"}}}
	for seed := 1; seed <= 3; seed++ {
		all = append(all, schedule{fmt.Sprintf("random (seed %d)", seed), []string{"--schedule", "random", "--seed", strconv.Itoa(seed), "--quantum", "16"}})
	}
	for _, sc := range all {
		if len(ms) == 0 {
			break
		}
		if v.mutantVerdict(t, sc.args) == "" {
			scheds = append(scheds, sc)
		} else {
			fmt.Fprintf(v.env.Stdout, "%s: the program does not validate under the %s schedule; mutants do not run under it\n", t.label, sc.name)
		}
	}
	killed, other := 0, 0
	for _, mu := range ms {
		orig, _ := os.ReadFile(mu.file)
		lines := strings.Split(string(orig), "\n")
		indentation := syncCall.FindStringSubmatch(lines[mu.line-1])[1]
		lines[mu.line-1] = indentation + "; // deleted by weft validate --mutate: " + mu.text
		if err := os.WriteFile(mu.file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			fmt.Fprintf(v.env.Stdout, "%s: %v\n", t.label, err)
			return
		}
		verdict := v.mutantVerdict(t, nil)
		for _, sc := range scheds {
			if verdict != "" {
				break
			}
			if verdict = v.mutantVerdict(t, sc.args); verdict != "" {
				verdict = "killed under the " + sc.name + " schedule: " + strings.TrimPrefix(verdict, "killed: ")
				other++
			}
		}
		if verdict == "" {
			verdict = "survived (redundant at these inputs, or missed)"
		} else {
			killed++
		}
		fmt.Fprintf(v.env.Stdout, "  mutant %s:%d %s: %s\n", filepath.Base(mu.file), mu.line, mu.text, verdict)
		if err := os.WriteFile(mu.file, orig, 0o644); err != nil {
			fmt.Fprintf(v.env.Stdout, "%s: %v\n", t.label, err)
			return
		}
	}
	if len(ms) > 0 {
		fmt.Fprintf(v.env.Stdout, "%s: %d of %d mutants killed (%.0f%%; %d only under the run-ahead or a random schedule), %d survived\n", t.label, killed, len(ms), 100*float64(killed)/float64(len(ms)), other, len(ms)-killed)
	} else {
		fmt.Fprintf(v.env.Stdout, "%s: no synchronization statements to mutate\n", t.label)
	}
	v.mutantsTotal += len(ms)
	v.mutantsKilled += killed
}

// mutantVerdict validates the mutated build of t under the schedule extra
// selects: "killed: ..." or "" when it validates.
func (v *run) mutantVerdict(t *target, extra []string) string {
	out := filepath.Join(v.dir, fmt.Sprintf("mutant-%d", v.runs))
	v.runs++
	os.MkdirAll(out, 0o755)
	stdout, problems := v.semantics(t, out, extra...)
	if problems != "" {
		return "killed: " + firstLine(problems)
	}
	if ok, msg := t.compare(stdout, out); !ok {
		return "killed: " + firstLine(msg)
	}
	return ""
}

// firstLine is the first line of s, without the file path prefix of a
// diagnostic.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	for _, sev := range []string{": error[", ": warning["} {
		if i := strings.Index(s, sev); i >= 0 {
			s = s[i+2:]
			break
		}
	}
	return s
}
