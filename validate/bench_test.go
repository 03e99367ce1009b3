package validate_test

import (
	"io"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/validate"
)

// BenchmarkValidateGEMM times weft validate on each GEMM example at its
// check sizes (issue 12, Performance: each under 10 s on one core), and,
// as the baseline measured in the same run, weft run of the same source
// with the same inputs (b.ReportMetric: the ratio validate/run).
//
//	go test -run XXX -bench ValidateGEMM -benchtime 1x -cpu 1 ./validate
func BenchmarkValidateGEMM(b *testing.B) {
	cases := []struct {
		name string
		args []string
	}{
		{"weft_xgemm_sm80", []string{ex + "weft/gemm/xgemm_sm80.weft"}},
		{"weft_xgemm_sm90", []string{ex + "weft/gemm/xgemm_sm90.weft"}},
		{"prism_fig6_tf32", []string{ex + "prism/fig6_tf32.prism", "--blocks", "4", "--arg", "M=32", "--arg", "N=16", "--arg", "K=16", "--arg", "A=rand:512", "--arg", "B=rand:256", "--arg", "C=zeros:512"}},
		{"prism_b2_sgemm", []string{ex + "prism/b2_sgemm.prism", "--blocks", "2", "--arg", "M=128", "--arg", "N=64", "--arg", "K=16", "--arg", "alpha=1.5", "--arg", "beta=-1", "--arg", "A=rand:2048", "--arg", "B=rand:1024", "--arg", "C=rand:8192"}},
		{"prism_b5_hgemm", []string{ex + "prism/b5_hgemm.prism", "--blocks", "4", "--arg", "M=256", "--arg", "N=512", "--arg", "K=256", "--arg", "C=zeros:131072", "--buffer", "A=rand:65536:bf16", "--buffer", "B=rand:131072:bf16", "--arg", "tensorMapA=tma:A,256,256,128,64,128", "--arg", "tensorMapB=tma:B,512,256,256,64,128"}},
	}
	env := &frontend.Env{Stdout: io.Discard, Stderr: io.Discard}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if rc := validate.Main(env, c.args); rc != 0 {
					b.Fatalf("weft validate %v: status %d", c.args, rc)
				}
			}
		})
		b.Run(c.name+"/baseline_weft_run", func(b *testing.B) {
			args := append([]string{}, c.args...)
			if c.name[:4] == "weft" {
				args = append(args, "A=rand", "B=rand")
			}
			fe := frontend.ForFile(args[0])
			for i := 0; i < b.N; i++ {
				if rc := fe.Verb("run")(env, args); rc != 0 {
					b.Fatalf("weft run %v: status %d", args, rc)
				}
			}
		})
	}
}
