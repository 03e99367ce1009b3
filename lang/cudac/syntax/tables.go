package syntax

import "sync"

// The parser's and preprocessor's word tables are built on the first
// Parse, ParseUnit, Preprocess* or IsBuiltinHeader, not at package init:
// every weft process links this package, and most never read CUDA-C
// (issue 13, stop 44). loadTables builds them in their former
// initialization order (file name, then position in the file); no
// package-level variable's initializer reads them.
var tablesOnce sync.Once

func loadTables() { tablesOnce.Do(buildTables) }

func buildTables() {
	initChronoTemplates()
	initRatioNames()
	initCgModeled()
	initCubModeled()
	initCgKnown()
	initStreamClasses()
	initKnownHeaders()
	initTextureTypes()
	initKeywords()
	initBaseTypeWords()
	initQualWords()
	initContainerMemberTypes()
	initVectorMemberTypes()
	initAssignOps()
	initBinPrec()
	initCxxStmtWords()
	initTraitNames()
	initOverloadable()
	initPpPrec()
}
