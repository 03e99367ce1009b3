package verify_test

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSearch checks the whole corpus once per iteration and reports
// configurations explored per second (issue 16 §4). With
// WEFT_GPUVERIFY_SUITE pointing at GPUVerify's testsuite/CUDA it checks
// those files instead (scripts/gpuverify-suite.sh measures verdicts).
func BenchmarkSearch(b *testing.B) {
	files, _ := filepath.Glob("testdata/*.cu")
	if dir := os.Getenv("WEFT_GPUVERIFY_SUITE"); dir != "" {
		files = nil
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && filepath.Ext(p) == ".cu" {
				files = append(files, p)
			}
			return nil
		})
	}
	configs := 0
	for b.Loop() {
		for _, f := range files {
			res, ok := tryCheck(f)
			if ok {
				configs += res.Configs + res.Excluded
			}
		}
	}
	b.ReportMetric(float64(configs)/b.Elapsed().Seconds(), "configs/s")
}
