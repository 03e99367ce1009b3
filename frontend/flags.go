package frontend

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// The weft command's flag conventions, the same in every front end's
// driver (cmd/weft's help relies on them), implemented once here: flags may be written -flag or
// --flag, before or after the file; a bad flag is one line on stderr that
// points at `weft help VERB`, never the flag package's usage dump; and the
// help lists the flags the verb really declares, in one layout.

// ParseArgs parses the flags of fs placed before or after the positional
// arguments and returns the positional ones. ext names the front end in the
// error's pointer to its help (" .weft"). -h/--help prints the flags
// (WriteFlags) to fs's output; every error has been printed when it
// returns.
func ParseArgs(fs *flag.FlagSet, args []string, ext string) ([]string, error) {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer fs.SetOutput(out)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			verb := strings.TrimPrefix(fs.Name(), "weft ")
			if errors.Is(err, flag.ErrHelp) {
				WriteFlags(out, fs)
				return nil, err
			}
			fmt.Fprintf(out, "weft: %s: %s (weft help %s%s lists the flags)\n", verb, flagError(err), verb, ext)
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagError rewords the flag package's errors in the --flag spelling the
// help uses.
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag " + flagName(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "flag " + flagName(name) + " needs a value"
	}
	for _, sep := range []string{" for flag -", " for -"} {
		if v, rest, ok := strings.Cut(msg, sep); ok {
			name, why, _ := strings.Cut(rest, ": ")
			v = strings.Replace(v, "invalid boolean value", "invalid value", 1)
			if why == "parse error" || why == "" {
				return fmt.Sprintf("%s for %s", v, flagName(name))
			}
			return fmt.Sprintf("%s for %s: %s", v, flagName(name), why)
		}
	}
	return msg
}

// flagName spells a flag as the help does: -o for one letter, --name else.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// WriteFlags prints fs's flags in the layout of every `weft help` page:
// the flag and its value name in a 22-column field, then the usage text
// (with its default when that is not the zero value).
func WriteFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			// A boolean flag takes no value: a `quoted` part of its usage
			// is text (`Total walltime CPU: %0.6f ms`), not a value name.
			name = ""
		}
		// "`rr|random`: ..." names the value; the column shows it already.
		usage = strings.TrimPrefix(usage, name+": ")
		switch name {
		case "int", "uint", "int64", "uint64":
			name = "N"
		case "float", "float64":
			name = "X"
		case "string", "value":
			name = "VALUE"
		}
		left := "  " + flagName(f.Name)
		if name != "" {
			left += " " + name
		}
		if def := f.DefValue; def != "" && def != "0" && def != "false" && !strings.Contains(usage, "default") {
			usage += " (default " + def + ")"
		}
		lines := wrap(usage, 100-24)
		if len(left) >= 24 {
			fmt.Fprintln(w, left)
		} else {
			fmt.Fprintf(w, "%-24s%s\n", left, lines[0])
			lines = lines[1:]
		}
		for _, l := range lines {
			fmt.Fprintf(w, "%24s%s\n", "", l)
		}
	})
}

// wrap breaks s into lines of at most width bytes at spaces (a longer word
// gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}

// NonNegative checks that the integer flags named are not negative (a
// negative --workers, --max-steps or --blocks means nothing), printing a
// usage error and returning false for the first that is.
func NonNegative(env *Env, fs *flag.FlagSet, names ...string) bool {
	for _, name := range names {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if v := f.Value.String(); strings.HasPrefix(v, "-") {
			verb := strings.TrimPrefix(fs.Name(), "weft ")
			Usagef(env, "%s: --%s=%s: want a number >= 0 (weft help %s)", verb, name, v, verb)
			return false
		}
	}
	return true
}
