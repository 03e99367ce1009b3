package main

import (
	"fmt"
	"os/exec"
	"path/filepath"

	"weft.dev/weft/cuda"
	"weft.dev/weft/frontend"
)

// envCmd implements `weft env`: where the tools Weft uses are, and how to
// put nvcc on PATH when it came from PyPI (scripts/install-nvcc.sh), so
// that commands such as the tutorial's `nvcc ...` work as written.
func envCmd(env *frontend.Env) int {
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		fmt.Fprintln(env.Stdout, "NVCC=        # not found: scripts/install-nvcc.sh installs it from PyPI (no GPU needed)")
	} else {
		fmt.Fprintf(env.Stdout, "NVCC=%s\n", nvcc)
		if p, err := exec.LookPath("nvcc"); err != nil || p != nvcc {
			fmt.Fprintf(env.Stdout, "# nvcc is not on PATH; to use it by name:\n#   export PATH=\"%s:$PATH\"\n", filepath.Dir(nvcc))
		}
	}
	for _, tool := range []string{"go", "python3", "gcc", "g++"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			p = "# not found"
		}
		fmt.Fprintf(env.Stdout, "%s=%s\n", map[string]string{"go": "GO", "python3": "PYTHON", "gcc": "CC", "g++": "CXX"}[tool], p)
	}
	return 0
}
