package driver

import (
	"flag"
	"io"

	"weft.dev/weft/frontend"
)

// helpExt names this front end in `weft help VERB EXT`.
const helpExt = " .adl"

// parseArgs and writeFlags follow the weft command's flag conventions
// (frontend.ParseArgs): -flag or --flag, before or after the file, one-line
// errors, help listing the flags the verb declares.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	return frontend.ParseArgs(fs, args, helpExt)
}

func writeFlags(w io.Writer, fs *flag.FlagSet) { frontend.WriteFlags(w, fs) }
