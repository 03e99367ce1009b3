package interp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// FuzzRun: no program makes the interpreter panic. Every proc of a parsed
// input is compiled and, if that succeeds, run with small arguments under a
// step limit; compile and run errors are fine, panics are not.
func FuzzRun(f *testing.F) {
	src, err := os.ReadFile("testdata/errors.weft")
	if err != nil {
		f.Fatal(err)
	}
	for _, chunk := range strings.Split(string(src), "\n---\n") {
		f.Add(chunk)
	}
	files, _ := filepath.Glob("../../../examples/weft/*.weft")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	procs := libProcs(f)
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		if errs.HasErrors() {
			return
		}
		prog := New(file, Options{Procs: procs, MaxSteps: 100000})
		for _, d := range file.Decls {
			decl, ok := d.(*syntax.Proc)
			if !ok || IsInstr(decl) {
				continue
			}
			p, err := prog.Main(decl.Name.Name)
			if err != nil {
				continue
			}
			args := map[string]any{}
			ctrl := map[string]int64{}
			for _, q := range p.Params {
				switch q.Kind {
				case KindSize:
					args[q.Name], ctrl[q.Name] = int64(3), 3
				case KindIndex:
					args[q.Name], ctrl[q.Name] = int64(1), 1
				case KindBool:
					args[q.Name], ctrl[q.Name] = true, 1
				case KindScalar:
					args[q.Name] = 1.5
				}
			}
			ok = true
			for _, q := range p.Params {
				if !q.IsArray() {
					continue
				}
				shape, err := p.Shape(q.Name, ctrl)
				n := 1
				for _, d := range shape {
					n *= d
				}
				if err != nil || n > 1<<16 {
					ok = false
					break
				}
				a := NewArray(q.Elem, shape)
				a.Fill(1)
				args[q.Name] = a
			}
			if ok {
				_ = p.Call(args)
			}
		}
	})
}
