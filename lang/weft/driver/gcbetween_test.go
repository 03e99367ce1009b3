package driver

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime/metrics"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/internal/gcpolicy"
)

// TestChecksCollectBetween: a process under the weft command's GC policy
// that runs many checks collects between them (checkVerb calls
// gcpolicy.Between), never in a check's middle. It runs in a child
// process, so that the policy does not change this test binary's
// collector for the other tests.
func TestChecksCollectBetween(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: the policy leaves the runtime alone")
	}
	if os.Getenv("WEFT_GCBETWEEN_CHILD") == "1" {
		gcBetweenChild()
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChecksCollectBetween$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WEFT_GCBETWEEN_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var forced, auto int
	if _, err := fmt.Sscanf(string(lastLine(out)), "forced %d automatic %d", &forced, &auto); err != nil {
		t.Fatalf("child's output %q: %v", out, err)
	}
	// 400 checks of per_cta_alloc allocate tens of MB, a few heap goals.
	if forced < 1 || auto != 0 {
		t.Fatalf("400 checks: %d forced and %d automatic collections, want >= 1 forced and 0 automatic", forced, auto)
	}
}

// gcBetweenChild applies the policy, runs 400 checks and prints the
// collections they caused.
func gcBetweenChild() {
	if !gcpolicy.Set() {
		fmt.Println("policy not applied")
		return
	}
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}, {Name: "/gc/cycles/automatic:gc-cycles"}}
	metrics.Read(s)
	f0, a0 := s[0].Value.Uint64(), s[1].Value.Uint64()
	src := "../../../bench/syncref/weft/per_cta_alloc.weft"
	for i := 0; i < 400; i++ {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		if rc := checkVerb(env, []string{src, "NCTA=1", "-q"}); rc != 0 {
			fmt.Printf("check %d: rc %d: %s\n", i, rc, errb.String())
			return
		}
	}
	metrics.Read(s)
	fmt.Printf("forced %d automatic %d\n", s[0].Value.Uint64()-f0, s[1].Value.Uint64()-a0)
}

// lastLine is out's last non-empty line (the test framework prints PASS
// after the child's own line).
func lastLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		if bytes.HasPrefix(lines[i], []byte("forced ")) {
			return lines[i]
		}
	}
	return nil
}
