package lib

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"testing"
	"unsafe"

	"weft.dev/weft/diag"
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
	byName := map[string]string{}
	for _, sf := range stdTexts {
		byName["lib/"+sf.name] = sf.text
	}
	for _, sf := range l.Files {
		f := sf.Decls[0].Pos().File
		text, ok := byName[f.Name]
		if !ok {
			t.Fatalf("loaded file %s is not in stdTexts", f.Name)
		}
		if len(f.Src) == 0 || unsafe.SliceData(f.Src) != unsafe.StringData(text) || unsafe.StringData(f.Text()) != unsafe.StringData(text) {
			t.Errorf("%s: the text is a copy", f.Name)
		}
	}
}

// TestStdFilesKept: Library.Files keeps the files later phases read (procs,
// collective units) and lets the data-table files go (dataOnly): exactly
// memories.weft and timelines.weft of the standard library, whose tables
// still load.
func TestStdFilesKept(t *testing.T) {
	l := MustStd()
	var got []string
	for _, f := range l.Files {
		got = append(got, f.Name)
	}
	want := []string{"lib/externs.weft", "lib/units.weft"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Files = %v, want %v", got, want)
	}
	if len(l.Memories) == 0 || len(l.Quals) == 0 || len(l.Timelines) == 0 || len(l.Units) == 0 {
		t.Errorf("tables: %d memories, %d qualitative and %d sync timelines, %d units", len(l.Memories), len(l.Quals), len(l.Timelines), len(l.Units))
	}
}

// TestDataOnly: a file of data tables only is let go; a proc, a collective
// unit, an other global or a config keeps it.
func TestDataOnly(t *testing.T) {
	for _, c := range []struct {
		src  string
		kept bool
	}{
		{"q = QualTL(abbrev=\"q\")\ns = SyncTL(full=[q])\nr = s\n", false},
		{"m = DataMemory(base=[m], space=\"smem\")\n", false},
		{"", false},
		{"q = QualTL(abbrev=\"q\")\nu = CollUnit(domain=[1], box=[1])\n", true},
		{"q = QualTL(abbrev=\"q\")\ndef f():\n    pass\n", true},
		{"n = 3\n", true},
	} {
		f := diag.NewFile("t.weft", []byte(c.src))
		l, _ := Load(f)
		if kept := len(l.Files) == 1; kept != c.kept {
			t.Errorf("%q: kept %v, want %v", c.src, kept, c.kept)
		}
	}
}
