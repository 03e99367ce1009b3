package sem

import (
	"bufio"
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
	"weft.dev/weft/safeio"
)

// A program of several translation units (what nvcc and a C compiler build
// from several files and link) is named by a comment on one of the first
// lines of the file that is run:
//
//	// weft-link: kernels.cu host.c
//
// Each named file (relative to the first) is preprocessed and parsed on its
// own, and the declarations of all units are merged into one program. A
// declaration that two units read from the same place of the same header
// (a struct, an inline or weak function) is the same declaration and is kept
// once; any other name defined twice is C0311, as for one file.

const linkPrefix = "// weft-link:"

// linkUnits returns file merged with the units f's link line names.
func linkUnits(f *diag.File, file *syntax.File, diags *diag.List) *syntax.File {
	return linkFiles(f, file, nil, syntax.Config{}, diags)
}

// linkFiles merges file with the units of f's link line and the files
// extra (named on the command line), each preprocessed with cfg.
func linkFiles(f *diag.File, file *syntax.File, extra []string, cfg syntax.Config, diags *diag.List) *syntax.File {
	names, off := linkLine(f.Src)
	var paths []string
	for _, name := range names {
		paths = append(paths, filepath.Join(filepath.Dir(f.Name), name))
	}
	paths = append(paths, extra...)
	if len(paths) == 0 {
		return file
	}
	type key struct {
		name string
		off  int
	}
	seen := map[key]bool{}
	// first reports whether the declaration at pos is met for the first time
	first := func(kind string, pos diag.Pos) bool {
		if pos.File == nil {
			return true
		}
		k := key{kind + pos.File.Name, pos.Offset}
		if seen[k] {
			return false
		}
		seen[k] = true
		return true
	}
	out := &syntax.File{}
	add := func(u *syntax.File) {
		out.UsingStd = out.UsingStd || u.UsingStd
		for _, d := range u.Decls {
			if first("decl:", d.Pos) {
				out.Decls = append(out.Decls, d)
			}
		}
		for _, d := range u.Funcs {
			if first("func:", d.Pos) {
				out.Funcs = append(out.Funcs, d)
			}
		}
		for _, d := range u.Templates {
			if first("template:", d.Pos) {
				out.Templates = append(out.Templates, d)
			}
		}
		for _, d := range u.Specs {
			if first("spec:", d.Pos) {
				out.Specs = append(out.Specs, d)
			}
		}
		for _, d := range u.ClassTemplates {
			if first("class template:", d.Pos) {
				out.ClassTemplates = append(out.ClassTemplates, d)
			}
		}
	}
	internal(f, file)
	add(file)
	for _, path := range paths {
		src, err := safeio.ReadFile(path, cfg.InputLimit())
		var le *safeio.LimitError
		if errors.As(err, &le) {
			diags.Errorf(f.At(off), "C0110", "the translation unit %s is larger than %d bytes, the input size limit (--max-input BYTES raises it)", path, le.Limit)
			return nil
		}
		if err != nil {
			diags.Errorf(f.At(off), "C0110", "cannot read the linked translation unit %s: %v", path, err)
			return nil
		}
		uf := diag.NewFile(path, syntax.LoneCRToLF(src))
		u := syntax.ParseUnit(uf, diags, cfg) // both of nvcc's passes (devicepass.go)
		if u == nil || diags.HasErrors() {
			return nil
		}
		internal(uf, u)
		add(u)
	}
	return out
}

// linkLine finds the link line among the first 20 lines: the file names and
// the line's offset.
func linkLine(src []byte) ([]string, int) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	off := 0
	for n := 0; sc.Scan() && n < 20; n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), linkPrefix); ok {
			return strings.Fields(rest), off
		}
		off += len(line) + 1
	}
	return nil, 0
}

// internal gives the functions and variables that unit u (root file f)
// defines static in f itself names of their own, "name (file)", and
// renames the unit's uses to match, so that units of one program may each
// have a static of one name (C11 6.2.2p3: internal linkage) and a static
// helper does not hide a built-in of that name from the other units.
// Statics of headers are one declaration per program (linkFiles keeps it
// once), so they keep their names.
func internal(f *diag.File, u *syntax.File) {
	own := func(p diag.Pos) bool { return p.File == f }
	ren := map[string]string{}
	name := func(n string) string { return n + " (" + filepath.Base(f.Name) + ")" }
	for _, fd := range u.Funcs {
		if fd.Q.Static && fd.Recv == "" && own(fd.Pos) {
			ren[fd.Name] = name(fd.Name)
		}
	}
	for _, d := range u.Decls {
		if d.Q.Static && d.Name != "" && !strings.Contains(d.Name, "::") && own(d.Pos) {
			ren[d.Name] = name(d.Name)
		}
	}
	if len(ren) == 0 {
		return
	}
	for _, fd := range u.Funcs {
		if r, ok := ren[fd.Name]; ok && fd.Recv == "" {
			fd.Name = r
		}
	}
	for _, d := range u.Decls {
		if r, ok := ren[d.Name]; ok && own(d.Pos) {
			d.Name = r
		}
	}
	// each function's uses, except of the names it declares itself (a
	// parameter or local of the same name hides the static)
	inFunc := func(fd *syntax.FuncDecl) {
		own := map[string]bool{}
		declaredNames(fd.Type, own)
		declaredNames(fd.Body, own)
		r := ren
		if len(own) > 0 {
			r = map[string]string{}
			for k, v := range ren {
				if !own[k] {
					r[k] = v
				}
			}
		}
		renameNames(fd.Type, r)
		renameNames(fd.Body, r)
		renameNames(fd.Inits, r)
	}
	for _, list := range [][]*syntax.FuncDecl{u.Funcs, u.Templates, u.Specs} {
		for _, fd := range list {
			inFunc(fd)
		}
	}
	for _, ct := range u.ClassTemplates {
		for _, fd := range ct.Funcs {
			inFunc(fd)
		}
		renameNames(ct.Decls, ren)
	}
	renameNames(u.Decls, ren)
}

// declaredNames collects the names of the declarations and parameters
// in an AST.
func declaredNames(n any, out map[string]bool) {
	walkAST(reflect.ValueOf(n), 0, func(v any) bool {
		switch x := v.(type) {
		case *syntax.Decl:
			out[x.Name] = true
		case *syntax.Param:
			out[x.Name] = true
		}
		return false
	})
}

// renameNames renames the identifiers of an AST in place (ren: old to
// new).
func renameNames(n any, ren map[string]string) {
	if len(ren) == 0 {
		return
	}
	walkAST(reflect.ValueOf(n), 0, func(v any) bool {
		if nm, ok := v.(*syntax.Name); ok {
			if r, ok := ren[nm.Name]; ok {
				nm.Name = r
			}
			return true
		}
		return false
	})
}

// walkAST visits the pointers of an AST (not into diag.File), calling
// visit on each; visit returns true to skip what is below it.
func walkAST(v reflect.Value, depth int, visit func(any) bool) {
	if depth > 4000 {
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return
		}
		if _, ok := v.Interface().(*diag.File); ok {
			return
		}
		if v.Kind() == reflect.Pointer && visit(v.Interface()) {
			return
		}
		walkAST(v.Elem(), depth+1, visit)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkAST(v.Field(i), depth+1, visit)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkAST(v.Index(i), depth+1, visit)
		}
	}
}
