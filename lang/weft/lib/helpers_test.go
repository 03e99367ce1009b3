package lib

import (
	"regexp"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

func syntaxParse(t *testing.T, src string) *syntax.Proc {
	t.Helper()
	var errs diag.List
	f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs)
	if errs.Len() > 0 || len(f.Decls) != 1 {
		t.Fatalf("parse: %v", errs.Err())
	}
	return f.Decls[0].(*syntax.Proc)
}

func syntaxString(e syntax.Expr) string { return syntax.ExprString(e) }
