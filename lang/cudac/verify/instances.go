package verify

import (
	"bytes"
	"strings"

	"weft.dev/weft/diag"
)

// extractInstances blanks out the explicit instantiations of a file
// ("template __global__ void k<float, 4>(float *);", C++ [temp.explicit]),
// keeping every other byte where it was so that positions hold, and
// returns the template arguments each names, by template: the search
// checks those instances (templateArgs) instead of its defaults (issue 16
// §3, Faial-style files).
func extractInstances(f *diag.File) (*diag.File, map[string][]string) {
	src := f.Src
	var out []byte
	inst := map[string][]string{}
	for i := 0; i+len("template") <= len(src); i++ {
		if !bytes.HasPrefix(src[i:], []byte("template")) || (i > 0 && isIdentByte(src[i-1])) {
			continue
		}
		j := i + len("template")
		if j < len(src) && isIdentByte(src[j]) {
			continue
		}
		if p := bytes.TrimRight(src[:i], " \t\r\n"); len(p) > 0 && bytes.ContainsAny(p[len(p)-1:], ".>:") {
			continue // x.template f<T>(), p->template, T::template: a disambiguator
		}
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
			j++
		}
		if j >= len(src) || src[j] == '<' {
			continue // a template declaration
		}
		end := bytes.IndexByte(src[j:], ';')
		if end < 0 || bytes.ContainsAny(src[j:j+end], "{}") {
			continue
		}
		end += j
		name, args, ok := instanceOf(string(src[j:end]))
		if !ok {
			continue
		}
		inst[name] = append(inst[name], args)
		if out == nil {
			out = append([]byte(nil), src...)
		}
		start := i
		if p := bytes.TrimRight(src[:i], " \t\r\n"); bytes.HasSuffix(p, []byte("extern")) && (len(p) == 6 || !isIdentByte(p[len(p)-7])) {
			start = len(p) - 6 // an explicit instantiation declaration
		}
		for k := start; k <= end; k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
		i = end
	}
	if out == nil {
		return f, nil
	}
	return diag.NewFile(f.Name, out), inst
}

// instanceOf finds "name<args>(" in the declaration of an explicit
// instantiation: the name and the text of its template arguments.
func instanceOf(decl string) (string, string, bool) {
	depth := 0
	for k := 0; k < len(decl); k++ {
		switch decl[k] {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth != 0 {
				continue
			}
			// the template arguments end just before the (
			head := strings.TrimRight(decl[:k], " \t\r\n")
			if !strings.HasSuffix(head, ">") {
				return "", "", false
			}
			d := 0
			for m := len(head) - 1; m >= 0; m-- {
				switch head[m] {
				case '>':
					d++
				case '<':
					d--
					if d == 0 {
						name := strings.TrimRight(head[:m], " \t\r\n")
						n := len(name)
						for n > 0 && isIdentByte(name[n-1]) {
							n--
						}
						if n == len(name) {
							return "", "", false
						}
						return name[n:], strings.TrimSpace(head[m+1 : len(head)-1]), true
					}
				}
			}
			return "", "", false
		}
	}
	return "", "", false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
