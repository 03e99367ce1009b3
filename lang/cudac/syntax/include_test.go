package syntax_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Included files are read as the main file is (issue 14 items 4 and 5):
// under the input size limit, whose error names the flag that raises it
// and is positioned at the #include, and with CR-only or mixed line
// endings turned into lines, so positions and excerpts in them are right.

func includeDiags(t *testing.T, main string, files map[string]string, limit int64) []*diag.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var diags diag.List
	f := diag.NewFile(filepath.Join(dir, "main.cu"), []byte(main))
	toks := syntax.PreprocessConfig(f, &diags, syntax.Config{MaxInput: limit})
	if !diags.HasErrors() {
		syntax.Parse(toks, &diags)
	}
	diags.Sort()
	return diags.Diags
}

func TestIncludeSizeLimit(t *testing.T) {
	big := "int a;\n" + strings.Repeat("// padding\n", 100)
	ds := includeDiags(t, "#include \"big.h\"\nint main() { return 0; }\n", map[string]string{"big.h": big}, 200)
	if len(ds) != 1 || ds[0].Code != "C0110" {
		t.Fatalf("want one C0110, got %v", ds)
	}
	line, col := ds[0].Pos.File.LineCol(ds[0].Pos.Offset)
	if line != 1 || col != 10 || !strings.Contains(ds[0].Message, "larger than 200 bytes") || !strings.Contains(ds[0].Message, "--max-input") {
		t.Errorf("got %d:%d %s", line, col, ds[0].Message)
	}
	// within the limit, or no limit: accepted
	if ds := includeDiags(t, "#include \"big.h\"\n", map[string]string{"big.h": big}, -1); len(ds) != 0 {
		t.Errorf("unlimited: %v", ds)
	}
}

func TestIncludeLineEndings(t *testing.T) {
	for name, sep := range map[string][]string{
		"cr-only": {"\r", "\r", "\r"},
		"mixed":   {"\r\n", "\r", "\n"},
	} {
		t.Run(name, func(t *testing.T) {
			hdr := "int a;" + sep[0] + "int b;" + sep[1] + "int c = ;" + sep[2]
			ds := includeDiags(t, "#include \"h.h\"\n", map[string]string{"h.h": hdr}, 0)
			if len(ds) != 1 {
				t.Fatalf("want one error, got %v", ds)
			}
			line, col := ds[0].Pos.File.LineCol(ds[0].Pos.Offset)
			if line != 3 || col != 9 || ds[0].Code != "C0210" {
				t.Errorf("got %s at %d:%d %s, want C0210 at 3:9", ds[0].Code, line, col, ds[0].Message)
			}
		})
	}
}
