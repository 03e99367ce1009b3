package interp

import (
	"os"
	"testing"

	"weft.dev/weft/internal/testmain"
)

// TestMain: allocation sampling off (internal/testmain says why).
func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
