package verify_test

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSearch checks the whole corpus once per iteration and reports
// configurations explored per second (issue 16 §4); its baseline checks
// each file's first configuration only (one run, as weft check on a whole
// program does), so the ratio of the two rates is the cost of a search's
// configuration against a single run's. With WEFT_GPUVERIFY_SUITE pointing
// at GPUVerify's testsuite/CUDA it checks those files instead
// (scripts/gpuverify-suite.sh measures their verdicts).
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
	for _, bc := range []struct {
		name string
		max  int
	}{{"baseline", 1}, {"search", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			configs := 0
			for b.Loop() {
				for _, f := range files {
					if res, ok := tryCheck(f, bc.max); ok {
						configs += res.Configs + res.Excluded
					}
				}
			}
			b.ReportMetric(float64(configs)/b.Elapsed().Seconds(), "configs/s")
		})
	}
}
