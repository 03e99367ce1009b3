package lib

import (
	"testing"

	"weft.dev/weft/diag"
)

// BenchmarkLoadAll loads every file of the embedded library, as Std's
// first call does (stop 44).
func BenchmarkLoadAll(b *testing.B) {
	files := make([]*diag.File, len(stdTexts))
	for i, sf := range stdTexts {
		files[i] = diag.NewFileString("lib/"+sf.name, sf.text)
	}
	for range b.N {
		if _, err := Load(files...); err != nil {
			b.Fatal(err)
		}
	}
}
