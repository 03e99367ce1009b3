package sem

import "strings"

// <strings.h> (POSIX.1-2008): strcasecmp and strncasecmp, which NVIDIA's
// helper_string.h calls to parse command-line flags (issue 15 item 2).
// The comparison folds ASCII letters as the POSIX locale does.

func initLibStrings() {
	builtinSigs["strcasecmp"] = sig(tInt, hostSide, tCharP, tCharP)
	builtinSigs["strncasecmp"] = sig(tInt, hostSide, tCharP, tCharP, tULong)
	caseCmp := func(x, y string) uint64 {
		return uint64(int64(strings.Compare(strings.ToLower(x), strings.ToLower(y))))
	}
	defb("strcasecmp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x, y, good := m.cstrings(t, a[0], a[1], pos)
		if !good {
			return 0, stFault
		}
		return ok(caseCmp(x, y))
	})
	defb("strncasecmp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x, good := m.cstringN(t, a[0], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		y, good := m.cstringN(t, a[1], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		return ok(caseCmp(x, y))
	})
}
