package lib

import (
	"embed"
	"io/fs"
	"sort"
	"testing"
	"unsafe"
)

// stdFiles is every library file of this directory, as a file system: the
// reference stdTexts is checked against, and the tests' source of texts.
//
//go:embed *.weft
var stdFiles embed.FS

// TestStdTextsComplete: stdTexts (what Std loads) is every *.weft file of
// the directory, sorted by name, each with its contents, so that a file
// added here is not left out of the library by a forgotten table row.
func TestStdTextsComplete(t *testing.T) {
	names, err := fs.Glob(stdFiles, "*.weft")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	if len(names) != len(stdTexts) {
		t.Fatalf("%d library files, %d in stdTexts", len(names), len(stdTexts))
	}
	for i, n := range names {
		src, err := stdFiles.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if stdTexts[i].name != n || stdTexts[i].text != string(src) {
			t.Errorf("stdTexts[%d] is %s (%d bytes), want %s (%d bytes)", i, stdTexts[i].name, len(stdTexts[i].text), n, len(src))
		}
	}
}

// TestStdFilesInPlace: the loaded library's files read the embedded strings
// in place (diag.NewFileString), no heap copy of the text.
func TestStdFilesInPlace(t *testing.T) {
	l := MustStd()
	if len(l.Files) != len(stdTexts) {
		t.Fatalf("%d files loaded, %d in stdTexts", len(l.Files), len(stdTexts))
	}
	for i, sf := range stdTexts {
		f := l.Files[i].Decls[0].Pos().File
		if f.Name != "lib/"+sf.name {
			t.Fatalf("file %d is %s, want lib/%s", i, f.Name, sf.name)
		}
		if len(f.Src) == 0 || unsafe.SliceData(f.Src) != unsafe.StringData(sf.text) || unsafe.StringData(f.Text()) != unsafe.StringData(sf.text) {
			t.Errorf("%s: the text is a copy", f.Name)
		}
	}
}
