package sem

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"testing"

	"weft.dev/weft/diag"
)

// TestTablesFirstUseConcurrent: the builtins' tables are built on the first
// Load, Compile or NewMachine (tables.go, issue 13, stop 44). In a fresh
// process (the test binary run again, so that no earlier test has built
// them), eight goroutines load and run a program at once: each must see the
// tables whole (go test -race checks the build against the readers).
func TestTablesFirstUseConcurrent(t *testing.T) {
	if os.Getenv("WEFT_SEM_TABLES_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTablesFirstUseConcurrent$", "-test.count=1")
		cmd.Env = append(os.Environ(), "WEFT_SEM_TABLES_CHILD=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	const src = `#include <cstdio>
__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x * 2; }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  float4 v = make_float4(1, 2, 3, 4);
  printf("%d %g\n", h[31], v.w);
  cudaFree(d);
  return 0;
}
`
	var wg sync.WaitGroup
	outs := make([]string, 8)
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var diags diag.List
			prog := Load(diag.NewFile("t.cu", []byte(src)), &diags)
			if prog == nil {
				t.Errorf("load: %v", diags.Diags)
				return
			}
			var out bytes.Buffer
			m := NewMachine(prog, Options{Stdout: &out, Check: true}, &diags)
			if !m.Run() || len(diags.Diags) != 0 {
				t.Errorf("run: %v", diags.Diags)
			}
			outs[i] = out.String()
		}()
	}
	wg.Wait()
	for i, o := range outs {
		if o != "62 4\n" {
			t.Errorf("goroutine %d printed %q, want %q", i, o, "62 4\n")
		}
	}
}
