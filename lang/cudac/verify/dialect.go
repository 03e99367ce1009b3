package verify

import (
	"path/filepath"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/sem"
	"weft.dev/weft/lang/cudac/syntax"
)

// What GPUVerify's kernel dialect takes from its headers and the platform's
// without an #include the semantics knows (issue 16 §1): the typedef names
// glibc's <sys/types.h> gives every CUDA file on Linux (uint, ushort,
// ulong), cuRAND's device API (sem/curand.go models the functions; its
// state types are declared here) and texture references (sem/texture.go). A file gets the declarations of the names
// it uses and does not declare itself; <curand_kernel.h> is served from
// dialectDir.

// dialectDir is the include directory that serves the dialect's headers.
const dialectDir = "<weft-gpuverify>"

var dialectHeaders = map[string]string{
	"curand_kernel.h": sem.CurandTypes,
	"curand.h":        sem.CurandTypes,
}

// platformTypedefs are the typedefs of <sys/types.h> a CUDA file may use.
var platformTypedefs = []struct{ name, decl string }{
	{"uint", "typedef unsigned int uint;\n"},
	{"ushort", "typedef unsigned short ushort;\n"},
	{"ulong", "typedef unsigned long ulong;\n"},
}

// dialectConfig adds dialectDir to cfg.
func dialectConfig(cfg syntax.Config) syntax.Config {
	read := cfg.ReadFile
	cfg.ReadFile = func(path string) ([]byte, error) {
		if dir, name := filepath.Split(path); filepath.Clean(dir) == dialectDir {
			if src, ok := dialectHeaders[name]; ok {
				return []byte(src), nil
			}
		}
		return read(path)
	}
	cfg.IncludeDirs = append(append([]string(nil), cfg.IncludeDirs...), dialectDir)
	return cfg
}

// dialectPrelude returns the declarations toks (a preprocessed file) uses
// and does not make itself.
func dialectPrelude(toks []syntax.Token) string {
	used := map[string]bool{}
	declared := map[string]bool{}
	curand := false
	for i, t := range toks {
		if t.Kind != syntax.Ident {
			continue
		}
		used[t.Text] = true
		if strings.HasPrefix(t.Text, "curand") || strings.HasPrefix(t.Text, "skipahead") {
			curand = true
		}
		if (t.Text == "struct" || t.Text == "class") && i+1 < len(toks) {
			declared[toks[i+1].Text] = true
		}
		if t.Text == "typedef" {
			// the name a typedef declares: the identifier before its ;
			depth := 0
			for j := i + 1; j < len(toks); j++ {
				switch toks[j].Text {
				case "(", "{", "[":
					depth++
				case ")", "}", "]":
					depth--
				}
				if depth == 0 && toks[j].Text == ";" {
					declared[toks[j-1].Text] = true
					break
				}
			}
		}
	}
	var b strings.Builder
	for _, td := range platformTypedefs {
		if used[td.name] && !declared[td.name] {
			b.WriteString(td.decl)
		}
	}
	if curand && !used["curandStateXORWOW"] {
		b.WriteString(sem.CurandTypes)
	}
	if used["texture"] && !declared["texture"] {
		b.WriteString(sem.TextureTypes)
	}
	return b.String()
}

// withPrelude puts the dialect's declarations toks needs before them.
func withPrelude(toks []syntax.Token, cfg syntax.Config) []syntax.Token {
	src := dialectPrelude(toks)
	if src == "" || len(toks) == 0 {
		return toks
	}
	var d diag.List
	pre := syntax.PreprocessConfig(diag.NewFile("<gpuverify dialect>", []byte(src)), &d, cfg)
	if d.HasErrors() || len(pre) == 0 {
		return toks
	}
	return append(pre[:len(pre)-1:len(pre)-1], toks...)
}
