package sem

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestTablesGuard keeps tables.go's contract for whoever adds a table:
// buildTables runs the package's former init functions, so every
// function named init<Name> without parameters or results must be called there exactly once (one left
// out would never run), and no file but codes.go (diag.Register, which
// reads no table) may have a func init (it would run at process start,
// before buildTables, and read the tables empty; issue 13, stop 44).
func TestTablesGuard(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	defined := map[string]string{}
	calls := map[string]int{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			n := fd.Name.Name
			switch {
			case n == "init":
				if name != "codes.go" {
					t.Errorf("%s: func init runs before buildTables; make it an init<Name> called from tables.go", fset.Position(fd.Pos()))
				}
			case strings.HasPrefix(n, "init") && len(n) > 4 && n[4] >= 'A' && n[4] <= 'Z' &&
				len(fd.Type.Params.List) == 0 && fd.Type.Results == nil:
				defined[n] = fset.Position(fd.Pos()).String()
			case n == "buildTables":
				ast.Inspect(fd.Body, func(x ast.Node) bool {
					if c, ok := x.(*ast.CallExpr); ok {
						if id, ok := c.Fun.(*ast.Ident); ok {
							calls[id.Name]++
						}
					}
					return true
				})
			}
		}
	}
	if len(defined) < 60 {
		t.Fatalf("found %d init functions, want the package's 60 or more", len(defined))
	}
	for n, pos := range defined {
		if calls[n] != 1 {
			t.Errorf("%s: %s is called %d times from buildTables, want 1", pos, n, calls[n])
		}
	}
}
