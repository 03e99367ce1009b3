package cuda

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// FindNVCC returns the path of nvcc: $NVCC if set, then PATH, then the
// layout pip's nvidia-cuda-nvcc package installs (site-packages/nvidia/
// cu13/bin/nvcc, or cuda_nvcc/bin for CUDA 12) under any python on PATH.
// It returns "" when none is found.
func FindNVCC() string {
	if p := os.Getenv("NVCC"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("nvcc"); err == nil {
		return p
	}
	for _, py := range []string{"python3", "python"} {
		out, err := exec.Command(py, "-c", "import site,sys; print('\\n'.join(site.getsitepackages()+[site.getusersitepackages()]))").Output()
		if err != nil {
			continue
		}
		for _, sp := range strings.Fields(string(out)) {
			for _, rel := range []string{"nvidia/cu13/bin/nvcc", "nvidia/cuda_nvcc/bin/nvcc"} {
				p := filepath.Join(sp, rel)
				if _, err := os.Stat(p); err == nil {
					return p
				}
			}
		}
	}
	return ""
}
