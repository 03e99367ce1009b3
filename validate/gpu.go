package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"weft.dev/weft/cuda"
)

// The --gpu mode (issue 12, "When a GPU is lent"): after the semantics ran
// the generated program, compile the same files with nvcc, run them on the
// machine's GPU with the same command line and inputs, and compare the
// GPU's outputs twice: with weft run's (the verdict the semantics got, now
// for the hardware) and with the semantics' own (where the two differ, the
// precision model of a tensor-core instruction or the semantics is wrong).
// Nothing here runs unless --gpu is given: CI has no GPU.

// gpuConfig is where the compilers are and how long a GPU run may take.
type gpuConfig struct {
	nvcc, cc string
	arch     string // nvcc -gencode value, e.g. arch=compute_90a,code=sm_90a
	timeout  time.Duration
}

func (v *run) gpuConfig() gpuConfig {
	c := gpuConfig{nvcc: cuda.FindNVCC(), cc: os.Getenv("CC"), timeout: 120 * time.Second}
	if c.nvcc == "" {
		c.nvcc = "/usr/local/cuda/bin/nvcc"
	}
	if c.cc == "" {
		c.cc = "cc"
	}
	// sm_90a SASS: the Hopper kernels need the "a" features (wgmma,
	// setmaxnreg), and the sm_80 kernels compile for it unchanged.
	c.arch = "arch=compute_" + strings.TrimPrefix(v.o.gpuArch, "sm_") + ",code=" + v.o.gpuArch
	return c
}

// linked returns the files a generated program is made of: file and the
// files its "// weft-link:" line names (lang/cudac/sem/link.go), in order.
func linked(file string) []string {
	files := []string{file}
	src, err := os.ReadFile(file)
	if err != nil {
		return files
	}
	for _, l := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "// weft-link:"); ok {
			for _, f := range strings.Fields(rest) {
				files = append(files, filepath.Join(filepath.Dir(file), f))
			}
		}
	}
	return files
}

// gpuBuild compiles t's files into DIR/gpu.bin (C files with cc, CUDA files
// with nvcc); the error carries the compilers' output.
func (v *run) gpuBuild(c gpuConfig, t *target) (string, error) {
	bin := filepath.Join(t.build, "gpu.bin")
	var objs, cus []string
	for _, f := range linked(t.file) {
		if strings.HasSuffix(f, ".c") {
			o := strings.TrimSuffix(f, ".c") + ".host.o"
			if out, err := exec.Command(c.cc, "-std=c11", "-O2", "-c", f, "-o", o).CombinedOutput(); err != nil {
				return "", fmt.Errorf("%s -c %s: %v\n%s", c.cc, f, err, out)
			}
			objs = append(objs, o)
		} else {
			cus = append(cus, f)
		}
	}
	// -fmad=false: the semantics evaluates a*b+c as written, two roundings
	// (C's FP_CONTRACT off); nvcc's default may contract it into one fma,
	// which changes last bits (measured on an H100: gemv_smem's and
	// gemv_cuda's `acc += A[..] * x[..]` differ from weft run by up to
	// 2.9e-6 with the default). NVCC_FLAGS adds flags (e.g. -fmad=true to
	// see that difference).
	args := []string{"-std=c++17", "-O3", "-fmad=false", "-gencode", c.arch, "-o", bin}
	args = append(args, strings.Fields(os.Getenv("NVCC_FLAGS"))...)
	args = append(args, cus...)
	args = append(args, objs...)
	if out, err := exec.Command(c.nvcc, args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", c.nvcc, strings.Join(args, " "), err, out)
	}
	return bin, nil
}

// gpu compiles and runs t on the GPU and prints two verdict lines:
// "LABEL: gpu: VERDICT" against weft run, and "LABEL: gpu vs semantics:
// ..." against the semantics' outputs (semStdout, semOut).
func (v *run) gpu(t *target, semStdout, semOut string, semOK bool) {
	c := v.gpuConfig()
	bin, err := v.gpuBuild(c, t)
	if err != nil {
		fmt.Fprintf(v.env.Stdout, "%s: gpu: build failed:\n%s", t.label, indent(err.Error()))
		v.bad = true
		return
	}
	out := filepath.Join(v.dir, "gpu-"+fmt.Sprint(v.runs-1))
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintf(v.env.Stdout, "%s: gpu: %v\n", t.label, err)
		v.bad = true
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, t.argv(out)...)
	// the generated harness reads its inputs by the paths on its command
	// line, which are absolute or relative to this process's directory
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	ms := float64(time.Since(start).Microseconds()) / 1000
	if ctx.Err() != nil {
		fmt.Fprintf(v.env.Stdout, "%s: gpu: no result after %v (a hang: a wait that never completes?)\n", t.label, c.timeout)
		v.bad = true
		return
	}
	if err != nil {
		fmt.Fprintf(v.env.Stdout, "%s: gpu: the program failed (%v):\n%s", t.label, err, indent(lastLines(stdout.String()+stderr.String(), 12)))
		v.bad = true
		return
	}
	ok, verdict := t.compare(stdout.String(), out)
	// the same words as the semantics' verdict, about the GPU
	verdict = strings.ReplaceAll(verdict, "the generated program", "the GPU")
	fmt.Fprintf(v.env.Stdout, "%s: gpu: %s (%.0f ms, CUDA start-up included)\n", t.label, strings.Replace(verdict, "; no race or deadlock", "", 1), ms)
	if !ok {
		v.bad = true
	}
	if semOK && t.compareWith != nil {
		same, what := t.compareWith(semStdout, semOut, stdout.String(), out)
		if !same {
			v.bad = true
		}
		fmt.Fprintf(v.env.Stdout, "%s: gpu vs semantics: %s\n", t.label, what)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// gpuAvailable reports why --gpu cannot run, or nil.
func (v *run) gpuAvailable() error {
	c := v.gpuConfig()
	if _, err := os.Stat(c.nvcc); err != nil {
		if _, err := exec.LookPath(c.nvcc); err != nil {
			return errors.New("--gpu: no nvcc (set NVCC, or install it: scripts/install-nvcc.sh)")
		}
	}
	return nil
}
